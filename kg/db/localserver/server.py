"""Starts, stops and inspects the local Neo4j server that `kg db` manages.

The server is Neo4j's own `CommunityEntryPoint` run in a background JVM with a configuration this module
writes from the settings. A pid file records which process we started, so `stop` never touches a server
somebody else runs, and `start` is a no-op when ours is already up.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from neo4j.exceptions import AuthError
from pydantic import SecretStr

from kg.db import store
from kg.errors import ConfigurationError, ServerError
from kg.db.localserver import artifacts
from kg.db.localserver.java import LUCENE_SIMD_MAJORS, checked_java
from kg.settings import Settings

_MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
# Neo4j keeps 2 days of transaction logs by default, for the online backups of its Enterprise edition; recovery after
# a crash needs only those since the last checkpoint. Ingests and benchmarks write logs quickly, so two days of them
# can fill a disk.
_TX_LOG_RETENTION = "1G size"
# Outbound connections Cypher may open (LOAD CSV FROM 'http://...', procedures that fetch URLs): none. The graph never
# loads from the network, and a query must not reach the machine's other services or the cloud's metadata address.
IP_BLOCKLIST = "0.0.0.0/0,::/0"
# The password every install had before passwords were generated; a database that still has it gets the generated one.
_LEGACY_PASSWORD = "paperkg-local"
_ADMIN_CLASS = "org.neo4j.server.startup.Neo4jAdminBoot"
_DATA_DIR = "SHOW SETTINGS YIELD name, value WHERE name = 'server.directories.data' RETURN value"
_JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    # The C2 compiler's inlining budgets below Java's defaults (325, 2500, 15). A server started for an ingest spends
    # much of its CPU in the JIT compilers, on the cores the parser processes need, and C2 compiles again whatever it
    # inlines into a hot method: smaller budgets leave it less to compile, so the first ingest after a start gets
    # those cores back, and warm runs were not slower (the runs: bench/results/notes-2026-12.md).
    "-XX:FreqInlineSize=100",
    "-XX:InlineSmallCode=1000",
    "-XX:MaxInlineLevel=9",
]
# Without it, the HNSW insertion of chunk embeddings at commit runs on scalar dot products.
_SIMD_FLAGS = ["--add-modules=jdk.incubator.vector"]


def jvm_flags(java_major: int) -> list[str]:
    return [*_JVM_FLAGS, *(_SIMD_FLAGS if java_major in LUCENE_SIMD_MAJORS else [])]


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    home: Path
    version: str | None = None
    edition: str | None = None
    problem: str | None = None  # running but unusable (e.g. the password is rejected)


class LocalNeo4j:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.home = settings.neo4j_home
        self.conf_dir = self.home / "conf"
        self.data_dir = self.home / "data"
        self.logs_dir = self.home / "logs"
        self.pid_file = self.home / "run" / "paperkg-neo4j.pid"
        self.console_log = self.logs_dir / "console.log"

    # ----------------------------------------------------------------- artifacts
    def install(self) -> Path:
        s = self.settings
        return artifacts.install(s.cache_dir, s.neo4j_version, s.neo4j_browser_version,
                                 maven_settings=s.maven_settings)

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> tuple[ServerStatus, bool]:
        """Start the server unless ours already runs; returns its status and whether it was started now."""
        pid = self._our_pid()
        if pid is not None:
            return self.status(), False
        runtime = checked_java(self.settings.java_home)
        java = runtime.executable
        lib = self.install()
        self.check_ports_free()
        self._ensure_password()
        self._write_config()
        if not (self.data_dir / "databases" / "system").exists():
            self._set_initial_password(java, lib)
        self.console_log.parent.mkdir(parents=True, exist_ok=True)
        heap = self.settings.neo4j_heap
        cmd = [str(java), f"-Xms{heap}", f"-Xmx{heap}", *jvm_flags(runtime.major), "-cp", f"{lib}/*", _MAIN_CLASS,
               f"--home-dir={self.home}", f"--config-dir={self.conf_dir}"]
        with open(self.console_log, "ab") as console:
            proc = subprocess.Popen(cmd, stdout=console, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    cwd=self.home, start_new_session=True, env=self._java_env(java))
        self.pid_file.parent.mkdir(parents=True, exist_ok=True)
        self.pid_file.write_text(f"{proc.pid}\n")
        self._wait_until_ready(proc)
        return self.status(), True

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the server this module started; returns False when none of ours was running."""
        pid = self._our_pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
            while _alive(pid):
                time.sleep(0.1)
        self.pid_file.unlink(missing_ok=True)
        return True

    def admin(self, args: list[str], timeout_s: float | None = None) -> subprocess.CompletedProcess:
        """Run neo4j-admin with `args` on this server's home and configuration (database commands such as `import`
        need the server stopped); its output is returned, not printed."""
        java = checked_java(self.settings.java_home).executable
        lib = self.install()
        return subprocess.run([str(java), "-cp", f"{lib}/*", _ADMIN_CLASS, *args], capture_output=True, text=True,
                              env=self._java_env(java), cwd=self.home, timeout=timeout_s)

    def reset(self) -> None:
        """Stop the server and delete its databases and logs (the downloaded jars stay cached)."""
        self.stop()
        shutil.rmtree(self.home, ignore_errors=True)

    def status(self) -> ServerStatus:
        s = self.settings
        base = dict(bolt_uri=s.uri, browser_url=s.browser_url, home=self.home)
        pid = self._our_pid()
        if pid is None:
            return ServerStatus(running=False, pid=None, **base)
        try:
            driver = store.connect(s)
        except ConfigurationError as exc:
            return ServerStatus(running=True, pid=pid, problem=exc.message, **base)
        except Exception as exc:  # up but not answering yet, or dying
            return ServerStatus(running=True, pid=pid, problem=f"Bolt does not answer: {exc}", **base)
        with driver:
            info = store.server_info(driver)
        return ServerStatus(running=True, pid=pid, version=info.version, edition=info.edition, **base)

    def log_tail(self, lines: int = 50) -> str:
        chunks = []
        for path in (self.logs_dir / "neo4j.log", self.console_log):
            if path.exists():
                text = path.read_text(errors="replace").splitlines()[-lines:]
                chunks.append(f"==> {path} <==\n" + "\n".join(text))
        return "\n\n".join(chunks) if chunks else f"no logs yet under {self.logs_dir}"

    # ----------------------------------------------------------------- internals
    def _our_pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        if not _alive(pid):
            return None
        cmdline = Path(f"/proc/{pid}/cmdline")
        if cmdline.exists():
            args = cmdline.read_bytes().split(b"\0")
            if _MAIN_CLASS.encode() not in args or f"--home-dir={self.home}".encode() not in args:
                return None  # the pid was reused by another process
        return pid

    def check_ports_free(self) -> None:
        for name, port in (("Bolt", self.settings.bolt_port), ("HTTP", self.settings.http_port)):
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    raise ServerError(
                        f"port {port} ({name}) on 127.0.0.1 is already in use by another process",
                        hint=f"stop that process, or choose another port with PAPERKG_{name.upper()}_PORT",
                    ) from None

    def _ensure_password(self) -> None:
        """Generate and store a random password on first start unless one is configured. The file is created 0600
        in one step, so no other user can read it even for a moment."""
        if self.settings.neo4j_password is not None:
            return
        password = secrets.token_urlsafe(24)
        path = self.settings.neo4j_password_file
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(password + "\n")
        self.settings = self.settings.model_copy(update={"neo4j_password": SecretStr(password)})

    def _write_config(self) -> None:
        s = self.settings
        # Only the server's own user may read the database files, logs (they quote queries) and the admin tool's
        # argument file; folders left more open by an earlier version are closed too.
        for sub in ("conf", "data", "logs", "plugins", "import", "run"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
            (self.home / sub).chmod(0o700)
        self.home.chmod(0o700)
        lines = {
            "server.default_listen_address": "127.0.0.1",
            "server.bolt.listen_address": f"127.0.0.1:{s.bolt_port}",
            "server.bolt.advertised_address": f"localhost:{s.bolt_port}",
            "server.http.listen_address": f"127.0.0.1:{s.http_port}",
            "server.http.advertised_address": f"localhost:{s.http_port}",
            "server.https.enabled": "false",
            "server.directories.data": self.data_dir,
            "server.directories.logs": self.logs_dir,
            "server.directories.plugins": self.home / "plugins",
            "server.directories.import": self.home / "import",
            "server.directories.run": self.home / "run",
            "server.memory.heap.initial_size": s.neo4j_heap,
            "server.memory.heap.max_size": s.neo4j_heap,
            "server.memory.pagecache.size": s.neo4j_pagecache,
            "db.tx_log.rotation.retention_policy": _TX_LOG_RETENTION,
            "dbms.security.auth_enabled": "true",
            # the API's origin as a browser sees it: the one web origin Neo4j's HTTP server answers CORS for
            "dbms.security.http_access_control_allow_origin": s.api_served_url,
            # Browser applies paperkg's style sheet and opens its guide on connect, both fetched from the API, the one
            # host it may fetch remote content from
            "browser.post_connect_cmd": s.browser_post_connect_cmd,
            "browser.remote_content_hostname_whitelist": urlsplit(s.api_served_url).hostname,
            "internal.dbms.cypher_ip_blocklist": IP_BLOCKLIST,
            "db.memory.transaction.max": s.neo4j_tx_memory_max,
            "dbms.usage_report.enabled": "false",
        }
        text = "# Written by `kg db start` from the PAPERKG_* settings; edits are overwritten.\n"
        text += "".join(f"{key}={value}\n" for key, value in lines.items())
        (self.conf_dir / "neo4j.conf").write_text(text)

    def _java_env(self, java: Path) -> dict[str, str]:
        env = dict(os.environ)
        env.update(JAVA_HOME=str(java.resolve().parent.parent), NEO4J_HOME=str(self.home),
                   NEO4J_CONF=str(self.conf_dir))
        return env

    def _set_initial_password(self, java: Path, lib: Path) -> None:
        """The admin tool reads its arguments from a 0600 file (picocli's @file), so the password never appears on
        a command line, where every local user can read it in the process list."""
        args = self.home / "run" / "set-initial-password.args"
        fd = os.open(args, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            # "--" ends the options: a password may start with "-" (a generated one does, one time in 64)
            out.write(f"dbms\nset-initial-password\n--\n{self.settings.neo4j_password.get_secret_value()}\n")
        try:
            proc = subprocess.run([str(java), "-cp", f"{lib}/*", _ADMIN_CLASS, f"@{args}"], capture_output=True,
                                  text=True, env=self._java_env(java), timeout=120)
        finally:
            args.unlink(missing_ok=True)
        if proc.returncode != 0:
            raise ServerError("neo4j-admin could not set the initial password",
                              details=(proc.stdout + proc.stderr)[-2000:])

    def _replace_legacy_password(self) -> bool:
        """A database created before passwords were generated still has the published one: when the password in
        effect is the stored (generated) one, change the database's to it. False when that is not the case."""
        s = self.settings
        stored = s.neo4j_password_file.read_text().strip() if s.neo4j_password_file.is_file() else None
        if stored != s.neo4j_password.get_secret_value():
            return False
        try:
            driver = store.connect(s.model_copy(update={"neo4j_password": SecretStr(_LEGACY_PASSWORD)}))
        except ConfigurationError:
            return False
        with driver:
            driver.execute_query("ALTER CURRENT USER SET PASSWORD FROM $old TO $new", old=_LEGACY_PASSWORD,
                                 new=stored, database_="system", routing_="w")
        return True

    def _wait_until_ready(self, proc: subprocess.Popen) -> None:
        deadline = time.monotonic() + self.settings.start_timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                raise ServerError(
                    f"Neo4j exited during start-up (exit status {proc.returncode})",
                    hint=f"see the full logs under {self.logs_dir}",
                    details=self.log_tail(25),
                )
            try:
                driver = store.connect(self.settings)
            except ConfigurationError as exc:
                if isinstance(exc.__cause__, AuthError) and self._replace_legacy_password():
                    continue
                if isinstance(exc.__cause__, AuthError):
                    self.stop()
                    raise ConfigurationError(
                        f"the local database under {self.data_dir} was created with another password "
                        "than PAPERKG_NEO4J_PASSWORD",
                        hint="set PAPERKG_NEO4J_PASSWORD to the original one, or `kg db reset` to start over",
                    ) from exc
                raise
            except Exception:
                time.sleep(0.5)
                continue
            with driver:
                answering = driver.execute_query(_DATA_DIR, routing_="r").records[0]["value"]
            if Path(answering).resolve() != self.data_dir.resolve():
                # Another server took the port between our check and our JVM's bind: never adopt it.
                self.stop()
                raise ServerError(
                    f"another Neo4j (its data under {answering}) answers on Bolt port {self.settings.bolt_port}",
                    hint="stop that server, or choose other ports with PAPERKG_BOLT_PORT and PAPERKG_HTTP_PORT",
                )
            return
        self.stop()
        raise ServerError(f"Neo4j did not answer on Bolt within {self.settings.start_timeout_s:.0f} s",
                          details=self.log_tail(25))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (our own exited child not yet reaped) is not alive.
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().split(")")[-1].split()[0] != "Z"
        except OSError:
            return False
    return True

"""The API as users run it: `kg serve` in a process of its own on a free loopback port, against a given Neo4j,
with a generated API key of each role. A benchmark measures it from outside, over HTTP, so a crash of the
server is seen as one (no answer) and not hidden in the benchmark's own process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.neo4j import free_port
from kg.auth.apikeys import ROLES, entry, new_key
from kg.settings import Settings


def settings_env(settings: Settings, **extra: str) -> dict[str, str]:
    """This process's environment without the user's own PAPERKG_* settings, with those of `settings` that say
    where the graph and its files are: what a `kg` subprocess must see to work on the same graph."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERKG_")}
    env.update(PAPERKG_NEO4J_URI=settings.uri, PAPERKG_NEO4J_USER=settings.neo4j_user,
               PAPERKG_NEO4J_PASSWORD=settings.neo4j_password.get_secret_value(),
               PAPERKG_NEO4J_DATABASE=settings.neo4j_database, PAPERKG_DATA_DIR=str(settings.data_dir),
               PAPERKG_CACHE_DIR=str(settings.cache_dir), **extra)
    return env


@dataclass
class LiveAPI:
    url: str
    keys: dict[str, str]  # role -> key
    spool: Path  # the server's temporary folder (its upload spool lives there)
    log: Path

    def headers(self, role: str | None) -> dict[str, str]:
        return {"X-API-Key": self.keys[role]} if role else {}

    def health(self) -> int | None:
        """The status of GET /health, None when the server does not answer."""
        try:
            return httpx.get(f"{self.url}/health", timeout=30).status_code
        except httpx.HTTPError:
            return None


@contextmanager
def served_api(settings: Settings, workdir: Path, qa_processes: int = 1,
               start_timeout_s: float = 180) -> Iterator[LiveAPI]:
    """`kg serve` on a free loopback port until the block ends. Its working directory is `workdir`, so no `.env`
    of the user's applies, and its temporary folder is inside it, so leftover upload files can be counted."""
    keys = {role: new_key() for role in ROLES}
    port = free_port()
    spool = workdir / "tmp"
    spool.mkdir(parents=True, exist_ok=True)
    log = workdir / "api.log"
    env = settings_env(settings, PAPERKG_API_KEYS=",".join(entry(f"bench-{r}", r, k) for r, k in keys.items()),
                       PAPERKG_API_HOST="127.0.0.1", PAPERKG_API_PORT=str(port),
                       PAPERKG_QA_VECTORS=str(settings.qa_vectors).lower(), TMPDIR=str(spool))
    with open(log, "ab") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--qa-processes", str(qa_processes)],
                                env=env, cwd=workdir, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    api = LiveAPI(f"http://127.0.0.1:{port}", keys, spool, log)
    try:
        deadline = time.monotonic() + start_timeout_s
        while api.health() != 200:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"kg serve did not come up on {api.url}:\n{log.read_text()[-2000:]}")
            time.sleep(0.3)
        yield api
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen, timeout_s: float = 30) -> None:
    """SIGTERM to the server's process group (uvicorn and its question processes), SIGKILL if it lingers."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

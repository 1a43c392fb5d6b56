"""The local Neo4j that `kg db start` runs is usable by its owner only: a generated password that never shows on a
command line, closed folders, CORS for the API's origin only, no outbound connections for Cypher, a memory cap
per transaction."""

from __future__ import annotations

import http.server
import os
import stat
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, ClientError, Neo4jError

from kg.db.localserver import LocalNeo4j
from kg.settings import Settings
from tests.neo4j_harness import TEST_PASSWORD, discard_neo4j, free_port

LEGACY_PASSWORD = "paperkg-local"  # the password every install had before passwords were generated


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    """A user's environment without PAPERKG_NEO4J_PASSWORD, so `kg db start` has to make one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERKG_")}
    env.update(PAPERKG_DATA_DIR=str(data_dir), PAPERKG_BOLT_PORT=str(free_port()), PAPERKG_HTTP_PORT=str(free_port()),
               PAPERKG_NEO4J_HEAP="512m", PAPERKG_NEO4J_PAGECACHE="64m", COLUMNS="200", **extra)
    return env


def kg(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def _login(env: dict[str, str], password: str):
    driver = GraphDatabase.driver(f"bolt://127.0.0.1:{env['PAPERKG_BOLT_PORT']}", auth=("neo4j", password))
    driver.verify_connectivity()
    return driver


def _stored_password(data_dir: Path) -> str:
    path = data_dir / "neo4j-password"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    return path.read_text().strip()


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"a,b\n1,2\n")

    def log_message(self, *args):
        return None


def test_first_start_makes_a_server_only_its_owner_can_use(tmp_path):
    data = tmp_path / "data"
    env = _env(data, PAPERKG_NEO4J_TX_MEMORY_MAX="64m")
    started = kg(env, tmp_path, "db", "start")
    assert started.returncode == 0, started.stderr
    try:
        password = _stored_password(data)
        assert password != LEGACY_PASSWORD and len(password) >= 24
        assert password in kg(env, tmp_path, "config", "show", "--reveal").stdout
        assert password not in kg(env, tmp_path, "config", "show").stdout
        with pytest.raises(AuthError):
            _login(env, LEGACY_PASSWORD)

        for folder in ("data", "logs"):
            assert stat.S_IMODE((data / "neo4j" / folder).stat().st_mode) == 0o700, folder

        # A page on another origin gets no CORS grant from Neo4j's HTTP server (Neo4j's default answers "*").
        request = urllib.request.Request(f"http://127.0.0.1:{env['PAPERKG_HTTP_PORT']}/",
                                         headers={"Origin": "http://evil.example"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.headers["Access-Control-Allow-Origin"] == "http://127.0.0.1:8000"

        recorder = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
        threading.Thread(target=recorder.serve_forever, daemon=True).start()
        try:
            with _login(env, password) as driver, driver.session() as session:
                with pytest.raises(ClientError, match="blocked"):
                    session.run(f"LOAD CSV FROM 'http://127.0.0.1:{recorder.server_port}/x.csv' AS row "
                                "RETURN row").consume()
                # About 100 MB of list: under the server's shared pool, over this one transaction's 64 MB.
                with pytest.raises(Neo4jError, match="db.memory.transaction.max"):
                    session.run("UNWIND range(1, 3000000) AS i WITH collect(i) AS xs RETURN size(xs)").consume()
                assert session.run("RETURN 1 AS ok").single()["ok"] == 1
        finally:
            recorder.shutdown()
        assert _Recorder.hits == [], "Cypher reached a local service"
    finally:
        discard_neo4j(LocalNeo4j(Settings(data_dir=data)))


def test_a_database_on_the_old_published_password_gets_the_generated_one(tmp_path):
    data = tmp_path / "data"
    env = _env(data)
    old = kg(dict(env, PAPERKG_NEO4J_PASSWORD=LEGACY_PASSWORD), tmp_path, "db", "start")
    assert old.returncode == 0, old.stderr
    discard_neo4j(LocalNeo4j(Settings(data_dir=data)))  # killed, not stopped: how it ended is not the question

    upgraded = kg(env, tmp_path, "db", "start")
    try:
        assert upgraded.returncode == 0, upgraded.stderr
        with _login(env, _stored_password(data)) as driver:
            assert driver.execute_query("RETURN 1 AS ok").records[0]["ok"] == 1
        with pytest.raises(AuthError):
            _login(env, LEGACY_PASSWORD)
    finally:
        discard_neo4j(LocalNeo4j(Settings(data_dir=data)))


def test_the_password_never_appears_on_a_command_line(tmp_path):
    """A fake Java records every command line `kg db start` runs: the admin tool that sets the initial password
    gets it from a file of the owner's (picocli's @file), and that file is gone afterwards."""
    fake_home = tmp_path / "jdk"
    (fake_home / "bin").mkdir(parents=True)
    calls = tmp_path / "calls"
    java = fake_home / "bin" / "java"
    java.write_text(f'''#!/bin/sh
case "$*" in *-version*) echo 'openjdk version "17.0.8" 2025-07-15' >&2; exit 0;; esac
echo "$@" >> {calls}
for arg in "$@"; do case "$arg" in @*) stat -c '%a' "${{arg#@}}" >> {calls}; cat "${{arg#@}}" >> {calls};; esac; done
exit 1
''')
    java.chmod(0o755)
    data = tmp_path / "data"
    result = kg(_env(data, PAPERKG_JAVA_HOME=str(fake_home)), tmp_path, "db", "start")
    assert result.returncode == 1 and "could not set the initial password" in result.stderr
    password = _stored_password(data)
    recorded = calls.read_text().splitlines()
    command_lines = [line for line in recorded if "Neo4jAdminBoot" in line]
    assert len(command_lines) == 1 and password not in command_lines[0]
    assert recorded[1:] == ["600", "dbms", "set-initial-password", "--", password]
    assert list((data / "neo4j" / "run").iterdir()) == []


def test_a_password_that_starts_with_a_dash_is_set(neo4j_settings):
    """One generated password in 64 starts with '-', which the admin tool took for an option: the start failed.
    The harness's password is such a one, so every local server the tests start (the session's, and those of
    tests.neo4j_harness.local_settings) has had it set by the admin tool; here, the session's answers to it."""
    assert neo4j_settings.neo4j_password.get_secret_value() == TEST_PASSWORD and TEST_PASSWORD.startswith("-")
    with GraphDatabase.driver(neo4j_settings.uri, auth=("neo4j", TEST_PASSWORD)) as driver:
        driver.verify_connectivity()

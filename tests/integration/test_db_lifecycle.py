"""`kg db` as a user runs it: a real JVM, real ports, a real data directory."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from kg.errors import ServerError
from kg.db.localserver.server import LocalNeo4j
from tests.neo4j_harness import TEST_PASSWORD, free_port


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PAPERKG_DATA_DIR=str(data_dir),
        PAPERKG_BOLT_PORT=str(extra.pop("bolt", free_port())),
        PAPERKG_HTTP_PORT=str(extra.pop("http", free_port())),
        PAPERKG_NEO4J_PASSWORD=TEST_PASSWORD,
        PAPERKG_NEO4J_HEAP="512m",
        PAPERKG_NEO4J_PAGECACHE="64m",
        COLUMNS="200",
    )
    env.update(extra)
    return env


def kg(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], env=env, capture_output=True, text=True,
                          timeout=300)


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_start_twice_status_stop_restart_keeps_data(tmp_path):
    env = _env(tmp_path / "data")
    bolt = int(env["PAPERKG_BOLT_PORT"])
    stopped = kg(env, "db", "status")
    assert stopped.returncode == 3 and "stopped" in stopped.stdout

    first = kg(env, "db", "start")
    assert first.returncode == 0, first.stderr
    assert "Neo4j started" in first.stdout and "/browser/" in first.stdout
    try:
        second = kg(env, "db", "start")
        assert second.returncode == 0 and "already running" in second.stdout

        status = kg(env, "db", "status")
        assert status.returncode == 0, status.stdout
        assert "5.26." in status.stdout and "community" in status.stdout

        uri = f"bolt://127.0.0.1:{bolt}"
        with GraphDatabase.driver(uri, auth=("neo4j", TEST_PASSWORD)) as driver:
            driver.execute_query("CREATE (:Probe {name: 'kept'})")
            retention = driver.execute_query("SHOW SETTINGS YIELD name, value "
                                             "WHERE name = 'db.tx_log.rotation.retention_policy' RETURN value").records
        assert [r["value"] for r in retention] == ["1G size"], "not Neo4j's 2 days of transaction logs"

        assert kg(env, "db", "stop").returncode == 0
        assert kg(env, "db", "status").returncode == 3
        assert _port_free(bolt), "the Bolt port is still open after stop"
        assert "No local Neo4j of ours" in kg(env, "db", "stop").stdout

        assert kg(env, "db", "start").returncode == 0
        with GraphDatabase.driver(uri, auth=("neo4j", TEST_PASSWORD)) as driver:
            names = [r["name"] for r in driver.execute_query("MATCH (p:Probe) RETURN p.name AS name").records]
        assert names == ["kept"]
        assert "Started." in kg(env, "db", "logs", "-n", "200").stdout
    finally:
        kg(env, "db", "stop")

    wrong = kg(dict(env, PAPERKG_NEO4J_PASSWORD="not-the-password"), "db", "start")
    assert wrong.returncode == 1
    assert "another password" in wrong.stderr
    assert kg(env, "db", "status").returncode == 3, "a server refused for its password must not stay up"

    assert kg(env, "db", "reset", "--yes").returncode == 0
    assert not (tmp_path / "data" / "neo4j").exists()


def test_port_in_use_is_reported(tmp_path):
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        result = kg(_env(tmp_path, bolt=str(taken)), "db", "start")
    assert result.returncode == 1
    assert f"port {taken} (Bolt)" in result.stderr and "PAPERKG_BOLT_PORT" in result.stderr


def test_too_old_java_is_reported(tmp_path):
    fake_home = tmp_path / "jdk11"
    (fake_home / "bin").mkdir(parents=True)
    java = fake_home / "bin" / "java"
    java.write_text('#!/bin/sh\necho \'openjdk version "11.0.22" 2024-01-16\' >&2\n')
    java.chmod(0o755)
    result = kg(_env(tmp_path, PAPERKG_JAVA_HOME=str(fake_home)), "db", "start")
    assert result.returncode == 1
    assert "Java 11" in result.stderr and "17 or 21" in result.stderr


@pytest.mark.parametrize(("major", "simd"), [(17, False), (21, True)])
def test_the_vector_api_module_is_enabled_on_java_21_only(tmp_path, major, simd):
    """Lucene scores the vector index with SIMD only where the incubator module is readable, and Java 17 has the
    module but Lucene 9.11 does not use it there: the flag is given to the server where it helps."""
    fake_home = tmp_path / "jdk"
    (fake_home / "bin").mkdir(parents=True)
    calls = tmp_path / "calls"
    java = fake_home / "bin" / "java"
    java.write_text(f'''#!/bin/sh
case "$*" in *-version*) echo 'openjdk version "{major}.0.8" 2025-07-15' >&2; exit 0;; esac
echo "$@" >> {calls}
case "$*" in *Neo4jAdminBoot*) exit 0;; esac
exit 1
''')
    java.chmod(0o755)
    result = kg(_env(tmp_path / "data", PAPERKG_JAVA_HOME=str(fake_home)), "db", "start")
    assert result.returncode == 1 and "exited during start-up" in result.stderr
    server = [line for line in calls.read_text().splitlines() if "CommunityEntryPoint" in line]
    assert len(server) == 1
    assert ("--add-modules=jdk.incubator.vector" in server[0].split()) is simd


def test_missing_java_is_reported(tmp_path):
    result = kg(_env(tmp_path, PAPERKG_JAVA_HOME=str(tmp_path / "nowhere")), "db", "start")
    assert result.returncode == 1 and "no java executable" in result.stderr


def test_unreachable_maven_repository_is_reported(tmp_path):
    settings = tmp_path / "settings.xml"
    settings.write_text(
        f"<settings><localRepository>{tmp_path / 'm2'}</localRepository><mirrors><mirror><id>closed</id>"
        f"<mirrorOf>*</mirrorOf><url>http://127.0.0.1:{free_port()}/maven2</url></mirror></mirrors></settings>"
    )
    env = _env(tmp_path / "data", PAPERKG_MAVEN_SETTINGS=str(settings), PAPERKG_CACHE_DIR=str(tmp_path / "cache"))
    result = kg(env, "db", "install")
    assert result.returncode == 1
    assert "Maven could not fetch Neo4j" in result.stderr and "reachable" in result.stderr


def test_server_dying_at_start_shows_its_log(tmp_path):
    env = _env(tmp_path / "data")
    databases = tmp_path / "data" / "neo4j" / "data" / "databases"
    databases.parent.mkdir(parents=True)
    databases.write_text("a file where Neo4j needs its database folder")
    result = kg(env, "db", "start")
    assert result.returncode == 1
    assert "exited during start-up" in result.stderr
    assert "==>" in result.stderr, "the tail of the server log should be shown"
    assert kg(env, "db", "status").returncode == 3


def test_a_server_that_took_the_port_after_the_check_is_not_adopted(tmp_path, neo4j_settings, driver, monkeypatch):
    """Another Neo4j binds our Bolt port between the free-port check and our JVM's bind (two `kg db start`
    at once): start must fail and stop its own JVM, not report that server as ours."""
    ours = neo4j_settings.model_copy(update={"data_dir": tmp_path, "http_port": free_port(),
                                             "neo4j_heap": "512m", "neo4j_pagecache": "64m"})
    server = LocalNeo4j(ours)
    monkeypatch.setattr(server, "check_ports_free", lambda: None)  # the race: the port was free when checked
    with pytest.raises(ServerError, match="another Neo4j") as info:
        server.start()
    assert f"port {neo4j_settings.bolt_port}" in info.value.message
    assert not server.pid_file.exists()
    assert driver.execute_query("RETURN 1 AS ok").records[0]["ok"] == 1  # the other server is untouched

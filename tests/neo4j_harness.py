"""A real, empty Neo4j for a test session: testcontainers when a Docker engine answers, else the local server.

The local server is started by the same code as `kg db start`, on free ports and in a throw-away data
directory, so tests never touch a user's own database.
"""

from __future__ import annotations

import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pydantic import SecretStr

from bench.neo4j import free_port, kill_neo4j, throwaway_settings
from kg.db.localserver import LocalNeo4j
from kg.settings import Settings

# It starts with "-", as one generated password in 64 does, which the admin tool that sets it once took for an
# option: every test server is started through that path (tests/integration/test_db_security.py).
TEST_PASSWORD = "-paperkg-test-pw"


def docker_engine_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def local_settings(data_dir: Path, **overrides) -> Settings:
    return throwaway_settings(data_dir, **{"neo4j_password": SecretStr(TEST_PASSWORD), **overrides})


@contextmanager
def running_neo4j(data_dir: Path) -> Iterator[Settings]:
    if docker_engine_answers():
        from testcontainers.community.neo4j import Neo4jContainer

        container = Neo4jContainer("neo4j:5.26-community", password=TEST_PASSWORD).with_exposed_ports(7474)
        with container:
            # Bolt and HTTP as mapped on the host, so Browser tests reach the container too.
            bolt, http = (int(container.get_exposed_port(port)) for port in (7687, 7474))
            yield Settings(neo4j_uri=f"bolt://{container.get_container_host_ip()}:{bolt}", bolt_port=bolt,
                           http_port=http, neo4j_password=SecretStr(TEST_PASSWORD), data_dir=data_dir)
        return
    with throwaway_neo4j(local_settings(data_dir)) as server:
        yield server.settings


@contextmanager
def throwaway_neo4j(settings: Settings, server_type: type[LocalNeo4j] = LocalNeo4j) -> Iterator[LocalNeo4j]:
    """A local server started as `kg db start` starts it, in a folder nobody reads afterwards: killed at the end
    (discard_neo4j), not stopped. For tests whose question is not how the server stops."""
    server = server_type(settings)
    server.start()
    try:
        yield server
    finally:
        discard_neo4j(server)


def discard_neo4j(server: LocalNeo4j) -> None:
    """Kill the server if it runs. A clean stop checkpoints and then waits out Bolt's shutdown, 6-11 s a server
    here (two 5 s waits of its thread pools), which tells a test nothing when its folder is thrown away."""
    if server.status().running:
        kill_neo4j(server)

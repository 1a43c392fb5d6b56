"""Throw-away Neo4j servers for tests and benchmarks: started by the same code as `kg db start` on free loopback
ports in a folder of the caller's, and killed as the kernel's OOM killer or a power cut would end one (SIGKILL:
no shutdown, no checkpoint) to be started again, recovering from its logs. The test harness, the fault-injection
tests and `kg bench robustness` all take them from here."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import SecretStr

from kg.db.localserver import LocalNeo4j
from kg.settings import Settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def throwaway_settings(data_dir: Path, **overrides) -> Settings:
    """Settings of a server nobody else uses: free ports, a random password, a small heap (it holds a few papers),
    and its URI spelt out so that a PAPERKG_NEO4J_URI of the user's own never points elsewhere."""
    bolt = free_port()
    values = dict(data_dir=data_dir, bolt_port=bolt, http_port=free_port(), neo4j_uri=f"bolt://127.0.0.1:{bolt}",
                  neo4j_password=SecretStr(secrets.token_urlsafe(24)), neo4j_heap="512m", neo4j_pagecache="128m")
    values.update(overrides)
    return Settings(**values)


@contextmanager
def own_neo4j(settings: Settings) -> Iterator[LocalNeo4j]:
    """A local server of the caller's own (never a shared one, which others use), stopped at the end."""
    server = LocalNeo4j(settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def kill_neo4j(server: LocalNeo4j, timeout_s: float = 30.0) -> int:
    """SIGKILL the server's JVM and wait until it is gone; returns its pid."""
    pid = int(server.pid_file.read_text())
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + timeout_s
    while _running(pid):
        if time.monotonic() > deadline:
            raise TimeoutError(f"Neo4j (pid {pid}) still runs {timeout_s:.0f} s after SIGKILL")
        time.sleep(0.05)
    return pid


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed child of this process stays one until it is reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"

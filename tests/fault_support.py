"""Fault injection against a real Neo4j: a server of the caller's own that can be killed as the kernel's OOM killer
or a power cut would end it (SIGKILL: no shutdown, no checkpoint) and started again, recovering from its logs.
Shared by the fault-injection tests and reusable by a robustness report."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kg.localserver import LocalNeo4j
from tests.neo4j_harness import local_settings


@contextmanager
def own_neo4j(data_dir: Path) -> Iterator[LocalNeo4j]:
    """A local server of the caller's own (never the test session's, which other tests share), stopped at the end."""
    server = LocalNeo4j(local_settings(data_dir))
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

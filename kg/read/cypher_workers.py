"""Where the API runs a client's read-only Cypher: in worker processes of the sandbox (kg.workers.sandbox), each with
its own driver, an address-space limit and a wall-clock limit.

kg.read.cypher_guard bounds a result in bytes, but only record by record, and the driver reads and decodes a whole
record before anything can measure it: `RETURN range(1, 1000000000)` is one record, built lazily by Neo4j (so
its transaction memory limit never sees it) and streamed over Bolt, and reading it would take the process
that asked many gigabytes. A value nested thousands of levels deep makes the server fail to send it and leaves
the connection silent until a read timeout minutes later. In a worker such a query costs the worker: the
kernel stops its allocations at the limit and the pool kills it at its time, the caller gets a 4xx, and the
API, its other requests and the other workers go on. What crosses the process boundary is the query and its
parameters one way, and the rows (already bounded in bytes) or the error the other.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import Future, wait
from multiprocessing.util import Finalize
from typing import Any

from kg.db import store
from kg.db.graph import Graph
from kg.errors import BusyError, QueryTimeoutError, ResultTooLargeError
from kg.read.queries import run_read_only
from kg.workers.sandbox import Overrun, Sandbox, SandboxLimits
from kg.settings import Settings

# Added to the query's own timeout for the worker's wall-clock limit, so that a query slow on the server is
# stopped by Neo4j (which keeps the worker and its connection) and the kill is left to a result slow to read.
GRACE_S = 2.0

_worker: dict[str, Any] = {}


class CypherWorkers:
    """`settings.cypher_processes` sandboxed processes running run_read_only; more queries wait for one."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.limits = SandboxLimits(timeout_s=settings.cypher_timeout_s + GRACE_S,
                                    memory_mb=settings.cypher_memory_mb)
        # forked, not spawned: a fork starts at once and shares the API's loaded modules, where a spawned worker
        # would import them again (pymupdf among them, through the settings) each time a query got it killed.
        # The child opens its own driver and never touches the parent's or its locks.
        self.sandbox = Sandbox(settings.cypher_processes, self.limits, _init_worker, (settings,))
        self.sandbox.submit(_ready)  # starts the workers now, so that the first query does not wait for them

    def run(self, cypher: str, parameters: dict[str, Any] | None) -> dict[str, Any]:
        """run_read_only's answer, or its error; QueryTimeoutError or ResultTooLargeError when the worker was
        stopped at its time or memory, BusyError when no worker was free within that time. A query is never run
        twice, not even when its worker died."""
        future = self.sandbox.submit(_run, cypher, parameters)
        if not _started(future, self.limits.timeout_s):
            future.cancel()
            raise BusyError(f"all {self.settings.cypher_processes} /cypher processes stayed busy for "
                            f"{self.limits.timeout_s:g} s", hint="retry in a few seconds; PAPERKG_CYPHER_PROCESSES "
                            "sets how many queries run at once")
        try:
            return self.sandbox.wait(future)
        except Overrun as over:
            raise self._refusal(over) from None

    def _refusal(self, over: Overrun) -> Exception:
        if over.limit == "time":
            return QueryTimeoutError(f"the query and the reading of its result took longer than "
                                     f"{self.limits.timeout_s:g} s",
                                     hint="add LIMIT or a more selective MATCH; return smaller, flatter values")
        if over.limit == "memory":
            return ResultTooLargeError(f"reading the result took more than the {self.limits.memory_mb:,} MB of "
                                       "memory a query may use", hint="return less: a LIMIT, size(...) or a slice "
                                       "[..n]; PAPERKG_CYPHER_MEMORY_MB sets the limit")
        # an allocation refused in native code ends the process: at the memory limit, most likely
        return ResultTooLargeError(f"the process reading the result ended ({over.describe()}), most likely "
                                   f"at the {self.limits.memory_mb:,} MB of memory a query may use",
                                   hint="return less: a LIMIT, size(...) or a slice [..n]; the query was not run "
                                   "again")

    def close(self) -> None:
        self.sandbox.stop()


def _started(future: Future, within_s: float) -> bool:
    """Whether the task of `future` got a worker within `within_s`: a query waits for one no longer than it may
    run, so that a burst of slow queries cannot make every later caller wait for the whole backlog."""
    deadline = time.monotonic() + within_s
    while not (future.running() or future.done()):
        if time.monotonic() >= deadline:
            return False
        wait([future], timeout=0.05)  # returns at once when the task ends; one that only started is seen next turn
    return True


def _init_worker(settings: Settings) -> None:
    # A panic of the driver's decoder (below) would otherwise capture a backtrace: allocations, at the memory limit
    os.environ["RUST_BACKTRACE"] = "0"
    _worker["settings"] = settings
    _connect()


def _connect() -> None:
    driver = store.connect_api(_worker["settings"])
    _worker["graph"] = Graph(driver, _worker["settings"].neo4j_database)
    _worker["close"] = Finalize(driver, driver.close, exitpriority=10)  # at exit, or when called


def _ready() -> bool:
    return True


def _run(cypher: str, parameters: dict[str, Any] | None) -> dict[str, Any]:
    settings = _worker["settings"]
    try:
        return run_read_only(_worker["graph"], cypher, parameters, timeout_s=settings.cypher_timeout_s,
                             row_limit=settings.cypher_row_limit, max_bytes=settings.cypher_max_bytes,
                             max_overdue=settings.cypher_processes)
    except BaseException as exc:
        # besides a MemoryError, the limit can show as a panic of neo4j-rust-ext's decoder when CPython refuses
        # it an object: pyo3's PanicException, a BaseException that cannot even be pickled back to the API
        if not isinstance(exc, MemoryError) and type(exc).__name__ != "PanicException":
            raise
        _reconnect()
        raise MemoryError("reading the result ran out of memory") from None


def _reconnect() -> None:
    """A new driver for the next query: the limit stopped a read halfway, and the connection may still hold the
    rest of a record."""
    _worker["close"]()
    _connect()

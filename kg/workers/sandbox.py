"""Worker processes for work on untrusted PDFs, each task with a wall-clock timeout and each process with an
address-space limit (RLIMIT_AS) on what it may add to its size once its libraries are loaded.

MuPDF is C: a crafted file can make it loop, allocate without end or crash, and no Python code can stop it from
inside the same process. In a worker the kernel enforces the memory limit and the pool (pebble) kills a worker
whose task overruns and starts a new one, so such a file costs its own paper, never the API or the ingest run.
A worker that dies while its task runs is retried once (it may have been killed for another reason, e.g. by
the OOM killer); dying twice, the file is taken as the cause.

Workers also run at a lower CPU priority (a higher niceness) than the process that starts them: parsing is
background work, and an upload or a re-ingest should take the cores only when questions and lookups leave them.
The API's ingestion process (kg.ingest.jobs) lowers its own priority the same way.

The API's read-only Cypher runs in such workers too (kg/read/cypher_workers.py): there the untrusted input is a
query whose result the driver must read whole before anything can measure it.
"""

from __future__ import annotations

import os
import resource
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal

from pebble import ProcessExpired, ProcessPool

from extractors.errors import ExtractionError, ParseLimitError
from kg.errors import ParserCrashError
from kg.settings import Settings

WORKER_DIED = "its parser process died twice on it (a crash inside a native library, or killed)"
_POLL_S = 1.0  # how often a wait looks whether its task's pool broke under it


@dataclass(frozen=True)
class SandboxLimits:
    timeout_s: float
    memory_mb: int
    nice: int = 0  # added to the niceness of the process that starts the workers

    @classmethod
    def of(cls, settings: Settings) -> SandboxLimits:
        return cls(timeout_s=settings.parse_timeout_s, memory_mb=settings.parse_memory_mb, nice=settings.parse_nice)


@dataclass(frozen=True)
class _OutOfMemory:
    """A MemoryError in a worker, returned rather than raised: it then crosses the process boundary as it is."""


@dataclass(frozen=True)
class _OverTime:
    """A task that finished, but after its time limit: pebble looks at running tasks' clocks only every tenth of a
    second, so a task that ends within that tick of its limit would otherwise pass. The bound is the same for every
    task, however close to it the task ends."""


def _address_space() -> int:
    """This process's virtual size in bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def lower_priority(nice: int) -> None:
    """This process's niceness raised by `nice` (at most to 19). Called first thing in a new process, before it
    starts threads: on Linux a thread's niceness is its own, and threads inherit it from the one that starts them."""
    os.nice(nice)


def _start_worker(memory_mb: int, nice: int, initializer: Callable | None, initargs: tuple) -> None:
    """The limit is what the worker may add to its address space once its libraries are loaded: a fixed total
    would be wrong for every parent, whose size (the API's, kg ingest's, with or without torch loaded) the child
    shares, and libraries reserve address space of their own when loaded (thinc's BLIS reserves gigabytes), which
    the untrusted PDFs the limit is for do not decide. So the initializer runs first."""
    lower_priority(nice)
    if initializer:
        initializer(*initargs)
    limit = _address_space() + memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class Overrun(Exception):
    """A task the sandbox stopped: it ran over its time or its memory, or its process died (`exitcode`)."""

    def __init__(self, limit: Literal["time", "memory", "died"], exitcode: int | None = None):
        super().__init__(limit)
        self.limit, self.exitcode = limit, exitcode

    def describe(self) -> str:
        """How the process ended, as far as known (a worker that died before its task has no exit code here)."""
        return "exit code unknown" if self.exitcode is None else f"exit code {self.exitcode}"


def _guarded(timeout_s: float, fn: Callable, *args) -> Any:
    started = time.monotonic()
    try:
        value = fn(*args)
    except MemoryError:
        return _OutOfMemory()
    return _OverTime() if time.monotonic() - started > timeout_s else value


class Sandbox:
    """A pool of `workers` limited processes; `initializer(*initargs)` runs in each before its limit is set."""

    def __init__(self, workers: int, limits: SandboxLimits, initializer: Callable | None = None,
                 initargs: tuple = ()):
        self.limits = limits
        self._new_pool = lambda: ProcessPool(max_workers=workers, initializer=_start_worker,
                                             initargs=(limits.memory_mb, limits.nice, initializer, initargs))
        self.pool = self._new_pool()
        self._pool_of: weakref.WeakKeyDictionary[Future, ProcessPool] = weakref.WeakKeyDictionary()

    def submit(self, fn: Callable, *args) -> Future:
        """Schedule fn(*args); a pool that broke (below) is replaced first. Pebble refuses the task (RuntimeError)
        when the pool breaks between that check and the hand-over, so a refusal by a broken pool is tried again."""
        try:
            return self._schedule(fn, args)
        except RuntimeError:
            if self.pool.active:
                raise
            return self._schedule(fn, args)

    def _schedule(self, fn: Callable, args: tuple) -> Future:
        if not self.pool.active:
            self.pool.stop()
            self.pool = self._new_pool()
        future = self.pool.schedule(_guarded, args=(self.limits.timeout_s, fn, *args),
                                    timeout=self.limits.timeout_s)
        self._pool_of[future] = self.pool
        return future

    def wait(self, future: Future) -> Any:
        """What the task of `future` returned (or raised); Overrun when the sandbox stopped it."""
        try:
            value = self._outcome(future)
        except TimeoutError:
            raise Overrun("time") from None
        except ProcessExpired as exc:
            raise Overrun("died", exc.exitcode) from None
        except BrokenProcessPool:  # a worker died before its task reached it (e.g. killed while loading): pebble
            raise Overrun("died") from None  # then fails every task of the pool, which submit() replaces
        if isinstance(value, _OutOfMemory):
            raise Overrun("memory")
        if isinstance(value, _OverTime):
            raise Overrun("time")
        return value

    def _outcome(self, future: Future) -> Any:
        """future.result(), but never a wait on a pool that broke. When its workers die, pebble fails the tasks
        it holds and its threads end; a task handed over in that same instant is held by nobody and would stay
        pending for ever, so a pending task whose pool is no longer active counts as one whose worker died."""
        pool = self._pool_of.get(future)
        while True:
            try:
                return future.result(timeout=_POLL_S)
            except TimeoutError:
                if future.done():  # the task's own time limit, as pebble reports it
                    raise
            if pool is not None and not pool.active and not future.done():
                raise BrokenProcessPool("the pool broke while this task waited")

    def result(self, future: Future, fn: Callable, args: tuple, name: str) -> Any:
        """What fn(*args) returned; a ParseLimitError naming `name` when its process ran over a limit, a
        ParserCrashError when it died twice."""
        retried = False
        while True:
            try:
                return self.wait(future)
            except Overrun as over:
                if over.limit == "died" and not retried:
                    retried, future = True, self.submit(fn, *args)
                    continue
                raise self._parse_error(over, name) from None

    def _parse_error(self, over: Overrun, name: str) -> ExtractionError:
        if over.limit == "time":
            return ParseLimitError(f"{name} took longer than the {self.limits.timeout_s:g} s the parser is given",
                                   hint="raise PAPERKG_PARSE_TIMEOUT_S if this file is trusted")
        if over.limit == "memory":
            return ParseLimitError(f"{name} needed more than the {self.limits.memory_mb:,} MB of memory the parser "
                                   "is given", hint="raise PAPERKG_PARSE_MEMORY_MB if this file is trusted")
        return ParserCrashError(WORKER_DIED, details=over.describe())

    def close(self) -> None:
        self.pool.close()
        self.pool.join()

    def stop(self) -> None:
        """End now: workers still running are killed (a run that stopped has nothing more to wait for)."""
        self.pool.stop()
        self.pool.join()


def run_alone(limits: SandboxLimits, name: str, fn: Callable, *args) -> Any:
    """fn(*args) in a limited process of its own (one file: `kg parse`)."""
    sandbox = Sandbox(1, limits)
    try:
        return sandbox.result(sandbox.submit(fn, *args), fn, args, name)
    finally:
        sandbox.stop()

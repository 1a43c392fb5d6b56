"""Worker processes that a server keeps for work it must not do in its own process (ingesting an upload,
answering questions), replaced when one of them dies.

The processes are spawned, not forked: the server has threads, and a fork copies their locks in whatever state
they are. A worker killed by the kernel (out of memory) or by hand breaks Python's whole pool, so the pool is
replaced by a new one; the caller decides whether the work that saw it die is retried or failed."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


class WorkerDied(Exception):
    """A worker process died while it ran the call; the pool has been replaced already."""


class RespawningPool:
    """`processes` spawned workers, each set up by `initializer(*initargs)` when it starts (lazily, on the first
    call, unless `warm` is awaited)."""

    def __init__(self, processes: int, initializer: Callable[..., None], initargs: tuple = ()):
        self.processes, self._initializer, self._initargs = processes, initializer, initargs
        self._lock = threading.Lock()
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=self._initializer, initargs=self._initargs)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A new pool for the broken one, once: of several calls that saw the same pool die, the first replaces
        it and the others find the new one in place."""
        with self._lock:
            if self._pool is broken:
                broken.shutdown(wait=False, cancel_futures=True)
                self._pool = self._start()

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in a worker, waiting for it; WorkerDied when the worker died meanwhile."""
        pool = self._pool
        try:
            return pool.submit(fn, *args).result()
        except BrokenProcessPool:
            self._replace(pool)
            raise WorkerDied from None

    async def call_async(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) in a worker, awaited; WorkerDied when the worker died meanwhile."""
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            self._replace(pool)
            raise WorkerDied from None

    async def warm(self) -> None:
        """Start every worker now, so that the first calls do not wait for their set-up."""
        await asyncio.gather(*(self.call_async(_ready) for _ in range(self.processes)))

    def pids(self) -> list[int]:
        """The process ids of the workers running now (none before the first call)."""
        return list(self._pool._processes or {})

    def close(self, wait: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


def _ready() -> bool:
    return True

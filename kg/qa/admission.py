"""Admission of questions: at most `concurrency` answered at once, at most `queue` more waiting, each one
answered within `timeout_s` (waiting included) or refused with BusyError.

Without it every question a client sends starts work at once: a burst of questions fills the question processes'
queue (or the thread pool) without bound, and a caller waits for as long as the backlog takes. A question that
overruns its time is refused to its caller, but its slot stays taken until its work has really finished (a
thread or a question process cannot be stopped halfway), so overruns cannot add up to more work at once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from kg.errors import BusyError

T = TypeVar("T")


class Admission:
    def __init__(self, concurrency: int, queue: int, timeout_s: float):
        self.concurrency, self.queue, self.timeout_s = concurrency, queue, timeout_s
        self._slots = asyncio.Semaphore(concurrency)
        self._waiting = 0

    async def run(self, work: Callable[[], Awaitable[T]]) -> T:
        """The result of `work()`, started once a slot is free; BusyError if the queue is full or time runs out."""
        if self._slots.locked() and self._waiting >= self.queue:
            raise BusyError(f"{self.concurrency} questions are being answered and {self._waiting} are waiting",
                            hint="retry in a few seconds; PAPERKG_ASK_CONCURRENCY and PAPERKG_ASK_QUEUE set the bounds")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        self._waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), self.timeout_s)
        except TimeoutError:
            raise self._late() from None
        finally:
            self._waiting -= 1
        task = asyncio.ensure_future(work())
        task.add_done_callback(self._release)
        try:
            return await asyncio.wait_for(asyncio.shield(task), max(0.0, deadline - loop.time()))
        except TimeoutError:
            raise self._late() from None

    def _release(self, task: asyncio.Future) -> None:
        self._slots.release()
        if not task.cancelled():
            task.exception()  # retrieved, so that a late failure nobody waits for is not reported as lost

    def _late(self) -> BusyError:
        return BusyError(f"the question was not answered within {self.timeout_s:g} s",
                         hint="the server is busy: retry later; PAPERKG_ASK_TIMEOUT_S sets the time")

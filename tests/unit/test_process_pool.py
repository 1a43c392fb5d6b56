"""The worker pool that the ingestion process and the question workers share: a worker that dies fails the call it
ran with WorkerDied, and the next call runs in a new worker set up by the initializer."""

from __future__ import annotations

import asyncio
import os

import pytest

from kg.workers.process_pool import RespawningPool, WorkerDied

_state: dict[str, str] = {}


def _remember(tag: str) -> None:
    _state["tag"] = tag


def _tag_and_pid() -> tuple[str, int]:
    return _state.get("tag", "no initializer ran"), os.getpid()


def _die() -> None:
    os._exit(9)


@pytest.fixture
def pool():
    workers = RespawningPool(1, _remember, ("set up",))
    yield workers
    workers.close(wait=True)


def test_a_call_runs_in_a_worker_set_up_by_the_initializer(pool):
    tag, pid = pool.call(_tag_and_pid)
    assert tag == "set up" and pid != os.getpid()
    assert pool.pids() == [pid]


def test_a_dead_worker_fails_its_call_and_the_next_call_gets_a_new_one(pool):
    _, first = pool.call(_tag_and_pid)
    with pytest.raises(WorkerDied):
        pool.call(_die)
    tag, second = pool.call(_tag_and_pid)
    assert tag == "set up" and second != first


def test_the_same_holds_for_awaited_calls(pool):
    async def scenario():
        await pool.warm()
        [first] = pool.pids()
        with pytest.raises(WorkerDied):
            await pool.call_async(_die)
        return first, await pool.call_async(_tag_and_pid)

    first, (tag, second) = asyncio.run(scenario())
    assert tag == "set up" and second != first

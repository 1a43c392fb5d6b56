"""The writer pauses Python's cycle collector while a paper is written. The switch is process-wide, so pauses that
overlap (nested, or in two threads) must leave it as the first one found it, and only after the last one ends."""

import gc
import threading

import pytest

from kg.ingest.tuned_writer import _CollectorPause


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.enable() if was else gc.disable()


def test_overlapping_pauses_restore_the_collector_after_the_last_one(collector_on):
    pause = _CollectorPause()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def second():
        first_in.wait()
        with pause:
            second_in.set()
            first_out.wait()
            seen["after the first left"] = gc.isenabled()

    worker = threading.Thread(target=second)
    worker.start()
    with pause:
        first_in.set()
        second_in.wait()
        assert not gc.isenabled()
    first_out.set()
    worker.join()
    assert seen == {"after the first left": False} and gc.isenabled()


def test_a_collector_switched_off_before_stays_off(collector_on):
    gc.disable()
    with _CollectorPause():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_an_error_inside_still_restores_the_collector(collector_on):
    with pytest.raises(RuntimeError), _CollectorPause():
        raise RuntimeError("the write failed")
    assert gc.isenabled()

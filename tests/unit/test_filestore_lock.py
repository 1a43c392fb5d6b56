"""The PDF store's lock excludes other processes, and a process forked while it was held does not keep it."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

from kg.db.filestore import PDFStore

_FORK = multiprocessing.get_context("fork")


def _sleep_for_ever() -> None:
    time.sleep(600)


def _put_then_mark(root, source, marker) -> None:
    PDFStore(root).put(source, "ab" * 32)
    open(marker, "w").close()


def test_a_child_forked_while_the_store_was_locked_does_not_hold_the_lock(tmp_path):
    store = PDFStore(tmp_path)
    source = tmp_path / "a.pdf"
    source.write_bytes(b"%PDF-1.4 test")
    with store._locked():
        child = _FORK.Process(target=_sleep_for_ever)  # as a parser worker started mid-write would be
        child.start()
    try:
        putter = threading.Thread(target=store.put, args=(source, "cd" * 32), daemon=True)
        putter.start()
        putter.join(timeout=20)
        assert not putter.is_alive(), "the store stayed locked by a process forked while it was held"
        assert store.path("cd" * 32).read_bytes() == source.read_bytes()
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.join()


def test_another_process_waits_for_the_lock(tmp_path):
    store = PDFStore(tmp_path)
    source, marker = tmp_path / "a.pdf", tmp_path / "stored"
    source.write_bytes(b"%PDF-1.4 test")
    with store._locked():
        other = _FORK.Process(target=_put_then_mark, args=(tmp_path, source, marker))
        other.start()
        time.sleep(1.5)  # ample time for an unlocked store to copy 13 bytes
        assert not marker.exists()
    other.join(timeout=20)
    assert other.exitcode == 0 and marker.exists() and store.path("ab" * 32).exists()


def test_threads_of_one_process_take_the_lock_in_turn(tmp_path):
    store = PDFStore(tmp_path)
    inside, overlaps = [], []

    def hold():
        with store._locked():
            inside.append(1)
            overlaps.append(len(inside) > 1)
            time.sleep(0.05)
            inside.pop()

    threads = [threading.Thread(target=hold) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert overlaps == [False] * 8

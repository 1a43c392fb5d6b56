"""The tuned writer: the ingest's default, faster than the reference writer (kg.ingest.writer) and bound to make the
same graph (tests/integration/test_writers.py). It has three tricks the reference writer goes without:

- two papers at once, one transaction each, in the order submitted: while a paper commits (the server's
  single-threaded part of a write, half its time), the next one writes ahead the nodes and edges that belong to
  it alone; everything that reads the graph beyond the paper itself waits for the paper before it;
- what a paper's subgraph lacks is CREATEd, not MERGEd, and its entities are resolved through the writer's
  EntityCatalog instead of reading all of the graph's (kg.ingest.papers.PaperTransaction.replace);
- Python's cycle collector is paused while a paper is written (_CollectorPause).

A paper's transaction is tried with every trick first; each fallback (_Attempt) gives one up.
"""

from __future__ import annotations

import gc
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from neo4j import ManagedTransaction, Session
from neo4j.exceptions import ConstraintError

from kg.db.graph import Graph
from kg.ingest.entities import EntityCatalog
from kg.ingest.papers import (PaperTransaction, PaperWrite, WriteObserver, lock_paper, paper_exists, paper_written,
                              read_subgraph)
from kg.ingest.reconcile import Existing
from kg.ingest.runs import Run
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

# How long a paper that wrote ahead waits for the paper before it. It then holds the uniqueness locks of its new
# nodes' ids, which only a transaction writing the same file wants (another process's ingest, say); if that one
# waits for it while the paper before it waits for that one, no lock manager sees the cycle: the bound breaks it.
WRITE_AHEAD_WAIT_SECONDS = 10.0


class _WaitedTooLong(Exception):
    """The paper that wrote ahead did not see the paper before it finish within WRITE_AHEAD_WAIT_SECONDS."""


@dataclass(frozen=True)
class _Attempt:
    """Which shortcuts one transaction of a paper takes."""

    create_new: bool  # CREATE the paper's own nodes its subgraph lacks (PaperTransaction.replace)
    write_ahead: bool  # a paper new to the graph writes its own nodes before the paper before it is done


_EVERY_SHORTCUT = _Attempt(create_new=True, write_ahead=True)
# rolled back after waiting too long, its locks released: again, waiting before it writes anything
_NO_WRITE_AHEAD = _Attempt(create_new=True, write_ahead=False)
# a uniqueness constraint refused a CREATE: an id of the paper exists outside what its edges reach
_MERGE_ONLY = _Attempt(create_new=False, write_ahead=False)


class _CollectorPause:
    """Python's cycle collector paused while papers are written. A write allocates tens of thousands of row dicts,
    kept until the transaction ends, which set off full collections over everything the process holds, in the
    middle of every paper's write. The rows hold no cycles (reference counting frees them). The
    switch is process-wide: nested and concurrent pauses are counted, the last one out restores the collector as
    the first one in found it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._depth += 1

    def __exit__(self, *exc_info: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._was_enabled:
                gc.enable()


_COLLECTOR_PAUSE = _CollectorPause()


class TunedWriter:
    """Papers written `depth` at a time, one transaction each, in the order submitted, so that the graph is the one
    a one-at-a-time write makes: a paper reads the graph only once the paper before it committed or failed. The
    caller bounds how many wait their turn (kg.ingest.pipeline submits one more only when the oldest is done)."""

    def __init__(self, graph: Graph, schema: Schema, *, depth: int = 2,
                 observer: WriteObserver = WriteObserver()) -> None:
        self._graph, self._schema, self._observer, self.depth = graph, schema, observer, depth
        self._pool = ThreadPoolExecutor(depth, thread_name_prefix="paperkg-writer")
        self.catalog = EntityCatalog()
        self._last: threading.Event | None = None  # set when the paper submitted last is done

    def submit(self, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], *,
               rejected: int = 0) -> Future[PaperWrite]:
        """Write the paper in its turn; the future raises what its write raised."""
        after, done = self._last, threading.Event()
        self._last = done

        def write() -> PaperWrite:
            try:
                return self._write(run, nodes, edges, rejected, after)
            finally:
                if after is not None:  # a paper that failed early is done only once the one before it is
                    after.wait()
                done.set()

        return self._pool.submit(write)

    def close(self) -> None:
        """Wait for the papers in flight."""
        self._pool.shutdown(wait=True)

    def _write(self, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], rejected: int,
               after: threading.Event | None) -> PaperWrite:
        """The paper in one transaction, with every shortcut and, should one fail it, again without. Transient
        failures are retried by the driver (each attempt re-reads the graph); any other failure rolls it back.
        `after` is set when the paper submitted before this one has committed or failed."""

        def attempts(session: Session) -> PaperWrite:
            def attempt(shortcuts: _Attempt) -> PaperWrite:
                return session.execute_write(self._transaction, run=run, nodes=nodes, edges=edges,
                                             rejected=rejected, after=after, shortcuts=shortcuts)

            try:
                try:
                    return attempt(_EVERY_SHORTCUT)
                except _WaitedTooLong:
                    return attempt(_NO_WRITE_AHEAD)
            except ConstraintError:
                return attempt(_MERGE_ONLY)

        result = paper_written(self._graph, attempts)
        if result.entities is not None:
            self.catalog.committed(result.entities)
        return result

    def _transaction(self, tx: ManagedTransaction, *, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord],
                     rejected: int, after: threading.Event | None, shortcuts: _Attempt) -> PaperWrite:
        """A paper new to the graph, while the paper before it is still in flight, first writes its own nodes
        (PaperTransaction.write_own_new: resolution and reconciliation leave those as proposed). While it then waits
        for `after`, it holds the locks of nothing but those new ids (see WRITE_AHEAD_WAIT_SECONDS); a paper already
        in the graph waits before it takes its lock."""
        paper = PaperTransaction(tx, self._schema, run, self._observer)
        ahead = (shortcuts.write_ahead and shortcuts.create_new and after is not None and not after.is_set()
                 and not paper_exists(tx, run.sha256))
        if ahead:  # nothing of the paper exists: its previous state is empty, and it has no lock to take
            with _COLLECTOR_PAUSE:
                paper.write_own_new(nodes, edges)
        if after is not None and not after.wait(WRITE_AHEAD_WAIT_SECONDS if ahead else None):
            raise _WaitedTooLong(run.sha256)
        paper.lap("wait")
        lock_paper(tx, run.sha256)
        with _COLLECTOR_PAUSE:  # once the paper is locked: a wait for a curator's lock is not paused
            existing = Existing() if ahead else read_subgraph(tx, run.sha256, self._schema)
            return paper.replace(existing, nodes, edges, rejected=rejected, catalog=self.catalog,
                                 create_new=shortcuts.create_new)

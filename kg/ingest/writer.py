"""One writer, two speeds. A paper's records reach the graph through a PaperWriter: the reference writer here, plain
enough to be read as the definition of what a write does, or the tuned writer (kg.ingest.tuned_writer), the
ingest's default, whose shortcuts must leave the graph exactly as the reference writer makes it
(tests/integration/test_writers.py compares the two on corpus papers, re-ingests and curators' edits). Both take
the same steps of a paper's transaction (kg.ingest.papers.PaperTransaction), and both tell a WriteObserver what a
write does. WriterOptions chooses between them.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Literal, Protocol

from neo4j import ManagedTransaction

from kg.db.graph import Graph
from kg.ingest.papers import PaperTransaction, PaperWrite, WriteObserver, lock_paper, paper_written, read_subgraph
from kg.ingest.runs import Run
from kg.ingest.tuned_writer import TunedWriter
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

Speed = Literal["tuned", "reference"]


class PaperWriter(Protocol):
    """Writes each paper submitted in one transaction of its own, in the order submitted: its automatic elements
    replaced by the new records under the re-ingestion rules (kg.ingest.reconcile), its run recorded."""

    depth: int  # papers it writes at once: the ingest keeps as many submitted and not yet done

    def submit(self, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], *,
               rejected: int = 0) -> Future[PaperWrite]:
        """The paper's validated, stamped records to write; `rejected` counts those refused before (for its run
        record). The future raises what the write raised."""
        ...

    def close(self) -> None:
        """Wait for the papers submitted."""
        ...


@dataclass(frozen=True)
class WriterOptions:
    """How an ingest writes its papers."""

    speed: Speed = "tuned"
    depth: int = 2  # papers the tuned writer writes at once
    observer: WriteObserver = field(default_factory=WriteObserver)  # told what each paper's write does


def open_writer(graph: Graph, schema: Schema, options: WriterOptions) -> PaperWriter:
    """The writer `options` ask for."""
    if options.speed == "reference":
        return ReferenceWriter(graph, schema, observer=options.observer)
    return TunedWriter(graph, schema, depth=options.depth, observer=options.observer)


class ReferenceWriter:
    """One paper at a time, in the caller's thread: lock the paper, read its subgraph and every entity of the graph,
    reconcile, MERGE what is left to write. No write-ahead, no CREATE, no entity catalog, no pause of the collector."""

    depth = 1

    def __init__(self, graph: Graph, schema: Schema, *, observer: WriteObserver = WriteObserver()) -> None:
        self._graph, self._schema, self._observer = graph, schema, observer

    def write(self, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], *, rejected: int = 0) -> PaperWrite:
        """The paper in one transaction (retried by the driver on transient failures, rolled back on any other)."""
        return paper_written(self._graph, lambda session: session.execute_write(
            self._transaction, run=run, nodes=nodes, edges=edges, rejected=rejected))

    def submit(self, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], *,
               rejected: int = 0) -> Future[PaperWrite]:
        """write(...), done before it returns."""
        future: Future[PaperWrite] = Future()
        try:
            future.set_result(self.write(run, nodes, edges, rejected=rejected))
        except Exception as exc:  # the future carries it, as the tuned writer's does
            future.set_exception(exc)
        return future

    def close(self) -> None:
        return None

    def _transaction(self, tx: ManagedTransaction, *, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord],
                     rejected: int) -> PaperWrite:
        paper = PaperTransaction(tx, self._schema, run, self._observer)
        lock_paper(tx, run.sha256)
        return paper.replace(read_subgraph(tx, run.sha256, self._schema), nodes, edges, rejected=rejected)

"""The ingest writes two papers at once (kg.ingest.tuned_writer.TunedWriter): a paper new to the graph writes its own
nodes while the paper before it is still in its transaction, and reads the rest of the graph only once that paper is
done. The graph must be the one papers written one at a time make, whatever the paper before it did."""

from __future__ import annotations

import threading
import time

from datetime import datetime, timezone

from bench.ingest import synthetic_document, synthetic_sha
from kg.db.dump import canonical_dump
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.mapping import EXTRACTOR, map_document, provenance
from extractors.model import paper_id
from kg.ingest import tuned_writer
from kg.ingest.tuned_writer import TunedWriter
from ontology.records import EdgeRecord, NodeRecord
from kg.ingest.runs import Run
from kg.db.schema import init_schema
from kg.ingest.validation import validate_batch
from ontology.loader import get_schema
from tests.ingest_support import (SAMPLE_A, SAMPLE_B, Hooks, clear, hooked, ingest_settings,  # noqa: F401
                                  record_statements, run_ingest, value)

HOLD_SECONDS = 20  # how long the first paper waits, inside its transaction, for the second one to write
LEDGER = ("IngestRun", "PaperKGSchema")


class FirstPaperHeld:
    """A write hook (tests.ingest_support.Hooks): the first paper to call it is held at its first write statement (its
    transaction open, nothing committed) until another paper sends one, or `hold` seconds pass. Records who called,
    in order."""

    def __init__(self, hold: float = HOLD_SECONDS, fail_first: bool = False):
        self.hold, self.fail_first = hold, fail_first
        self.calls: list[tuple[str, int]] = []
        self.second_wrote = threading.Event()
        self.overlapped: bool | None = None
        self._first: int | None = None
        self._lock = threading.Lock()

    def __call__(self, statement: int) -> None:
        me = threading.get_ident()
        with self._lock:
            if self._first is None:
                self._first = me
            first = me == self._first
            self.calls.append(("first" if first else "second", statement))
        if not first and statement >= 1:
            self.second_wrote.set()
        elif first and statement == 1 and self.overlapped is None:
            self.overlapped = self.second_wrote.wait(self.hold)
            if self.fail_first:
                raise ValueError("injected failure of the first paper, after the second one wrote")


def _graph(driver) -> list[str]:
    return canonical_dump(Graph(driver), skip_labels=LEDGER)


def _written(report) -> tuple[int, int]:
    return sum(p.nodes_written for p in report.papers), sum(p.edges_written for p in report.papers)


def test_two_papers_at_once_make_the_graph_of_one_at_a_time(ingest_settings, driver):
    reports = [run_ingest(ingest_settings, driver, [SAMPLE_A]), run_ingest(ingest_settings, driver, [SAMPLE_B])]
    one_at_a_time = _graph(driver)
    counts = tuple(map(sum, zip(*map(_written, reports))))
    shared = value(driver, "MATCH (p:Paper)-->(n) WHERE n.paper_sha256 IS NULL AND NOT n:IngestRun "
                           "WITH n, count(DISTINCT p) AS papers WHERE papers = 2 RETURN count(n)")
    assert shared >= 1  # the two papers meet in the graph (Bo Kim): the second must find what the first wrote
    clear(driver)

    hook = FirstPaperHeld()
    report = run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B], writer=hooked(hook))
    assert [p.status for p in report.papers] == ["ingested", "ingested"]
    assert hook.overlapped, "the second paper wrote nothing while the first was in its transaction"
    assert _graph(driver) == one_at_a_time
    assert _written(report) == counts  # each element written once, by one of the two parts of its paper's write


def test_a_paper_already_in_the_graph_waits_for_the_one_before_it(ingest_settings, driver):
    run_ingest(ingest_settings, driver, [SAMPLE_B])
    hook = FirstPaperHeld(hold=2.0)
    began = time.perf_counter()
    report = run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B], writer=hooked(hook), force=True)
    assert [p.status for p in report.papers] == ["ingested", "ingested"]
    assert time.perf_counter() - began >= 2.0
    assert hook.overlapped is False  # B did not write while A was held ...
    first_done = max(i for i, (who, _) in enumerate(hook.calls) if who == "first")
    assert all(who == "first" for who, _ in hook.calls[:first_done + 1])  # ... nor read its state (call 0)
    assert ("second", 0) in hook.calls
    assert value(driver, "MATCH (p:Paper {sha256: $sha})-[:GENERATED_BY]->(r:IngestRun) RETURN count(r)",
                 sha=file_sha256(SAMPLE_B)) == 2


def _paper_using(n: int, method: str, aliases: list[str]) -> tuple:
    """A synthetic paper (one section, three chunks) that uses one method."""
    schema, sha = get_schema(), synthetic_sha(n)
    run = Run(sha256=sha, invocation="test", started_at=datetime.now(timezone.utc), extractors=[EXTRACTOR])
    nodes, edges = map_document(synthetic_document(1, 3, sha))
    node = NodeRecord("Method", f"method_{n}", {"name": method, "aliases": aliases, **provenance(None)})
    nodes.append(node)
    edges.append(EdgeRecord("USES", "Paper", paper_id(sha), "Method", node.id, provenance(sha)))
    checked = validate_batch([run.stamped(x, schema) for x in nodes], [run.stamped(e, schema) for e in edges], schema)
    assert not checked.rejections
    return run, checked.nodes, checked.edges


def test_the_next_paper_resolves_its_entities_against_the_one_before_it(empty_db):
    """The second paper names by its alias the method the first one writes: written one at a time, its edge goes to
    the first paper's node. It must go there too when it is written while the first paper is still open."""
    init_schema(Graph(empty_db), get_schema(), 8)
    second_wrote = threading.Event()

    def hold(statement: int) -> None:
        if statement == 1 and not second_wrote.wait(HOLD_SECONDS):
            raise AssertionError("the second paper wrote nothing while the first was in its transaction")

    papers = [_paper_using(0, "Sparse Routing Attention", ["SRA"]), _paper_using(1, "SRA", [])]
    hooks = Hooks(hooks=[(papers[0][0], hold), (papers[1][0], lambda statement: statement and second_wrote.set())])
    writer = TunedWriter(Graph(empty_db), get_schema(), observer=hooks)
    try:
        first, second = (writer.submit(*paper) for paper in papers)
        first.result(), second.result()
    finally:
        writer.close()
    uses = empty_db.execute_query("MATCH (p:Paper)-[:USES]->(m:Method) RETURN p.sha256 AS sha, m.id AS method "
                                  "ORDER BY sha").records
    assert [(r["sha"], r["method"]) for r in uses] == [(synthetic_sha(0), "method_0"), (synthetic_sha(1), "method_0")]
    assert value(empty_db, "MATCH (m:Method) RETURN count(m)") == 1


def test_edges_to_an_entity_of_another_paper_find_it_by_its_element_id(empty_db, monkeypatch):
    """The writer locks the shared nodes a paper links before it writes, and their element ids come back with the
    lock: the paper's edges to them find them by it, in the statement of its other edges, not in one more statement
    per label that seeks the id in its index. Only the run record's edge, written apart, finds its Paper by id."""
    init_schema(Graph(empty_db), get_schema(), 8)
    writer = TunedWriter(Graph(empty_db), get_schema())
    writer.submit(*_paper_using(0, "Sparse Routing Attention", ["SRA"])).result()
    sent = record_statements(monkeypatch)
    writer.submit(*_paper_using(1, "SRA", [])).result()
    writer.close()
    uses = empty_db.execute_query("MATCH (p:Paper {sha256: $sha})-[:USES]->(m:Method) RETURN m.id AS method",
                                  sha=synthetic_sha(1)).records
    assert [r["method"] for r in uses] == ["method_0"]
    edge_statements = [q for q in sent if "]->(t)" in q]
    assert any("$(row.type)" in q for q in edge_statements)
    assert [q for q in edge_statements if "{id: row." in q and "GENERATED_BY" not in q] == []


def test_a_paper_that_fails_early_keeps_the_next_one_waiting_for_the_one_before_it(empty_db):
    """Paper 1 fails before it waits; paper 2 must still resolve against paper 0 (done only after paper 0 is)."""
    init_schema(Graph(empty_db), get_schema(), 8)
    reading = threading.Event()

    def hold(statement: int) -> None:  # long enough for paper 2 to read the graph if nothing stopped it
        if statement == 1:
            reading.wait(3.0)

    def fail_early(statement: int) -> None:
        raise ValueError("paper 1 fails before it writes")

    papers = [_paper_using(0, "Sparse Routing Attention", ["SRA"]), _paper_using(1, "Routing", []),
              _paper_using(2, "SRA", [])]
    hooks = [hold, fail_early, lambda statement: reading.set()]
    writer = TunedWriter(Graph(empty_db), get_schema(),
                         observer=Hooks(hooks=[(paper[0], hook) for paper, hook in zip(papers, hooks)]))
    try:
        futures = [writer.submit(*paper) for paper in papers]
        futures[0].result()
        assert isinstance(futures[1].exception(), ValueError)
        futures[2].result()
    finally:
        writer.close()
    assert value(empty_db, "MATCH (:Paper {sha256: $sha})-[:USES]->(m:Method) RETURN m.id", sha=synthetic_sha(2)) == \
        "method_0"
    assert value(empty_db, "MATCH (n) WHERE n.paper_sha256 = $sha RETURN count(n)", sha=synthetic_sha(1)) == 0


def test_the_same_file_twice_in_the_writer_cannot_hang_it(empty_db, monkeypatch):
    """The second copy writes ahead and holds its ids; the first then waits for those ids while the second waits
    for the first: a cycle no lock manager sees. The second's bounded wait must break it and both must finish."""
    monkeypatch.setattr(tuned_writer, "WRITE_AHEAD_WAIT_SECONDS", 1.0)
    init_schema(Graph(empty_db), get_schema(), 8)
    once = TunedWriter(Graph(empty_db), get_schema())
    once.submit(*_paper_using(0, "Sparse Routing Attention", [])).result()
    once.close()
    written_once = _graph(empty_db)
    clear(empty_db)

    second_wrote = threading.Event()
    copies = [_paper_using(0, "Sparse Routing Attention", []) for _ in range(2)]  # two runs of one file
    hooks = Hooks(hooks=[(copies[0][0], lambda n: n == 0 and second_wrote.wait(HOLD_SECONDS)),
                         (copies[1][0], lambda n: n == 1 and second_wrote.set())])
    writer = TunedWriter(Graph(empty_db), get_schema(), observer=hooks)
    futures = [writer.submit(*copy) for copy in copies]
    try:
        for future in futures:
            future.result(timeout=60)
    finally:
        if not all(f.done() for f in futures):  # hung: end its transactions, or the test process never exits
            for record in empty_db.execute_query("SHOW TRANSACTIONS YIELD transactionId AS id, currentQuery AS q "
                                                 "WHERE NOT q STARTS WITH 'SHOW' RETURN id").records:
                empty_db.execute_query("TERMINATE TRANSACTION $id", id=record["id"])
        writer.close()
    assert second_wrote.is_set()
    assert _graph(empty_db) == written_once
    assert value(empty_db, "MATCH (:Paper)-[:GENERATED_BY]->(r:IngestRun) RETURN count(r)") == 2

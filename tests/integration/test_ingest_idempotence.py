"""Ingesting is idempotent: the same files give the same graph (canonical dump), a second run is a no-op,
and --force rewrites every element onto itself."""

from __future__ import annotations

from kg.db.dump import canonical_dump, checksum
from kg.db.filestore import file_sha256
from extractors.model import paper_id
from kg.db.graph import Graph
from kg.ingest import papers
from kg.ingest.papers import delete_subgraph
from ontology.loader import get_schema
from tests.ingest_support import (GENERATED, SAMPLE_A, SAMPLE_B, ingest_settings, record_statements,  # noqa: F401
                                  run_ingest, value)


def test_reingest_is_a_noop_and_force_gives_the_same_graph(ingest_settings, driver):
    first = run_ingest(ingest_settings, driver, GENERATED)
    assert (first.count("ingested"), first.count("unchanged"), first.count("failed")) == (2, 0, 0)
    before = canonical_dump(Graph(driver))
    papers = {r["t"] for r in driver.execute_query("MATCH (p:Paper) RETURN p.title AS t").records}
    assert papers == {"Sparse Routing Attention for Long Documents", "LongBench: A Benchmark for Reading Long Documents"}
    # a node both papers share (Bo Kim, a domain of both) is written by each
    shared_twice = value(driver, "MATCH (n:Author|Domain)<-[r]-() WITH n, count(DISTINCT r.paper_sha256) AS papers "
                                 "RETURN sum(papers - 1)")
    assert shared_twice >= 1  # Bo Kim at least
    assert value(driver, "MATCH (c:Chunk) RETURN count(c)") > 10 and first.totals()["nodes_written"] == \
        value(driver, "MATCH (n) WHERE NOT n:IngestRun AND NOT n:PaperKGSchema RETURN count(n)") + shared_twice

    again = run_ingest(ingest_settings, driver, GENERATED)
    assert [p.status for p in again.papers] == ["unchanged", "unchanged"]
    assert canonical_dump(Graph(driver)) == before

    ledger = ("IngestRun", "PaperKGSchema")
    graph, digest = canonical_dump(Graph(driver), skip_labels=ledger), checksum(Graph(driver))
    forced = run_ingest(ingest_settings, driver, GENERATED, force=True)
    assert forced.count("ingested") == 2 and sum(p.nodes_deleted + p.edges_deleted for p in forced.papers) == 0
    assert canonical_dump(Graph(driver), skip_labels=ledger) == graph
    assert checksum(Graph(driver)) == digest  # new write times, run ids and ingest runs: the same graph
    assert value(driver, "MATCH (:Paper {id: $id})-[:GENERATED_BY]->(r:IngestRun) RETURN count(r)",
                 id=paper_id(file_sha256(SAMPLE_A))) == 2
    driver.execute_query("MATCH (s:Section) WITH s ORDER BY s.id LIMIT 1 SET s.title = s.title + '.'")
    assert checksum(Graph(driver)) != digest  # one character of one title: another graph


def test_pdf_is_kept_in_the_content_addressed_store(ingest_settings, driver):
    run_ingest(ingest_settings, driver, [SAMPLE_B])
    sha = file_sha256(SAMPLE_B)
    stored = ingest_settings.data_dir / "pdfs" / sha[:2] / f"{sha}.pdf"
    assert stored.read_bytes() == SAMPLE_B.read_bytes()
    assert value(driver, "MATCH (p:Paper {sha256: $sha}) RETURN p.file_name", sha=sha) == SAMPLE_B.name


def test_every_statement_of_a_paper_write_keeps_a_cached_plan_that_seeks(ingest_settings, driver, monkeypatch):
    """Neo4j replans a cached statement once the graph's counts have moved far, which an ingest does all along
    (kg.ingest.write.PLANNED_ONCE): a paper-write statement without `replan=skip` is planned again every 10 s. With it,
    the first plan stays until a restart, perhaps one made on an empty graph: there, too, each must find its rows by a
    seek (the entity read excepted: label scans are its only plan), never by scanning a label or the graph. The one
    statement that would scan there is left to be replanned."""
    sent = record_statements(monkeypatch)
    run_ingest(ingest_settings, driver, GENERATED)
    run_ingest(ingest_settings, driver, GENERATED, force=True)  # the re-ingestion reads
    assert delete_subgraph(Graph(driver), file_sha256(SAMPLE_A), get_schema())[0] > 0
    monkeypatch.undo()
    texts = set(sent)
    assert len(texts) > 25 and any(t.split()[2] == "UNWIND" for t in texts)
    planned_once = {t for t in texts if t.startswith("CYPHER replan=skip\n")}
    assert sorted(texts - planned_once) == [papers._DELETE_EDGES]  # whose plan on an empty graph scans

    driver.execute_query("MATCH (n) DETACH DELETE n")  # the schema stays: the graph of a first ingest
    driver.execute_query("CALL db.clearQueryCaches()")
    scans = {"NodeByLabelScan", "UnionNodeByLabelsScan", "AllNodesScan", "DirectedRelationshipTypeScan",
             "UndirectedRelationshipTypeScan", "DirectedAllRelationshipsScan", "UndirectedAllRelationshipsScan"}

    def operators(plan) -> set[str]:
        return {plan["operatorType"].split("@")[0]}.union(*(operators(child) for child in plan.get("children", [])))

    scanning = {}
    with driver.session() as session:
        for text in planned_once:
            used = operators(session.run(text.replace("CYPHER replan=skip", "EXPLAIN", 1)).consume().plan)
            if used & scans:
                scanning[next(line for line in text.split("\n")[1:] if line.strip())[:44]] = sorted(used & scans)
    assert list(scanning) == ["MATCH (n:Concept|Dataset|Method|Metric|Task)"]

"""Ontology rejections are reported with reasons; every run is in the ledger; 'which run made this edge?'
is one query; embeddings land in the vector index."""

from __future__ import annotations

import extractors.pipeline
from kg.db.filestore import file_sha256
from kg.ingest.mapping import EXTRACTOR
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest, value  # noqa: F401


def test_ontology_rejections_are_counted_and_explained(ingest_settings, driver, monkeypatch):
    parse = extractors.pipeline.parse_pdf

    def with_bad_section(path, limits):
        doc = parse(path, limits)
        bad = doc.sections[0].model_copy(update={"kind": "Gossip"})
        return doc.model_copy(update={"sections": [bad, *doc.sections[1:]]})

    monkeypatch.setattr(extractors.pipeline, "parse_pdf", with_bad_section)
    report = run_ingest(ingest_settings, driver, [SAMPLE_A])
    outcome = report.papers[0]
    assert outcome.status == "ingested" and outcome.rejections["INVALID_VALUE"] == 1
    assert outcome.rejections["MISSING_ENDPOINT"] >= 2  # its HAS_SECTION edge and the HAS_CHUNK edges of its chunks
    assert "Gossip" in report.rejection_examples["INVALID_VALUE"][0]
    assert value(driver, "MATCH (s:Section {kind: 'Gossip'}) RETURN count(s)") == 0
    assert value(driver, "MATCH (r:IngestRun) RETURN r.rejected") == sum(outcome.rejections.values())


def test_which_run_made_this_edge_is_one_query(ingest_settings, driver):
    report = run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B])
    record = driver.execute_query("""
        MATCH (:Paper {sha256: $sha})-[r:HAS_SECTION]->(:Section)
        MATCH (run:IngestRun {id: r.run_id})
        RETURN run.status AS status, run.paper_sha256 AS sha, run.extractors AS extractors, run.actor AS actor,
               run.invocation AS invocation, run.nodes_written AS nodes, run.started_at <= run.ended_at AS ordered
        LIMIT 1""", sha=file_sha256(SAMPLE_B)).records[0]
    outcome = next(p for p in report.papers if p.sha256 == file_sha256(SAMPLE_B))
    assert (record["status"], record["sha"], record["invocation"]) == ("succeeded", outcome.sha256, report.invocation)
    assert record["extractors"][0] == EXTRACTOR and record["extractors"][-1] == "embeddings@off"
    assert "@" in record["actor"] and record["ordered"]
    assert record["nodes"] == outcome.nodes_written
    assert value(driver, "MATCH (p:Paper)-[:GENERATED_BY]->(r:IngestRun) RETURN count(DISTINCT r)") == 2


def test_chunk_embeddings_are_stored_for_the_vector_index(ingest_settings, driver):
    report = run_ingest(ingest_settings, driver, [SAMPLE_A], embed=True)
    assert report.embeddings.startswith("all-MiniLM-L6-v2-static")
    assert value(driver, "MATCH (c:Chunk) WHERE c.embedding IS NULL RETURN count(c)") == 0
    embedders = driver.execute_query("MATCH (c:Chunk) MATCH (r:IngestRun {id: c.run_id}) "
                                     "RETURN collect(DISTINCT r.extractors[-1]) AS e").records[0]["e"]
    assert embedders == [report.embeddings]  # which embedder wrote each chunk
    table = driver.execute_query("MATCH (c:Chunk {kind: 'table'}) RETURN c.id AS id, c.embedding AS v").records[0]
    assert len(table["v"]) == 384 and abs(sum(v * v for v in table["v"]) - 1.0) < 1e-3
    driver.execute_query("CALL db.awaitIndexes(60)")
    hits = driver.execute_query("CALL db.index.vector.queryNodes('chunk_embedding', 3, $v) YIELD node, score "
                                "RETURN node.id AS id, score", v=table["v"]).records
    assert hits[0]["score"] > 0.999 and table["id"] in {h["id"] for h in hits if h["score"] > 0.999}

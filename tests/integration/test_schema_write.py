"""write_graph: validated elements land in Neo4j with their provenance; refused ones are reported, not written."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from kg.db.graph import Graph
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from ontology.records import EdgeRecord, NodeRecord
from tests.sample_graph import EMBEDDING, NOW, SHA_A, prov, sample_graph


@pytest.fixture
def db(schema_db):
    """No data and the ontology's schema as init_schema makes it (schema_db: kept from the test before when it is
    unchanged, instead of dropped and made again for each test)."""
    return schema_db


def count(driver, cypher: str, **params) -> int:
    return driver.execute_query(cypher, **params).records[0][0]


def test_sample_graph_is_written_with_provenance(db):
    nodes, edges = sample_graph()
    report = write_graph(Graph(db), nodes, edges, get_schema(), now=NOW)
    assert report.ok and (report.nodes_written, report.edges_written) == (len(nodes), len(edges))
    assert count(db, "MATCH (n) WHERE NOT n:PaperKGSchema RETURN count(n)") == len(nodes)
    assert count(db, "MATCH ()-[r]->() RETURN count(r)") == len(edges)
    record = db.execute_query(
        "MATCH (:Paper {id: 'paper_a'})-[r:PROPOSES]->(m:Method) RETURN m.name AS name, r.source_chunk_ids AS chunks, "
        "r.pages AS pages, r.bboxes AS boxes, r.confidence AS confidence, r.extractor AS extractor, "
        "r.verification_status AS status, r.paper_sha256 AS sha, r.created_at AS created").records[0]
    assert record["name"] == "Sparse Routing Transformer" and record["chunks"] == ["chunk_a1"]
    assert (record["pages"], record["boxes"]) == ([1], ["1:72,100,540,160"])
    assert (record["confidence"], record["extractor"], record["status"]) == (0.92, "paperkg-test@1.0", "auto")
    assert record["sha"] == SHA_A and record["created"].to_native() == NOW
    assert db.execute_query("MATCH (:Paper {id:'paper_a'})-[r:HAS_AUTHOR]->(a) RETURN a.name AS n ORDER BY r.position"
                            ).records[0]["n"] == "Ada Lee"


def test_rewriting_is_idempotent_and_keeps_created_at(db):
    nodes, edges = sample_graph()
    write_graph(Graph(db), nodes, edges, get_schema(), now=NOW)
    later = NOW + timedelta(hours=1)
    renamed = [replace(n, props={**n.props, "name": "SRT"}) if n.id == "method_srt" else n for n in nodes]
    assert write_graph(Graph(db), renamed, edges, get_schema(), now=later).ok
    assert count(db, "MATCH (n) WHERE NOT n:PaperKGSchema RETURN count(n)") == len(nodes)
    assert count(db, "MATCH ()-[r]->() RETURN count(r)") == len(edges)
    method = db.execute_query("MATCH (m:Method {id: 'method_srt'}) RETURN m").records[0]["m"]
    assert method["name"] == "SRT"
    assert method["created_at"].to_native() == NOW and method["updated_at"].to_native() == later


def test_bad_elements_are_refused_with_reasons_and_nothing_of_them_is_written(db):
    good = NodeRecord("Method", "m_ok", {"name": "BERT", **prov(None)})
    bad_label = NodeRecord("Gadget", "g1", {"name": "x", **prov(None)})
    missing_name = NodeRecord("Method", "m_bad", prov(None))
    bad_pair = EdgeRecord("PROPOSES", "Method", "m_ok", "Method", "m_ok", prov(None))
    dangling = EdgeRecord("SAME_AS", "Method", "m_ok", "Method", "m_nowhere", prov(None))
    report = write_graph(Graph(db), [good, bad_label, missing_name], [bad_pair, dangling], get_schema(), now=NOW)
    assert report.counts == {"NOT_IN_SCHEMA": 1, "MISSING_PROPERTY": 1, "INVALID_ENDPOINTS": 1, "MISSING_ENDPOINT": 1}
    by_reason = {r.reason.value: r.element for r in report.rejections}
    assert (by_reason["NOT_IN_SCHEMA"].id, by_reason["MISSING_PROPERTY"].id) == ("g1", "m_bad")
    assert by_reason["INVALID_ENDPOINTS"].type == "PROPOSES" and by_reason["MISSING_ENDPOINT"].target_id == "m_nowhere"
    assert (report.nodes_written, report.edges_written) == (1, 0)
    assert [r["id"] for r in db.execute_query("MATCH (n) WHERE NOT n:PaperKGSchema RETURN n.id AS id").records] == ["m_ok"]
    assert count(db, "MATCH ()-[r]->() RETURN count(r)") == 0


def test_vector_index_finds_the_embedded_chunk(db):
    nodes, edges = sample_graph()
    write_graph(Graph(db), nodes, edges, get_schema(), now=NOW)
    db.execute_query("CALL db.awaitIndexes(60)")
    hits = db.execute_query("CALL db.index.vector.queryNodes('chunk_embedding', 3, $vector) YIELD node, score "
                            "RETURN node.id AS id, score", vector=EMBEDDING).records
    assert [(h["id"], round(h["score"], 4)) for h in hits] == [("chunk_a1", 1.0)]


def test_fulltext_index_covers_alias_lists(db):
    nodes, edges = sample_graph()
    write_graph(Graph(db), nodes, edges, get_schema(), now=NOW)
    db.execute_query("CALL db.awaitIndexes(60)")
    hits = db.execute_query("CALL db.index.fulltext.queryNodes('entity_names', 'Gutenberg') YIELD node "
                            "RETURN node.id AS id").records
    assert [h["id"] for h in hits] == ["dataset_pg19"]


def test_a_write_never_overwrites_what_a_person_decided(db):
    """Another paper proposing the same shared edge or Author must not undo a curator's decision on it."""
    nodes, edges = sample_graph()
    write_graph(Graph(db), nodes, edges, get_schema(), now=NOW)
    db.execute_query("MATCH (a:Author {id: 'author_lee'}) SET a.name = 'Ada M. Lee', a.verification_status = 'edited'")
    db.execute_query("MATCH (:Paper {id: 'paper_a'})-[r:PROPOSES]->(:Method) "
                     "SET r.verification_status = 'rejected', r.confidence = 0.5")
    again = [replace(n, props={**n.props, "name": "A. Lee"}) if n.id == "author_lee" else n for n in nodes]
    assert write_graph(Graph(db), again, edges, get_schema(), now=NOW + timedelta(hours=1)).ok
    author = db.execute_query("MATCH (a:Author {id: 'author_lee'}) RETURN a").records[0]["a"]
    assert (author["name"], author["verification_status"]) == ("Ada M. Lee", "edited")
    assert author["updated_at"].to_native() == NOW
    edge = db.execute_query("MATCH (:Paper {id: 'paper_a'})-[r:PROPOSES]->(:Method) RETURN r").records[0]["r"]
    assert (edge["verification_status"], edge["confidence"]) == ("rejected", 0.5)
    kim = db.execute_query("MATCH (a:Author {id: 'author_kim'}) RETURN a.updated_at AS t").records[0]["t"]
    assert kim.to_native() == NOW + timedelta(hours=1)  # automatic elements are still refreshed

"""Curated decisions made through the API survive `kg ingest --force` of the same real PDF, element by element:
verified, edited, flagged, rejected and curator-added elements keep exactly their properties, and the history
stays linked to them."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from kg.filestore import file_sha256
from kg.ingest import Ingestor
from tests.curation_support import ANY_VERSION, as_role, curated_settings

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample-sparse-routing.pdf"
CURATOR = as_role("curator")
CURATOR_ANY = {**CURATOR, **ANY_VERSION}


def ingest(settings, driver, force: bool = False):
    report = Ingestor(settings, driver, workers=0, embed=False, force=force).run([SAMPLE])
    assert report.count("ingested") == 1, report.as_json()
    return report.papers[0]


def rows(driver, cypher: str, **params) -> list:
    return [tuple(r.values()) for r in driver.execute_query(cypher, **params).records]


def test_curation_survives_a_forced_reingest(empty_db, neo4j_settings, tmp_path):
    driver, sha = empty_db, file_sha256(SAMPLE)
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    ingest(settings, driver)
    sections = [r[0] for r in rows(driver, "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id ORDER BY s.ordinal",
                                   sha=sha)]
    figure = rows(driver, "MATCH (f:Figure {paper_sha256: $sha}) RETURN f.id ORDER BY f.page LIMIT 1", sha=sha)[0][0]
    chunk = rows(driver, "MATCH (c:Chunk {paper_sha256: $sha, kind: 'text'}) RETURN c.id ORDER BY c.char_start "
                         "LIMIT 1", sha=sha)[0][0]
    assert len(sections) >= 4

    with TestClient(create_app(settings), base_url="http://localhost") as client:
        def ok(response):
            assert response.status_code in (200, 201), response.text
            return response.json()
        ok(client.post(f"/curation/nodes/{sections[0]}/verify", headers=CURATOR_ANY))
        ok(client.patch(f"/curation/nodes/{sections[1]}", json={"properties": {"title": "Curated title"}},
                        headers=CURATOR_ANY))
        ok(client.post(f"/curation/nodes/{sections[2]}/flag", json={"reason": "heading split"},
                       headers=CURATOR_ANY))
        ok(client.post(f"/curation/nodes/{figure}/reject", json={"reason": "a logo"}, headers=CURATOR_ANY))
        added = ok(client.post("/curation/edges", json={"source": chunk, "type": "MENTIONS", "target": sections[3]},
                               headers=CURATOR))
    curated = [sections[0], sections[1], sections[2], figure]
    node_props = "MATCH (n {id: $id}) RETURN properties(n)"
    before = {i: rows(driver, node_props, id=i) for i in curated}
    edge = "MATCH ({id: $s})-[r:MENTIONS]->({id: $t}) RETURN properties(r)"
    edge_before = rows(driver, edge, s=chunk, t=sections[3])
    figure_edges = rows(driver, "MATCH (f {id: $id})-[r]-() WHERE r.paper_sha256 IS NOT NULL RETURN count(r)", id=figure)
    events = rows(driver, "MATCH (ev:CurationEvent)-[:WAS_REVISION_OF]->(n) RETURN ev.action, n.id ORDER BY ev.id")

    outcome = ingest(settings, driver, force=True)
    assert outcome.kept >= 4

    for node_id in curated:
        assert rows(driver, node_props, id=node_id) == before[node_id], node_id
    assert [rows(driver, "MATCH (n {id: $id}) RETURN n.verification_status", id=i)[0][0] for i in curated] == \
        ["verified", "edited", "flagged", "rejected"]
    assert rows(driver, "MATCH (n {id: $id}) RETURN n.title", id=sections[1]) == [("Curated title",)]
    assert rows(driver, "MATCH (s:Section {paper_sha256: $sha, id: $id}) RETURN count(s)", sha=sha,
                id=sections[1]) == [(1,)]
    assert rows(driver, edge, s=chunk, t=sections[3]) == edge_before
    assert edge_before[0][0]["extractor"] == "curator:alice@paperkg" == added["element"]["properties"]["extractor"]
    assert rows(driver, "MATCH (f {id: $id})-[r]-() WHERE r.paper_sha256 IS NOT NULL RETURN count(r)",
                id=figure) == figure_edges
    assert rows(driver, "MATCH (ev:CurationEvent)-[:WAS_REVISION_OF]->(n) RETURN ev.action, n.id ORDER BY ev.id") == events
    assert [a for a, _ in events] == ["verify", "edit", "flag", "reject", "add_edge", "add_edge"]

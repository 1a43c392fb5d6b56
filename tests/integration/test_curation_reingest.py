"""Curated decisions made through the API survive `kg ingest --force` of the same real PDF, element by element:
verified, edited, flagged, rejected and curator-added elements keep exactly their content, and the history
stays linked to them. Where the new extraction disagrees with a decision, the element is marked contested and
listed in the contested queue until a curator acts on it again."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from kg.ingest.reconcile import CONTESTED
from tests.curation_support import ANY_VERSION, as_role, curated_settings
from tests.pdf_factory import entities_paper, write

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample-sparse-routing.pdf"
CURATOR = as_role("curator")
CURATOR_ANY = {**CURATOR, **ANY_VERSION}


def ingest(settings, driver, force: bool = False):
    report = Ingestor(settings, Graph(driver), workers=0, embed=False, force=force).run([SAMPLE])
    assert report.count("ingested") == 1, report.as_json()
    return report.papers[0]


def rows(driver, cypher: str, **params) -> list:
    return [tuple(r.values()) for r in driver.execute_query(cypher, **params).records]


def test_curation_survives_a_forced_reingest(schema_db, neo4j_settings, tmp_path):
    driver, sha = schema_db, file_sha256(SAMPLE)
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
        [(after,)] = rows(driver, node_props, id=node_id)
        assert {k: v for k, v in after.items() if k not in CONTESTED} == before[node_id][0][0], node_id
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


def contested(client, **params) -> dict[str, dict]:
    response = client.get("/curation/items", params={"queue": "contested", **params}, headers=CURATOR)
    assert response.status_code == 200, response.text
    return {item["id"]: item for item in response.json()["items"]}


def test_a_reingest_that_disagrees_marks_the_element_until_a_curator_acts(schema_db, neo4j_settings, tmp_path):
    """The same PDF again (an edited title proposed with its printed value, a rejected figure proposed again) and a
    changed PDF that names a rejected entity again: each element stays as the curator left it, is listed in the
    contested queue with what the extractor said, and leaves it when a curator acts on it (undo brings it back)."""
    driver, sha = schema_db, file_sha256(SAMPLE)
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    ingest(settings, driver)
    [(section, printed)] = rows(driver, "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id, s.title "
                                        "ORDER BY s.ordinal LIMIT 1", sha=sha)
    [(agreed,)] = rows(driver, "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id ORDER BY s.ordinal SKIP 1 LIMIT 1",
                       sha=sha)
    figure = rows(driver, "MATCH (f:Figure {paper_sha256: $sha}) RETURN f.id ORDER BY f.page LIMIT 1", sha=sha)[0][0]
    first = write(tmp_path, "v1.pdf", entities_paper("Citation Graphs at Scale", [
        "We train our model on the S2ORC dataset.", "We compare with the LSTM model and a CNN model."]))
    assert Ingestor(settings, Graph(driver), workers=0, embed=False).run([first]).count("ingested") == 1
    [(cnn,)] = rows(driver, "MATCH (m:Method) WHERE toLower(m.name) = 'cnn' RETURN m.id")

    with TestClient(create_app(settings), base_url="http://localhost") as client:
        def ok(response):
            assert response.status_code == 200, response.text
            return response.json()
        ok(client.patch(f"/curation/nodes/{section}", json={"properties": {"title": "Curated title"}},
                        headers=CURATOR_ANY))
        ok(client.post(f"/curation/nodes/{agreed}/verify", headers=CURATOR_ANY))
        ok(client.post(f"/curation/nodes/{figure}/reject", json={"reason": "a logo"}, headers=CURATOR_ANY))
        ok(client.post(f"/curation/nodes/{cnn}/reject", json={"reason": "not a method here"}, headers=CURATOR_ANY))
        assert contested(client) == {}

        assert ingest(settings, driver, force=True).contested == 2
        changed = write(tmp_path, "v2.pdf", entities_paper("Citation Graphs at Scale, revised", [
            "We train our model on the S2ORC corpus.", "We compare with a CNN model and a GRU model."]))
        report = Ingestor(settings, Graph(driver), workers=0, embed=False).run([changed])
        assert report.count("ingested") == 1 and report.totals()["contested"] == 1

        queue = contested(client)
        assert set(queue) == {section, figure, cnn}  # the verified section: the extractor agrees
        assert queue[section]["contested"]["reason"] == \
            f"the extractor says title={printed!r} where a curator set 'Curated title'"
        assert queue[figure]["contested"]["reason"].startswith("the extractor proposes it again (confidence ")
        assert queue[figure]["contested"]["reason"].endswith("; a curator rejected it")
        assert queue[cnn]["contested"]["reason"] == "the extractor proposes it again; a curator rejected it"
        runs = dict(rows(driver, "MATCH (p:Paper)-[:GENERATED_BY]->(r:IngestRun) WITH p, r ORDER BY r.started_at "
                                 "RETURN p.sha256, last(collect(r.id))"))
        assert queue[section]["contested"]["run"] == runs[sha] == queue[figure]["contested"]["run"]
        assert queue[cnn]["contested"]["run"] == runs[file_sha256(changed)]
        assert rows(driver, "MATCH (n {id: $id}) RETURN n.title, n.verification_status", id=section) == \
            [("Curated title", "edited")]
        assert rows(driver, "MATCH (m {id: $id}) RETURN m.verification_status, COUNT { (m)-[e]-() "
                            "WHERE e.paper_sha256 = $sha }", id=cnn, sha=file_sha256(changed)) == [("rejected", 0)]
        assert set(contested(client, label="Figure")) == {figure}  # the list's filters apply
        assert set(contested(client, paper=file_sha256(first))) == {cnn}
        attention = ok(client.get("/curation/queue", params={"paper": sha}, headers=CURATOR))
        assert {(i["kind"], i["element"]) for i in attention if i["kind"] == "contested"} == {
            ("contested", section), ("contested", figure)}

        verified = ok(client.post(f"/curation/nodes/{section}/verify", headers=CURATOR_ANY))
        assert not set(CONTESTED) & set(verified["element"]["properties"])
        ok(client.post(f"/curation/nodes/{figure}/reject", json={"reason": "still a logo"}, headers=CURATOR_ANY))
        assert set(contested(client)) == {cnn}
        assert rows(driver, "MATCH (n) WHERE n.id IN $ids RETURN count(n.contested_at)", ids=[section, figure]) == \
            [(0,)]
        ok(client.post(f"/curation/undo/{verified['event']['id']}", headers=CURATOR))
        assert set(contested(client)) == {section, cnn}

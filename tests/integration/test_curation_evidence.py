"""The evidence of a workbench item over REST, against a real Neo4j holding an ingested generated PDF: an entity's
evidence is on its edges, each with its paper, provenance and passages, the spans that name the entity marked in
the passage's text and every box those spans are printed in (as the passage's box offsets place them)."""

from __future__ import annotations

import struct

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from extractors.bbox import parse_bbox
from kg.read.evidence import MARGIN, ZOOM
from tests.curation_support import as_role, curated_settings
from tests.ingest_support import ingest_settings, run_ingest  # noqa: F401
from tests.integration.test_duplicates import PAPER_A
from tests.pdf_factory import HEIGHT, entities_paper, write

CURATOR = as_role("curator")


@pytest.fixture
def client(ingest_settings, driver, tmp_path):  # noqa: F811
    settings = curated_settings(ingest_settings)
    path = write(tmp_path, "a.pdf", entities_paper("Citation Graphs at Scale", PAPER_A))
    assert run_ingest(settings, driver, [path]).count("ingested") == 1
    with TestClient(create_app(settings), base_url="http://localhost") as test_client:
        yield test_client


def boxes_of(chunk: dict, spans: list[list[int]]) -> set[str]:
    """The boxes the spans begin and end in, by the chunk's box offsets as stored in Neo4j."""
    def box(at: int) -> str:
        index = max(i for i, start in enumerate(chunk["box_starts"]) if start <= at)
        return chunk["bboxes"][index]
    return {box(a) for a, _ in spans} | {box(b - 1) for _, b in spans}


def test_an_entitys_evidence_is_its_edges_with_the_spans_marked(client, driver):
    entity = driver.execute_query("MATCH (d:Dataset) WHERE toLower(d.name) = 's2orc' RETURN d.id AS id").records
    assert entity, "the generated paper names the S2ORC dataset"
    answer = client.get(f"/curation/nodes/{entity[0]['id']}/evidence", headers=CURATOR)
    assert answer.status_code == 200, answer.text
    items = answer.json()
    edges = {r["id"]: r for r in driver.execute_query(
        "MATCH (:Dataset {id: $id})-[r]-() WHERE r.source_chunk_ids IS NOT NULL "
        "RETURN elementId(r) AS id, type(r) AS type, properties(r) AS p", id=entity[0]["id"]).records}
    assert {i["edge_id"] for i in items} == set(edges) and "MENTIONS" in {i["type"] for i in items}
    for item in items:
        stored = edges[item["edge_id"]]["p"]
        assert item["paper"]["title"] == "Citation Graphs at Scale"
        assert (item["extractor"], item["confidence"], item["status"]) == \
            (stored["extractor"], stored["confidence"], stored["verification_status"])
        assert [p["chunk_id"] for p in item["passages"]] == stored["source_chunk_ids"]
        for passage in item["passages"]:
            assert passage["spans"], f"no span in {passage['chunk_id']}"
            assert {passage["text"][a:b].lower() for a, b in passage["spans"]} == {"s2orc"}
            chunk = driver.execute_query("MATCH (c:Chunk {id: $id}) RETURN properties(c) AS p",
                                         id=passage["chunk_id"]).records[0]["p"]
            assert passage["text"] == chunk["text"]
            assert boxes_of(chunk, passage["spans"]) <= set(passage["boxes"]) <= set(chunk["bboxes"])

    mention = next(i for i in items if i["type"] == "MENTIONS")
    one = client.get(f"/curation/edges/{mention['edge_id']}/evidence", headers=CURATOR).json()
    assert one == [mention]

    # the crop of one passage is cut around its spans' boxes (with the margin), not around the passage's first box
    passage = mention["passages"][0]
    png = client.get(f"/evidence/{mention['edge_id']}.png", params={"chunk": passage["chunk_id"]})
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    width, height = struct.unpack(">II", png.content[16:24])
    rects = [parse_bbox(b)[1] for b in passage["boxes"] if parse_bbox(b)[0] == parse_bbox(passage["boxes"][0])[0]]
    top, bottom = min(r[1] for r in rects), max(r[3] for r in rects)
    assert abs(height - (min(bottom + MARGIN, HEIGHT) - max(top - MARGIN, 0)) * ZOOM) <= 2 * ZOOM
    assert client.get(f"/evidence/{mention['edge_id']}.png", params={"chunk": "not-a-passage"}).status_code == 404


def test_evidence_needs_a_curator_and_a_known_element(client):
    assert client.get("/curation/nodes/no-such-node/evidence", headers=CURATOR).status_code == 404
    assert client.get("/curation/nodes/no-such-node/evidence").status_code == 401
    assert client.get("/curation/nodes/no-such-node/evidence", headers=as_role("reader")).status_code == 403

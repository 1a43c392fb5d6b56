"""A stored box that is not "page:x0,y0,x1,y1" (a graph imported or edited by hand can hold any text) is answered
with a 422 and the error body when the API reads it, never with a 500."""

from __future__ import annotations

import pymupdf
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.db.filestore import PDFStore
from kg.db.graph import Graph
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.integration.test_api_endpoints import error_of, with_admin
from tests.sample_graph import SHA_A, sample_graph


@pytest.fixture(scope="module")
def client(driver, neo4j_settings, tmp_path_factory, reset_db):
    reset_db()
    assert write_graph(Graph(driver), *sample_graph(), get_schema()).ok
    tmp = tmp_path_factory.mktemp("bbox")
    pdf = pymupdf.open()
    for n in range(7):
        pdf.new_page(width=612, height=792)
    pdf.save(tmp / "a.pdf")
    PDFStore(tmp / "data").put(tmp / "a.pdf", SHA_A)
    settings, headers = with_admin(neo4j_settings.model_copy(update={"data_dir": tmp / "data", "qa_vectors": False}))
    with TestClient(create_app(settings), base_url="http://localhost", headers=headers) as test_client:
        yield test_client


@pytest.mark.parametrize("box", ["5:72,300,540", "five:72,300,540,350", "5:72,300,540,nan", "0:72,300,540,350"])
def test_evidence_picture_of_a_malformed_stored_box_is_a_422(client, driver, box):
    assert client.get("/evidence/chunk_a3.png").status_code == 200
    driver.execute_query("MATCH (c:Chunk {id: 'chunk_a3'}) SET c.bboxes = [$box]", box=box)
    error_of(client.get("/evidence/chunk_a3.png"), 422, "INVALID_BBOX")
    driver.execute_query("MATCH (c:Chunk {id: 'chunk_a3'}) SET c.bboxes = ['5:72,300,540,350']")

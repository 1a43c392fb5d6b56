"""A scanned paper (a generated paper the test rasterizes: pictures of its pages, no text layer) ingested into
the real Neo4j: its sections and chunks exist and say they were read by OCR, and /ask answers from it with the
page and box where the words are printed, which the evidence picture crops."""

from __future__ import annotations

import pymupdf
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from bench.ocr import rasterized, section_recall
from extractors.bbox import parse_bbox
from extractors.model import paper_id
from kg.db.filestore import file_sha256
from tests.ingest_support import run_ingest
from tests.integration.test_api_endpoints import with_admin
from tests.pdf_factory import one_column_paper, write
from tests.unit.test_ocr import MIN_SECTION_RECALL, SCAN_DPI

THANKS = "We thank the reviewers for their comments."  # printed once, on page 2 of the generated paper


@pytest.fixture(scope="module")
def ingested(driver, neo4j_settings, tmp_path_factory, reset_db):
    reset_db()
    data, truth = one_column_paper()
    folder = tmp_path_factory.mktemp("ocr-ingest")
    path = write(folder, "scanned.pdf", rasterized(data, SCAN_DPI))
    settings = neo4j_settings.model_copy(update={"data_dir": folder / "data", "qa_vectors": False})
    report = run_ingest(settings, driver, [path])
    assert [p.status for p in report.papers] == ["ingested"], report.as_json()
    assert [w.split(":")[0] for w in report.papers[0].warnings] == \
        [f"OCR (tesseract, eng) read pages {', '.join(map(str, range(1, truth.pages + 1)))}, which have no text layer"]
    printed = pymupdf.open(stream=data, filetype="pdf")[1].search_for(THANKS)[0]
    return settings, paper_id(file_sha256(path)), truth, printed


def test_the_scanned_paper_has_its_sections_and_chunks_marked_as_ocr(driver, ingested):
    _, pid, truth, _ = ingested
    sections = driver.execute_query(
        "MATCH (:Paper {id: $pid})-[:HAS_SECTION|HAS_SUBSECTION*]->(s:Section) RETURN s.title AS title, "
        "s.text_source AS source", pid=pid).records
    assert section_recall([r["title"] for r in sections], [t for _, t, _, _ in truth.sections]) >= MIN_SECTION_RECALL
    assert {r["source"] for r in sections} == {"ocr"}
    chunks = driver.execute_query(
        "MATCH (p:Paper {id: $pid}) MATCH (c:Chunk {paper_sha256: p.sha256}) RETURN c.text_source AS source, "
        "c.bboxes AS boxes", pid=pid).records
    assert chunks and {r["source"] for r in chunks} == {"ocr"}
    assert all(r["boxes"] for r in chunks)


def test_ask_answers_from_an_image_page_with_the_printed_box(ingested):
    settings, pid, _, printed = ingested
    settings, headers = with_admin(settings)
    with TestClient(create_app(settings), base_url="http://localhost", headers=headers) as client:
        response = client.post("/ask", json={"question": "Whom do the authors thank for their comments?",
                                             "paper_id": pid})
        assert response.status_code == 200, response.text
        evidence = response.json()["evidence"]
        top = next(e for e in evidence if "thank the reviewers" in e["text"])
        page, box = parse_bbox(top["bbox"])
        assert top["page"] == page == 2
        # The box, in PDF points, is the region of the page where the sentence is printed on the picture: it spans
        # the printed line's width and most of its height (OCR boxes hug the ink, a font's line box is taller).
        assert box[0] <= printed.x0 + 2 and box[2] >= printed.x1 - 2
        assert min(box[3], printed.y1) - max(box[1], printed.y0) >= 0.5 * printed.height
        picture = client.get(f"/evidence/{top['chunk_id']}.png")
        assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")

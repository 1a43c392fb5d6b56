"""Stored PDFs and the graph commit together (issue 23, item 6): a PDF is stored only once its paper committed,
the next ingest stores one a crash left out, the API collects files no paper refers to when it starts, and a
deletion removes a file only when no paper refers to it."""

from __future__ import annotations

import shutil

from fastapi.testclient import TestClient

from api.app import create_app
from kg.db.graph import Graph
from kg.ingest.delete import delete_paper
from kg.db.filestore import PDFStore, file_sha256
from kg.ingest.pipeline import Ingestor
from kg.ingest.papers import papers_present
from ontology.loader import get_schema
from tests.ingest_support import SAMPLE_A, SAMPLE_B, hooked, ingest_settings, run_ingest, value  # noqa: F401


class Boom(RuntimeError):
    pass


def test_a_paper_whose_write_fails_leaves_no_stored_pdf(ingest_settings, driver):
    sha, store = file_sha256(SAMPLE_A), PDFStore(ingest_settings.data_dir)

    def fail(n: int) -> None:
        if n == 1:
            raise Boom("injected failure after the first write batch")

    try:
        Ingestor(ingest_settings, Graph(driver), workers=0, embed=False, writer=hooked(fail)).run([SAMPLE_A])
    except Boom:
        pass
    else:
        raise AssertionError("the injected failure did not surface")
    assert value(driver, "MATCH (p:Paper {sha256: $sha}) RETURN count(p)", sha=sha) == 0
    assert not store.path(sha).exists() and list(store.root.glob("*/*")) == []

    assert run_ingest(ingest_settings, driver, [SAMPLE_A]).count("ingested") == 1
    assert store.path(sha).read_bytes() == SAMPLE_A.read_bytes()


def test_the_next_ingest_stores_a_file_that_a_crash_left_out(ingest_settings, driver):
    sha, store = file_sha256(SAMPLE_A), PDFStore(ingest_settings.data_dir)
    assert run_ingest(ingest_settings, driver, [SAMPLE_A]).count("ingested") == 1
    store.path(sha).unlink()  # as if the process died between the commit and the copy
    assert run_ingest(ingest_settings, driver, [SAMPLE_A]).count("unchanged") == 1
    assert store.path(sha).read_bytes() == SAMPLE_A.read_bytes()


def test_the_api_collects_orphan_files_when_it_starts(ingest_settings, driver, tmp_path):
    store = PDFStore(ingest_settings.data_dir)
    assert run_ingest(ingest_settings, driver, [SAMPLE_A]).count("ingested") == 1
    orphan_sha = file_sha256(SAMPLE_B)
    orphan = store.put(SAMPLE_B, orphan_sha)  # stored, but no paper refers to it (what older versions left)
    half = store.path(orphan_sha).with_name("tmp123.part")
    shutil.copy(SAMPLE_B, half)  # a copy that a killed process never finished
    app = create_app(ingest_settings.model_copy(update={"qa_vectors": False}))
    with TestClient(app, base_url="http://localhost") as client:
        assert client.get("/health").status_code == 200
    assert not orphan.exists() and not half.exists()
    assert store.path(file_sha256(SAMPLE_A)).exists()


def test_a_file_stays_while_a_paper_refers_to_it(ingest_settings, driver):
    store, schema = PDFStore(ingest_settings.data_dir), get_schema()
    assert run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B]).count("ingested") == 2
    sha_a, sha_b = file_sha256(SAMPLE_A), file_sha256(SAMPLE_B)
    assert papers_present(Graph(driver), [sha_a, sha_b, "f" * 64]) == {sha_a, sha_b}
    assert not store.remove_unreferenced(sha_a, lambda shas: papers_present(Graph(driver), shas))  # paper A is there
    assert store.path(sha_a).exists()
    report = delete_paper(Graph(driver), sha_b, schema, store)
    assert report.pdf_removed and not store.path(sha_b).exists() and store.path(sha_a).exists()

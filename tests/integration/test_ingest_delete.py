"""kg delete removes one paper and what only it used; shared entities keep their other papers' links."""

from __future__ import annotations

import pytest

from extractors.model import paper_id
from kg.db.graph import Graph
from kg.ingest.delete import delete_paper
from kg.db.dump import canonical_dump
from kg.errors import NotFoundError
from kg.db.filestore import PDFStore, file_sha256
from kg.ingest.mapping import author_id
from ontology.loader import get_schema
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest, value  # noqa: F401

LEDGER = ("IngestRun", "PaperKGSchema")


def test_delete_keeps_shared_entities_and_the_other_paper_intact(ingest_settings, driver):
    run_ingest(ingest_settings, driver, [SAMPLE_B])
    only_b = canonical_dump(Graph(driver), skip_labels=LEDGER)
    run_ingest(ingest_settings, driver, [SAMPLE_A])
    sha_a = file_sha256(SAMPLE_A)
    store = PDFStore(ingest_settings.data_dir)
    assert value(driver, "MATCH (a:Author {id: $id})<-[:HAS_AUTHOR]-(p) RETURN count(p)", id=author_id("Bo Kim")) == 2

    report = delete_paper(Graph(driver), paper_id(sha_a), get_schema(), store)
    assert report.sha256 == sha_a and report.pdf_removed and not store.path(sha_a).exists()
    assert value(driver, "MATCH (n) WHERE n.paper_sha256 = $sha AND NOT n:IngestRun RETURN count(n)", sha=sha_a) == 0
    assert value(driver, "MATCH (a:Author {name: 'Ada Lee'}) RETURN count(a)") == 0  # only paper A used her
    assert value(driver, "MATCH (a:Author {id: $id})<-[:HAS_AUTHOR]-(p) RETURN p.title", id=author_id("Bo Kim")) \
        == "LongBench: A Benchmark for Reading Long Documents"
    assert canonical_dump(Graph(driver), skip_labels=LEDGER) == only_b
    assert value(driver, "MATCH (r:IngestRun {paper_sha256: $sha}) RETURN count(r)", sha=sha_a) == 1  # history stays

    with pytest.raises(NotFoundError):
        delete_paper(Graph(driver), sha_a, get_schema(), store)


def test_delete_by_sha_keeps_a_curated_shared_entity(ingest_settings, driver):
    run_ingest(ingest_settings, driver, [SAMPLE_A])
    driver.execute_query("MATCH (a:Author {name: 'Ada Lee'}) SET a.verification_status = 'verified'")
    delete_paper(Graph(driver), file_sha256(SAMPLE_A), get_schema(), PDFStore(ingest_settings.data_dir))
    assert value(driver, "MATCH (a:Author) RETURN collect(a.name)") == ["Ada Lee"]
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 0

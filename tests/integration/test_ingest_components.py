"""An optional pipeline component (kg.ingest.components) that fails costs only what it adds: the paper is written
without it and the run ledger says so; the next ingest runs it again; and a paper already in the graph is never
replaced by a copy missing a component's output."""

from __future__ import annotations

import pytest

import extractors.semantic.extract
from extractors.semantic import EXTRACTOR as SEMANTIC_EXTRACTOR
from tests.ingest_support import GENERATED, ingest_settings, run_ingest, value  # noqa: F401


def _broken(*args, **kwargs):
    raise RuntimeError("lexicon unreadable")


@pytest.fixture
def semantic_breaks(monkeypatch):
    """The semantic extractor raises on every paper (read when the in-process worker builds its components)."""
    monkeypatch.setattr(extractors.semantic.extract, "extract_semantics", _broken)
    return monkeypatch


def _runs(driver):
    with driver.session() as session:
        return session.run("MATCH (p:Paper)-[:GENERATED_BY]->(r:IngestRun) RETURN r.status AS status, "
                           "r.failed_components AS failed, r.extractors AS extractors").data()


def test_a_failing_semantic_extractor_leaves_the_paper_written_without_entities(ingest_settings, driver,
                                                                                semantic_breaks):
    report = run_ingest(ingest_settings, driver, GENERATED)
    assert (report.count("ingested"), report.count("failed")) == (2, 0)
    assert all(any("semantic failed" in w and "lexicon unreadable" in w for w in p.warnings) for p in report.papers)
    assert value(driver, "MATCH (p:Paper)-[:HAS_SECTION]->(:Section) RETURN count(DISTINCT p)") == 2
    assert value(driver, "MATCH (c:Chunk) RETURN count(c)") > 0
    assert value(driver, "MATCH (n) WHERE n:Method OR n:Dataset OR n:Metric OR n:Task RETURN count(n)") == 0
    runs = _runs(driver)
    assert [r["status"] for r in runs] == ["succeeded", "succeeded"]
    assert all(r["failed"] == ["semantic: RuntimeError: lexicon unreadable"] for r in runs)
    assert all(SEMANTIC_EXTRACTOR not in r["extractors"] for r in runs)


def test_the_next_ingest_runs_the_failed_component_again(ingest_settings, driver, semantic_breaks):
    run_ingest(ingest_settings, driver, GENERATED)
    semantic_breaks.undo()
    report = run_ingest(ingest_settings, driver, GENERATED)
    assert (report.count("ingested"), report.count("unchanged")) == (2, 0)  # not skipped as unchanged
    assert value(driver, "MATCH (m:Method {name: 'Sparse Routing Attention'}) RETURN count(m)") == 1
    assert value(driver, "MATCH (:Paper)-[:GENERATED_BY]->(r:IngestRun) WHERE r.failed_components IS NULL "
                         "AND $semantic IN r.extractors RETURN count(r)", semantic=SEMANTIC_EXTRACTOR) == 2


def test_a_paper_in_the_graph_keeps_its_entities_when_the_component_fails_on_re_ingest(ingest_settings, driver,
                                                                                      monkeypatch):
    run_ingest(ingest_settings, driver, GENERATED)
    entities = "MATCH (n) WHERE n:Method OR n:Dataset OR n:Metric OR n:Task RETURN count(n)"
    before = value(driver, entities)
    assert before > 0

    monkeypatch.setattr(extractors.semantic.extract, "extract_semantics", _broken)
    report = run_ingest(ingest_settings, driver, GENERATED, force=True)
    assert report.count("failed") == 2
    assert all("semantic: RuntimeError: lexicon unreadable" in p.reason and "left as it was" in p.reason
               for p in report.papers)
    assert value(driver, entities) == before
    assert value(driver, "MATCH (m:Method {name: 'Sparse Routing Attention'}) RETURN count(m)") == 1

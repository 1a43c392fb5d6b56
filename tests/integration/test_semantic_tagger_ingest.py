"""Ingest with the trained mention tagger on (PAPERKG_SEMANTIC_TAGGER): the worker loads it once, the papers are
written with their entities, and what the tagger adds is an entity of the ontology's kinds with provenance."""

from __future__ import annotations

from extractors.semantic import EXTRACTOR, tagger
from tests.ingest_support import GENERATED, ingest_settings, run_ingest, value  # noqa: F401


def test_ingest_with_the_tagger_loads_it_once_and_still_writes_entities(ingest_settings, driver, monkeypatch):
    loaded = []
    real = tagger.load
    monkeypatch.setattr(tagger, "load", lambda *a: loaded.append(real(*a)) or loaded[-1])
    report = run_ingest(ingest_settings.model_copy(update={"semantic_tagger": True}), driver, GENERATED)
    assert (report.count("ingested"), report.count("failed")) == (2, 0)
    assert len(loaded) == 1 and loaded[0] is not None  # once per worker, not per paper
    assert value(driver, "MATCH (m:Method {name: 'Sparse Routing Attention'}) RETURN count(m)") == 1
    assert value(driver, "MATCH (d:Dataset) WHERE d.name IN ['PG-19', 'LongBench'] RETURN count(d)") == 2
    assert value(driver, "MATCH (:Paper)-[r:PROPOSES|USES|EVALUATES_ON|MEASURES|ADDRESSES]->() "
                         "WHERE r.extractor = $extractor AND size(r.source_chunk_ids) > 0 "
                         "RETURN count(r)", extractor=EXTRACTOR) >= 6

"""Shared by the ingestion tests: settings with a throw-away data directory, and small helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.ingest import IngestReport, Ingestor

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_A = SAMPLES / "sample-sparse-routing.pdf"  # authors Ada Lee, Bo Kim
SAMPLE_B = SAMPLES / "sample-longbench.pdf"  # authors Bo Kim, Chloe Martin, Dev Patel


@pytest.fixture
def ingest_settings(neo4j_settings, empty_db, tmp_path):
    """The session's Neo4j, emptied, with a data directory (PDF store) of this test's own."""
    return neo4j_settings.model_copy(update={"data_dir": tmp_path / "data"})


def run_ingest(settings, driver, paths, **options) -> IngestReport:
    """In-process ingest (workers=0) without embeddings unless asked: fast and deterministic."""
    options = {"workers": 0, "embed": False, **options}
    return Ingestor(settings, driver, **options).run([Path(p) for p in paths])


def value(driver, cypher: str, **params):
    return driver.execute_query(cypher, **params).records[0][0]

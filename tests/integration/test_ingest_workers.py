"""`kg ingest` starts no more parser processes than it has papers to parse, and none when every paper is unchanged:
each one loads the spaCy pipelines and the embeddings before its first paper."""

from __future__ import annotations

import pytest

import kg.ingest.pipeline
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from kg.workers.sandbox import Sandbox
from tests.ingest_support import GENERATED, SAMPLE_A, ingest_settings  # noqa: F401  (fixture)


@pytest.fixture
def pools(monkeypatch) -> list[int]:
    """The worker count of every parser pool the ingest starts, in order."""
    started: list[int] = []

    class Counted(Sandbox):
        def __init__(self, workers, *args, **kwargs):
            started.append(workers)
            super().__init__(workers, *args, **kwargs)

    monkeypatch.setattr(kg.ingest.pipeline, "Sandbox", Counted)
    return started


def test_one_paper_gets_one_parser_process(ingest_settings, driver, pools):
    report = Ingestor(ingest_settings, Graph(driver), workers=4, embed=False).run([SAMPLE_A])
    assert [p.status for p in report.papers] == ["ingested"]
    assert pools == [1]


def test_more_papers_than_workers_get_all_the_workers(ingest_settings, driver, pools):
    report = Ingestor(ingest_settings, Graph(driver), workers=2, embed=False).run([*GENERATED, GENERATED[0].parent /
                                                                            "webb2017-vespa-peerj-cs-118.pdf"])
    assert [p.status for p in report.papers] == ["ingested"] * 3
    assert pools == [2]


def test_a_run_of_unchanged_papers_starts_no_parser_process(ingest_settings, driver, pools):
    Ingestor(ingest_settings, Graph(driver), workers=2, embed=False).run(GENERATED)
    again = Ingestor(ingest_settings, Graph(driver), workers=2, embed=False).run(GENERATED)
    assert [p.status for p in again.papers] == ["unchanged", "unchanged"]
    assert pools == [2]  # the first run's only

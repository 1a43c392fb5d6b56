"""Load (issue 23): 8 clients on /ask and node lookups against `kg serve`, first alone, then while PDFs are
uploaded through the API (with a curator's key) and `kg ingest --force` re-ingests a paper: no errors in either
phase, every request answered, every write succeeds. How much the writes slow the reads (p95 under writes against
idle) is a speed figure, so a benchmark reports it, not this test.

The server and the re-ingest run in processes of their own, as in use; only the clients (bench/load.py, light
asyncio) run in the test process. Bounded: a fixed number of requests per client, and every phase stops at
MAX_SECONDS."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator

import pytest

from bench.api_server import LiveAPI, served_api, settings_env
from bench.load import Writes, loopback_address, under_writes
from extractors.model import paper_id
from kg.db.filestore import file_sha256
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest  # noqa: F401
from tests.pdf_factory import one_column_paper, two_column_paper

CLIENTS, PER_CLIENT, MAX_SECONDS = 8, 12, 240
QUESTIONS = ("Which datasets does the paper use?", "Which methods does the paper propose?",
             "What is routing attention?", "Where is Table 1?")


@pytest.fixture
def served(ingest_settings, driver, tmp_path) -> Iterator[LiveAPI]:
    """Both sample papers ingested, and `kg serve` (one question process, a key of each role) on a free loopback
    port."""
    assert run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B]).count("ingested") == 2
    with served_api(ingest_settings.model_copy(update={"qa_vectors": False}), tmp_path) as api:
        yield api


def test_lookups_and_questions_are_all_answered_while_papers_are_written(served, ingest_settings):
    papers = [paper_id(file_sha256(p)) for p in (SAMPLE_A, SAMPLE_B)]
    questions = [{"question": q, "paper_id": p} for q in QUESTIONS for p in papers]
    uploads = [("one-column.pdf", one_column_paper()[0]), ("two-column.pdf", two_column_paper()[0])]
    reingest = [sys.executable, "-m", "cli", "ingest", "--force", "--no-embed", "--workers", "1", str(SAMPLE_A)]
    writes = Writes(uploads, reingest, settings_env(ingest_settings), headers=served.headers("curator"))
    host, port = loopback_address(served.url)
    report = asyncio.run(under_writes(host, port, questions, papers, writes, CLIENTS, PER_CLIENT, MAX_SECONDS))
    idle, busy = report["idle"], report["writes"]
    assert report["reingest_exit"] == 0, report["reingest_stderr"]
    assert [job["status"] for job in report["jobs"]] == ["succeeded", "succeeded"], report["jobs"]
    for kind in ("ask", "node"):
        assert idle[kind]["errors"] == 0 and busy[kind]["errors"] == 0, report
        assert idle[kind]["n"] == CLIENTS * PER_CLIENT // 2 and busy[kind]["n"] >= idle[kind]["n"], report

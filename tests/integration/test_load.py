"""Load (issue 23): 8 clients on /ask and node lookups against `kg serve`, first alone, then while PDFs are
uploaded through the API (with a curator's key) and `kg ingest --force` re-ingests a paper: no errors in either
phase, every request answered, every write succeeds. How much the writes slow the reads (p95 under writes against
idle) is a speed figure, so a benchmark reports it, not this test.

The server and the re-ingest run in processes of their own, as in use; only the clients (kg/qa/load.py, light
asyncio) run in the test process. Bounded: a fixed number of requests per client, and every phase stops at
MAX_SECONDS."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from kg.filestore import file_sha256
from kg.mapping import paper_id
from kg.qa.load import Writes, under_writes
from tests.curation_support import API_KEYS, KEYS
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest  # noqa: F401
from tests.neo4j_harness import free_port
from tests.pdf_factory import one_column_paper, two_column_paper

CLIENTS, PER_CLIENT, MAX_SECONDS = 8, 12, 240
QUESTIONS = ("Which datasets does the paper use?", "Which methods does the paper propose?",
             "What is routing attention?", "Where is Table 1?")


@pytest.fixture
def server_env(ingest_settings) -> dict[str, str]:
    """The environment under which `kg` commands reach the test's Neo4j and data directory."""
    return {**os.environ, "PAPERKG_NEO4J_URI": ingest_settings.uri,
            "PAPERKG_NEO4J_PASSWORD": ingest_settings.neo4j_password.get_secret_value(),
            "PAPERKG_DATA_DIR": str(ingest_settings.data_dir), "PAPERKG_QA_VECTORS": "false",
            "PAPERKG_API_KEYS": API_KEYS}


@pytest.fixture
def served(ingest_settings, driver, server_env, tmp_path) -> Iterator[int]:
    """Both sample papers ingested, and `kg serve` (one question process) on a free loopback port; its log (a
    line per request) goes to a file, which no pipe buffer can make it wait for."""
    assert run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B]).count("ingested") == 2
    port = free_port()
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--qa-processes", "1"], env=server_env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "kg serve did not answer /health"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def test_lookups_and_questions_are_all_answered_while_papers_are_written(served, server_env):
    papers = [paper_id(file_sha256(p)) for p in (SAMPLE_A, SAMPLE_B)]
    questions = [{"question": q, "paper_id": p} for q in QUESTIONS for p in papers]
    uploads = [("one-column.pdf", one_column_paper()[0]), ("two-column.pdf", two_column_paper()[0])]
    reingest = [sys.executable, "-m", "cli", "ingest", "--force", "--no-embed", "--workers", "1", str(SAMPLE_A)]
    writes = Writes(uploads, reingest, server_env, headers={"X-API-Key": KEYS["curator"]})
    report = asyncio.run(under_writes("127.0.0.1", served, questions, papers, writes, CLIENTS, PER_CLIENT, MAX_SECONDS))
    idle, busy = report["idle"], report["writes"]
    assert report["reingest_exit"] == 0, report["reingest_stderr"]
    assert [job["status"] for job in report["jobs"]] == ["succeeded", "succeeded"], report["jobs"]
    for kind in ("ask", "node"):
        assert idle[kind]["errors"] == 0 and busy[kind]["errors"] == 0, report
        assert idle[kind]["n"] == CLIENTS * PER_CLIENT // 2 and busy[kind]["n"] >= idle[kind]["n"], report

"""Neo4j unreachable before a run is a clear error (stopped during one: tests/integration/test_fault_injection.py);
the whole shared corpus ingests with zero failures; a parser process that dies costs only its paper."""

from __future__ import annotations

import multiprocessing
import os
import signal
import shutil

from typer.testing import CliRunner

import extractors.pipeline
from cli.main import app
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor, discover
from kg.workers.sandbox import WORKER_DIED
from kg.settings import get_settings
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, value  # noqa: F401
from tests.neo4j_harness import free_port
from tests.pdf_factory import one_column_paper, write

SMALL_CORPUS_PAPERS = ("sp_mooney05.pdf", "sp_mono04.pdf", "sp_bunescu-acl07.pdf", "grobid_Wang-paperAVE2008.pdf")


def test_unreachable_neo4j_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERKG_NEO4J_URI", f"bolt://127.0.0.1:{free_port()}")
    # a password, so that the missing one (no server was ever started here) is not the error instead
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", "any-password")
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["ingest", str(SAMPLE_A)])
    finally:
        get_settings.cache_clear()
    assert result.exit_code != 0
    assert "cannot reach Neo4j" in str(result.exception) or "cannot reach Neo4j" in result.output


def test_the_whole_shared_corpus_ingests_without_failure(ingest_settings, driver, corpus_dir):
    files = list(discover([corpus_dir]))
    report = Ingestor(ingest_settings, Graph(driver), workers=2, embed=False).run(files)
    failed = [(os.path.basename(p.path), p.reason) for p in report.papers if p.status == "failed"]
    assert not failed  # the paper set in bitmap Type3 fonts too (extractors/bitmap_fonts.py)
    assert report.count("ingested") + report.count("unchanged") == len(files) == 52
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == report.count("ingested")
    assert value(driver, "MATCH (p:Paper) WHERE NOT (p)-[:HAS_CHUNK|HAS_SECTION]->() RETURN count(p)") == 0


def test_a_paper_whose_parser_process_dies_fails_alone_and_the_run_goes_on(ingest_settings, driver, tmp_path,
                                                                          monkeypatch):
    # The worker processes are forked from this one, so they inherit the patched parse: for one file it kills its
    # own process with SIGKILL (as the kernel's OOM killer, or a segfault in a native library, would end it).
    assert multiprocessing.get_start_method() == "fork", "this test injects the crash through a forked worker"
    crasher = write(tmp_path, "kills-its-worker.pdf", one_column_paper()[0])
    real_parse = extractors.pipeline.parse_pdf

    def parse_or_die(path, *args, **kwargs):
        if os.path.basename(path) == crasher.name:
            os.kill(os.getpid(), signal.SIGKILL)
        return real_parse(path, *args, **kwargs)

    monkeypatch.setattr(extractors.pipeline, "parse_pdf", parse_or_die)
    report = Ingestor(ingest_settings, Graph(driver), workers=2, embed=False).run([SAMPLE_A, crasher, SAMPLE_B])
    assert [(p.path, p.status) for p in report.papers] == [
        (str(SAMPLE_A), "ingested"), (str(crasher), "failed"), (str(SAMPLE_B), "ingested")]
    assert (report.papers[1].reason, report.papers[1].error_code) == (WORKER_DIED, "PARSER_CRASHED") and not report.ok
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 2
    assert value(driver, "MATCH (r:IngestRun {status: 'failed'}) RETURN r.error") == WORKER_DIED


def test_a_parser_process_killed_from_outside_mid_run_costs_no_paper(ingest_settings, driver, corpus_dir, tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    for source in [SAMPLE_A, SAMPLE_B, *(corpus_dir / name for name in SMALL_CORPUS_PAPERS)]:
        shutil.copy(source, folder / source.name)
    killed: list[int] = []

    def kill_a_worker(outcome):  # after the first paper, with more papers in flight and still to submit
        if not killed:
            victim = min(p.pid for p in multiprocessing.active_children())
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    report = Ingestor(ingest_settings, Graph(driver), workers=2, embed=False, on_paper=kill_a_worker).run([folder])
    assert killed and [(p.path, p.reason) for p in report.papers if p.status != "ingested"] == [] and report.ok
    assert report.count("ingested") == 6 == value(driver, "MATCH (p:Paper) RETURN count(p)")

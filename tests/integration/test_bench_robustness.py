"""`kg bench robustness` end to end with tiny bounds, as a user runs it: it starts its own Neo4j and `kg serve`, and
its JSON report has every phase, no 5xx, nothing left of the malformed uploads, and a killed run whose reported
papers are the graph's."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench.malformed_pdfs import MALFORMED
from tests.ingest_support import SAMPLE_A, SAMPLE_B
from tests.pdf_factory import one_column_paper, write

pytestmark = pytest.mark.integration

KINDS = ["truncated.pdf", "not-a-pdf.pdf"]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    corpus = tmp_path_factory.mktemp("corpus")
    for sample in (SAMPLE_A, SAMPLE_B):
        (corpus / sample.name).write_bytes(sample.read_bytes())
    write(corpus, "third.pdf", one_column_paper()[0])
    out = tmp_path_factory.mktemp("results")
    done = subprocess.run([sys.executable, "-m", "cli", "bench", "robustness", "--corpus", str(corpus),
                           "--out", str(out), "--examples", "1", *[a for k in KINDS for a in ("--kind", k)],
                           "--papers", "2", "--uploads", "1", "--clients", "2", "--per-client", "2",
                           "--max-seconds", "120"], cwd=out, capture_output=True, text=True, timeout=1800)
    reports = sorted(out.glob("robustness-*.json"))
    assert done.returncode in (0, 1) and len(reports) == 1, done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads(reports[0].read_text())
    assert (done.returncode == 0) == data["ok"], "the exit status says whether every invariant held"
    return data


def test_the_report_says_where_and_with_what_it_ran(report):
    assert report["machine"]["cores"] >= 1 and report["machine"]["cpu_model"]
    assert len(report["commit"].split("-")[0]) == 40
    assert report["bounds"]["examples"] == 1 and report["bounds"]["kinds"] == KINDS
    assert set(report["seconds"]) == {"fuzz", "malformed", "faults", "load"}
    assert report["invariants"] and report["ok"] == all(report["invariants"].values())


def test_fuzzing_reached_every_operation_without_a_5xx(report):
    fuzzed = report["fuzz"]
    assert fuzzed["operations"] > 10 and fuzzed["cases"] >= 2 * fuzzed["operations"]  # each without and with a key
    assert fuzzed["server_errors"] == 0, fuzzed["failures"]
    assert all(f["key"] in ("none", "admin") and f["status"] < 500 for f in fuzzed["failures"])


def test_malformed_uploads_fail_alone_and_leave_nothing(report):
    bad = report["malformed"]
    assert [row["file"] for row in bad["files"]] == KINDS
    rows = {row["file"]: row for row in bad["files"]}
    assert rows["not-a-pdf.pdf"]["http_status"] == 422
    assert rows["not-a-pdf.pdf"]["error_code"] == MALFORMED["not-a-pdf.pdf"][1]
    assert rows["truncated.pdf"]["http_status"] == 202 and rows["truncated.pdf"]["job_status"] == "failed"
    assert all(row["health"] == 200 for row in bad["files"] + bad["bad_names"])
    assert [row["error_code"] for row in bad["bad_names"]] == ["INVALID_FILE_NAME"] * len(bad["bad_names"])
    assert bad["server_errors"] == 0
    assert bad["papers_left"] == [] and bad["stored_pdfs_left"] == [] and bad["spool_files_left"] == []
    assert report["invariants"]["malformed: nothing left in graph, store or spool"]


def test_the_killed_run_reports_what_the_graph_holds_and_the_next_ingest_finishes(report):
    """bench.faults as the fault tests would run it on a killable server; here is its one run in the suite."""
    faults = report["faults"]
    assert faults["killed"] and len(faults["papers"]) == 2
    assert "cannot reach Neo4j" in faults["stopped"] and "again" in faults["stopped"]
    committed = set(faults["reported_committed"])
    assert faults["papers"][0] in committed and set(faults["reported"]) <= set(faults["papers"])
    assert faults["reported_committed"] == faults["in_graph_after_restart"], "the report names exactly what committed"
    assert faults["cut_mid_write"] and faults["reported"][faults["cut_mid_write"]] == "failed"
    assert faults["partial_papers_after_restart"] == [] and faults["partial_papers_after_next_ingest"] == []
    assert faults["next_ingest"]["exit_status"] == 0, faults["next_ingest"]["stderr"]
    assert faults["next_ingest"]["papers"] == {name: "unchanged" if name in committed else "ingested"
                                               for name in faults["papers"]}
    assert sorted(faults["in_graph_after_next_ingest"]) == sorted(faults["papers"])
    assert faults["api_health_after_restart"] == 200


def test_the_load_ran_idle_and_under_writes(report):
    load = report["load"]
    for phase in ("idle", "writes"):
        assert load[phase]["ask"]["n"] >= 2 and load[phase]["node"]["n"] >= 2  # 2 clients, 2 requests each
        assert load[phase]["ask"]["p95_ms"] >= load[phase]["ask"]["p50_ms"] > 0
    assert [job["status"] for job in load["jobs"]] == ["succeeded"] and load["reingest_exit"] == 0
    assert load["errors"] == 0
    assert set(load["p95_ratio"]) == {"ask", "node"}

"""One transaction per paper: a failure in the middle of a paper's write leaves nothing of that paper, and
a bad PDF fails alone. Both are reported and recorded as failed runs."""

from __future__ import annotations

import json


from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from tests.ingest_support import (SAMPLE_A, SAMPLE_B, hooked, ingest_settings, kg_ingest_json, run_ingest,  # noqa: F401
                                  value)


class Boom(RuntimeError):
    pass


def test_failure_mid_paper_writes_nothing_of_it(ingest_settings, driver):
    sha = file_sha256(SAMPLE_A)
    statements = []

    def fail_after_nodes(n: int) -> None:
        statements.append(n)
        if n == 1:  # the first batch (the nodes) was sent in the transaction
            raise Boom("injected failure after the first write batch")

    try:
        Ingestor(ingest_settings, Graph(driver), workers=0, embed=False,
                 writer=hooked(fail_after_nodes)).run([SAMPLE_A])
    except Boom:
        pass
    else:
        raise AssertionError("the injected failure did not surface")
    assert statements == [0, 1]  # 0: the paper's state was read, before any write
    assert value(driver, "MATCH (n) WHERE n.paper_sha256 = $sha AND NOT n:IngestRun RETURN count(n)", sha=sha) == 0
    assert value(driver, "MATCH ()-[r]->() RETURN count(r)") == 0
    assert value(driver, "MATCH (a:Author) RETURN count(a)") == 0

    report = run_ingest(ingest_settings, driver, [SAMPLE_A])  # the rerun finishes the job
    assert report.count("ingested") == 1
    assert value(driver, "MATCH (n) WHERE n.paper_sha256 = $sha AND NOT n:IngestRun RETURN count(n)", sha=sha) > 10


def test_a_bad_pdf_fails_alone_with_its_reason_and_a_nonzero_exit(ingest_settings, driver, tmp_path, monkeypatch):
    folder = tmp_path / "papers"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "broken.pdf").write_bytes(b"%PDF-1.7\nthis is not really a PDF\n")
    (folder / "good.pdf").write_bytes(SAMPLE_B.read_bytes())
    (folder / "notes.txt").write_text("not a PDF, not picked up")
    result = kg_ingest_json(ingest_settings, monkeypatch, folder)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert (report["ingested"], report["failed"], report["ok"]) == (1, 1, False)
    failed = next(p for p in report["papers"] if p["status"] == "failed")
    assert failed["path"].endswith("broken.pdf") and failed["reason"]
    assert value(driver, "MATCH (p:Paper) RETURN p.file_name") == "good.pdf"
    run = driver.execute_query("MATCH (r:IngestRun {status: 'failed'}) RETURN r.error AS error, r.paper_sha256 AS sha"
                               ).records[0]
    assert run["error"] == failed["reason"] and run["sha"] == failed["sha256"]

"""Neo4j killed (SIGKILL) in the middle of a curator's edit, or stopped in the middle of an ingest run: nothing
partial is left, no acknowledged edit is lost, the run says which papers committed, and the next `kg ingest`
finishes. Killed in the middle of a paper's write transaction: bench.faults, run once in the suite by
tests/integration/test_bench_robustness.py."""

from __future__ import annotations

import os

from fastapi.testclient import TestClient

import kg.curation.operations
from api.app import create_app
from bench.neo4j import kill_neo4j
from kg.db import store
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from kg.db.schema import init_schema
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.curation_support import as_role, curated_settings
from tests.ingest_support import SAMPLE_A, SAMPLE_B, run_ingest, value
from tests.pdf_factory import one_column_paper, write
from tests.sample_graph import sample_graph

CURATOR = as_role("curator")


def test_neo4j_stopping_mid_run_leaves_no_partial_paper_and_a_rerun_finishes(killable_neo4j, tmp_path):
    """Neo4j stops once the first paper is in. The second was being written beside it (two papers at once): it
    committed or it did not, never in part; the third is written only after the stop and fails with the run."""
    server = killable_neo4j
    settings = server.settings.model_copy(update={"data_dir": tmp_path / "data"})
    third = write(tmp_path, "third.pdf", one_column_paper()[0])
    files = [SAMPLE_A, SAMPLE_B, third]
    with store.connect(settings) as driver:
        def stop_after_first(outcome):
            if outcome.status == "ingested" and outcome.path == str(SAMPLE_A):
                server.stop()

        report = Ingestor(settings, Graph(driver), workers=0, embed=False, on_paper=stop_after_first).run(files)
        assert report.papers[0].path == str(SAMPLE_A) and report.papers[0].status == "ingested"
        assert not report.ok and "cannot reach Neo4j" in report.stopped and "again" in report.stopped
        ingested = {p.path for p in report.papers if p.status == "ingested"}
        assert str(third) not in ingested
    server.start()
    with store.connect(settings) as driver:
        assert set(value(driver, "MATCH (p:Paper) RETURN collect(p.file_name)")) == {os.path.basename(p)
                                                                                    for p in ingested}
        assert value(driver, "MATCH (r:IngestRun) RETURN count(r)") == len(ingested)
        rerun = run_ingest(settings, driver, files)
        assert [p.status for p in rerun.papers] == ["unchanged" if str(f) in ingested else "ingested"
                                                    for f in files] and rerun.ok
        assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 3


def test_neo4j_killed_mid_edit_loses_no_acknowledged_edit_and_leaves_no_half_edit(killable_neo4j, tmp_path, monkeypatch):
    server = killable_neo4j
    schema = get_schema()
    with store.connect(server.settings) as driver:
        init_schema(Graph(driver), schema, server.settings.embedding_dim)
        assert write_graph(Graph(driver), *sample_graph(), schema).ok
    settings = curated_settings(server.settings, data_dir=tmp_path / "data")
    with TestClient(create_app(settings), base_url="http://localhost") as client:  # the Host a loopback API answers
        version = client.get("/curation/nodes/task_lm", headers=CURATOR).headers["ETag"]
        done = client.patch("/curation/nodes/task_lm", json={"properties": {"name": "language modelling"}},
                            headers={**CURATOR, "If-Match": version})
        assert done.status_code == 200, done.text

        record = kg.curation.operations.record

        def killed_before_the_event(tx, event, nodes):  # the change is made, its history event not yet
            kill_neo4j(server)
            return record(tx, event, nodes)

        monkeypatch.setattr(kg.curation.operations, "record", killed_before_the_event)
        before = client.get("/curation/nodes/method_srt", headers=CURATOR)
        srt, srt_name = before.headers["ETag"], before.json()["properties"]["name"]
        cut = client.patch("/curation/nodes/method_srt", json={"properties": {"name": "SRT"}},
                           headers={**CURATOR, "If-Match": srt})
        assert cut.status_code == 503, cut.text
        assert cut.json()["error"]["code"] == "DATABASE_UNAVAILABLE"
        monkeypatch.setattr(kg.curation.operations, "record", record)

        server.start()
        with store.connect(server.settings) as driver:
            names = dict(driver.execute_query("MATCH (n) WHERE n.id IN ['task_lm', 'method_srt'] "
                                              "RETURN n.id, n.name").records)
            assert names == {"task_lm": "language modelling", "method_srt": srt_name}
        history = client.get("/curation/history", headers=CURATOR).json()
        assert [(event["action"], "task_lm" in event["element"]) for event in history] == [("edit", True)], \
            "one event per committed edit, none for the cut one"

        again = client.patch("/curation/nodes/method_srt", json={"properties": {"name": "SRT"}},
                             headers={**CURATOR, "If-Match": srt})
        assert again.status_code == 200, again.text

"""Neo4j killed (SIGKILL) in the middle of a paper's write transaction and of a curator's edit: nothing partial is
left, no acknowledged edit is lost, the run says which papers committed, and the next `kg ingest` finishes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import kg.curation.operations
from api.app import create_app
from bench.faults import neo4j_killed_mid_ingest
from bench.neo4j import kill_neo4j, own_neo4j
from kg import store
from kg.schema import init_schema
from kg.write import write_graph
from ontology.loader import get_schema
from tests.curation_support import as_role, curated_settings
from tests.ingest_support import SAMPLE_A, SAMPLE_B
from tests.neo4j_harness import local_settings
from tests.pdf_factory import one_column_paper, write
from tests.sample_graph import sample_graph

CURATOR = as_role("curator")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, of its own: the tests kill it."""
    with own_neo4j(local_settings(tmp_path_factory.mktemp("killed-neo4j"))) as own:
        yield own


@pytest.fixture
def emptied(server):
    server.start()  # a no-op unless a test left it killed
    with store.connect(server.settings) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
    return server


def test_neo4j_killed_mid_ingest_leaves_no_partial_paper_and_the_next_ingest_finishes(emptied, tmp_path):
    server = emptied
    settings = server.settings.model_copy(update={"data_dir": tmp_path / "data"})
    files = [SAMPLE_A, SAMPLE_B, write(tmp_path, "third.pdf", one_column_paper()[0])]
    report = neo4j_killed_mid_ingest(server, settings, files)
    assert report["killed"], "Neo4j was never killed mid-write"
    assert "cannot reach Neo4j" in report["stopped"] and "again" in report["stopped"]
    committed = set(report["reported_committed"])
    assert SAMPLE_A.name in committed
    assert set(report["reported"]) <= {f.name for f in files}
    assert report["cut_mid_write"] and report["reported"][report["cut_mid_write"]] == "failed", \
        "the paper cut off mid-write is reported"
    assert set(report["in_graph_after_restart"]) == committed, "the report names exactly what committed"
    assert report["partial_papers_after_restart"] == [], "part of a paper that did not commit is in the graph"
    assert report["next_ingest"]["exit_status"] == 0, report["next_ingest"]["stderr"]
    assert report["next_ingest"]["papers"] == {f.name: "unchanged" if f.name in committed else "ingested"
                                               for f in files}
    assert sorted(report["in_graph_after_next_ingest"]) == sorted(f.name for f in files)
    assert report["partial_papers_after_next_ingest"] == []


def test_neo4j_killed_mid_edit_loses_no_acknowledged_edit_and_leaves_no_half_edit(emptied, tmp_path, monkeypatch):
    server = emptied
    schema = get_schema()
    with store.connect(server.settings) as driver:
        init_schema(driver, schema, server.settings.embedding_dim)
        assert write_graph(driver, *sample_graph(), schema).ok
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

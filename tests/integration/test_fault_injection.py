"""Neo4j killed (SIGKILL) in the middle of a paper's write transaction and of a curator's edit: nothing partial is
left, no acknowledged edit is lost, the run says which papers committed, and the next `kg ingest` finishes."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import kg.curation.operations
from api.app import create_app
from cli.main import app
from kg import store
from kg.filestore import file_sha256
from kg.ingest import Ingestor
from kg.schema import init_schema
from kg.settings import get_settings
from kg.write import write_graph
from ontology.loader import get_schema
from tests.curation_support import as_role, curated_settings
from tests.fault_support import kill_neo4j, own_neo4j
from tests.ingest_support import SAMPLE_A, SAMPLE_B, value
from tests.pdf_factory import one_column_paper, write
from tests.sample_graph import sample_graph

CURATOR = as_role("curator")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, of its own: the tests kill it."""
    with own_neo4j(tmp_path_factory.mktemp("killed-neo4j")) as own:
        yield own


@pytest.fixture
def emptied(server):
    server.start()  # a no-op unless a test left it killed
    with store.connect(server.settings) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
    return server


def test_neo4j_killed_mid_ingest_leaves_no_partial_paper_and_the_next_ingest_finishes(emptied, tmp_path,
                                                                                     monkeypatch):
    server = emptied
    settings = server.settings.model_copy(update={"data_dir": tmp_path / "data"})
    files = [SAMPLE_A, SAMPLE_B, write(tmp_path, "third.pdf", one_column_paper()[0])]
    committed: list[str] = []
    killed: list[int] = []

    def kill_in_a_later_write(statement: int) -> None:
        # After the first paper committed, in the next paper's transaction once its nodes were sent.
        if committed and not killed and statement == 1:
            killed.append(kill_neo4j(server))

    def note(outcome) -> None:
        if outcome.status == "ingested":
            committed.append(outcome.path)

    with store.connect(settings, max_transaction_retry_time=2.0) as driver:
        report = Ingestor(settings, driver, workers=0, embed=False, on_paper=note,
                          on_batch=kill_in_a_later_write).run(files)
    assert killed, "Neo4j was never killed mid-write"
    assert not report.ok and "cannot reach Neo4j" in report.stopped and "again" in report.stopped
    statuses = {p.path: p.status for p in report.papers}
    ingested = {path for path, status in statuses.items() if status == "ingested"}
    assert str(SAMPLE_A) in ingested and "failed" in statuses.values(), "the paper cut off mid-write is reported"
    assert set(statuses) | {str(f) for f in files} == {str(f) for f in files}

    server.start()  # recovery from the transaction log
    with store.connect(settings) as driver:
        in_graph = {r["sha"] for r in driver.execute_query("MATCH (p:Paper) RETURN p.sha256 AS sha").records}
        assert in_graph == {file_sha256(path) for path in ingested}, "the report names exactly what committed"
        for path in files:
            if str(path) not in ingested:
                assert value(driver, "MATCH (n) WHERE n.paper_sha256 = $sha AND NOT n:IngestRun RETURN count(n)",
                             sha=file_sha256(path)) == 0, f"part of {path.name} was left in the graph"

    monkeypatch.setenv("PAPERKG_NEO4J_URI", settings.uri)
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.setenv("PAPERKG_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    try:
        rerun = CliRunner().invoke(app, ["ingest", "--workers", "1", "--no-embed", "--json", *map(str, files)])
    finally:
        get_settings.cache_clear()
    assert rerun.exit_code == 0, rerun.output
    second = {p["path"]: p["status"] for p in json.loads(rerun.stdout)["papers"]}
    assert second == {str(f): "unchanged" if str(f) in ingested else "ingested" for f in files}
    with store.connect(settings) as driver:
        assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 3


def test_neo4j_killed_mid_edit_loses_no_acknowledged_edit_and_leaves_no_half_edit(emptied, tmp_path, monkeypatch):
    server = emptied
    schema = get_schema()
    with store.connect(server.settings) as driver:
        init_schema(driver, schema, server.settings.embedding_dim)
        assert write_graph(driver, *sample_graph(), schema).ok
    settings = curated_settings(server.settings, data_dir=tmp_path / "data")
    with TestClient(create_app(settings), base_url="http://localhost") as client:
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

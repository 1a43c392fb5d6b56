"""Changing an entity's label, and the filtered history feed, through the REST API against a real Neo4j holding the
hand-made sample graph; the graph is read back from Neo4j after each step."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from extractors.semantic.canonical import entity_id
from kg.curation import history
from kg.curation.operations import Curation
from kg.curation.relabel import relabel
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from ontology.loader import get_schema
from tests.curation_support import ANY_VERSION, as_role, curated_settings, error_of, graph_dump
from tests.integration.test_duplicates import PAPER_A
from tests.pdf_factory import entities_paper, write

CURATOR, ADMIN = as_role("curator"), as_role("admin")
CURATOR_ANY = {**CURATOR, **ANY_VERSION}
AS_DATASET = entity_id("Dataset", "Transformer")  # where method_transformer goes as a Dataset


@pytest.fixture
def client(sample_db, neo4j_settings, tmp_path):
    app = create_app(curated_settings(neo4j_settings, data_dir=tmp_path / "data"))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def node(driver, node_id: str) -> tuple[list[str], dict] | None:
    rows = driver.execute_query("MATCH (n {id: $id}) RETURN labels(n) AS labels, properties(n) AS p",
                                id=node_id).records
    return (rows[0]["labels"], rows[0]["p"]) if rows else None


def edges(driver, node_id: str) -> set[tuple[str, str, str]]:
    """The node's content edges as (source, type, target): the history's links are not content."""
    rows = driver.execute_query("MATCH (s)-[r]->(t) WHERE $id IN [s.id, t.id] AND type(r) <> 'WAS_REVISION_OF' "
                                "RETURN s.id AS s, type(r) AS type, t.id AS t", id=node_id).records
    return {(r["s"], r["type"], r["t"]) for r in rows}


def drop_of_method(driver) -> None:
    """A Result's OF_METHOD has no Dataset form: without it, method_transformer may become a Dataset."""
    driver.execute_query("MATCH (:Result {id: 'res_a2'})-[r:OF_METHOD]->(:Method {id: 'method_transformer'}) DELETE r")


def test_a_relabel_refused_by_the_ontology_names_the_edges_and_changes_nothing(client, sample_db):
    before = graph_dump(sample_db)
    relabel = "/curation/nodes/method_transformer/relabel"
    error = error_of(client.post(relabel, json={"label": "Dataset"}, headers=CURATOR_ANY), 422, "INVALID_EDIT")
    assert error["details"]["edges"] == ["res_a2|OF_METHOD|method_transformer (Result-OF_METHOD->Dataset)"]
    assert "res_a2|OF_METHOD|method_transformer" in error["message"]
    for label in ("Paper", "Nonsense"):
        error = error_of(client.post(relabel, json={"label": label}, headers=CURATOR_ANY), 422, "INVALID_EDIT")
        assert error["details"]["reason"] == "UNKNOWN_LABEL"
    error_of(client.post(relabel, json={"label": "Dataset"}, headers=CURATOR), 428, "PRECONDITION_REQUIRED")
    error_of(client.post(relabel, json={"label": "Dataset"}, headers={**CURATOR, "If-Match": '"0000000000000000"'}),
             409, "CONFLICT")
    error_of(client.post("/curation/nodes/fig_a1/relabel", json={"label": "Dataset"}, headers=CURATOR_ANY), 422,
             "INVALID_EDIT")  # not an entity
    error_of(client.post(relabel, json={"label": "Dataset", "extra": 1}, headers=CURATOR_ANY), 422,
             "INVALID_REQUEST")
    assert graph_dump(sample_db) == before
    assert history.read(Graph(sample_db)) == []


def test_relabel_creates_the_node_moves_its_edges_rejects_the_old_and_undo_restores(client, sample_db):
    drop_of_method(sample_db)
    before = graph_dump(sample_db)
    _, old = node(sample_db, "method_transformer")
    version = client.get("/curation/nodes/method_transformer", headers=CURATOR).json()["version"]
    done = client.post("/curation/nodes/method_transformer/relabel", json={"label": "Dataset", "reason": "a corpus"},
                       headers={**CURATOR, "If-Match": f'"{version}"'})
    assert done.status_code == 200, done.text
    assert done.json()["element"]["key"] == AS_DATASET

    labels, new = node(sample_db, AS_DATASET)
    assert labels == ["Dataset"]
    assert (new["name"], new["aliases"], new["verification_status"]) == ("Transformer", ["vanilla Transformer"],
                                                                         "edited")
    assert edges(sample_db, AS_DATASET) == {("paper_a", "USES", AS_DATASET)}
    moved = sample_db.execute_query("MATCH (:Paper {id: 'paper_a'})-[r:USES]->(:Dataset {id: $id}) "
                                    "RETURN properties(r) AS p", id=AS_DATASET).records[0]["p"]
    assert (moved["confidence"], moved["source_chunk_ids"]) == (0.7, ["chunk_a2"])  # the sample's USES
    labels, tomb = node(sample_db, "method_transformer")
    assert labels == ["Method"] and tomb["verification_status"] == "rejected"
    assert tomb["name"] == old["name"]
    assert edges(sample_db, "method_transformer") == set()
    [event] = history.read(Graph(sample_db), element="method_transformer")
    assert (event.action, event.actor, event.reason) == ("relabel", "alice", "a corpus")
    assert event.elements == ["method_transformer", AS_DATASET]

    undone = client.post(f"/curation/undo/{event.id}", headers=CURATOR)
    assert undone.status_code == 200, undone.text
    assert undone.json()["element"]["key"] == "method_transformer"
    assert graph_dump(sample_db) == before
    assert node(sample_db, AS_DATASET) is None
    again = history.read(Graph(sample_db), limit=1)[0]
    error = error_of(client.post(f"/curation/undo/{again.id}", headers=CURATOR), 422, "INVALID_EDIT")
    assert error["details"]["reason"] == "NOT_UNDOABLE"


def test_relabel_into_an_existing_node_merges_and_undo_restores_both(client, sample_db):
    drop_of_method(sample_db)
    sample_db.execute_query(
        "MATCH (b:Paper {id: 'paper_b'}), (d:Dataset {id: 'dataset_pg19'}) "
        "CREATE (n:Dataset) SET n = d {.*, id: $id, name: 'Transformer', aliases: ['TF corpus']} "
        "CREATE (b)-[r:USES]->(n) SET r = {confidence: 0.5, extractor: 'paperkg-semantic@1', "
        "verification_status: 'auto', paper_sha256: b.sha256, source_chunk_ids: ['chunk_b1'], pages: [1], "
        "bboxes: []}", id=AS_DATASET)
    before = graph_dump(sample_db)
    done = client.post("/curation/nodes/method_transformer/relabel", json={"label": "Dataset"}, headers=CURATOR_ANY)
    assert done.status_code == 200, done.text
    _, merged = node(sample_db, AS_DATASET)
    assert merged["aliases"] == ["TF corpus", "vanilla Transformer"]
    assert merged["verification_status"] == "edited"
    assert edges(sample_db, AS_DATASET) == {("paper_a", "USES", AS_DATASET), ("paper_b", "USES", AS_DATASET)}
    assert node(sample_db, "method_transformer")[1]["verification_status"] == "rejected"

    event = history.read(Graph(sample_db), limit=1)[0]
    assert client.post(f"/curation/undo/{event.id}", headers=CURATOR).status_code == 200
    assert graph_dump(sample_db) == before


def test_relabel_into_a_rejected_node_is_refused(client, sample_db):
    drop_of_method(sample_db)
    sample_db.execute_query("CREATE (n:Dataset {id: $id, name: 'Transformer', verification_status: 'rejected'})",
                            id=AS_DATASET)
    before = graph_dump(sample_db)
    error_of(client.post("/curation/nodes/method_transformer/relabel", json={"label": "Dataset"},
                         headers=CURATOR_ANY), 409, "CONFLICT")
    assert graph_dump(sample_db) == before


def test_undo_of_a_relabel_refuses_when_the_new_node_changed(client, sample_db):
    drop_of_method(sample_db)
    relabeled = client.post("/curation/nodes/method_transformer/relabel", json={"label": "Dataset"},
                            headers=CURATOR_ANY).json()["event"]["id"]
    client.post(f"/curation/nodes/{AS_DATASET}/verify", headers=CURATOR_ANY)
    changed = graph_dump(sample_db)
    error_of(client.post(f"/curation/undo/{relabeled}", headers=CURATOR), 409, "CONFLICT")
    assert graph_dump(sample_db) == changed


# ------------------------------------------------------------------ the history feed

def test_the_history_feed_filters_by_actor_operation_time_and_element(client, sample_db):
    start = datetime.now(timezone.utc)
    client.post("/curation/nodes/fig_a1/verify", headers=CURATOR_ANY)
    client.post("/curation/nodes/tab_a1/flag", json={"reason": "caption cut"}, headers={**ADMIN, **ANY_VERSION})
    client.post("/curation/nodes/tab_a1/verify", headers=CURATOR_ANY)

    def feed(**params) -> list[tuple[str, str, str]]:
        answer = client.get("/curation/history", params=params, headers=CURATOR)
        assert answer.status_code == 200, answer.text
        return [(e["actor"], e["action"], e["element"]) for e in answer.json()]

    assert feed() == [("alice", "verify", "tab_a1"), ("ada", "flag", "tab_a1"), ("alice", "verify", "fig_a1")]
    assert feed(actor="ada") == [("ada", "flag", "tab_a1")]
    assert feed(operation="verify") == [("alice", "verify", "tab_a1"), ("alice", "verify", "fig_a1")]
    assert feed(operation="verify", element="fig_a1") == [("alice", "verify", "fig_a1")]
    assert feed(actor="ada", operation="verify") == []
    assert len(feed(since=start.isoformat())) == 3
    assert feed(since=(start + timedelta(hours=1)).isoformat()) == []
    assert feed(limit=1) == [("alice", "verify", "tab_a1")]

    for bad in ({"operation": "delete_everything"}, {"since": "2026-01-01T00:00:00"}, {"since": "yesterday"},
                {"limit": 0}, {"limit": 501}, {"actor": "x" * 501}):
        error = error_of(client.get("/curation/history", params=bad, headers=CURATOR), 422, "INVALID_REQUEST")
        assert error["details"][0]["loc"] == ["query", *bad]
    error_of(client.get("/curation/history", params={"operation": "verify"}), 401, "UNAUTHENTICATED")


def test_the_operations_the_feed_filters_by_are_served(client):
    """The /ui feed's filter lists these: each is a filter the feed takes, and the actions of this file's tests
    (verify, flag, relabel) are among them."""
    answer = client.get("/curation/operations", headers=CURATOR)
    assert answer.status_code == 200, answer.text
    assert {"verify", "flag", "relabel", "undo"} <= set(answer.json())
    for operation in answer.json():
        assert client.get("/curation/history", params={"operation": operation}, headers=CURATOR).status_code == 200
    error_of(client.get("/curation/operations"), 401, "UNAUTHENTICATED")


def test_a_relabel_survives_a_forced_reingest(schema_db, neo4j_settings, tmp_path):
    """The paper proposes the entity under its old label again: the old node stays rejected and unlinked, the
    relabelled node keeps its edges."""
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    pdf = write(tmp_path, "a.pdf", entities_paper("Citation Graphs at Scale", PAPER_A))
    assert Ingestor(settings, Graph(schema_db), workers=0, embed=False).run([pdf]).count("ingested") == 1
    [row] = schema_db.execute_query("MATCH (d:Method) WHERE toLower(d.name) = 'cnn' "
                                    "RETURN d.id AS id, d.name AS name").records
    cur = Curation(Graph(schema_db), get_schema(), "alice")
    relabel(cur, row["id"], "Dataset", reason="a corpus")
    new_id = entity_id("Dataset", row["name"])
    moved = edges(schema_db, new_id)
    assert moved
    Ingestor(settings, Graph(schema_db), workers=0, embed=False, force=True).run([pdf])
    assert node(schema_db, row["id"])[1]["verification_status"] == "rejected"
    assert edges(schema_db, row["id"]) == set()
    assert edges(schema_db, new_id) == moved

"""Curation through the REST API against the real app and a real Neo4j holding the hand-made sample graph:
every operation, its history event, undo, merge and split, optimistic locking and access control."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.curation import history
from kg.curation.operations import Curation
from kg.db.graph import Graph
from kg.export.graph_read import read_graph
from ontology.loader import get_schema
from tests.curation_support import ANY_VERSION, as_role, curated_settings, error_of, graph_dump
from tests.sample_graph import SHA_B, sample_graph

CURATOR, ADMIN, READER = as_role("curator"), as_role("admin"), as_role("reader")
CURATOR_ANY, ADMIN_ANY = {**CURATOR, **ANY_VERSION}, {**ADMIN, **ANY_VERSION}  # changes not about versions


@pytest.fixture
def client(sample_db, neo4j_settings, tmp_path):
    app = create_app(curated_settings(neo4j_settings, data_dir=tmp_path / "data"))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def props(driver, node_id: str) -> dict:
    return driver.execute_query("MATCH (n {id: $id}) RETURN properties(n) AS p", id=node_id).records[0]["p"]


def edge_id(driver, source: str, rel_type: str, target: str) -> str:
    return driver.execute_query("MATCH ({id: $s})-[r]->({id: $t}) WHERE type(r) = $type RETURN elementId(r) AS id",
                                s=source, t=target, type=rel_type).records[0]["id"]


# ------------------------------------------------------------------ access control

def test_curation_needs_a_curator_key_and_deletes_an_admin_key(client, sample_db):
    error_of(client.post("/curation/nodes/fig_a1/verify"), 401, "UNAUTHENTICATED")
    error_of(client.post("/curation/nodes/fig_a1/verify", headers={"X-API-Key": "guessed"}), 401, "UNAUTHENTICATED")
    error_of(client.post("/curation/nodes/fig_a1/verify", headers={**READER, **ANY_VERSION}), 403, "FORBIDDEN")
    cites = edge_id(sample_db, "paper_b", "CITES", "paper_a")
    error_of(client.delete(f"/curation/edges/{cites}", headers=CURATOR_ANY), 403, "FORBIDDEN")
    error_of(client.delete("/papers/paper_b"), 401, "UNAUTHENTICATED")
    error_of(client.delete("/papers/paper_b", headers=CURATOR), 403, "FORBIDDEN")
    assert props(sample_db, "fig_a1")["verification_status"] == "auto"
    assert client.get("/papers").status_code == 200  # reads open by default
    assert client.get("/curation/whoami", headers={"Authorization": "Bearer key-of-rita-reader"}).json() == \
        {"name": "rita", "role": "reader"}


def test_reads_can_require_a_key(sample_db, neo4j_settings, tmp_path):
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data", api_read_key_required=True)
    with TestClient(create_app(settings), base_url="http://localhost") as keyed:
        error_of(keyed.get("/papers"), 401, "UNAUTHENTICATED")
        assert keyed.get("/papers", headers=READER).json()["total"] == 2
        assert keyed.get("/health").status_code == 200


def test_the_actor_is_the_key_never_the_body(client):
    error_of(client.post("/curation/nodes/fig_a1/verify", json={"actor": "mallory"}, headers=CURATOR_ANY), 422,
             "INVALID_REQUEST")


# ------------------------------------------------------------------ operations and their events

def test_verify_records_an_attributed_event_linked_to_the_node(client, sample_db):
    response = client.post("/curation/nodes/fig_a1/verify", json={"reason": "checked on page 2"},
                           headers={**CURATOR_ANY, "X-Request-ID": "req-verify-1"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["element"]["properties"]["verification_status"] == "verified"
    assert response.headers["ETag"] == f'"{body["element"]["version"]}"'
    event = body["event"]
    assert (event["action"], event["actor"], event["reason"], event["request_id"], event["element"]) == \
        ("verify", "alice", "checked on page 2", "req-verify-1", "fig_a1")
    assert event["old"]["verification_status"] == "auto" and event["new"]["verification_status"] == "verified"
    assert props(sample_db, "fig_a1")["verification_status"] == "verified"
    links = sample_db.execute_query("""
        MATCH (c:Curator)<-[:WAS_ATTRIBUTED_TO]-(ev:CurationEvent {id: $id})-[:WAS_REVISION_OF]->(n)
        RETURN c.id AS curator, collect(n.id) AS revised""", id=event["id"]).records[0]
    assert (links["curator"], links["revised"]) == ("alice", ["fig_a1"])
    assert [e["id"] for e in client.get("/curation/nodes/fig_a1/history", headers=CURATOR).json()] == [event["id"]]
    assert client.get("/nodes/fig_a1").json()["properties"]["verification_status"] == "verified"
    around = client.get("/nodes/fig_a1/neighbours").json()
    assert sorted(n["id"] for n in around["nodes"]) == ["chunk_a1", "fig_a1", "method_srt", "paper_a"]  # no ledger
    again = client.post("/curation/nodes/fig_a1/verify", headers=CURATOR_ANY).json()
    assert again["event"] is None  # nothing changed, nothing recorded


def test_edit_is_validated_by_the_ontology(client, sample_db):
    ok = client.patch("/curation/nodes/method_srt", json={"properties": {"name": "Sparse Routing Transformers"},
                                                          "reason": "plural in the paper"}, headers=CURATOR_ANY)
    assert ok.status_code == 200, ok.text
    assert props(sample_db, "method_srt")["name"] == "Sparse Routing Transformers"
    assert props(sample_db, "method_srt")["verification_status"] == "edited"
    assert ok.json()["event"]["old"]["name"] == "Sparse Routing Transformer"
    cases = [({"confidence": 0.5}, "NOT_EDITABLE", "confidence"), ({"name": 5}, "INVALID_VALUE", "name"),
             ({"colour": "red"}, "UNKNOWN_PROPERTY", "colour"), ({"name": None}, "MISSING_PROPERTY", "name")]
    for changes, reason, prop in cases:
        error = error_of(client.patch("/curation/nodes/method_srt", json={"properties": changes}, headers=CURATOR_ANY),
                         422, "INVALID_EDIT")
        assert (error["details"]["reason"], error["details"]["property"]) == (reason, prop)
    assert props(sample_db, "method_srt")["name"] == "Sparse Routing Transformers"
    error_of(client.patch("/curation/nodes/no_such_node", json={"properties": {"name": "x"}}, headers=CURATOR_ANY),
             404, "NOT_FOUND")


def test_a_stale_version_gets_409_with_the_current_state(client, sample_db):
    v1 = client.get("/curation/nodes/task_lm", headers=CURATOR).headers["ETag"]
    first = client.patch("/curation/nodes/task_lm", json={"properties": {"name": "language modelling"}},
                         headers={**CURATOR, "If-Match": v1})
    assert first.status_code == 200
    stale = client.patch("/curation/nodes/task_lm", json={"properties": {"name": "LM"}},
                         headers={**CURATOR, "If-Match": v1})
    error = error_of(stale, 409, "CONFLICT")
    assert error["details"]["current"]["properties"]["name"] == "language modelling"
    assert f'"{error["details"]["current"]["version"]}"' == first.headers["ETag"] != v1
    assert props(sample_db, "task_lm")["name"] == "language modelling"


def test_flag_unflag_and_reject(client, sample_db):
    error_of(client.post("/curation/nodes/res_a2/flag", json={}, headers=CURATOR_ANY), 422, "INVALID_EDIT")
    client.post("/curation/nodes/res_a2/verify", headers=CURATOR_ANY)
    flagged = client.post("/curation/nodes/res_a2/flag", json={"reason": "36.1 is for another model"},
                          headers=CURATOR_ANY)
    assert flagged.json()["element"]["properties"]["verification_status"] == "flagged"
    queue = client.get("/curation/queue", headers=CURATOR).json()
    assert (queue[0]["kind"], queue[0]["element"], queue[0]["label"]) == ("flagged", "res_a2", "Result")
    assert [i["element"] for i in queue if i["kind"] == "same_as"] == [
        edge_id(sample_db, "method_srt_dup", "SAME_AS", "method_srt")]
    assert [i for i in queue if i["kind"] == "low_confidence"] == []  # 0.6 is not below the default threshold 0.6
    unflagged = client.post("/curation/nodes/res_a2/unflag", headers=CURATOR_ANY).json()
    assert unflagged["element"]["properties"]["verification_status"] == "verified"  # as before the flag
    error_of(client.post("/curation/nodes/res_a2/unflag", headers=CURATOR_ANY), 409, "CONFLICT")
    rejected = client.post("/curation/nodes/res_a2/reject", json={"reason": "wrong row"}, headers=CURATOR_ANY).json()
    assert props(sample_db, "res_a2")["verification_status"] == "rejected"
    actions = [e["action"] for e in client.get("/curation/nodes/res_a2/history", headers=CURATOR).json()]
    assert actions == ["reject", "unflag", "flag", "verify"] and rejected["event"]["reason"] == "wrong row"


def test_undo_restores_the_exact_prior_state(client, sample_db):
    before = props(sample_db, "dataset_pg19")
    edit = client.patch("/curation/nodes/dataset_pg19", json={"properties": {"aliases": ["PG19"]}}, headers=CURATOR_ANY)
    assert props(sample_db, "dataset_pg19")["aliases"] == ["PG19"]
    undo = client.post(f"/curation/undo/{edit.json()['event']['id']}", headers=CURATOR)
    assert undo.status_code == 200, undo.text
    assert props(sample_db, "dataset_pg19") == before
    assert undo.json()["event"]["undoes"] == edit.json()["event"]["id"]
    error_of(client.post(f"/curation/undo/{edit.json()['event']['id']}", headers=CURATOR), 409, "CONFLICT")
    error_of(client.post("/curation/undo/cur_nope", headers=CURATOR), 404, "NOT_FOUND")
    history = client.get("/curation/history", params={"element": "dataset_pg19"}, headers=CURATOR).json()
    assert [(e["action"], e["undone_by"]) for e in history] == [("undo", None), ("edit", undo.json()["event"]["id"])]


def test_undo_refuses_when_the_element_changed_since(client, sample_db):
    edit = client.patch("/curation/nodes/metric_ppl", json={"properties": {"name": "PPL"}}, headers=CURATOR_ANY).json()
    client.patch("/curation/nodes/metric_ppl", json={"properties": {"name": "Perplexity"}}, headers=CURATOR_ANY)
    error = error_of(client.post(f"/curation/undo/{edit['event']['id']}", headers=CURATOR), 409, "CONFLICT")
    assert error["details"]["current"]["properties"]["name"] == "Perplexity"


def test_add_and_remove_edges(client, sample_db):
    added = client.post("/curation/edges", json={"source": "paper_b", "type": "USES", "target": "method_srt",
                                                 "reason": "section 3 uses SRT"}, headers=CURATOR)
    assert added.status_code == 201, added.text
    edge = added.json()["element"]
    assert (edge["key"], edge["properties"]["extractor"], edge["properties"]["verification_status"],
            edge["properties"]["paper_sha256"]) == ("paper_b|USES|method_srt", "curator:alice@paperkg", "verified", SHA_B)
    error_of(client.post("/curation/edges", json={"source": "paper_b", "type": "USES", "target": "method_srt"},
                         headers=CURATOR), 409, "CONFLICT")
    bad = error_of(client.post("/curation/edges", json={"source": "fig_a1", "type": "USES", "target": "method_srt"},
                               headers=CURATOR), 422, "INVALID_EDIT")
    assert bad["details"]["reason"] == "INVALID_ENDPOINTS"
    unknown = error_of(client.post("/curation/edges", json={"source": "paper_b", "type": "LIKES", "target": "method_srt"},
                                   headers=CURATOR), 422, "INVALID_EDIT")
    assert unknown["details"]["reason"] == "NOT_IN_SCHEMA"

    before = graph_dump(sample_db)
    cites = edge_id(sample_db, "paper_b", "CITES", "paper_a")
    removed = client.delete(f"/curation/edges/{cites}", params={"reason": "self-citation noise"}, headers=ADMIN_ANY)
    assert removed.status_code == 200 and removed.json()["element"] is None
    assert graph_dump(sample_db) != before
    assert client.post(f"/curation/undo/{removed.json()['event']['id']}", headers=CURATOR).status_code == 200
    assert graph_dump(sample_db) == before
    keyed = client.get(f"/curation/edges/{edge_id(sample_db, 'paper_b', 'CITES', 'paper_a')}/history", headers=CURATOR)
    assert [e["action"] for e in keyed.json()] == ["undo", "remove_edge"]


def test_verify_and_reject_an_edge(client, sample_db):
    uses = edge_id(sample_db, "paper_a", "USES", "method_transformer")
    verified = client.post(f"/curation/edges/{uses}/verify", headers=CURATOR_ANY)
    assert verified.json()["element"]["properties"]["verification_status"] == "verified"
    assert verified.json()["event"]["element"] == "paper_a|USES|method_transformer"


def test_retype_an_edge_within_the_ontology_and_undo_it(client, sample_db):
    before = graph_dump(sample_db)
    uses = edge_id(sample_db, "paper_a", "USES", "method_transformer")
    retype = f"/curation/edges/{uses}/retype"
    wrong = error_of(client.post(retype, json={"type": "HAS_SECTION"}, headers=CURATOR_ANY), 422, "INVALID_EDIT")
    assert wrong["details"]["reason"] == "INVALID_ENDPOINTS"
    unknown = error_of(client.post(retype, json={"type": "LIKES"}, headers=CURATOR_ANY), 422, "INVALID_EDIT")
    assert unknown["details"]["reason"] == "UNKNOWN_TYPE"
    error_of(client.post(retype, json={"type": "PROPOSES"}, headers=CURATOR), 428, "PRECONDITION_REQUIRED")
    assert graph_dump(sample_db) == before

    old = sample_db.execute_query("MATCH ()-[r]->() WHERE elementId(r) = $id RETURN properties(r) AS p",
                                  id=uses).records[0]["p"]
    done = client.post(retype, json={"type": "PROPOSES", "reason": "the paper introduces it"}, headers=CURATOR_ANY)
    assert done.status_code == 200, done.text
    assert done.json()["element"]["key"] == "paper_a|PROPOSES|method_transformer"
    edges = {r["type"]: r["p"] for r in sample_db.execute_query(
        "MATCH ({id: 'paper_a'})-[r]->({id: 'method_transformer'}) RETURN type(r) AS type, properties(r) AS p").records}
    assert set(edges) == {"USES", "PROPOSES"}
    assert edges["USES"]["verification_status"] == "rejected"  # kept, so a re-ingest does not bring it back
    assert edges["PROPOSES"]["verification_status"] == "edited"
    assert {k: edges["PROPOSES"][k] for k in ("confidence", "extractor", "source_chunk_ids", "paper_sha256")} == \
        {k: old[k] for k in ("confidence", "extractor", "source_chunk_ids", "paper_sha256")}
    [event] = history.read(Graph(sample_db), element="paper_a|USES|method_transformer")
    assert (event.action, event.actor, event.reason) == ("retype", "alice", "the paper introduces it")
    assert set(event.elements) == {"paper_a|USES|method_transformer", "paper_a|PROPOSES|method_transformer"}
    error_of(client.post(retype, json={"type": "PROPOSES"}, headers=CURATOR_ANY), 409, "CONFLICT")  # exists now

    undone = client.post(f"/curation/undo/{event.id}", headers=CURATOR)
    assert undone.status_code == 200, undone.text
    assert undone.json()["element"]["key"] == "paper_a|USES|method_transformer"
    assert graph_dump(sample_db) == before


def test_merge_then_split_restores_the_graph(client, sample_db):
    before = graph_dump(sample_db)
    merged = client.post("/curation/merge", json={"survivor": "method_srt", "duplicate": "method_srt_dup",
                                                  "reason": "same method"}, headers=CURATOR_ANY)
    assert merged.status_code == 200, merged.text
    survivor = props(sample_db, "method_srt")
    assert (survivor["aliases"], survivor["verification_status"]) == (["SRT", "SRT model"], "edited")
    assert props(sample_db, "method_srt_dup")["verification_status"] == "rejected"
    dup_edges = sample_db.execute_query("""MATCH (d {id: 'method_srt_dup'})-[r]-(m) WHERE NOT m:CurationEvent
        RETURN type(r) AS type, m.id AS other, r.verification_status AS status""").records
    assert [tuple(r.values()) for r in dup_edges] == [("SAME_AS", "method_srt", "verified")]
    queue = client.get("/curation/queue", headers=CURATOR).json()
    assert [i for i in queue if i["kind"] == "same_as"] == []  # the candidate is resolved
    error_of(client.post("/curation/merge", json={"survivor": "method_srt", "duplicate": "dataset_pg19"},
                         headers=CURATOR_ANY), 422, "INVALID_EDIT")

    split = client.post(f"/curation/split/{merged.json()['event']['id']}", headers=CURATOR)
    assert split.status_code == 200, split.text
    assert split.json()["event"]["action"] == "split"
    assert graph_dump(sample_db) == before


def test_rejected_elements_are_absent_from_answers(client, sample_db):
    question = {"question": "Which datasets does the paper use?", "paper_id": "paper_a"}
    before = client.post("/ask", json=question).json()
    assert before["answer"] == "The paper uses / evaluates on: PG-19."
    client.post("/curation/nodes/dataset_pg19/reject", json={"reason": "not a dataset of this paper"},
                headers=CURATOR_ANY)
    after = client.post("/ask", json=question).json()
    assert (after["answer"], after["intent"]) == (None, "search")  # the graph no longer supports an answer
    assert "dataset_pg19" not in {n["id"] for n in after["graph"]["nodes"]}
    assert client.get("/nodes/dataset_pg19").json()["properties"]["verification_status"] == "rejected"


def test_a_rejected_chunk_is_not_evidence(client, sample_db):
    """Retrieval returns chunk fields, not nodes: the filter on rejected chunks must be in its Cypher."""
    question = {"question": "What is routing attention restricted to?", "paper_id": "paper_a"}
    before = client.post("/ask", json=question).json()
    assert before["evidence"][0]["chunk_id"] == "chunk_a2" and "clustered keys" in before["answer"]
    client.post("/curation/nodes/chunk_a2/reject", json={"reason": "garbled text"}, headers=CURATOR_ANY)
    after = client.post("/ask", json=question).json()
    assert "chunk_a2" not in {e["chunk_id"] for e in after["evidence"]}
    assert "clustered keys" not in (after["answer"] or "")
    located = client.get("/locate", params={"q": "clustered keys", "paper_id": "paper_a"}).json()["items"]
    assert "chunk_a2" not in {item["element_id"] for item in located}

    # an answer from the graph cites the chunks its edge names: the edge stays, its rejected chunk goes
    graph_question = {"question": "Which datasets does the paper use?", "paper_id": "paper_a"}
    cited = client.post("/ask", json=graph_question).json()
    assert cited["answer"] == "The paper uses / evaluates on: PG-19." and \
        [e["chunk_id"] for e in cited["evidence"]] == ["chunk_a3"]
    client.post("/curation/nodes/chunk_a3/reject", json={"reason": "wrong page"}, headers=CURATOR_ANY)
    uncited = client.post("/ask", json=graph_question).json()
    assert uncited["answer"] == cited["answer"] and uncited["evidence"] == []


def test_rejected_elements_are_left_out_of_exports(client, sample_db):
    client.post("/curation/nodes/method_srt_dup/reject", headers=CURATOR_ANY)
    client.post(f"/curation/edges/{edge_id(sample_db, 'paper_a', 'USES', 'method_transformer')}/reject",
                headers=CURATOR_ANY)
    nodes, edges = read_graph(Graph(sample_db), get_schema())
    assert "method_srt_dup" not in {n.id for n in nodes} and len(nodes) == len(sample_graph()[0]) - 1
    assert {e.key for e in edges} == {e.key for e in sample_graph()[1]} - {
        ("method_srt_dup", "SAME_AS", "method_srt"), ("paper_a", "USES", "method_transformer")}
    all_nodes, all_edges = read_graph(Graph(sample_db), get_schema(), include_rejected=True)
    assert (len(all_nodes), len(all_edges)) == (len(sample_graph()[0]), len(sample_graph()[1]))


def test_concurrent_curators_never_lose_an_edit(sample_db):
    """Eight curators edit one node at once without If-Match: the element lock serialises them, so every edit
    is recorded and each event's old value is exactly the previous event's new value."""
    def edit(i: int):
        cur = Curation(Graph(sample_db), get_schema(), f"curator{i}")
        return cur.edit(cur.node_ref("task_lm"), {"aliases": [f"alias {i}"]}).event.id

    with ThreadPoolExecutor(8) as pool:
        ids = set(pool.map(edit, range(8)))
    events = list(reversed(history.read(Graph(sample_db), element="task_lm")))
    assert {e.id for e in events} == ids and len(events) == 8
    assert events[0].old["aliases"] == ["LM"]
    assert all(later.old["aliases"] == earlier.new["aliases"] for earlier, later in zip(events, events[1:]))
    assert props(sample_db, "task_lm")["aliases"] == events[-1].new["aliases"]


def test_undo_of_a_split_restores_the_merge_exactly(client, sample_db):
    before = graph_dump(sample_db)
    merge = client.post("/curation/merge", json={"survivor": "method_srt", "duplicate": "method_srt_dup"},
                        headers=CURATOR_ANY).json()["event"]
    merged = graph_dump(sample_db)
    split = client.post(f"/curation/split/{merge['id']}", headers=CURATOR).json()["event"]
    assert graph_dump(sample_db) == before

    undo = client.post(f"/curation/undo/{split['id']}", headers=CURATOR)
    assert undo.status_code == 200, undo.text
    assert (undo.json()["event"]["action"], undo.json()["event"]["undoes"]) == ("undo", split["id"])
    assert graph_dump(sample_db) == merged
    assert props(sample_db, "method_srt_dup")["verification_status"] == "rejected"
    error_of(client.post(f"/curation/undo/{split['id']}", headers=CURATOR), 409, "CONFLICT")

    # The re-merge is a merge like the first: splitting it gives the graph before the merge again.
    again = client.post(f"/curation/split/{undo.json()['event']['id']}", headers=CURATOR)
    assert again.status_code == 200, again.text
    assert graph_dump(sample_db) == before


def test_undo_of_a_split_refuses_when_the_split_state_changed(client, sample_db):
    merge = client.post("/curation/merge", json={"survivor": "method_srt", "duplicate": "method_srt_dup"},
                        headers=CURATOR_ANY).json()["event"]
    split = client.post(f"/curation/split/{merge['id']}", headers=CURATOR).json()["event"]
    client.patch("/curation/nodes/method_srt_dup", json={"properties": {"name": "SRT (renamed)"}}, headers=CURATOR_ANY)
    error = error_of(client.post(f"/curation/undo/{split['id']}", headers=CURATOR), 409, "CONFLICT")
    assert error["details"]["current"]["properties"]["name"] == "SRT (renamed)"
    assert props(sample_db, "method_srt_dup")["name"] == "SRT (renamed)"


def test_export_shows_rejected_elements_only_when_asked(client, sample_db):
    client.post("/curation/nodes/dataset_pg19/reject", json={"reason": "not a dataset"}, headers=CURATOR_ANY)
    hidden = client.get("/export/graphml")
    assert hidden.status_code == 200 and "dataset_pg19" not in hidden.text
    shown = client.get("/export/graphml", params={"include_rejected": "true"})
    assert shown.status_code == 200 and "dataset_pg19" in shown.text and ">rejected<" in shown.text
    paper = client.get("/export/graphml", params={"paper_id": "paper_a", "include_rejected": "true"}).text
    assert "dataset_pg19" in paper and "dataset_pg19" not in client.get("/export/graphml", params={"paper_id": "paper_a"}).text


def test_unknown_elements_and_events_are_404(client):
    error_of(client.post("/curation/nodes/no_such_node/verify", headers=CURATOR_ANY), 404, "NOT_FOUND")
    error_of(client.post("/curation/edges/not-an-edge-id/flag", json={"reason": "x"}, headers=CURATOR_ANY), 404,
             "NOT_FOUND")
    error_of(client.post("/curation/edges", json={"source": "no_such_node", "type": "USES", "target": "method_srt"},
                         headers=CURATOR), 404, "NOT_FOUND")
    error_of(client.post("/curation/merge", json={"survivor": "method_srt", "duplicate": "no_such_node"},
                         headers=CURATOR_ANY), 404, "NOT_FOUND")
    error_of(client.post("/curation/split/cur_nope", headers=CURATOR), 404, "NOT_FOUND")
    verified = client.post("/curation/nodes/fig_a1/verify", headers=CURATOR_ANY).json()["event"]["id"]
    error = error_of(client.post(f"/curation/split/{verified}", headers=CURATOR), 422, "INVALID_EDIT")
    assert error["details"]["reason"] == "NOT_A_MERGE"

"""Every REST endpoint against the real app and a real Neo4j holding the hand-made sample graph, with the
exact values that graph implies, and every error path: unknown ids, invalid bodies, writes in /cypher,
and Neo4j down."""

from __future__ import annotations

import os
import signal
import time

import pymupdf
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.db.filestore import PDFStore
from kg.db.graph import Graph
from kg.settings import Settings
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.neo4j_harness import free_port
from tests.pdf_factory import one_column_paper
from tests.sample_graph import SHA_A, sample_graph


@pytest.fixture(scope="module")
def sample_db(driver, reset_db):
    """The sample graph, written once for this module: its tests only read (writes in /cypher are refused, and
    the upload test deletes the paper it adds)."""
    reset_db()
    schema = get_schema()
    nodes, edges = sample_graph()
    assert write_graph(Graph(driver), nodes, edges, schema).ok
    return driver


def with_admin(settings: Settings) -> tuple[Settings, dict]:
    """Settings and headers of an admin caller where the API checks keys (issue 8), else unchanged."""
    if "api_keys" not in Settings.model_fields:
        return settings, {}
    from kg.auth.apikeys import entry, new_key

    key = new_key()
    return settings.model_copy(update={"api_keys": entry("test-admin", "admin", key)}), {"X-API-Key": key}


@pytest.fixture(scope="module")
def admin(neo4j_settings, tmp_path_factory):
    """The app's settings (over a data dir whose store holds a 7-page PDF under paper_a's hash, for evidence
    pictures) and the headers of an admin caller."""
    tmp = tmp_path_factory.mktemp("api")
    pdf = pymupdf.open()
    for n in range(7):
        pdf.new_page(width=612, height=792).insert_text((72, 120), f"page {n + 1} text")
    pdf.save(tmp / "a.pdf")
    PDFStore(tmp / "data").put(tmp / "a.pdf", SHA_A)
    return with_admin(neo4j_settings.model_copy(update={"data_dir": tmp / "data", "qa_vectors": False}))


@pytest.fixture(scope="module")
def client(sample_db, admin):
    with TestClient(create_app(admin[0]), base_url="http://localhost") as test_client:
        yield test_client


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    return body["error"]


# ------------------------------------------------------------------ papers

def test_list_and_search_papers_paginated(client):
    page = client.get("/papers", params={"limit": 1}).json()
    assert page["total"] == 2 and page["offset"] == 0 and page["limit"] == 1
    assert [p["id"] for p in page["items"]] == ["paper_b"]  # ordered by title: "A Benchmark..." first
    second = client.get("/papers", params={"limit": 1, "offset": 1}).json()
    assert [(p["id"], p["authors"]) for p in second["items"]] == [("paper_a", ["Ada Lee", "Bo Kim"])]
    found = client.get("/papers", params={"q": "routing"}).json()
    assert [p["title"] for p in found["items"]] == ["Sparse Routing Transformers"]


def test_get_paper_with_authors_section_tree_and_counts(client):
    body = client.get("/papers/paper_a").json()
    assert body["paper"]["doi"] == "10.1234/srt" and "embedding" not in body["paper"]
    assert [a["name"] for a in body["authors"]] == ["Ada Lee", "Bo Kim"]
    tree = [(s["number"], [c["number"] for c in s["children"]]) for s in body["sections"]]
    assert tree == [("1", []), ("2", ["2.1"]), ("3", [])]
    counts = body["counts"]
    assert (counts["chunks"], counts["sections"], counts["has_figure"], counts["has_table"], counts["proposes"]) == \
        (3, 4, 2, 1, 1)


def test_a_paper_lists_its_entities_central_ones_first(client):
    """The sample graph's salience: SRT 0.93, PG-19 0.71, perplexity 0.55, language modeling 0.31 (central), the
    Transformer it uses 0.08 (not central)."""
    entities = client.get("/papers/paper_a").json()["entities"]
    assert [(e["name"], e["role"], e["central"]) for e in entities] == [
        ("Sparse Routing Transformer", "PROPOSES", True), ("PG-19", "EVALUATES_ON", True),
        ("perplexity", "MEASURES", True), ("language modeling", "ADDRESSES", True), ("Transformer", "USES", False)]
    assert entities[0] == {"id": "method_srt", "label": "Method", "name": "Sparse Routing Transformer",
                           "role": "PROPOSES", "confidence": 0.92, "salience": 0.93, "central": True}


def test_unknown_paper_is_404(client, admin):
    error = error_of(client.get("/papers/nope"), 404, "NOT_FOUND")
    assert error["message"] == "no paper matches 'nope' by id, DOI, arXiv id or title"
    error_of(client.delete("/papers/nope", headers=admin[1]), 404, "NOT_FOUND")
    error_of(client.get("/coverage/nope"), 404, "NOT_FOUND")
    error_of(client.post("/ask", json={"question": "What is SRT?", "paper_id": "nope"}), 404, "NOT_FOUND")
    # a question no intent takes goes to retrieval, whose one query checks the paper: 404 too, not an answer
    # from every paper
    searched = error_of(client.post("/ask", json={"question": "How are long documents handled?", "paper_id": "nope"}),
                        404, "NOT_FOUND")
    assert searched["message"] == "no paper matches 'nope' by id, DOI, arXiv id or title"


def test_upload_that_is_not_a_pdf_is_refused(client, admin):
    error_of(client.post("/papers", files={"file": ("notes.pdf", b"hello", "application/pdf")}, headers=admin[1]),
             422, "NOT_A_PDF")
    error_of(client.post("/papers", headers=admin[1]), 422, "INVALID_REQUEST")


def test_upload_ingests_as_a_job_then_delete(client, admin):
    data, _ = one_column_paper()
    job = client.post("/papers", files={"file": ("synthetic.pdf", data, "application/pdf")}, headers=admin[1])
    assert job.status_code == 202 and job.json()["status"] in ("queued", "running")
    deadline = time.time() + 240
    while (state := client.get(f"/jobs/{job.json()['id']}").json())["status"] in ("queued", "running"):
        assert time.time() < deadline, state
        time.sleep(0.5)
    assert state["status"] == "succeeded", state
    paper = client.get(f"/papers/{state['paper_id']}").json()
    assert paper["paper"]["file_name"] == "synthetic.pdf" and paper["counts"]["chunks"] > 0
    deleted = client.delete(f"/papers/{state['paper_id']}", headers=admin[1]).json()
    assert deleted["paper_id"] == state["paper_id"] and deleted["nodes_deleted"] > 0 and deleted["pdf_removed"]
    error_of(client.get(f"/papers/{state['paper_id']}"), 404, "NOT_FOUND")
    error_of(client.get("/jobs/unknown"), 404, "NOT_FOUND")


# ------------------------------------------------------------------ nodes, edges, evidence

def test_node_with_provenance_and_name_search(client):
    node = client.get("/nodes/chunk_a3").json()
    assert node["labels"] == ["Chunk"] and node["paper_id"] == "paper_a"
    assert node["properties"]["bboxes"] == ["5:72,300,540,350"] and node["properties"]["extractor"] == "paperkg-test@1.0"
    found = client.get("/nodes", params={"q": "PG19"}).json()
    assert [n["id"] for n in found["items"]] == ["dataset_pg19"] and found["total"] == 1
    methods = client.get("/nodes", params={"q": "SRT", "label": "Method"}).json()
    assert {n["id"] for n in methods["items"]} == {"method_srt", "method_srt_dup"}
    error_of(client.get("/nodes/nope"), 404, "NOT_FOUND")
    error_of(client.get("/nodes/method_nope"), 404, "NOT_FOUND")  # names a label, is not in it nor in any other
    error_of(client.get("/nodes", params={"q": "SRT", "label": "Spaceship"}), 400, "INVALID_QUERY")


def test_node_whose_id_does_not_name_its_label(client):
    """Ids are `<label>_<hash>` and the lookup seeks that label only; other ids (an ingest run's) still resolve."""
    run = client.get("/nodes/run_a").json()
    assert run["labels"] == ["IngestRun"] and run["properties"]["status"] == "succeeded"
    around = client.get("/nodes/run_a/neighbours").json()
    assert [(e["type"], e["source"], e["target"]) for e in around["edges"]] == [("GENERATED_BY", "paper_a", "run_a")]


def test_neighbours_one_and_two_hops_filtered(client):
    one = client.get("/nodes/dataset_pg19/neighbours", params={"label": "Paper"}).json()
    assert sorted(n["id"] for n in one["nodes"]) == ["dataset_pg19", "paper_a", "paper_b"]
    assert sorted(e["type"] for e in one["edges"]) == ["EVALUATES_ON", "USES"]
    two = client.get("/nodes/method_srt/neighbours",
                     params={"hops": 2, "type": ["PROPOSES", "HAS_FIGURE"], "label": "Figure"}).json()
    assert sorted(n["id"] for n in two["nodes"]) == ["fig_a1", "fig_a2", "method_srt", "paper_a"]
    error_of(client.get("/nodes/method_srt/neighbours", params={"hops": 3}), 422, "INVALID_REQUEST")
    error_of(client.get("/nodes/nope/neighbours"), 404, "NOT_FOUND")


def test_edge_by_id_with_provenance(client):
    edges = client.get("/nodes/method_srt/neighbours", params={"type": "PROPOSES"}).json()["edges"]
    edge = client.get(f"/edges/{edges[0]['id']}").json()
    assert (edge["type"], edge["source"], edge["target"]) == ("PROPOSES", "paper_a", "method_srt")
    assert edge["properties"]["source_chunk_ids"] == ["chunk_a1"] and edge["properties"]["confidence"] == 0.92
    error_of(client.get("/edges/not-an-element-id"), 404, "NOT_FOUND")


def test_evidence_text_of_a_chunk_and_of_an_edge_source(client):
    body = client.get("/evidence/chunk_a2").json()
    assert [(c["chunk_id"], c["section"], c["title"]) for c in body["chunks"]] == \
        [("chunk_a2", "Routing Attention", "Sparse Routing Transformers")]
    assert [c["chunk_id"] for c in client.get("/evidence/exp_a1").json()["chunks"]] == ["chunk_a3"]
    error_of(client.get("/evidence/nope"), 404, "NOT_FOUND")


def test_evidence_png_renders_the_highlighted_region(client):
    response = client.get("/evidence/chunk_a3.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    image = pymupdf.Pixmap(response.content)
    assert (image.width, image.height) == (2 * (540 + 36 - 36), 2 * (350 + 36 - 264))  # box + margin, 2x zoom
    assert client.get("/evidence/fig_a1.png").status_code == 200
    error_of(client.get("/evidence/method_srt.png"), 404, "NOT_FOUND")  # a shared entity has no page
    error_of(client.get("/evidence/chunk_b1.png"), 404, "NOT_FOUND")  # paper_b's PDF is not stored


# ------------------------------------------------------------------ ask, locate, coverage

def test_ask_intent_answer_with_evidence_graph_and_cypher(client):
    body = client.post("/ask", json={"question": "Which datasets does the paper use?", "paper_id": "paper_a"}).json()
    assert body["answer"] == "The paper uses / evaluates on: PG-19."
    assert body["intent"] == "entities_of_paper" and body["confidence"] == 0.85
    assert [(e["chunk_id"], e["page"], e["bbox"], e["section"]) for e in body["evidence"]] == \
        [("chunk_a3", 5, "5:72,300,540,350", "Experiments")]
    assert {n["id"] for n in body["graph"]["nodes"]} == {"paper_a", "dataset_pg19"}
    assert any("EVALUATES_ON" in c or "$types" in c for c in body["cypher"])


def test_ask_without_support_says_so(client):
    body = client.post("/ask", json={"question": "What is the boiling point of mercury?"}).json()
    assert (body["answer"], body["confidence"], body["evidence"], body["paper_id"]) == (None, 0.0, [], None)
    assert body["reason"].startswith("no ") and body["graph"] == {"nodes": [], "edges": []}


def test_ask_invalid_bodies_are_422(client):
    error_of(client.post("/ask", json={}), 422, "INVALID_REQUEST")
    error_of(client.post("/ask", json={"question": "Why?", "top_k": 0}), 422, "INVALID_REQUEST")
    error_of(client.post("/ask", json={"question": "What is SRT?", "colour": "red"}), 422, "INVALID_REQUEST")
    error_of(client.post("/ask", content=b"not json", headers={"content-type": "application/json"}), 422,
             "INVALID_REQUEST")


def test_locate_figure_entity_and_phrase(client):
    figure = client.get("/locate", params={"q": "Figure 1", "paper_id": "paper_a"}).json()["items"]
    assert [(i["kind"], i["page"], i["element_id"]) for i in figure[:2]] == \
        [("element", 2, "fig_a1"), ("mention", 1, "chunk_a1")]
    assert figure[0]["snippet"] == "Figure 1: Overview of SRT." and figure[0]["bbox"] == "2:72,80,300,250"
    entity = client.get("/locate", params={"q": "PG-19", "paper_id": "paper_a"}).json()["items"]
    assert (entity[0]["kind"], entity[0]["page"], entity[0]["element_id"]) == ("mention", 5, "chunk_a3")
    phrase = client.get("/locate", params={"q": "clustered keys"}).json()["items"]
    assert (phrase[0]["kind"], phrase[0]["page"], phrase[0]["snippet"]) == \
        ("text", 3, "Routing attention is attention restricted to clustered keys.")
    error_of(client.get("/locate", params={"q": "x", "paper_id": "nope"}), 404, "NOT_FOUND")
    error_of(client.get("/locate"), 422, "INVALID_REQUEST")


def test_coverage_of_the_sample_paper(client):
    report = client.get("/coverage/paper_a").json()
    ratios = {c["name"]: (c["linked"], c["total"]) for c in report["categories"]}
    assert ratios == {"figures": (1, 2), "tables": (1, 1), "sections_with_concepts": (2, 4),
                      "equations_linked": (0, 1), "references_resolved": (0, 1), "text_coverage": (180, 180)}
    missing = {c["name"]: [(m["id"], m["page"]) for m in c["missing"]] for c in report["categories"]}
    assert missing["figures"] == [("fig_a2", 4)]
    assert missing["sections_with_concepts"] == [("sec_a1", 1), ("sec_a2", 2)]
    assert [m[1] for m in missing["text_coverage"]] == [2, 4, 6, 7, 8, 9]  # pages without a text chunk
    assert report["score"] == round((0.5 + 1 + 0.5 + 0 + 0 + 1) / 6, 4)
    assert report["critical"] == ["6 of 9 pages have no text chunk"]


# ------------------------------------------------------------------ read-only Cypher

def test_cypher_reads_with_a_row_limit(client):
    body = client.post("/cypher", json={"query": "MATCH (p:Paper) RETURN p.id AS id ORDER BY id"}).json()
    assert body == {"columns": ["id"], "rows": [{"id": "paper_a"}, {"id": "paper_b"}], "truncated": False,
                    "row_limit": 1000}
    limited = client.post("/cypher", json={"query": "UNWIND range(1, 5000) AS x RETURN x"}).json()
    assert len(limited["rows"]) == 1000 and limited["truncated"]
    param = client.post("/cypher", json={"query": "MATCH (n:Method {id: $id}) RETURN n.name AS name",
                                         "parameters": {"id": "method_srt"}}).json()
    assert param["rows"] == [{"name": "Sparse Routing Transformer"}]


@pytest.mark.parametrize("query", [
    "CREATE (x:Paper {id: 'evil'}) RETURN x",
    "MATCH (p:Paper) SET p.title = 'x' RETURN p",
    "MATCH (n) DETACH DELETE n",
    "CREATE INDEX evil IF NOT EXISTS FOR (n:Paper) ON (n.title)",
])
def test_cypher_writes_are_refused_and_nothing_changes(client, query):
    error_of(client.post("/cypher", json={"query": query}), 403, "QUERY_REFUSED")
    assert client.get("/papers").json()["total"] == 2
    assert client.get("/nodes/paper_a").json()["properties"]["title"] == "Sparse Routing Transformers"


def test_cypher_syntax_error_and_timeout(client, neo4j_settings, sample_db):
    error_of(client.post("/cypher", json={"query": "MATCH (p:Paper RETURN p"}), 400, "INVALID_QUERY")
    error_of(client.post("/cypher", json={"query": ""}), 422, "INVALID_REQUEST")
    slow = neo4j_settings.model_copy(update={"cypher_timeout_s": 0.5, "qa_vectors": False})
    with TestClient(create_app(slow), base_url="http://localhost") as quick:
        error_of(quick.post("/cypher", json={"query": "UNWIND range(1, 100000000) AS x WITH x WHERE x < 0 "
                                                      "RETURN count(x) AS n"}), 422, "QUERY_TIMEOUT")


# ------------------------------------------------------------------ questions in worker processes

QUESTIONS = [{"question": "Which datasets does the paper use?", "paper_id": "paper_a"},
             {"question": "How are long documents handled?"},
             {"question": "What is the boiling point of mercury?"}]


@pytest.fixture(scope="module")
def pooled(sample_db, admin):
    """The same app answering /ask in a worker process of its own, as `kg serve` runs it."""
    app = create_app(admin[0].model_copy(update={"qa_processes": 1}))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def test_questions_in_a_worker_process_get_the_same_answers(client, pooled):
    for question in QUESTIONS:
        assert pooled.post("/ask", json=question).json() == client.post("/ask", json=question).json()
    assert pooled.post("/ask", json=QUESTIONS[0]).json()["answer"] == "The paper uses / evaluates on: PG-19."


def test_errors_of_a_worker_process_keep_their_status(pooled):
    error = error_of(pooled.post("/ask", json={"question": "What is SRT?", "paper_id": "nope"}), 404, "NOT_FOUND")
    assert error["message"] == "no paper matches 'nope' by id, DOI, arXiv id or title"
    error_of(pooled.post("/ask", json={"question": "Why?", "top_k": 0}), 422, "INVALID_REQUEST")


def test_a_dead_worker_process_is_replaced(pooled):
    workers = pooled.app.state.qa.pool.pids()
    assert workers, "the workers start with the server"
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    assert pooled.post("/ask", json=QUESTIONS[0]).json()["answer"] == "The paper uses / evaluates on: PG-19."


def test_neo4j_down_is_503_from_a_worker_process(neo4j_settings):
    down = neo4j_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "qa_vectors": False,
                                             "qa_processes": 1})
    with TestClient(create_app(down), base_url="http://localhost") as client:
        error = error_of(client.post("/ask", json={"question": "What is SRT?"}), 503, "DATABASE_UNAVAILABLE")
        assert error["message"].startswith("cannot reach Neo4j at bolt://127.0.0.1:")


# ------------------------------------------------------------------ cross-cutting

def test_request_id_is_echoed_or_made(client):
    assert client.get("/health", headers={"X-Request-ID": "abc-123"}).headers["x-request-id"] == "abc-123"
    assert len(client.get("/health").headers["x-request-id"]) == 32
    error_of(client.get("/no/such/route"), 404, "NOT_FOUND")


def test_openapi_documents_the_endpoints(client):
    paths = set(client.get("/openapi.json").json()["paths"])
    assert {"/papers", "/papers/{paper_id}", "/jobs/{job_id}", "/nodes", "/nodes/{node_id}",
            "/nodes/{node_id}/neighbours", "/edges/{edge_id}", "/evidence/{element_id}", "/evidence/{element_id}.png",
            "/ask", "/locate", "/coverage/{paper_id}", "/cypher", "/health"} <= paths
    assert client.get("/docs").status_code == 200


def test_neo4j_down_is_503_with_a_clear_message(neo4j_settings):
    down = neo4j_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}", "qa_vectors": False})
    with TestClient(create_app(down), base_url="http://localhost") as client:
        for response in (client.get("/papers"), client.get("/nodes/x"),
                         client.post("/ask", json={"question": "What is SRT?"}),
                         client.post("/cypher", json={"query": "RETURN 1"})):
            error = error_of(response, 503, "DATABASE_UNAVAILABLE")
            assert error["message"].startswith("cannot reach Neo4j at bolt://127.0.0.1:")
            assert error["details"]["hint"].startswith("start the local server with `kg db start`")

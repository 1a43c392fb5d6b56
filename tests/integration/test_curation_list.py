"""The review list (GET /curation/items) against the real app and a real Neo4j holding the hand-made sample graph:
filters combine, queues pick what they promise, sorting and the seeded sample are reproducible, the progress
counts follow the curator's work, and bad parameters are refused with 422 before any query runs. The needs-attention
queue (GET /curation/queue) takes the same filters."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.curation_support import ANY_VERSION, as_role, curated_settings

CURATOR = as_role("curator")
# The sample graph's nodes a curator reviews (every label with a verification status but Chunk), by hand.
REVIEWABLE = {"paper_a", "paper_b", "author_lee", "author_kim", "sec_a1", "sec_a2", "sec_a21", "sec_a3", "fig_a1",
              "fig_a2", "tab_a1", "eq_a1", "ref_a1", "ref_b1", "method_srt", "method_transformer", "method_srt_dup",
              "dataset_pg19", "metric_ppl", "task_lm", "concept_routing", "exp_a1", "res_a1", "res_a2", "domain_nlp"}


@pytest.fixture
def client(sample_db, neo4j_settings, tmp_path):
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data", curation_low_confidence=0.65)
    with TestClient(create_app(settings), base_url="http://localhost") as test_client:
        yield test_client


def ids(client, **params) -> set[str]:
    page = listed(client, **params)
    assert page["total"] == len(page["items"]), "the test views fit one page"
    return {item["id"] for item in page["items"]}


def listed(client, **params) -> dict:
    response = client.get("/curation/items", params={"limit": 200, **params}, headers=CURATOR)
    assert response.status_code == 200, response.text
    return response.json()


def curate(client, node_id: str, action: str, reason: str | None = None) -> None:
    response = client.post(f"/curation/nodes/{node_id}/{action}", json={"reason": reason},
                           headers={**CURATOR, **ANY_VERSION})
    assert response.status_code == 200, response.text


def test_filters_combine_and_the_progress_counts_the_view(client):
    assert ids(client) == REVIEWABLE
    before = datetime.now(timezone.utc).isoformat()
    curate(client, "fig_a1", "verify")
    curate(client, "sec_a2", "reject", "not a section: a running header")
    curate(client, "ref_b1", "verify")

    # paper_b's own nodes, and the shared nodes its extracted edges point at (its author, its dataset, the paper
    # it cites)
    assert ids(client, paper="paper_b") == {"paper_b", "ref_b1", "author_kim", "dataset_pg19", "paper_a"}
    assert ids(client, paper="A Benchmark for Long Documents") == ids(client, paper="paper_b")  # any paper name
    assert ids(client, paper="paper_a", status=["verified", "rejected"]) == {"fig_a1", "sec_a2"}
    page = listed(client, paper="paper_a", label=["Section", "Figure"])
    assert {i["id"] for i in page["items"]} == {"sec_a1", "sec_a2", "sec_a21", "sec_a3", "fig_a1", "fig_a2"}
    assert page["progress"] == {"verified": 1, "rejected": 1, "edited": 0, "flagged": 0, "auto": 4, "total": 6}
    rejected = next(i for i in page["items"] if i["id"] == "sec_a2")
    assert (rejected["status"], rejected["last_action"], rejected["reason"]) == \
        ("rejected", "reject", "not a section: a running header")
    assert [p["id"] for p in rejected["papers"]] == ["paper_a"]
    assert ids(client, paper="paper_a", label=["Section"], status=["auto"]) == {"sec_a1", "sec_a21", "sec_a3"}
    assert ids(client, q="ROUTING") == {"sec_a21", "method_srt", "concept_routing", "paper_a", "ref_b1"}
    assert ids(client, q="routing", label=["Method"]) == {"method_srt"}
    assert ids(client, min_confidence=0.5, max_confidence=0.7) == {"method_srt_dup"}
    assert ids(client, min_confidence=0.95, label=["Paper"]) == {"paper_a", "paper_b"}
    assert ids(client, changed_since=before) == {"fig_a1", "sec_a2", "ref_b1"}
    assert ids(client, changed_since=before, paper="paper_b") == {"ref_b1"}
    assert ids(client, extractor="paperkg-test") == REVIEWABLE
    assert ids(client, extractor="curator:") == set()


def test_queues_pick_what_they_promise(client):
    impact = listed(client, queue="high_impact")["items"]
    # named by the extracted edges of both papers: the shared author, the shared dataset, the cited paper
    assert {i["id"] for i in impact} == {"author_kim", "dataset_pg19", "paper_a"}
    assert {i["paper_count"] for i in impact} == {2}
    assert ids(client, queue="low_confidence") == {"method_srt_dup"}  # the only automatic node under 0.65
    curate(client, "method_srt_dup", "verify")
    assert ids(client, queue="low_confidence") == set()


def test_a_rows_paper_count_stops_at_its_cap_and_says_so(client, monkeypatch):
    """A row counts its papers up to a cap (an entity thousands of papers name would cost a read of each of their
    edges per row); past it the row says so. Filters on the number of papers still see past the cap."""
    from kg.curation import review
    monkeypatch.setattr(review, "MAX_PAPERS", 1)
    impact = listed(client, queue="high_impact")["items"]
    assert {i["id"] for i in impact} == {"author_kim", "dataset_pg19", "paper_a"}  # named by two papers
    assert {(i["paper_count"], i["more_papers"], len(i["papers"])) for i in impact} == {(1, True, 1)}
    others = [i for i in listed(client)["items"] if i["id"] not in {"author_kim", "dataset_pg19", "paper_a"}]
    assert {i["more_papers"] for i in others} == {False} and {i["paper_count"] for i in others} <= {0, 1}
    monkeypatch.setattr(review, "MAX_PAPERS", 100)
    assert {(i["paper_count"], i["more_papers"]) for i in listed(client, queue="high_impact")["items"]} == {(2, False)}


def test_sorting_and_paging(client):
    names = [i["name"].lower() for i in listed(client, sort="name")["items"]]
    assert names == sorted(names) and len(names) == len(REVIEWABLE)
    assert [i["name"].lower() for i in listed(client, sort="name", descending=True)["items"]] == names[::-1]
    confidences = [i["confidence"] for i in listed(client)["items"]]  # least sure first by default
    assert confidences[0] == 0.6 and confidences == sorted(confidences)
    first, second = listed(client, sort="name", limit=10), listed(client, sort="name", limit=10, offset=10)
    assert [i["name"].lower() for i in first["items"] + second["items"]] == names[:20]
    assert first["total"] == len(REVIEWABLE)


def test_the_sample_is_seeded_reproducible_and_pages_through_the_whole_view(client):
    sample = [i["id"] for i in listed(client, queue="sample", seed=7)["items"]]
    assert set(sample) == REVIEWABLE
    assert [i["id"] for i in listed(client, queue="sample", seed=7)["items"]] == sample
    assert [i["id"] for i in listed(client, queue="sample", seed=8)["items"]] != sample
    pages = [listed(client, queue="sample", seed=7, limit=5, offset=offset)["items"] for offset in (0, 5)]
    assert [i["id"] for page in pages for i in page] == sample[:10]
    assert [i["id"] for i in listed(client, queue="sample", seed=7, label=["Section"])["items"]] == \
        [i for i in sample if i.startswith("sec_")]


@pytest.mark.parametrize("params", [
    {"limit": 201}, {"limit": 0}, {"offset": -1}, {"queue": "everything"}, {"sort": "n.id; DROP"},
    {"label": "Chunk"}, {"label": "NoSuchLabel"}, {"status": "maybe"}, {"min_confidence": 1.5},
    {"min_confidence": 0.8, "max_confidence": 0.2}, {"changed_since": "yesterday"},
    {"changed_since": "2026-01-01T00:00:00"}, {"q": "x" * 501}, {"seed": -1}])
def test_bad_parameters_are_refused_with_422(client, params):
    response = client.get("/curation/items", params=params, headers=CURATOR)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "INVALID_REQUEST"


def test_an_unknown_paper_is_404_and_the_list_needs_a_curator(client):
    response = client.get("/curation/items", params={"paper": "no such paper"}, headers=CURATOR)
    assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"
    assert client.get("/curation/items", headers=as_role("reader")).status_code == 403
    assert client.get("/curation/items").status_code == 401


def attention(client, **params) -> list[dict]:
    response = client.get("/curation/queue", params=params, headers=CURATOR)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_needs_attention_queue_takes_the_lists_filters_and_names_papers(client, sample_db):
    """Nodes and edges of the needs-attention queue narrowed by the review list's filters; each item names its
    papers (an edge its own, a SAME_AS candidate those whose edges point at its ends)."""
    [edge] = sample_db.execute_query("MATCH (:Paper {id: 'paper_b'})-[r:USES]->(:Dataset {id: 'dataset_pg19'}) "
                                     "RETURN elementId(r) AS id").records
    curate(client, "fig_a1", "flag", "blurry")
    flagged = client.post(f"/curation/edges/{edge['id']}/flag", json={"reason": "not used"},
                          headers={**CURATOR, **ANY_VERSION})
    assert flagged.status_code == 200, flagged.text
    items = attention(client)
    by_element = {i["element"]: i for i in items}
    assert [i["kind"] for i in items[:2]] == ["flagged", "flagged"]
    assert (by_element["fig_a1"]["why"], by_element["fig_a1"]["status"]) == ("flagged by a curator: blurry", "flagged")
    assert [p["id"] for p in by_element["fig_a1"]["papers"]] == ["paper_a"]
    assert (by_element[edge["id"]]["element_kind"], by_element[edge["id"]]["why"]) == \
        ("edge", "flagged by a curator: not used")
    assert [p["id"] for p in by_element[edge["id"]]["papers"]] == ["paper_b"]
    [candidate] = [i for i in items if i["kind"] == "same_as"]
    assert [p["id"] for p in candidate["papers"]] == ["paper_a"] and candidate["status"] == "auto"
    assert by_element["method_srt_dup"]["kind"] == "low_confidence"

    assert [i["element"] for i in attention(client, paper="paper_b")] == [edge["id"]]
    assert {i["element"] for i in attention(client, status="flagged")} == {"fig_a1", edge["id"]}
    assert [i["element"] for i in attention(client, max_confidence=0.62)] == ["method_srt_dup"]
    figures = attention(client, label="Figure")
    assert "fig_a1" in {i["element"] for i in figures} and {i["label"] for i in figures} == {"Figure"}
    assert [i["element"] for i in attention(client, status="flagged", extractor="curator:")] == []
    response = client.get("/curation/queue", params={"label": "NoSuchLabel"}, headers=CURATOR)
    assert response.status_code == 422 and "label" in response.text


def test_the_queue_ends_with_what_coverage_finds_unlinked_and_its_filters_narrow_it(client, sample_db):
    """The queue's last group is the figures and tables each paper's coverage report lists as unlinked (found over
    the whole graph at once, not paper by paper), in the report's order and with its reason; the view's filters
    narrow it."""
    # an unlinked table printed before the unlinked figure: the report lists figures first all the same
    sample_db.execute_query("MATCH (t:Table {id: 'tab_a1'})-[r:SUMMARIZES]->() DELETE r SET t.page = 1")
    expected = []
    for paper in ("paper_a", "paper_b"):
        report = client.get(f"/coverage/{paper}").json()
        expected += [(m["id"], f"{m['reason']}; {m['action']}") for c in report["categories"]
                     if c["name"] in ("figures", "tables") for m in c["missing"]]
    assert [e[0] for e in expected] == ["fig_a2", "tab_a1"]
    uncovered = lambda **params: [(i["element"], i["why"]) for i in attention(client, **params)  # noqa: E731
                                  if i["kind"] == "uncovered"]
    assert uncovered() == expected
    assert uncovered(paper="paper_a") == expected and uncovered(paper="paper_b") == []
    assert uncovered(label="Table") == expected[1:] and uncovered(label="Figure") == expected[:1]
    curate(client, expected[0][0], "reject", "a logo, not a figure")
    assert uncovered(status="auto") == expected[1:]


def test_the_queue_seeks_its_groups_in_indexes_and_reads_no_label_or_type_whole(client, sample_db):
    """Every group of the queue over the whole graph is found through the ontology's range indexes (a scan of a
    label or a relationship type reads what grows with the corpus): the plans Neo4j makes hold no scan."""
    from kg.curation import cypher, queue
    from ontology.loader import get_schema
    schema = get_schema()
    labels, types = queue.curatable_labels(schema), list(schema.relationship_types)
    queries = [cypher.queue_nodes(labels, g, "n.confidence") for g in cypher.QUEUE_NODE_GROUPS]
    queries += [cypher.queue_edges(types, g) for g in cypher.QUEUE_EDGE_GROUPS]
    scans = {"AllNodesScan", "NodeByLabelScan", "UnionNodeByLabelsScan", "IntersectionNodeByLabelsScan",
             "DirectedAllRelationshipsScan", "UndirectedAllRelationshipsScan", "DirectedRelationshipTypeScan",
             "UndirectedRelationshipTypeScan", "DirectedUnionRelationshipTypesScan",
             "UndirectedUnionRelationshipTypesScan"}

    def operators(plan) -> set[str]:
        return {plan["operatorType"].split("@")[0]}.union(*(operators(c) for c in plan.get("children", [])))

    for query in queries:
        with sample_db.session() as session:
            plan = session.run("EXPLAIN " + query).consume().plan
        used = operators(plan)
        assert used & {"NodeIndexSeek", "NodeIndexScan", "NodeUniqueIndexSeek", "DirectedRelationshipIndexSeek",
                       "DirectedRelationshipIndexScan"}, used
        assert not used & scans, (used & scans, query[:200])
    assert not [i for i in attention(client, label="Figure") if i["label"] != "Figure"]


def test_a_papers_list_is_every_node_of_the_paper_and_every_node_its_edges_name(client, sample_db):
    """The list of one paper starts from the paper and follows the paper's own edges (so that its cost grows with
    the paper, not the corpus); it must still hold exactly what the filter promises: the nodes the paper owns
    (results included, which no edge points at) and the shared nodes its extracted edges point at."""
    promised = """
    MATCH (p:Paper {id: $paper}) MATCH (n) WHERE NOT n:Chunk AND n.verification_status IS NOT NULL
      AND (coalesce(n.paper_sha256, CASE WHEN n:Paper THEN n.sha256 END) = p.sha256
           OR EXISTS { MATCH (n)<-[e]-() WHERE e.paper_sha256 = p.sha256 })
    RETURN collect(n.id) AS ids"""
    for paper in ("paper_a", "paper_b"):
        expected = set(sample_db.execute_query(promised, paper=paper).records[0]["ids"])
        assert {"res_a1", "res_a2"} <= expected or paper == "paper_b"
        assert ids(client, paper=paper) == expected

"""Related papers (issue 30): `GET /papers/{id}/related` and `kg related` on three really ingested papers. A and B
use the same dataset and method and cite the same work; C is about something else and cites something else. B is
A's most related paper for those reasons, each with its contribution; C is absent or last; rejected entities count
for nothing; the paper is named as everywhere else (404, 409) and the limit is bounded (422)."""

from __future__ import annotations

import json
import math

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app as cli_app
from extractors.model import paper_id
from kg.find import related
from kg.db.filestore import file_sha256
from tests.ingest_support import run_ingest
from tests.pdf_factory import entities_paper, write

SHARED_REFERENCE = "[1] J. Doe and K. Roe. Neural Citation Graphs for Scholarly Mining. Journal of Tests, 2019."
PAPERS = {
    "a": ("Citation Intent with Graph Models",
          ["We train our model on the S2ORC dataset. We use the GraphSAGE model for citation intent classification."],
          (SHARED_REFERENCE, "[2] L. Park. Counting Words in Old Newspapers. Journal of Tests, 2015.")),
    "b": ("Citation Intent in Scholarly Text",
          ["Our experiments use the S2ORC dataset. We compare with the GraphSAGE model on citation intent "
           "classification."],
          (SHARED_REFERENCE, "[2] P. Novak. Sampling Strategies for Large Graphs. Journal of Tests, 2017.")),
    "c": ("Protein Folding from Sequence",
          ["We predict protein structures on the CASP14 benchmark with the AlphaFold model."],
          ("[1] M. Quinn. Protein Structure From Sequence Alone. Journal of Biology, 2020.",)),
}
_CITE = "MATCH (c:Paper {id: $citing}), (p:Paper) WHERE p.id IN $cited MERGE (c)-[:CITES]->(p)"
_UNCITE = "MATCH (:Paper {id: $citing})-[r:CITES]->() DELETE r"
_REJECT = "MATCH (e:Dataset) WHERE toLower(e.name) CONTAINS 's2orc' SET e.verification_status = $status RETURN count(e)"


@pytest.fixture(scope="module")
def ingested(driver, neo4j_settings, tmp_path_factory, reset_db):
    folder = tmp_path_factory.mktemp("related")
    settings = neo4j_settings.model_copy(update={"data_dir": folder / "data"})
    reset_db()
    paths = {key: write(folder, f"{key}.pdf", entities_paper(title, text, refs))
             for key, (title, text, refs) in PAPERS.items()}
    report = run_ingest(settings, driver, list(paths.values()), embed=True)
    assert report.ok, report.as_json()
    return {key: paper_id(file_sha256(path)) for key, path in paths.items()}, settings


@pytest.fixture(scope="module")
def client(ingested):
    with TestClient(create_app(ingested[1]), base_url="http://localhost") as test_client:
        yield test_client


def reason(entry: dict, kind: str) -> dict | None:
    return next((r for r in entry["reasons"] if r["kind"] == kind), None)


def test_b_ranks_first_for_a_for_the_dataset_method_and_reference_they_share(client, ingested):
    ids = ingested[0]
    response = client.get(f"/papers/{ids['a']}/related")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["paper_id"] == ids["a"] and body["title"] == PAPERS["a"][0]
    related = body["related"]
    assert related[0]["paper_id"] == ids["b"] and related[0]["title"] == PAPERS["b"][0]

    entities = reason(related[0], "entities")["entities"]
    shared = {(e["label"], e["name"].lower()) for e in entities}
    assert {("Dataset", "s2orc"), ("Method", "graphsage")} <= shared, shared
    for e in entities:  # three papers, two with an edge to the entity
        assert e["papers"] == 2 and e["idf"] == pytest.approx(math.log(1 + 3 / 2))
    assert not {e["name"].lower() for e in entities} & {"casp14", "alphafold"}

    citations = reason(related[0], "citations")
    assert [r["title"] for r in citations["shared_references"]] == ["Neural Citation Graphs for Scholarly Mining"]
    assert citations["shared_references"][0]["matched_by"] == ["title"]
    assert citations["co_cited_by"] == []  # no paper of the graph cites either

    embedding = reason(related[0], "embedding")
    assert embedding is not None and 0 < embedding["similarity"] <= 1
    for entry in related:
        weights = {r["kind"]: body["weights"][r["kind"]] for r in entry["reasons"]}
        assert entry["score"] == pytest.approx(sum(r["contribution"] for r in entry["reasons"]))
        assert all(0 < r["contribution"] <= weights[r["kind"]] for r in entry["reasons"])
    scores = [entry["score"] for entry in related]
    assert scores == sorted(scores, reverse=True)

    c = [entry for entry in related if entry["paper_id"] == ids["c"]]
    if c:  # at most by the similarity of its text, which any two papers have
        assert related[-1]["paper_id"] == ids["c"] and [r["kind"] for r in c[0]["reasons"]] == ["embedding"]


def test_the_relation_is_mutual_and_c_shares_nothing_with_a_or_b(client, ingested):
    ids = ingested[0]
    from_b = client.get(f"/papers/{ids['b']}/related").json()["related"]
    assert from_b[0]["paper_id"] == ids["a"]
    from_c = client.get(f"/papers/{ids['c']}/related").json()["related"]
    assert all([r["kind"] for r in entry["reasons"]] == ["embedding"] for entry in from_c)


def test_a_rejected_entity_counts_for_nothing(client, ingested, driver):
    ids = ingested[0]
    before = reason(client.get(f"/papers/{ids['a']}/related").json()["related"][0], "entities")
    assert driver.execute_query(_REJECT, status="rejected").records[0][0] == 1
    try:
        after = reason(client.get(f"/papers/{ids['a']}/related").json()["related"][0], "entities")
    finally:
        driver.execute_query(_REJECT, status=None)
    assert "s2orc" not in {e["name"].lower() for e in after["entities"]}
    assert len(after["entities"]) == len(before["entities"]) - 1


def test_a_paper_citing_both_makes_them_co_cited(client, ingested, driver):
    """Co-citation: C citing A and B (as ingestion links a bibliography entry to a paper of the graph by DOI)."""
    ids = ingested[0]
    driver.execute_query(_CITE, citing=ids["c"], cited=[ids["a"], ids["b"]])
    try:
        related = client.get(f"/papers/{ids['a']}/related").json()["related"]
    finally:
        driver.execute_query(_UNCITE, citing=ids["c"])
    citations = reason(related[0], "citations")
    assert related[0]["paper_id"] == ids["b"]
    assert citations["co_cited_by"] == [{"paper_id": ids["c"], "title": PAPERS["c"][0]}]
    # one shared entry of two each (0.5) or-ed with one citing paper of one each (1.0): a full score
    assert citations["contribution"] == pytest.approx(0.3)
    assert reason(related[0], "citations")["direct"] == []
    c = next(entry for entry in related if entry["paper_id"] == ids["c"])
    assert reason(c, "citations")["direct"] == ["cited_by"]  # C cites A: the strongest citation link
    assert reason(c, "citations")["contribution"] == pytest.approx(0.3)
    assert reason(c, "citations")["shared_references"] == [] and reason(c, "entities") is None


def test_the_paper_is_named_as_everywhere_else_and_the_limit_is_bounded(client, ingested):
    ids = ingested[0]
    by_title = client.get(f"/papers/{PAPERS['a'][0].lower()}/related")
    assert by_title.status_code == 200 and by_title.json()["paper_id"] == ids["a"]
    missing = client.get("/papers/Attention Is All You Need/related")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    ambiguous = client.get("/papers/citation intent/related")
    assert ambiguous.status_code == 409 and ambiguous.json()["error"]["code"] == "AMBIGUOUS_PAPER"
    assert [r["paper_id"] for r in client.get(f"/papers/{ids['a']}/related?limit=1").json()["related"]] == [ids["b"]]
    for limit in (0, 51):
        assert client.get(f"/papers/{ids['a']}/related?limit={limit}").status_code == 422


def test_kg_related_prints_the_api_json_and_a_table(client, ingested, cli_env, monkeypatch):
    ids = ingested[0]
    runner = CliRunner()
    as_json = runner.invoke(cli_app, ["related", ids["a"], "--json", "--limit", "5"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.output) == client.get(f"/papers/{ids['a']}/related?limit=5").json()

    monkeypatch.setenv("COLUMNS", "400")
    table = runner.invoke(cli_app, ["related", PAPERS["a"][0]])
    assert table.exit_code == 0, table.output
    first = next(line for line in table.output.splitlines() if ids["b"] in line)
    assert "S2ORC" in first and "GraphSAGE" in first and "1 shared reference" in first
    assert runner.invoke(cli_app, ["related", ids["a"], "--limit", "51"]).exit_code != 0


def test_the_entries_citing_the_same_work_are_found_by_index_not_by_reading_every_reference(ingested, driver):
    """Each entry's title key is written with it, and the other papers' entries are looked up by the indexes on
    it, the DOI and the paper id: no Reference is read that does not share one of them."""
    ids = ingested[0]
    keys = {r["key"] for r in driver.execute_query(
        "MATCH (:Paper {id: $id})-[:HAS_REFERENCE]->(r:Reference) RETURN r.title_key AS key", id=ids["a"]).records}
    assert "neural citation graphs for scholarly mining" in keys
    plan = driver.execute_query("EXPLAIN " + related._MATCHING_REFERENCES, id=ids["a"], titles=sorted(keys - {None}),
                                dois=[], cited=[], rejected="rejected").summary.plan

    def operators(step) -> list[str]:
        return [step["operatorType"].split("@")[0], *(o for child in step.get("children", []) for o in operators(child))]

    used = operators(plan)
    assert "NodeIndexSeek" in used
    assert not {"NodeByLabelScan", "AllNodesScan"} & set(used), used

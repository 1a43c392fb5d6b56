"""Duplicate candidates end to end: generated papers ingested into a real Neo4j, the detector run over the graph,
the candidates listed and merged through the API, and a rejected candidate that must not come back."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from extractors.semantic.duplicates import EXTRACTOR
from kg.curation.duplicates import candidates, detect
from kg.curation.operations import Curation
from kg.db.graph import Graph
from ontology.loader import get_schema
from tests.curation_support import as_role, curated_settings
from tests.ingest_support import ingest_settings, run_ingest  # noqa: F401 (fixture)
from tests.pdf_factory import entities_paper, write

CURATOR = as_role("curator")

# Two papers that name the same things differently: by an abbreviation and by its expansion, and by two spellings.
PAPER_A = ["We train our model on the S2ORC dataset. We propose the Sparse Routing Transformer for citation intent "
           "classification.", "We compare with the LSTM model and a CNN model."]
PAPER_B = ["We evaluate on the Semantic Scholar Open Research Corpus dataset. We use the Sparse Routing Transfromer "
           "for citation-intent classifications.", "We compare with the long short-term memory model."]
KNOWN = {("Dataset", "S2ORC", "Semantic Scholar Open Research Corpus"),
         ("Method", "Sparse Routing Transformer", "Sparse Routing Transfromer")}


@pytest.fixture
def ingested(ingest_settings, driver, tmp_path):  # noqa: F811
    paths = [write(tmp_path, "a.pdf", entities_paper("Citation Graphs at Scale", PAPER_A)),
             write(tmp_path, "b.pdf", entities_paper("Mining Scholarly Text", PAPER_B))]
    report = run_ingest(ingest_settings, driver, paths)
    assert report.ok
    return ingest_settings


def _pending(driver) -> dict[tuple[str, str, str], dict]:
    page = candidates(Graph(driver), get_schema(), limit=500)
    assert page["total"] == len(page["items"])
    return {(i["source"]["label"], *sorted((i["source"]["name"], i["target"]["name"]))): i for i in page["items"]}


def test_known_pairs_are_proposed_with_reasons_papers_and_evidence(ingested, driver):
    report, _ = detect(Graph(driver), get_schema())
    assert report.written >= 1
    pending = _pending(driver)
    assert KNOWN <= set(pending), f"proposed: {sorted(pending)}"
    s2orc = pending[("Dataset", "S2ORC", "Semantic Scholar Open Research Corpus")]
    assert s2orc["extractor"].startswith(f"{EXTRACTOR}@") and s2orc["status"] == "auto"
    assert any("initials" in reason for reason in s2orc["reasons"]) and 0 < s2orc["score"] <= 1
    titles = {s2orc["source"]["papers"][0]["title"], s2orc["target"]["papers"][0]["title"]}
    assert titles == {"Citation Graphs at Scale", "Mining Scholarly Text"}
    assert s2orc["source"]["evidence"] >= 1 and s2orc["target"]["evidence"] >= 1
    scores = [i["score"] for i in candidates(Graph(driver), get_schema(), limit=500)["items"]]
    assert scores == sorted(scores, reverse=True)


def test_rerunning_replaces_auto_candidates_and_a_rejected_one_never_comes_back(ingested, driver):
    detect(Graph(driver), get_schema())
    first = _pending(driver)
    rejected = first[("Dataset", "S2ORC", "Semantic Scholar Open Research Corpus")]
    cur = Curation(Graph(driver), get_schema(), "alice")
    cur.reject(cur.edge_ref(rejected["edge_id"]), reason="not sure these are one corpus")
    report, _ = detect(Graph(driver), get_schema())
    assert report.replaced == len(first) - 1 and report.kept_apart >= 1
    again = _pending(driver)
    assert ("Dataset", "S2ORC", "Semantic Scholar Open Research Corpus") not in again
    assert set(again) == set(first) - {("Dataset", "S2ORC", "Semantic Scholar Open Research Corpus")}
    between = driver.execute_query(
        "MATCH (a {id: $a})-[r:SAME_AS]-(b {id: $b}) RETURN r.verification_status AS status",
        a=rejected["source"]["id"], b=rejected["target"]["id"]).records
    assert [r["status"] for r in between] == ["rejected"]
    listed = candidates(Graph(driver), get_schema(), statuses=["rejected"])["items"]
    assert [i["key"] for i in listed] == [rejected["key"]]


def test_a_candidate_is_merged_through_the_api_and_the_merge_is_recorded(ingested, driver, tmp_path):
    detect(Graph(driver), get_schema())
    app = create_app(curated_settings(ingested, data_dir=tmp_path / "api-data"))
    with TestClient(app, base_url="http://localhost") as client:
        assert client.get("/curation/duplicates").status_code == 401
        page = client.get("/curation/duplicates", params={"limit": 1}, headers=CURATOR).json()
        assert page["limit"] == 1 and len(page["items"]) == 1 and page["total"] >= len(KNOWN)
        listed = client.get("/curation/duplicates", params={"limit": 500}, headers=CURATOR).json()["items"]
        item = next(i for i in listed if {i["source"]["name"], i["target"]["name"]} ==
                    {"S2ORC", "Semantic Scholar Open Research Corpus"})
        survivor = item["target"] if item["target"]["name"] == "S2ORC" else item["source"]
        keep = "target" if survivor is item["target"] else "source"
        version = client.get(f"/curation/nodes/{survivor['id']}", headers=CURATOR).headers["ETag"].strip('"')
        assert client.post(f"/curation/duplicates/{item['edge_id']}/merge", json={"keep": keep},
                           headers=CURATOR).status_code == 428
        merged = client.post(f"/curation/duplicates/{item['edge_id']}/merge",
                             json={"keep": keep, "reason": "same corpus"}, headers={**CURATOR, "If-Match": version})
        assert merged.status_code == 200, merged.text
        assert merged.json()["event"]["action"] == "merge"
        assert "Semantic Scholar Open Research Corpus" in merged.json()["element"]["properties"]["aliases"]
        after = client.get("/curation/duplicates", params={"limit": 500}, headers=CURATOR).json()["items"]
        assert item["key"] not in {i["key"] for i in after}
        verified = client.get("/curation/duplicates", params={"status": "verified"}, headers=CURATOR).json()["items"]
        assert len(verified) == 1 and verified[0]["source"]["status"] == "rejected"
        uses = driver.execute_query("MATCH (:Paper)-[r]->(n {id: $id}) RETURN elementId(r) AS id LIMIT 1",
                                    id=survivor["id"]).records[0]["id"]
        refused = client.post(f"/curation/duplicates/{uses}/merge", json={"keep": "source"},
                              headers={**CURATOR, "If-Match": "*"})
        assert refused.status_code == 422 and refused.json()["error"]["details"]["reason"] == "NOT_A_CANDIDATE"


def test_the_cli_proposes_lists_and_keeps_a_rejection(ingested, cli_env, monkeypatch):
    from typer.testing import CliRunner

    from cli.main import app
    from tests.curation_support import API_KEYS, KEYS

    monkeypatch.setenv("PAPERKG_API_KEYS", API_KEYS)
    monkeypatch.setenv("PAPERKG_API_KEY", KEYS["curator"])
    runner = CliRunner()
    found = runner.invoke(app, ["curate", "find-duplicates"])
    assert found.exit_code == 0, found.output
    assert json.loads(found.output)["written"] >= len(KNOWN)

    def listed(*options: str) -> dict[frozenset[str], dict]:
        result = runner.invoke(app, ["curate", "duplicates", *options])
        assert result.exit_code == 0, result.output
        items = [json.loads(line) for line in result.output.splitlines()]
        return {frozenset((i["source"]["name"], i["target"]["name"])): i for i in items}

    s2orc = frozenset(("S2ORC", "Semantic Scholar Open Research Corpus"))
    assert {frozenset(names) for _, *names in KNOWN} <= set(listed())
    rejected = runner.invoke(app, ["curate", "reject", listed()[s2orc]["key"], "--reason", "two corpora"])
    assert rejected.exit_code == 0, rejected.output
    assert runner.invoke(app, ["curate", "find-duplicates"]).exit_code == 0
    assert s2orc not in listed() and set(listed("--status", "rejected")) == {s2orc}
    assert runner.invoke(app, ["curate", "duplicates", "--status", "maybe"]).exit_code == 2

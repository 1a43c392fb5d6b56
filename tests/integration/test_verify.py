"""Claim checks end to end: generated papers that state a known number ingested into a real Neo4j, then claims
checked through kg.qa.verify, `POST /verify` and `kg verify`. The page and box of the evidence are checked against
where PyMuPDF finds the number printed in the PDF, not against what the check returned."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app as kg
from extractors.bbox import parse_bbox
from extractors.mupdf import pymupdf
from extractors.model import paper_id
from kg.db.graph import Graph
from kg.errors import AmbiguousPaperError
from kg.db.filestore import file_sha256
from kg.qa.claims import MAX_CLAIM
from kg.qa.verify import verify
from ontology.loader import get_schema
from tests.ingest_support import run_ingest
from tests.pdf_factory import entities_paper, write

STATED = ("The Sparse Routing Transformer reaches 92.1 F1 on the CiteIntent dataset, ahead of the 88.4 F1 of the "
          "LSTM baseline.")
PAPER_A = [STATED, "We train on the S2ORC corpus with a batch size of 32."]
PAPER_B = ["We study citation graphs of 1,200 papers drawn from the ACL Anthology.",
           "The graph holds 45,000 citation links."]


@pytest.fixture(scope="module")
def papers(driver, neo4j_settings, tmp_path_factory, reset_db):
    tmp = tmp_path_factory.mktemp("verify")
    settings = neo4j_settings.model_copy(update={"data_dir": tmp / "data", "qa_vectors": False})
    reset_db()
    paths = [write(tmp, "a.pdf", entities_paper("Sparse Routing for Citation Intent", PAPER_A)),
             write(tmp, "b.pdf", entities_paper("Sparse Routing for Citation Graphs", PAPER_B))]
    report = run_ingest(settings, driver, paths)
    assert report.ok, report.as_json()
    return settings, paths, [paper_id(file_sha256(p)) for p in paths]


def check(driver, papers, claim, paper=0):
    return verify(Graph(driver), get_schema(), claim, None if paper is None else papers[2][paper])


def printed_at(path, text: str) -> dict[int, list]:
    """Where PyMuPDF finds `text` printed: page number -> rectangles."""
    with pymupdf.open(path) as doc:
        return {n + 1: rects for n, page in enumerate(doc) if (rects := page.search_for(text))}


def test_the_true_claim_is_supported_with_the_page_and_box_of_its_number(driver, papers):
    result = check(driver, papers, "The Sparse Routing Transformer reaches 92.1 F1 on CiteIntent")
    assert result.verdict == "supported" and result.paper_id == papers[2][0]
    best = result.evidence[0]
    assert (best["role"], best["source"], best["numbers"]) == ("supports", "text", ["92.1"])
    assert "92.1 F1" in best["text"] and best["paper_id"] == papers[2][0]
    places = printed_at(papers[1][0], "92.1 F1")
    page, box = parse_bbox(best["bbox"])
    assert best["page"] == page and page in places
    assert any(pymupdf.Rect(box).intersects(rect) for rect in places[page])
    start, end = best["span"]
    assert end > start >= 0


@pytest.mark.parametrize("claim", ["The Sparse Routing Transformer reaches 0.921 F1 on CiteIntent",
                                   "The Sparse Routing Transformer reaches 92.10% F1 on CiteIntent"])
def test_the_same_number_in_another_form_is_supported(driver, papers, claim):
    assert check(driver, papers, claim).verdict == "supported"


def test_the_altered_number_is_contradicted_by_the_number_printed(driver, papers):
    result = check(driver, papers, "The Sparse Routing Transformer reaches 94.3 F1 on CiteIntent")
    assert result.verdict == "contradicted"
    assert result.evidence[0]["role"] == "contradicts" and "92.1" in result.evidence[0]["numbers"]
    assert result.evidence[0]["page"] in printed_at(papers[1][0], "92.1 F1")


@pytest.mark.parametrize("claim", ["The Sparse Routing Transformer reaches 92.1 F1 on ImageNet",
                                   "The paper uses the ImageNet dataset",
                                   "Photosynthesis converts 45.0 percent of sunlight into sugar"])
def test_unrelated_claims_are_not_found(driver, papers, claim):
    result = check(driver, papers, claim)
    assert result.verdict == "not_found"
    assert all(e["role"] == "nearest" for e in result.evidence)


def test_a_claim_of_the_other_paper_is_not_found_in_this_one_but_over_all(driver, papers):
    claim = "The graph holds 45,000 citation links"
    assert check(driver, papers, claim, paper=0).verdict == "not_found"
    over_all = check(driver, papers, claim, paper=None)
    assert over_all.verdict == "supported" and over_all.paper_id is None
    assert over_all.evidence[0]["paper_id"] == papers[2][1]
    assert check(driver, papers, "The graph holds 54,000 citation links", paper=1).verdict == "contradicted"


def test_an_entity_claim_is_supported(driver, papers):
    result = check(driver, papers, "The paper trains on the S2ORC corpus")
    assert result.verdict == "supported"
    assert result.evidence and all(e["page"] in printed_at(papers[1][0], "S2ORC") for e in result.evidence)


def test_a_name_fitting_both_papers_is_ambiguous(driver, papers):
    with pytest.raises(AmbiguousPaperError):
        verify(Graph(driver), get_schema(), "The graph holds 45,000 citation links", "Sparse Routing")


@pytest.fixture(scope="module")
def client(papers):
    with TestClient(create_app(papers[0]), base_url="http://localhost") as test_client:
        yield test_client


def error(response, status: int) -> dict:
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_api_verdicts_match_the_library(client, papers, driver):
    claim = "The Sparse Routing Transformer reaches 94.3 F1 on CiteIntent"
    response = client.post("/verify", json={"claim": claim, "paper_id": "Sparse Routing for Citation Intent"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["verdict"] == "contradicted" and body["paper_id"] == papers[2][0]
    assert body["evidence"] == check(driver, papers, claim).evidence


def test_api_refuses_bad_input_with_4xx(client):
    too_long = "The model reaches 92.1 F1 " + "and more " * (MAX_CLAIM // 9)
    assert len(too_long) > MAX_CLAIM
    assert "claim" in json.dumps(error(client.post("/verify", json={"claim": too_long}), 422))
    error(client.post("/verify", json={"claim": "ok"}), 422)  # shorter than a claim
    error(client.post("/verify", json={"claim": "The model reaches 92.1 F1", "extra": 1}), 422)
    error(client.post("/verify", json={}), 422)
    assert error(client.post("/verify", json={"claim": "12 34 56"}), 400)["code"] == "INVALID_QUERY"
    assert error(client.post("/verify", json={"claim": "The model reaches 92.1 F1", "paper_id": "no such paper"}),
                 404)["code"] == "NOT_FOUND"
    ambiguous = error(client.post("/verify", json={"claim": "The model reaches 92.1 F1",
                                                   "paper_id": "Sparse Routing"}), 409)
    assert ambiguous["code"] == "AMBIGUOUS_PAPER" and len(ambiguous["details"]["candidates"]) == 2


def test_cli_prints_the_verdict_as_json(cli_env, papers):
    result = CliRunner().invoke(kg, ["verify", "The Sparse Routing Transformer reaches 92.1 F1 on CiteIntent",
                                     "--paper", papers[2][0], "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["verdict"] == "supported" and body["evidence"][0]["numbers"] == ["92.1"]

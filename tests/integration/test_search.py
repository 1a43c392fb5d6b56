"""Search over the ingested corpus (issue 30) on generated papers, ingested with embeddings: a query about one
paper's topic ranks it first with its signals explained; the domain, year and entity facets keep only the
papers that have them; MMR moves a near-duplicate down; the API refuses bad parameters with 422 and the CLI
prints the same JSON."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app as cli_app
from extractors.model import paper_id
from kg.db.graph import Graph
from kg.find import search as kg_search
from kg.db.filestore import file_sha256
from kg.qa.retrieval import query_embedder
from ontology.loader import get_schema
from tests.ingest_support import run_ingest
from tests.pdf_factory import entities_paper, write

REEF = ["Coral reef bleaching follows marine heatwaves: when sea surface temperature stays above the summer "
        "maximum, corals expel their symbiotic algae and the reef turns white.",
        "We survey bleaching on reefs of the Pacific and relate it to degree heating weeks of ocean warming."]
REEF_AGAIN = [*REEF, "A second survey season repeated the reef transects with the same bleaching scores."]
FISH = ["Reef fish populations were counted along transects of coral reefs in the Caribbean.",
        "Herbivorous fish graze algae and help corals recover, so fishing pressure matters for reef health."]
MOLECULES = ["We predict molecular properties with the GraphSAGE model trained on the QM9 dataset.",
             "Message passing over atoms and bonds estimates solubility and toxicity of drug candidates."]
PAPERS = {"reef": ("Corals Turn White in Warm Water", REEF, 2019),
          "reef_again": ("Corals Turn White in Warm Water: A Second Season", REEF_AGAIN, 2023),
          "fish": ("Counting Fish Along Caribbean Transects", FISH, 2021),
          "molecules": ("Learning on Atoms and Bonds", MOLECULES, 2020)}


@pytest.fixture(scope="module")
def corpus(driver, neo4j_settings, tmp_path_factory, reset_db):
    """The four papers ingested with embeddings, each with its year set (the generated pages print none); the
    ids by name and the settings."""
    tmp = tmp_path_factory.mktemp("search")
    settings = neo4j_settings.model_copy(update={"data_dir": tmp / "data"})
    reset_db()
    paths = {name: write(tmp, f"{name}.pdf", entities_paper(title, paragraphs))
             for name, (title, paragraphs, _) in PAPERS.items()}
    report = run_ingest(settings, driver, list(paths.values()), embed=True)
    assert {p.status for p in report.papers} == {"ingested"}, report.as_json()
    ids = {name: paper_id(file_sha256(path)) for name, path in paths.items()}
    for name, (_, _, year) in PAPERS.items():
        driver.execute_query("MATCH (p:Paper {id: $id}) SET p.year = $year", id=ids[name], year=year)
    return ids, settings


def find(driver, settings, text: str, **options) -> kg_search.SearchResult:
    return kg_search.search(Graph(driver), get_schema(), kg_search.SearchQuery(text, **options),
                            query_embedder(settings))


def test_a_topical_query_ranks_its_paper_first_with_its_signals(driver, corpus):
    ids, settings = corpus
    result = find(driver, settings, "drug toxicity prediction with graph neural networks on molecules")
    assert result.vectors and result.formula == kg_search.WEIGHTS
    top = result.hits[0]
    assert top.paper_id == ids["molecules"]
    assert set(top.signals) == set(kg_search.WEIGHTS) and all(0 <= v <= 1 for v in top.signals.values())
    assert top.signals["text"] == 1.0 and top.raw["bm25"] > 0 and top.raw["similarity"] > 0
    assert top.score == pytest.approx(sum(kg_search.WEIGHTS[k] * v for k, v in top.signals.items()), abs=1e-3)
    assert top.sections and any(w in top.sections[0].snippet.lower() for w in ("toxicity", "molecular", "atoms"))
    assert all(a.score >= b.score for a, b in zip(result.hits, result.hits[1:]))


def test_facets_keep_only_the_papers_that_have_them(driver, corpus):
    ids, settings = corpus
    query = "coral reef fish algae ocean"
    everything = {h.paper_id for h in find(driver, settings, query).hits}
    assert {ids["reef"], ids["fish"], ids["reef_again"]} <= everything

    assert {h.paper_id for h in find(driver, settings, query, year=2021).hits} == {ids["fish"]}

    tagged = {r["id"]: set(r["domains"]) for r in driver.execute_query(
        "MATCH (p:Paper) RETURN p.id AS id, [(p)-[:IN_DOMAIN]->(d) | d.id] AS domains").records}
    domain = next(iter(tagged[ids["molecules"]]))
    with_domain = {h.paper_id for h in find(driver, settings, "reef fish molecules", domain=domain).hits}
    assert ids["molecules"] in with_domain and with_domain == {p for p in with_domain if domain in tagged[p]}

    only_molecules = driver.execute_query(
        "MATCH (c:Chunk)-[:MENTIONS|DEFINES]->(e) WITH e, collect(DISTINCT c.paper_sha256) AS shas "
        "WHERE shas = [$sha] RETURN e.name AS name ORDER BY name LIMIT 1",
        sha=next(s for s in [r["sha"] for r in driver.execute_query(
            "MATCH (p:Paper {id: $id}) RETURN p.sha256 AS sha", id=ids["molecules"]).records])).records
    assert only_molecules, "the molecules paper should mention an entity of its own"
    name = only_molecules[0]["name"]
    assert {h.paper_id for h in find(driver, settings, "reef fish molecules", entity=name.upper()).hits} \
        == {ids["molecules"]}


def test_mmr_moves_a_near_duplicate_down(driver, corpus):
    ids, settings = corpus
    query = "coral bleaching on reefs during marine heatwaves"
    plain = [h.paper_id for h in find(driver, settings, query).hits]
    assert set(plain[:2]) == {ids["reef"], ids["reef_again"]}
    diverse = [h.paper_id for h in find(driver, settings, query, mmr=True).hits]
    assert sorted(diverse) == sorted(plain) and diverse[0] == plain[0]
    assert diverse.index(plain[1]) > 1  # the near-duplicate of the first is no longer second


def test_the_api_searches_and_refuses_bad_parameters(driver, corpus):
    ids, settings = corpus
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        found = client.get("/search", params={"q": "molecules toxicity atoms", "limit": 2})
        assert found.status_code == 200, found.text
        body = found.json()
        assert body["hits"][0]["paper_id"] == ids["molecules"] and len(body["hits"]) <= 2
        assert "vector" not in body["hits"][0] and set(body["hits"][0]["signals"]) == set(kg_search.WEIGHTS)
        for bad in ({"q": ""}, {"q": "x" * (kg_search.MAX_QUERY_CHARS + 1)}, {"q": "reef", "limit": 0},
                    {"q": "reef", "limit": kg_search.MAX_LIMIT + 1}, {"q": "reef", "year": "soon"},
                    {"q": "reef", "domain": "d" * (kg_search.MAX_FACET_CHARS + 1)}, {}):
            refused = client.get("/search", params=bad)
            assert refused.status_code == 422, (bad, refused.text)
        assert client.get("/search", params={"q": "AND OR NOT ( \" *"}).status_code == 200


def test_the_cli_prints_json_and_a_table(driver, corpus, cli_env):
    ids, _ = corpus
    printed = CliRunner().invoke(cli_app, ["search", "coral reef bleaching", "--json", "--limit", "1"])
    assert printed.exit_code == 0, printed.output
    body = json.loads(printed.output)
    assert [h["paper_id"] for h in body["hits"]] in ([ids["reef"]], [ids["reef_again"]])
    assert body["formula"] == kg_search.WEIGHTS
    table = CliRunner().invoke(cli_app, ["search", "coral reef bleaching"])
    assert table.exit_code == 0 and "Corals" in table.output  # the title, folded in its column
    assert CliRunner().invoke(cli_app, ["search", "reef", "--limit", "51"]).exit_code == 2


def test_rejected_papers_and_chunks_are_not_found(driver, corpus):
    ids, settings = corpus
    query = "drug toxicity prediction with graph neural networks on molecules"
    try:
        driver.execute_query("MATCH (p:Paper {id: $id}) SET p.verification_status = 'rejected'", id=ids["molecules"])
        assert ids["molecules"] not in {h.paper_id for h in find(driver, settings, query).hits}
        driver.execute_query("MATCH (p:Paper {id: $id}) SET p.verification_status = 'auto'", id=ids["molecules"])
        driver.execute_query("MATCH (p:Paper {id: $id}) MATCH (c:Chunk {paper_sha256: p.sha256}) "
                             "SET c.verification_status = 'rejected'", id=ids["molecules"])
        assert ids["molecules"] not in {h.paper_id for h in find(driver, settings, query).hits}
    finally:
        driver.execute_query("MATCH (p:Paper {id: $id}) SET p.verification_status = 'auto' WITH p "
                             "MATCH (c:Chunk {paper_sha256: p.sha256}) SET c.verification_status = 'auto'",
                             id=ids["molecules"])

"""Domain tagging in the graph (issue 30), on the really ingested sample paper: ingestion writes the paper's and its
sections' IN_DOMAIN edges with their evidence as provenance; `kg domains retag` with an edited seeds file changes
IN_DOMAIN edges and Domain nodes and nothing else, leaves a curated tag alone, and refuses a broken file before
touching the graph; the API lists domains with their counts and a paper's tags."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app as cli_app
from extractors.domains import Seeds, SeedsError, Venues
from extractors.model import paper_id
from kg.ingest.domains import TAGGER
from kg.db.filestore import file_sha256
from tests.ingest_support import SAMPLE_A, run_ingest

_TAGS = """
MATCH (s:Paper|Section)-[r:IN_DOMAIN]->(d:Domain)
RETURN labels(s)[0] AS label, s.id AS source, d.id AS domain, properties(r) AS props
ORDER BY source, domain
"""
_CHUNKS = "UNWIND $ids AS id MATCH (c:Chunk {id: id}) RETURN c.text AS text, c.page_start AS page"
# Everything but IN_DOMAIN edges and Domain nodes, with every property
_OTHER_NODES = """
MATCH (n) WHERE NOT n:Domain
RETURN labels(n) AS labels, n.id AS id, properties(n) AS props ORDER BY id, labels
"""
_OTHER_EDGES = """
MATCH (a)-[r]->(b) WHERE type(r) <> 'IN_DOMAIN'
RETURN type(r) AS type, elementId(a) AS a, elementId(b) AS b, properties(r) AS props ORDER BY type, a, b
"""


@pytest.fixture(scope="module")
def ingested(driver, neo4j_settings, tmp_path_factory, reset_db):
    settings = neo4j_settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("domains") / "data"})
    reset_db()
    report = run_ingest(settings, driver, [SAMPLE_A], embed=True)
    assert [p.status for p in report.papers] == ["ingested"], report.as_json()
    return file_sha256(SAMPLE_A), settings


def tags(driver) -> list[dict]:
    return [dict(r) for r in driver.execute_query(_TAGS).records]


def everything_else(driver) -> tuple[list, list]:
    return ([dict(r) for r in driver.execute_query(_OTHER_NODES).records],
            [dict(r) for r in driver.execute_query(_OTHER_EDGES).records])


def assert_evidence(driver, tag: dict, seeds: Seeds) -> None:
    """A tag's matched phrases occur in its source chunks, on its pages, and it names the seeds it came from."""
    props = tag["props"]
    assert 0.0 <= props["score"] <= 1.0 and props["confidence"] == props["score"]
    assert props["seeds"] == seeds.digest and props["extractor"] == TAGGER
    phrases = next(d.phrases for d in seeds.domains if d.node_id == tag["domain"])
    chunks = driver.execute_query(_CHUNKS, ids=props["source_chunk_ids"]).records
    assert len(chunks) == len(props["source_chunk_ids"])
    text = " ".join(c["text"] for c in chunks).lower()
    for phrase in props.get("matched", []):
        assert phrase in phrases
        assert re.search(r"[\s-]+".join(map(re.escape, phrase.lower().split())), text), phrase
    assert props["keyword_hits"] >= len(props.get("matched", []))
    venues = next(d.venues for d in seeds.domains if d.node_id == tag["domain"])
    printed = " ".join(c["text"] for c in chunks)
    for venue in props.get("cited_venues", []):  # as the bibliography prints it ('J. Biol. Chem.' for 'J Biol Chem')
        assert venue in venues and Venues([venue]).cited(printed), venue
    assert sorted(props["pages"]) == sorted({c["page"] for c in chunks})


def test_ingest_tags_the_paper_and_its_sections_with_their_evidence(driver, ingested):
    sha, _ = ingested
    seeds = Seeds.load()
    found = tags(driver)
    paper = [t for t in found if t["label"] == "Paper"]
    assert paper and {t["source"] for t in paper} == {paper_id(sha)}
    assert any(t["label"] == "Section" for t in found)
    run_id = driver.execute_query("MATCH (:Paper {sha256: $sha})-[:GENERATED_BY]->(r:IngestRun) RETURN r.id AS id",
                                  sha=sha).records[0]["id"]
    for tag in found:
        assert tag["props"]["paper_sha256"] == sha and tag["props"]["run_id"] == run_id
        assert tag["props"]["verification_status"] == "auto"
        assert tag["props"]["similarity"] is not None  # embeddings were on
        assert_evidence(driver, tag, seeds)
    assert any(t["props"].get("matched") for t in paper)
    assert any(t["props"].get("cited_venues") for t in paper)  # the sample cites machine learning's venues
    assert not any(t["props"].get("cited_venues") for t in found if t["label"] == "Section")
    names = {r["id"]: r["name"] for r in driver.execute_query("MATCH (d:Domain) RETURN d.id AS id, d.name AS name")
             .records}
    assert {t["domain"] for t in found} == set(names)
    assert all(names[d.node_id] == d.name for d in seeds.domains if d.node_id in names)


def test_retag_from_edited_seeds_changes_only_domain_tags(driver, ingested, cli_env, tmp_path):
    sha, _ = ingested
    before_tags = tags(driver)
    auto_before = sum(t["props"]["verification_status"] == "auto" for t in before_tags) - 1  # one is curated now
    curated = next(t for t in before_tags if t["label"] == "Paper")
    driver.execute_query("MATCH (:Paper {id: $s})-[r:IN_DOMAIN]->(:Domain {id: $d}) "
                         "SET r.verification_status = 'verified'", s=curated["source"], d=curated["domain"])
    curated_props = {**curated["props"], "verification_status": "verified"}
    before = everything_else(driver)

    # the shipped seeds without physics, and a field named by words of the sample's title
    edited = Seeds.load()
    text = "".join(f"{d.id}:\n  name: {d.name}\n  phrases: {json.dumps(list(d.phrases))}\n"
                   for d in edited.domains if d.id != "physics")
    text += "routing:\n  name: Routing models\n  phrases: [sparse routing, routing, attention]\n"
    seeds_file = tmp_path / "seeds.yaml"
    seeds_file.write_text(text)
    seeds = Seeds.load(seeds_file)

    result = CliRunner().invoke(cli_app, ["domains", "retag", "--seeds", str(seeds_file), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["papers"], report["domains"], report["seeds"]) == (1, 5, seeds.digest)
    assert report["deleted"] == auto_before and report["embeddings"] is True

    assert everything_else(driver) == before  # every other node, edge and property as it was
    after = tags(driver)
    kept = [t for t in after if (t["source"], t["domain"]) == (curated["source"], curated["domain"])]
    assert [t["props"] for t in kept] == [curated_props]
    auto = [t for t in after if t["props"]["verification_status"] == "auto"]
    assert len(auto) == report["written"] > 0
    for tag in auto:
        assert tag["props"]["paper_sha256"] == sha
        assert_evidence(driver, tag, seeds)
    routing = [t for t in auto if t["domain"] == "domain_routing"]
    assert routing and set(routing[0]["props"]["matched"]) <= {"sparse routing", "routing", "attention"}
    domains = {r["id"] for r in driver.execute_query("MATCH (d:Domain) RETURN d.id AS id").records}
    assert domains == {d.node_id for d in seeds.domains} | {curated["domain"]}
    assert "domain_physics" not in {t["domain"] for t in auto}


def test_a_broken_seeds_file_is_refused_before_the_graph_changes(driver, ingested, cli_env, tmp_path):
    before = (tags(driver), everything_else(driver))
    broken = tmp_path / "broken.yaml"
    broken.write_text("nlp:\n  name: NLP\n  phrases: []\n")
    result = CliRunner().invoke(cli_app, ["domains", "retag", "--seeds", str(broken)])
    assert result.exit_code != 0  # `kg` (cli.main.main) prints the error's message without a stack trace
    assert isinstance(result.exception, SeedsError) and "'nlp' needs a list" in result.exception.message
    assert (tags(driver), everything_else(driver)) == before


def test_the_api_lists_domains_with_counts_and_a_papers_tags(driver, ingested):
    sha, settings = ingested
    counts = {r["id"]: (r["papers"], r["sections"]) for r in driver.execute_query(
        "MATCH (d:Domain) RETURN d.id AS id, count {(:Paper)-[:IN_DOMAIN]->(d)} AS papers, "
        "count {(:Section)-[:IN_DOMAIN]->(d)} AS sections").records}
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        listed = client.get("/domains")
        assert listed.status_code == 200, listed.text
        assert {d["id"]: (d["papers"], d["sections"]) for d in listed.json()} == counts
        papers = [d["papers"] for d in listed.json()]
        assert papers == sorted(papers, reverse=True)

        own = client.get(f"/papers/{paper_id(sha)}/domains")
        assert own.status_code == 200, own.text
        body = own.json()
        stored = [t for t in tags(driver) if t["label"] == "Paper"]
        assert {d["id"] for d in body["domains"]} == {t["domain"] for t in stored}
        scores = [d["score"] for d in body["domains"]]
        assert scores == sorted(scores, reverse=True)
        assert {d["section_id"] for d in body["sections"]} == {t["source"] for t in tags(driver)
                                                               if t["label"] == "Section"}
        assert client.get("/papers/paper_nope/domains").status_code == 404


def test_the_cli_prints_the_domains_and_a_papers_tags(driver, ingested, cli_env):
    sha, _ = ingested
    names = {r["id"]: r["name"] for r in driver.execute_query("MATCH (d:Domain) RETURN d.id AS id, d.name AS name")
             .records}
    listed = CliRunner().invoke(cli_app, ["domains", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    assert {d["id"]: d["name"] for d in json.loads(listed.output)} == names
    table = CliRunner().invoke(cli_app, ["domains", "list"])
    assert table.exit_code == 0 and all(domain in table.output for domain in names)
    title = driver.execute_query("MATCH (p:Paper {sha256: $sha}) RETURN p.title AS t", sha=sha).records[0]["t"]
    own = CliRunner().invoke(cli_app, ["domains", "paper", title, "--json"])
    assert own.exit_code == 0, own.output
    report = json.loads(own.output)
    assert report["paper_id"] == paper_id(sha)
    assert {d["id"] for d in report["domains"]} == {t["domain"] for t in tags(driver) if t["label"] == "Paper"}
    printed = CliRunner().invoke(cli_app, ["domains", "paper", title])
    assert printed.exit_code == 0 and all(d["id"] in printed.output for d in report["domains"])

"""JSON export → import into an empty database gives the same graph (canonical dump), for ingested sample
papers and for the hand-made graph with every label; import refuses what the ontology forbids and writes
nothing; exports of ingested papers conform to the shapes (RDF) and go through the CLI and the API."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from pyshacl import validate
from rdflib import Graph
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app
from extractors.model import paper_id
from kg.db.dump import canonical_dump
from kg.db.graph import Graph as Neo4jGraph
from kg.errors import GraphImportError, NotFoundError
from kg.export import json_graph
from kg.export.formats import ExportFormat, export
from kg.export.graph_read import read_papers
from kg.export.rdf import to_rdf
from kg.ingest.pipeline import Ingestor
from kg.ingest.write import stamp, write_graph
from ontology.loader import ONTOLOGY_FILE, SHAPES_FILE, get_schema
from tests.conftest import ROOT
from tests.sample_graph import NOW, sample_graph

SAMPLES = ROOT.parent / "samples"


def _wipe(driver) -> None:
    driver.execute_query("MATCH (n) DETACH DELETE n")


@pytest.fixture
def ingested(neo4j_settings, schema_db, tmp_path):
    """The two sample papers ingested in-process without embeddings; their Paper ids. On the ontology's schema
    (schema_db), as the ingest would make it, so that it is not dropped and made again for each test."""
    settings = neo4j_settings.model_copy(update={"data_dir": tmp_path / "data"})
    report = Ingestor(settings, Neo4jGraph(schema_db), workers=0, embed=False).run(sorted(SAMPLES.glob("sample-*.pdf")))
    assert [p.status for p in report.papers] == ["ingested", "ingested"]
    return sorted(paper_id(p.sha256) for p in report.papers)


def _round_trip(driver, papers=None) -> tuple[list[str], list[str], dict]:
    schema = get_schema()
    before = canonical_dump(Neo4jGraph(driver))
    document = json.loads(export(Neo4jGraph(driver), schema, ExportFormat.JSON, papers).text)
    _wipe(driver)
    report = json_graph.import_graph(Neo4jGraph(driver), schema, document, embedding_dim=384)
    assert report.ok
    return before, canonical_dump(Neo4jGraph(driver)), document


def test_ingested_papers_round_trip(ingested, schema_db):
    before, after, document = _round_trip(schema_db)
    assert after == before
    labels = {n["label"] for n in document["nodes"]}
    assert {"Paper", "Author", "Section", "Chunk", "IngestRun"} <= labels
    assert len(document["nodes"]) + len(document["edges"]) == len(before)


def test_sample_graph_with_every_label_round_trips(schema_db):
    """Curated statuses included: the JSON keeps what curators rejected (the reading formats leave it out)."""
    schema = get_schema()
    nodes, edges = sample_graph()
    nodes = [replace(n, props={**n.props, "verification_status": "rejected"}) if n.id == "method_srt_dup" else n
             for n in nodes]
    edges = [replace(e, props={**e.props, "verification_status": "verified"}) if e.type == "PROPOSES" else e
             for e in edges]
    assert write_graph(Neo4jGraph(schema_db), nodes, edges, schema, now=NOW).ok
    before, after, document = _round_trip(schema_db)
    assert after == before
    assert len(document["nodes"]) == 30 and len(document["edges"]) == 51
    statuses = {n["id"]: n["properties"].get("verification_status") for n in document["nodes"]}
    assert statuses["method_srt_dup"] == "rejected"
    assert "SRT model" not in export(Neo4jGraph(schema_db), schema, ExportFormat.GRAPHML).text
    # times are part of the file even though the dump leaves them out: they come back too
    assert schema_db.execute_query("MATCH (p:Paper {id: 'paper_a'}) RETURN p.created_at AS t").records[0]["t"] \
        .to_native() == NOW


def test_one_paper_round_trips_with_its_neighbours(schema_db):
    schema = get_schema()
    assert write_graph(Neo4jGraph(schema_db), *sample_graph(), schema, now=NOW).ok
    document = json.loads(export(Neo4jGraph(schema_db), schema, ExportFormat.JSON, ["paper_b"]).text)
    _wipe(schema_db)
    json_graph.import_graph(Neo4jGraph(schema_db), schema, document, embedding_dim=384)
    ids = [r["id"] for r in schema_db.execute_query("MATCH (n) WHERE n.id IS NOT NULL AND NOT n:PaperKGSchema "
                                                    "RETURN n.id AS id ORDER BY id").records]
    assert ids == ["author_kim", "chunk_b1", "dataset_pg19", "paper_a", "paper_b", "ref_b1"]


@pytest.mark.parametrize("change, refused", [
    (lambda d: d["edges"].append({"type": "CITES", "source": {"label": "Paper", "id": "paper_a"},
                                  "target": {"label": "Author", "id": "author_lee"}, "properties": {}}),
     "{'INVALID_ENDPOINTS': 1}"),
    (lambda d: d["nodes"][0]["properties"].update(password="x"), "{'UNKNOWN_PROPERTY': 1, 'MISSING_ENDPOINT': 2}"),
    (lambda d: d["nodes"].append({"label": "Secret", "id": "s", "properties": {}}), "{'NOT_IN_SCHEMA': 1}"),
    (lambda d: d["nodes"][0]["properties"].update(verification_status="trusted"), "{'INVALID_VALUE': 1, 'MISSING_ENDPOINT': 2}"),
    (lambda d: d["nodes"][0]["properties"].pop("created_at"), "{'MISSING_PROPERTY': 1, 'MISSING_ENDPOINT': 2}"),
    (lambda d: d["nodes"].pop(0), "{'MISSING_ENDPOINT': 2}"),
])  # nodes[0] is Bo Kim, author of both papers: refusing him refuses his two HAS_AUTHOR edges too
def test_import_refuses_what_the_ontology_forbids_and_writes_nothing(empty_db, change, refused):
    schema = get_schema()
    nodes, edges = sample_graph()
    document = json.loads(json_graph.dumps(json_graph.to_document(
        [stamp(n, schema, NOW) for n in nodes], [stamp(e, schema, NOW) for e in edges], schema)))
    change(document)
    with pytest.raises(GraphImportError) as refusal:
        json_graph.import_graph(Neo4jGraph(empty_db), schema, document, embedding_dim=384)
    assert refusal.value.message == f"the file breaks the ontology; nothing was imported ({refused})"
    assert empty_db.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0


def test_import_refuses_a_database_with_a_graph_unless_merging(schema_db):
    schema = get_schema()
    write_graph(Neo4jGraph(schema_db), *sample_graph(), schema, now=NOW)
    before = canonical_dump(Neo4jGraph(schema_db))
    document = json.loads(export(Neo4jGraph(schema_db), schema, ExportFormat.JSON).text)
    with pytest.raises(GraphImportError, match="already holds a graph"):
        json_graph.import_graph(Neo4jGraph(schema_db), schema, document, embedding_dim=384)
    json_graph.import_graph(Neo4jGraph(schema_db), schema, document, embedding_dim=384, merge=True)
    assert canonical_dump(Neo4jGraph(schema_db)) == before


def test_rdf_of_ingested_papers_conforms_to_the_shapes(ingested, schema_db):
    graph = to_rdf(*read_papers(Neo4jGraph(schema_db), get_schema(), ingested), get_schema())
    conforms, _, text = validate(graph, shacl_graph=Graph().parse(SHAPES_FILE), ont_graph=Graph().parse(ONTOLOGY_FILE))
    assert conforms, text


def test_cli_export_and_import(ingested, schema_db, cli_env, tmp_path):
    before = canonical_dump(Neo4jGraph(schema_db))
    out = tmp_path / "graph.json"
    result = CliRunner().invoke(app, ["export", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    _wipe(schema_db)
    result = CliRunner().invoke(app, ["import", str(out)])
    assert result.exit_code == 0, result.output
    assert canonical_dump(Neo4jGraph(schema_db)) == before
    again = CliRunner().invoke(app, ["import", str(out)])
    assert isinstance(again.exception, GraphImportError) and again.exception.message == "the database already holds a graph"
    notes = CliRunner().invoke(app, ["export", "markdown", "--paper", ingested[0], "--paper", ingested[1]])
    assert notes.exit_code == 0 and notes.stdout.count("\n# ") + notes.stdout.startswith("# ") == 2
    missing = CliRunner().invoke(app, ["export", "csv", "--table", "results", "--paper", "nope"])
    assert isinstance(missing.exception, NotFoundError) and missing.exception.message == \
        "no paper matches 'nope' by id, DOI, arXiv id or title"


def test_api_export(ingested, schema_db, neo4j_settings):
    with TestClient(create_app(neo4j_settings), base_url="http://localhost") as client:
        notes = client.get("/export/markdown", params={"paper_id": ingested[0]})
        assert notes.status_code == 200 and notes.headers["content-type"] == "text/markdown; charset=utf-8"
        assert notes.headers["content-disposition"] == f'inline; filename="paperkg-{ingested[0]}.md"'
        assert notes.text.startswith("# ") and "## Outline" in notes.text
        whole = client.get("/export/json")
        assert whole.status_code == 200 and whole.json()["scope"] == {"papers": None}
        assert {n["id"] for n in whole.json()["nodes"] if n["label"] == "Paper"} >= set(ingested)
        assert client.get("/export/graphml", params={"paper_id": ingested}).text.startswith("<?xml")
        missing = client.get("/export/bibtex", params={"paper_id": "nope"})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
        assert client.get("/export/pdf").status_code == 422

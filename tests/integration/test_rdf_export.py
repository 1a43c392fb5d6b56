"""The RDF export of a graph read back from Neo4j: loses nothing, conforms to shapes.ttl, scopes to one paper."""

from __future__ import annotations

import pytest
from pyshacl import validate
from rdflib import RDF, Graph
from rdflib.compare import isomorphic
from typer.testing import CliRunner

from cli.main import app
from kg.db.graph import Graph as Neo4jGraph
from kg.errors import NotFoundError
from kg.export.graph_read import read_graph
from kg.export.rdf import node_iri, to_rdf
from kg.ingest.write import stamp, write_graph
from ontology.loader import ONTOLOGY_FILE, PKG, SHAPES_FILE, get_schema
from tests.sample_graph import NOW, sample_graph


@pytest.fixture
def sample_db(schema_db):
    schema = get_schema()
    nodes, edges = sample_graph()
    assert write_graph(Neo4jGraph(schema_db), nodes, edges, schema, now=NOW).ok
    return schema_db


def test_export_of_the_stored_graph_equals_the_export_of_what_was_written(sample_db):
    schema = get_schema()
    nodes, edges = sample_graph()
    expected = to_rdf([stamp(n, schema, NOW) for n in nodes], [stamp(e, schema, NOW) for e in edges], schema)
    stored = to_rdf(*read_graph(Neo4jGraph(sample_db), schema), schema)
    assert isomorphic(stored, expected)
    conforms, _, text = validate(stored, shacl_graph=Graph().parse(SHAPES_FILE), ont_graph=Graph().parse(ONTOLOGY_FILE))
    assert conforms, text


def test_paper_scope(sample_db):
    nodes, edges = read_graph(Neo4jGraph(sample_db), get_schema(), paper_id="paper_b")
    assert sorted(n.id for n in nodes) == ["author_kim", "chunk_b1", "dataset_pg19", "paper_a", "paper_b", "ref_b1"]
    assert sorted(e.type for e in edges) == ["CITES", "HAS_AUTHOR", "HAS_CHUNK", "HAS_REFERENCE", "REFERS_TO", "USES"]
    with pytest.raises(NotFoundError, match="no paper matches 'nope'"):
        read_graph(Neo4jGraph(sample_db), get_schema(), paper_id="nope")


def test_cli_export(sample_db, cli_env, tmp_path):
    out = tmp_path / "paper_b.jsonld"
    result = CliRunner().invoke(app, ["export", "rdf", "--format", "json-ld", "--paper", "paper_b", "--output", str(out)])
    assert result.exit_code == 0, result.output
    graph = Graph().parse(out, format="json-ld")
    assert set(graph.subjects(RDF.type, PKG.Paper)) == {node_iri("Paper", "paper_a"), node_iri("Paper", "paper_b")}
    assert (node_iri("Paper", "paper_b"), PKG.cites, node_iri("Paper", "paper_a")) in graph
    turtle = CliRunner().invoke(app, ["export", "rdf"])
    assert turtle.exit_code == 0 and "pkg:proposes" in turtle.stdout
    assert CliRunner().invoke(app, ["export", "rdf", "--format", "n3"]).exit_code == 2

"""The RDF mapping of the sample graph conforms to shapes.ttl, speaks PROV-O, and round-trips through rdflib."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pyshacl import validate
from rdflib import RDF, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import PROV, SKOS

from kg.errors import ExportError
from kg.export.rdf import agent_iri, edge_iri, node_iri, serialize, to_rdf
from kg.ingest.write import stamp
from ontology.loader import ONTOLOGY_FILE, PKG, SHAPES_FILE, get_schema
from tests.sample_graph import NOW, sample_graph

DEO = "http://purl.org/spar/deo/"


def exported(nodes=None, edges=None) -> Graph:
    schema = get_schema()
    sample_nodes, sample_edges = sample_graph()
    nodes = sample_nodes if nodes is None else nodes
    edges = sample_edges if edges is None else edges
    return to_rdf([stamp(n, schema, NOW) for n in nodes], [stamp(e, schema, NOW) for e in edges], schema)


def shacl(graph: Graph) -> tuple[bool, str]:
    conforms, _, text = validate(graph, shacl_graph=Graph().parse(SHAPES_FILE), ont_graph=Graph().parse(ONTOLOGY_FILE))
    return conforms, text


def test_sample_export_conforms_to_the_shapes():
    conforms, text = shacl(exported())
    assert conforms, text


def test_classes_alignment_and_prov():
    graph = exported()
    paper, section = node_iri("Paper", "paper_a"), node_iri("Section", "sec_a2")
    assert (paper, RDF.type, PKG.Paper) in graph
    assert (section, RDF.type, URIRef(DEO + "Methods")) in graph
    assert (node_iri("Method", "method_srt"), SKOS.prefLabel, Literal("Sparse Routing Transformer")) in graph
    assert (node_iri("Dataset", "dataset_pg19"), SKOS.altLabel, Literal("Project Gutenberg 19")) in graph
    assert (node_iri("Result", "res_a1"), PROV.wasDerivedFrom, node_iri("Chunk", "chunk_a3")) in graph
    assert (node_iri("Result", "res_a1"), PROV.wasAttributedTo, agent_iri("paperkg-test@1.0")) in graph
    assert (agent_iri("paperkg-test@1.0"), RDF.type, PROV.SoftwareAgent) in graph
    assert (node_iri("Chunk", "chunk_a1"), PKG.text, None) in graph
    assert not list(graph.triples((None, PKG.embedding, None)))  # Neo4j only


def test_edge_is_reified_with_a_qualified_derivation():
    graph = exported()
    nodes, edges = sample_graph()
    proposes = next(e for e in edges if e.type == "PROPOSES")
    paper, method = node_iri("Paper", "paper_a"), node_iri("Method", "method_srt")
    assert (paper, PKG.proposes, method) in graph
    assertion = edge_iri(proposes)
    assert (assertion, RDF.subject, paper) in graph and (assertion, RDF.predicate, PKG.proposes) in graph
    derivation = graph.value(assertion, PROV.qualifiedDerivation)
    assert (derivation, PROV.entity, node_iri("Chunk", "chunk_a1")) in graph
    assert graph.value(derivation, PKG.evidencePage).toPython() == 1
    assert str(graph.value(derivation, PKG.evidenceBox)) == "1:72,100,540,160"
    assert graph.value(derivation, PKG.confidence).toPython() == 0.92
    authorship = edge_iri(next(e for e in edges if e.type == "HAS_AUTHOR"))
    assert (authorship, RDF.type, PKG.Authorship) in graph and graph.value(authorship, PKG.position).toPython() == 1


@pytest.mark.parametrize("fmt", ["turtle", "json-ld"])
def test_round_trip(fmt):
    graph = exported()
    assert isomorphic(graph, Graph().parse(data=serialize(graph, fmt), format=fmt))


def test_shapes_catch_what_the_validator_would_have_refused():
    nodes, edges = sample_graph()
    no_confidence = [replace(n, props={k: v for k, v in n.props.items() if k != "confidence"})
                     if n.id == "method_srt" else n for n in nodes]
    conforms, text = shacl(exported(nodes=no_confidence))
    assert not conforms and "pkg:confidence" in text
    proposes = next(e for e in edges if e.type == "PROPOSES")
    wrong_pair = [*edges, replace(proposes, target_label="Dataset", target_id="dataset_pg19")]
    conforms, text = shacl(exported(edges=wrong_pair))
    assert not conforms and "ClassConstraintComponent" in text


def test_unknown_format_and_undeclared_property_are_errors():
    with pytest.raises(ExportError, match="unknown RDF format"):
        serialize(Graph(), "n-quads")
    nodes, _ = sample_graph()
    odd = [replace(nodes[0], props={**nodes[0].props, "colour": "red"})]
    with pytest.raises(ExportError, match="colour"):
        exported(nodes=odd, edges=[])

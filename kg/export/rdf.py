"""Maps the property graph to RDF in the ontology's terms (pure: records in, rdflib Graph out).

Nodes become resources typed with their class (sections also with their DEO/DoCO rhetorical class);
properties use the IRIs the ontology maps them from. Provenance is PROV-O: prov:wasDerivedFrom the
source chunks, prov:wasAttributedTo the extractor (a prov:SoftwareAgent), prov:generatedAtTime. An edge
is a triple plus a pkg:Assertion (an rdf:Statement) that carries the edge's provenance and a
prov:qualifiedDerivation giving the evidence chunks with their pages, boxes and confidence.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum
from typing import Any, Iterable
from urllib.parse import quote

from rdflib import RDF, RDFS, XSD, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV, SKOS

from kg.errors import ExportError
from ontology.loader import PKG, PropertySpec, Schema
from ontology.records import EdgeRecord, NodeRecord

RESOURCE = Namespace("https://w3id.org/paperkg/resource/")
PREFIXES = {"pkg": PKG, "res": RESOURCE, "prov": PROV, "dcterms": DCTERMS, "skos": SKOS, "owl": OWL,
            "xsd": XSD, "rdfs": RDFS, "deo": Namespace("http://purl.org/spar/deo/"),
            "doco": Namespace("http://purl.org/spar/doco/")}


class RdfFormat(StrEnum):
    TURTLE = "turtle"
    JSON_LD = "json-ld"


_XSD = {"integer": XSD.integer, "float": XSD.double, "boolean": XSD.boolean, "datetime": XSD.dateTime}
_EVIDENCE = ("pages", "bboxes", "confidence")  # what a qualified derivation says about its chunks


def node_iri(label: str, id: str) -> URIRef:
    return RESOURCE[f"{label.lower()}/{quote(id, safe='')}"]


def agent_iri(extractor: str) -> URIRef:
    return RESOURCE[f"agent/{quote(extractor, safe='@')}"]


def edge_iri(edge: EdgeRecord) -> URIRef:
    """Deterministic: an edge is one per (source, type, target), so is its reification."""
    key = "\x1f".join([edge.source_label, edge.source_id, edge.type, edge.target_label, edge.target_id])
    return RESOURCE[f"edge/{hashlib.sha256(key.encode()).hexdigest()[:24]}"]


def to_rdf(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema) -> Graph:
    graph = Graph()
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace)
    graph.add((RESOURCE[""], DCTERMS.conformsTo, schema.version_iri))
    labels_by_class = {cls.iri: label for label, cls in schema.nodes.items()}
    for node in nodes:
        cls = schema.nodes[node.label]
        subject = node_iri(node.label, node.id)
        graph.add((subject, RDF.type, cls.iri))
        rhetoric = schema.section_kinds.get(node.props.get("kind")) if node.label == "Section" else None
        if rhetoric is not None:
            graph.add((subject, RDF.type, rhetoric))
        _add_properties(graph, subject, {"id": node.id, **node.props}, cls.properties, labels_by_class, node.label)
    for edge in edges:
        rel = schema.relationships[edge.type]
        source, target = node_iri(edge.source_label, edge.source_id), node_iri(edge.target_label, edge.target_id)
        graph.add((source, rel.iri, target))
        assertion = edge_iri(edge)
        graph.add((assertion, RDF.type, PKG.Assertion))
        if rel.assertion_class is not None:
            graph.add((assertion, RDF.type, rel.assertion_class))
        graph.add((assertion, RDF.subject, source))
        graph.add((assertion, RDF.predicate, rel.iri))
        graph.add((assertion, RDF.object, target))
        _add_properties(graph, assertion, edge.props, rel.properties, labels_by_class, edge.type)
        _add_derivation(graph, assertion, edge.props, rel.properties, labels_by_class)
    return graph


def serialize(graph: Graph, fmt: str) -> str:
    if fmt not in set(RdfFormat):
        raise ExportError(f"unknown RDF format {fmt!r}", hint=f"use one of: {', '.join(RdfFormat)}")
    if fmt == RdfFormat.JSON_LD:
        return graph.serialize(format="json-ld", context={p: str(ns) for p, ns in PREFIXES.items()}, indent=2)
    return graph.serialize(format="turtle")


def _add_derivation(graph: Graph, assertion: URIRef, props: dict[str, Any], specs: dict[str, PropertySpec],
                    labels_by_class: dict[URIRef, str]) -> None:
    chunks = props.get("source_chunk_ids") or []
    if not chunks and not props.get("pages") and not props.get("bboxes"):
        return
    derivation = URIRef(f"{assertion}/derivation")
    graph.add((assertion, PROV.qualifiedDerivation, derivation))
    graph.add((derivation, RDF.type, PROV.Derivation))
    for chunk in chunks:
        graph.add((derivation, PROV.entity, node_iri("Chunk", chunk)))
    evidence = {name: props[name] for name in _EVIDENCE if props.get(name) is not None}
    _add_properties(graph, derivation, evidence, specs, labels_by_class, "derivation")


def _add_properties(graph: Graph, subject: URIRef, props: dict[str, Any], specs: dict[str, PropertySpec],
                    labels_by_class: dict[URIRef, str], owner: str) -> None:
    for name, value in props.items():
        spec = specs.get(name)
        if spec is None:
            raise ExportError(f"{owner} has property {name!r}, which the ontology does not declare",
                              hint="the graph was written around the validator; fix or remove that property")
        if value is None or not spec.exported:
            continue
        for item in value if spec.many else [value]:
            graph.add((subject, spec.iri, _term(graph, item, spec, labels_by_class)))


def _term(graph: Graph, value: Any, spec: PropertySpec, labels_by_class: dict[URIRef, str]):
    if spec.value_class == PROV.SoftwareAgent:
        agent = agent_iri(value)
        graph.add((agent, RDF.type, PROV.SoftwareAgent))
        graph.add((agent, RDFS.label, Literal(value)))
        return agent
    if spec.value_class is not None:
        return node_iri(labels_by_class[spec.value_class], value)
    if hasattr(value, "to_native"):  # neo4j.time.DateTime
        value = value.to_native()
    if spec.datatype == "string":
        return Literal(value)  # a simple literal is an xsd:string (RDF 1.1), and matches sh:in lists as written
    return Literal(value, datatype=_XSD[spec.datatype])

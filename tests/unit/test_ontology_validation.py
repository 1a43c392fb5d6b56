"""Every proposed node and edge is checked against the schema; refusals carry a machine-readable reason."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from kg.ingest.validation import Reason, validate_batch, validate_edge, validate_node
from kg.ingest.write import stamp
from ontology.loader import get_schema
from ontology.records import EdgeRecord, NodeRecord
from tests.sample_graph import NOW, prov, sample_graph


def stamped(element):
    return stamp(element, get_schema(), NOW)


def method(**props):
    return stamped(NodeRecord("Method", "m1", {"name": "BERT", **prov(None), **props}))


def uses(**changes):
    edge = EdgeRecord("USES", "Paper", "p1", "Method", "m1", prov("a" * 64))
    return stamped(replace(edge, **changes))


def test_the_sample_graph_is_valid():
    nodes, edges = sample_graph()
    result = validate_batch(map(stamped, nodes), map(stamped, edges), get_schema())
    assert result.rejections == []
    assert (len(result.nodes), len(result.edges)) == (len(nodes), len(edges))


def test_unknown_label_and_type_are_not_in_schema():
    schema = get_schema()
    rejection = validate_node(replace(method(), label="Gadget"), schema)
    assert rejection.reason is Reason.NOT_IN_SCHEMA and "Gadget" in rejection.message
    assert validate_edge(uses(type="LIKES"), schema).reason is Reason.NOT_IN_SCHEMA
    assert validate_edge(uses(target_label="Gadget"), schema).reason is Reason.NOT_IN_SCHEMA


def test_forbidden_endpoint_pair():
    rejection = validate_edge(uses(target_label="Metric"), get_schema())
    assert rejection.reason is Reason.INVALID_ENDPOINTS
    assert "(Paper)-[:USES]->(Method)" in rejection.message
    same_as = EdgeRecord("SAME_AS", "Method", "m1", "Dataset", "d1", uses().props)
    assert validate_edge(same_as, get_schema()).reason is Reason.INVALID_ENDPOINTS


def test_missing_required_property():
    props = dict(method().props)
    del props["name"]
    rejection = validate_node(replace(method(), props=props), get_schema())
    assert (rejection.reason, rejection.property) == (Reason.MISSING_PROPERTY, "name")
    assert validate_node(method(name=None), get_schema()).reason is Reason.MISSING_PROPERTY
    authorship = EdgeRecord("HAS_AUTHOR", "Paper", "p1", "Author", "a1", uses().props)
    rejection = validate_edge(authorship, get_schema())
    assert (rejection.reason, rejection.property) == (Reason.MISSING_PROPERTY, "position")


@pytest.mark.parametrize("props, prop", [
    ({"confidence": 1.5}, "confidence"),
    ({"confidence": "high"}, "confidence"),
    ({"verification_status": "approved"}, "verification_status"),
    ({"aliases": "BERT-base"}, "aliases"),
    ({"aliases": ["ok", 3]}, "aliases"),
    ({"name": ["BERT"]}, "name"),
    ({"bboxes": ["1:0,0,10"]}, "bboxes"),
    ({"pages": [0]}, "pages"),
    ({"extractor": "no-version"}, "extractor"),
    ({"created_at": datetime(2026, 1, 1)}, "created_at"),  # naive datetimes are refused
])
def test_invalid_values(props, prop):
    rejection = validate_node(method(**props), get_schema())
    assert (rejection.reason, rejection.property) == (Reason.INVALID_VALUE, prop)


def test_id_only_in_its_field():
    rejection = validate_node(method(id="m2"), get_schema())
    assert (rejection.reason, rejection.property) == (Reason.INVALID_VALUE, "id")


def test_unknown_property():
    rejection = validate_node(method(colour="red"), get_schema())
    assert (rejection.reason, rejection.property) == (Reason.UNKNOWN_PROPERTY, "colour")
    assert validate_edge(uses(props={**uses().props, "position": 1}), get_schema()).reason is Reason.UNKNOWN_PROPERTY


def test_enumerations_are_enforced_per_label():
    section = stamped(NodeRecord("Section", "s1", {**prov("a" * 64), "title": "Intro", "level": 1, "kind": "Intro",
                                                  "core_kind": "body", "page_start": 1, "page_end": 1, "ordinal": 1}))
    assert validate_node(section, get_schema()).property == "kind"
    assert validate_node(replace(section, props={**section.props, "kind": "Introduction"}), get_schema()) is None


def test_batch_counts_reasons_and_rejects_edges_to_rejected_nodes():
    bad_node = method(confidence=2.0)
    good_paper = stamped(NodeRecord("Paper", "p1", {**prov("a" * 64), "sha256": "a" * 64, "file_name": "x.pdf",
                                                     "page_count": 3}))
    result = validate_batch([good_paper, bad_node], [uses(), uses(type="LIKES")], get_schema())
    assert [n.id for n in result.nodes] == ["p1"] and result.edges == []
    assert result.counts == {"INVALID_VALUE": 1, "MISSING_ENDPOINT": 1, "NOT_IN_SCHEMA": 1}


@pytest.mark.parametrize("embedding, valid", [
    ([0.25, -1.0, 3], True),  # an integer is a float value here
    ([0.25, True], False),  # a boolean is not, though Python's bool is an int
    ([0.25, "0.5"], False),
    ([0.25, None], False),
])
def test_every_value_of_a_vector_is_checked(embedding, valid):
    chunk = next(n for n in sample_graph()[0] if n.label == "Chunk")
    rejection = validate_node(stamped(replace(chunk, props={**chunk.props, "embedding": embedding})), get_schema())
    assert (rejection is None) if valid else (rejection.reason, rejection.property) == (Reason.INVALID_VALUE, "embedding")

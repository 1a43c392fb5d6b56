"""Checks proposed nodes and edges against the schema before anything is written.

Pure functions: no database. A refused element comes back as a Rejection with a machine-readable reason,
so callers count and report it instead of writing or dropping it silently.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Iterable

from neo4j.time import DateTime as Neo4jDateTime

from ontology.loader import PropertySpec, Schema
from ontology.records import EdgeRecord, NodeRecord


class Reason(StrEnum):
    NOT_IN_SCHEMA = "NOT_IN_SCHEMA"  # unknown label or relationship type
    INVALID_ENDPOINTS = "INVALID_ENDPOINTS"  # the schema forbids this (source label, type, target label)
    MISSING_PROPERTY = "MISSING_PROPERTY"  # a required property is absent or null
    UNKNOWN_PROPERTY = "UNKNOWN_PROPERTY"  # a property the schema does not declare for this label/type
    INVALID_VALUE = "INVALID_VALUE"  # wrong type, not in the enumeration, out of range, bad pattern
    MISSING_ENDPOINT = "MISSING_ENDPOINT"  # the edge's source or target is neither written nor in the graph


@dataclass(frozen=True)
class Rejection:
    reason: Reason
    element: NodeRecord | EdgeRecord
    message: str
    property: str | None = None


@dataclass
class BatchResult:
    nodes: list[NodeRecord] = field(default_factory=list)
    edges: list[EdgeRecord] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return count_reasons(self.rejections)


def count_reasons(rejections: Iterable[Rejection]) -> dict[str, int]:
    """How many elements were refused for each reason, for reports and logs."""
    return dict(Counter(r.reason.value for r in rejections))


def validate_node(node: NodeRecord, schema: Schema) -> Rejection | None:
    cls = schema.nodes.get(node.label)
    if cls is None:
        return Rejection(Reason.NOT_IN_SCHEMA, node, f"label {node.label!r} is not in the ontology")
    if "id" in node.props:  # the writer MERGEs on NodeRecord.id; a second id in props would overwrite it
        return Rejection(Reason.INVALID_VALUE, node, "the id goes in NodeRecord.id, not in props", "id")
    return _check_properties(node, {**node.props, "id": node.id}, cls.properties, node.label)


def validate_edge(edge: EdgeRecord, schema: Schema) -> Rejection | None:
    rel = schema.relationships.get(edge.type)
    if rel is None:
        return Rejection(Reason.NOT_IN_SCHEMA, edge, f"relationship type {edge.type!r} is not in the ontology")
    for label in (edge.source_label, edge.target_label):
        if label not in schema.nodes:
            return Rejection(Reason.NOT_IN_SCHEMA, edge, f"label {label!r} is not in the ontology")
    if (edge.source_label, edge.target_label) not in rel.patterns:
        allowed = ", ".join(f"({s})-[:{edge.type}]->({t})" for s, t in sorted(rel.patterns))
        return Rejection(Reason.INVALID_ENDPOINTS, edge,
                         f"({edge.source_label})-[:{edge.type}]->({edge.target_label}) is not allowed; allowed: {allowed}")
    return _check_properties(edge, edge.props, rel.properties, edge.type)


def validate_batch(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema) -> BatchResult:
    """Accepted nodes and edges plus every rejection; an edge whose endpoint was rejected here is rejected too."""
    result = BatchResult()
    refused: set[tuple[str, str]] = set()
    for node in nodes:
        rejection = validate_node(node, schema)
        if rejection:
            result.rejections.append(rejection)
            refused.add((node.label, node.id))
        else:
            result.nodes.append(node)
    for edge in edges:
        rejection = validate_edge(edge, schema)
        if rejection is None and {(edge.source_label, edge.source_id), (edge.target_label, edge.target_id)} & refused:
            rejection = Rejection(Reason.MISSING_ENDPOINT, edge, "an endpoint of this edge was rejected in the same batch")
        if rejection:
            result.rejections.append(rejection)
        else:
            result.edges.append(edge)
    return result


def _check_properties(element, props: dict[str, Any], specs: dict[str, PropertySpec], owner: str) -> Rejection | None:
    for name, value in props.items():
        spec = specs.get(name)
        if spec is None:
            return Rejection(Reason.UNKNOWN_PROPERTY, element, f"{owner} has no property {name!r} in the ontology", name)
        if value is not None and (problem := _value_problem(value, spec)):
            return Rejection(Reason.INVALID_VALUE, element, f"{owner}.{name}: {problem}", name)
    for name, spec in specs.items():
        if spec.required and props.get(name) is None:
            return Rejection(Reason.MISSING_PROPERTY, element, f"{owner} requires property {name!r}", name)
    return None


def _value_problem(value: Any, spec: PropertySpec) -> str | None:
    if spec.many:
        if not isinstance(value, (list, tuple)):
            return f"expected a list of {spec.datatype}, got {type(value).__name__}"
        if spec.plain and set(map(type, value)) <= _PASSING_TYPES[spec.datatype]:
            return None  # a chunk's vector is 384 floats: checked as one set of types, not value by value
        return next((p for v in value if (p := _scalar_problem(v, spec))), None)
    if isinstance(value, (list, tuple)):
        return f"expected one {spec.datatype}, got a list"
    return _scalar_problem(value, spec)


_TYPE_CHECKS = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    # time zone required: Neo4j stores a naive datetime as a LocalDateTime, which sorts apart from DateTimes
    "datetime": lambda v: isinstance(v, (datetime, Neo4jDateTime)) and v.tzinfo is not None,
}


# Types whose every value passes _TYPE_CHECKS (bool is an int subclass, hence exact types)
_PASSING_TYPES = {"string": {str}, "integer": {int}, "float": {int, float}, "boolean": {bool}, "datetime": set()}


def _scalar_problem(value: Any, spec: PropertySpec) -> str | None:
    if not _TYPE_CHECKS[spec.datatype](value):
        return f"expected {spec.datatype}, got {type(value).__name__} {value!r}"
    if spec.enum is not None and value not in spec.enum:
        return f"{value!r} is not one of {', '.join(spec.enum)}"
    if spec.min_value is not None and value < spec.min_value:
        return f"{value!r} is below the minimum {spec.min_value:g}"
    if spec.max_value is not None and value > spec.max_value:
        return f"{value!r} is above the maximum {spec.max_value:g}"
    if spec.pattern is not None and not re.search(spec.pattern, value):
        return f"{value!r} does not match {spec.pattern}"
    return None

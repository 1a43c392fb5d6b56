"""The graph as a versioned JSON document ("paperkg-graph", version 1; see docs/export-format.md) and back.

The document holds every node and edge with all of its properties, provenance and verification status
included, so `kg import` into an empty database rebuilds the same graph. Import goes through the ontology
validator and writes nothing unless every element passes: a file cannot bring in what the schema forbids.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Iterable

from neo4j.time import DateTime as Neo4jDateTime

from kg.db.graph import Graph
from kg.errors import GraphImportError
from kg.db.schema import init_schema
from kg.ingest.validation import Reason, Rejection, count_reasons, validate_batch
from kg.ingest.write import WriteReport, write_graph
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

FORMAT = "paperkg-graph"
VERSION = 1
_SHOWN_REJECTIONS = 5

_HAS_DATA = "MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) RETURN count(n) > 0 AS has_data"


def to_document(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema,
                paper_ids: list[str] | None = None) -> dict[str, Any]:
    """Sorted, so the same graph always gives the same file."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "ontology_version": schema.version,
        "scope": {"papers": sorted(set(paper_ids)) if paper_ids else None},
        "nodes": sorted(({"label": n.label, "id": n.id, "properties": plain(n.props)} for n in nodes),
                        key=lambda n: (n["label"], n["id"])),
        "edges": sorted(({"type": e.type, "source": {"label": e.source_label, "id": e.source_id},
                          "target": {"label": e.target_label, "id": e.target_id}, "properties": plain(e.props)}
                         for e in edges),
                        key=lambda e: (e["source"]["label"], e["source"]["id"], e["type"],
                                       e["target"]["label"], e["target"]["id"])),
    }


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1)


def from_document(document: Any, schema: Schema) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """Records from a parsed file; datetime properties (ISO 8601 text in the file) become datetimes again."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise GraphImportError(f"not a {FORMAT} file", hint="export one with: kg export json")
    if document.get("version") != VERSION:
        raise GraphImportError(f"{FORMAT} version {document.get('version')!r} is not supported (this paperkg reads "
                               f"version {VERSION})", hint="export the graph again with this paperkg")
    try:
        nodes = [NodeRecord(n["label"], n["id"], _typed(n.get("properties", {}), schema, n["label"]))
                 for n in document["nodes"]]
        edges = [EdgeRecord(e["type"], e["source"]["label"], e["source"]["id"], e["target"]["label"],
                            e["target"]["id"], _typed(e.get("properties", {}), schema, e["type"]))
                 for e in document["edges"]]
    except (KeyError, TypeError, AttributeError) as exc:
        raise GraphImportError(f"malformed {FORMAT} file: an element lacks {exc}",
                               hint="see docs/export-format.md for the layout") from exc
    return nodes, edges


def import_graph(graph: Graph, schema: Schema, document: Any, *, embedding_dim: int,
                 merge: bool = False) -> WriteReport:
    """Validate the whole file, then write it in one transaction; refuse a non-empty database unless `merge`."""
    nodes, edges = from_document(document, schema)
    if not merge and graph.write(_HAS_DATA, labels=list(schema.labels))[0][0]:
        raise GraphImportError("the database already holds a graph",
                               hint="import into an empty database, or pass --merge to merge by id")
    batch = validate_batch(nodes, edges, schema)
    present = {(n.label, n.id) for n in batch.nodes}
    rejections = batch.rejections + [
        Rejection(Reason.MISSING_ENDPOINT, e, f"edge {e.source_id} -[:{e.type}]-> {e.target_id}: an endpoint is "
                                              "not among the file's nodes")
        for e in batch.edges if not {(e.source_label, e.source_id), (e.target_label, e.target_id)} <= present]
    if rejections:
        shown = "\n".join(r.message for r in rejections[:_SHOWN_REJECTIONS])
        raise GraphImportError(f"the file breaks the ontology; nothing was imported ({count_reasons(rejections)})",
                               hint="fix or remove these elements", details=shown)
    init_schema(graph, schema, embedding_dim)
    return write_graph(graph, nodes, edges, schema)


def plain(value: Any) -> Any:
    """JSON values: datetimes as ISO 8601 with their zone (Neo4j's own form keeps nanoseconds)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Neo4jDateTime):
        return value.iso_format()
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _typed(props: dict[str, Any], schema: Schema, owner: str) -> dict[str, Any]:
    owner_specs = schema.nodes.get(owner) or schema.relationships.get(owner)
    specs = owner_specs.properties if owner_specs else {}
    return {name: _datetime(value) if name in specs and specs[name].datatype == "datetime" else value
            for name, value in props.items()}


def _datetime(value: Any) -> Any:
    """Text that is not an ISO datetime stays text, and the validator refuses it with the property named."""
    if not isinstance(value, str):
        return value
    try:
        return Neo4jDateTime.from_iso_format(value)
    except ValueError:
        return value

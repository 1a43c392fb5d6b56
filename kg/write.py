"""Writes a validated set of nodes and edges to Neo4j in one transaction, with batched UNWIND/MERGE.

Labels and relationship types cannot be Cypher parameters: every element passes the schema validator
first, and only the schema's own names are interpolated (backtick-quoted). Everything else is a parameter.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Iterable

from neo4j import Driver, ManagedTransaction

from kg.records import EdgeRecord, NodeRecord
from kg.validation import Reason, Rejection, count_reasons, validate_batch
from ontology.loader import Schema

_MERGE_NODES = """
UNWIND $rows AS row
MERGE (n:`{label}` {{id: row.id}})
ON CREATE SET n.created_at = row.created_at
SET n += row.props
"""

# Endpoints are matched, never created: an edge to a node that does not exist is reported, not invented.
_MERGE_EDGES = """
UNWIND $rows AS row
MATCH (s:`{source}` {{id: row.source_id}})
MATCH (t:`{target}` {{id: row.target_id}})
MERGE (s)-[r:`{type}`]->(t)
ON CREATE SET r.created_at = row.created_at
SET r += row.props
RETURN row.i AS i
"""


@dataclass
class WriteReport:
    nodes_written: int = 0
    edges_written: int = 0
    rejections: list[Rejection] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return count_reasons(self.rejections)

    @property
    def ok(self) -> bool:
        return not self.rejections


def write_graph(driver: Driver, nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema, *,
                database: str | None = None, now: datetime | None = None) -> WriteReport:
    """Validate, then MERGE nodes by (label, id) and edges by (source, type, target) in one transaction.

    created_at and updated_at default to `now` (UTC); created_at is kept when the element already exists.
    """
    now = now or datetime.now(timezone.utc)
    batch = validate_batch([stamp(n, schema, now) for n in nodes], [stamp(e, schema, now) for e in edges], schema)
    report = WriteReport(rejections=list(batch.rejections))
    if not batch.nodes and not batch.edges:
        return report
    with driver.session(database=database) as session:
        written_nodes, missing = session.execute_write(write_in_transaction, batch.nodes, batch.edges)
    report.nodes_written = written_nodes
    report.edges_written = len(batch.edges) - len(missing)
    report.rejections += [Rejection(Reason.MISSING_ENDPOINT, edge, "source or target node is not in the graph")
                          for edge in missing]
    return report


def stamp(element: NodeRecord | EdgeRecord, schema: Schema, now: datetime) -> NodeRecord | EdgeRecord:
    """The element with created_at/updated_at set to `now` where its label or type declares them and it has none."""
    owner = schema.nodes.get(element.label) if isinstance(element, NodeRecord) else schema.relationships.get(element.type)
    declared = owner.properties if owner else {}
    times = {name: now for name in ("created_at", "updated_at") if name in declared}
    return replace(element, props={**times, **element.props})


def write_in_transaction(tx: ManagedTransaction, nodes: list[NodeRecord], edges: list[EdgeRecord]
                         ) -> tuple[int, list[EdgeRecord]]:
    """The MERGE statements of write_graph inside a caller's transaction, for already validated and stamped
    elements; returns the nodes written and the edges whose endpoints were missing."""
    by_label: dict[str, list[dict]] = defaultdict(list)
    for node in nodes:
        props = dict(node.props)
        by_label[node.label].append({"id": node.id, "created_at": props.pop("created_at", None), "props": props})
    for label, rows in by_label.items():
        tx.run(_MERGE_NODES.format(label=label), rows=rows).consume()

    by_shape: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for i, edge in enumerate(edges):
        props = dict(edge.props)
        by_shape[(edge.type, edge.source_label, edge.target_label)].append(
            {"i": i, "source_id": edge.source_id, "target_id": edge.target_id,
             "created_at": props.pop("created_at", None), "props": props})
    written: set[int] = set()
    for (rel_type, source, target), rows in by_shape.items():
        result = tx.run(_MERGE_EDGES.format(type=rel_type, source=source, target=target), rows=rows)
        written.update(record["i"] for record in result)
    return len(nodes), [edge for i, edge in enumerate(edges) if i not in written]

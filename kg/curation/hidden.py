"""Rejected elements are soft-deleted: they stay in the graph (history, re-ingestion rules) but question
answering and exports must not show them. These filters apply that to query results and exported records
without each query having to repeat a WHERE clause."""

from __future__ import annotations

from typing import Any

from neo4j import Record
from neo4j.graph import Node, Relationship

from ontology.records import EdgeRecord, NodeRecord

REJECTED = "rejected"


def is_rejected(value: Any) -> bool:
    return isinstance(value, (Node, Relationship)) and value.get("verification_status") == REJECTED


def without_rejected(records: list[Record]) -> list[Record]:
    """Records holding a rejected node or edge are dropped; rejected items are taken out of list values."""
    kept = []
    for record in records:
        if any(is_rejected(v) for v in record.values()):
            continue
        kept.append(Record([(k, [x for x in v if not is_rejected(x)] if isinstance(v, list) else v)
                            for k, v in record.items()]))
    return kept


def visible_records(nodes: list[NodeRecord], edges: list[EdgeRecord]) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """Exports' view: rejected nodes and edges left out, and so are edges to a rejected node."""
    hidden = {(n.label, n.id) for n in nodes if n.props.get("verification_status") == REJECTED}
    return ([n for n in nodes if (n.label, n.id) not in hidden],
            [e for e in edges if e.props.get("verification_status") != REJECTED
             and not {(e.source_label, e.source_id), (e.target_label, e.target_id)} & hidden])

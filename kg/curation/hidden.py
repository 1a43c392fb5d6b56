"""Rejected elements are soft-deleted: they stay in the graph (history, re-ingestion rules) but readers that
answer questions must not see them. This filter applies that to query results without each query having to
repeat a WHERE clause."""

from __future__ import annotations

from typing import Any

from neo4j import Record
from neo4j.graph import Node, Relationship

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

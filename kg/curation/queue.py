"""The review queue: what needs a person, most urgent first. Flagged elements (someone asked for a look),
then SAME_AS candidates (a decision only a person makes), then low-confidence extractions (least sure first),
then figures and tables the coverage check found unlinked."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from neo4j import Driver

from kg.coverage import coverage
from kg.curation import cypher
from ontology.loader import Schema

_UNCOVERED = ("figures", "tables")


@dataclass(frozen=True)
class QueueItem:
    kind: str  # flagged | same_as | low_confidence | uncovered
    element: str  # node id, or the edge's element id
    element_kind: str  # node | edge
    label: str  # node label or edge type
    name: str | None
    confidence: float | None
    why: str


def review_queue(driver: Driver, schema: Schema, *, threshold: float, limit: int = 100,
                 database: str | None = None) -> list[dict[str, Any]]:
    """At most `limit` items; each group in its own order (see the module docstring)."""
    run = lambda q, **p: driver.execute_query(q, **p, database_=database, routing_="r").records  # noqa: E731
    labels = [l for l, c in schema.nodes.items() if "verification_status" in c.properties]
    items = [QueueItem("flagged", r["id"], "node", r["label"], r["name"], r["confidence"], "flagged by a curator")
             for r in run(cypher.QUEUE_FLAGGED_NODES, labels=labels)]
    items += [QueueItem("flagged", r["edge_id"], "edge", r["type"], r["name"], r["confidence"], "flagged by a curator")
              for r in run(cypher.QUEUE_FLAGGED_EDGES, types=list(schema.relationship_types))]
    if len(items) < limit and "SAME_AS" in schema.relationships:
        items += [QueueItem("same_as", r["edge_id"], "edge", "SAME_AS", r["name"], r["confidence"],
                            "possibly the same entity: merge, or reject the candidate")
                  for r in run(cypher.QUEUE_SAME_AS, limit=limit)]
    if len(items) < limit:
        items += [QueueItem("low_confidence", r["id"], "node", r["label"], r["name"], r["confidence"],
                            f"extracted with confidence {r['confidence']:.2f} < {threshold:.2f}")
                  for r in run(cypher.QUEUE_LOW_CONFIDENCE, threshold=threshold, labels=labels, limit=limit)]
    if len(items) < limit:
        items += _uncovered(driver, schema, [r["id"] for r in run(cypher.QUEUE_PAPERS)], limit - len(items), database)
    return [asdict(i) for i in items[:limit]]


def _uncovered(driver: Driver, schema: Schema, papers: list[str], limit: int, database: str | None) -> list[QueueItem]:
    items: list[QueueItem] = []
    for paper in papers:
        report = coverage(driver, paper, list(schema.entity_labels), database)
        for category in report["categories"]:
            if category["name"] in _UNCOVERED:
                label = "Figure" if category["name"] == "figures" else "Table"
                items += [QueueItem("uncovered", m["id"], "node", label, m["label"], None,
                                    f"{m['reason']}; {m['action']}") for m in category["missing"]]
        if len(items) >= limit:
            break
    return items

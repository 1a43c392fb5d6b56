"""The needs-attention queue: what needs a person, most urgent first, nodes and edges. Flagged elements (someone
asked for a look), then contested ones (a re-ingest disagreed with a curator: kg.ingest.reconcile.contests), then
SAME_AS candidates (a decision only a person makes), then low-confidence extractions (least sure first), then figures
and tables the coverage check found unlinked. The review list's filters (kg.curation.review.View) narrow every group,
and every item names its papers, as the list's rows do."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from kg.db.graph import Graph
from kg.read.coverage import FLOAT_HAS, FLOAT_LINKS, unlinked_item
from kg.curation import cypher
from kg.curation.review import View, item
from ontology.loader import Schema

_UNCOVERED = ("Figure", "Table")
_ARROWS = {"same_as": " ≟ "}


@dataclass(frozen=True)
class QueueItem:
    kind: str  # flagged | contested | same_as | low_confidence | uncovered
    element: str  # node id, or the edge's element id
    element_kind: str  # node | edge
    label: str  # node label or edge type
    name: str | None
    confidence: float | None
    status: str | None
    why: str
    paper_count: int = 0  # counted up to kg.curation.review.MAX_PAPERS
    more_papers: bool = False  # more than paper_count
    papers: list[dict[str, Any]] = field(default_factory=list)  # three, the first by id of those counted


def curatable_labels(schema: Schema) -> list[str]:
    return [l for l, c in schema.nodes.items() if "verification_status" in c.properties]


def review_queue(graph: Graph, schema: Schema, view: View = View(), *, threshold: float,
                 limit: int = 100) -> list[dict[str, Any]]:
    """At most `limit` items of the view; each group in its own order (see the module docstring). The view's
    queue and sort do not apply: the groups are the queue."""
    run = graph.read
    labels = [l for l in curatable_labels(schema) if not view.labels or l in view.labels]  # schema names only
    params = {**view.parameters(schema, threshold), "labels": labels, "end_labels": list(view.labels) or None,
              "types": list(schema.relationship_types), "limit": limit, "node_ids": []}
    items: list[QueueItem] = []
    for group in ("flagged", "contested"):
        items += _nodes(run, params, group, threshold)
        items += _edges(run, params, group)
    if "SAME_AS" in schema.relationships:
        items += _edges(run, params, "same_as")
    items += _nodes(run, params, "low_confidence", threshold)
    if len(items) < limit:
        items += _uncovered(run, params, limit - len(items))
    return [asdict(i) for i in items[:limit]]


def _nodes(run, params: dict[str, Any], group: str, threshold: float) -> list[QueueItem]:
    order = cypher.REVIEW_SORTS["contested"] + " DESC" if group == "contested" else cypher.REVIEW_SORTS["confidence"]
    if params["sha"] is None:
        if not params["labels"]:
            return []
        query = cypher.queue_nodes(params["labels"], group, order)
    else:  # from the paper: its own nodes and those its edges lead to
        query = cypher.REVIEW_PAGE.format(queue=cypher.QUEUE_NODE_GROUPS[group][0], order=order,
                                          shas=cypher.REVIEW_SHAS, nodes=cypher.REVIEW_NODES[True])
    rows = [item(r) for r in run(query, **params, offset=0)]
    return [_node_item(group, r, _why(group, r["reason"], (r["contested"] or {}).get("reason"), r["confidence"],
                                      threshold)) for r in rows]


def _node_item(group: str, row: dict[str, Any], why: str) -> QueueItem:
    """A review-list row (kg.curation.review.item) as an item of the queue."""
    return QueueItem(group, row["id"], "node", row["label"], row["name"], row["confidence"], row["status"], why,
                     paper_count=row["paper_count"], more_papers=row["more_papers"], papers=row["papers"])


def _edges(run, params: dict[str, Any], group: str) -> list[QueueItem]:
    arrow = _ARROWS.get(group, " → ")
    return [QueueItem(group, r["edge_id"], "edge", r["type"], r["source_name"] + arrow + r["target_name"],
                      r["confidence"], r["status"], _why(group, r["reason"], r["contested_reason"], None, 0),
                      paper_count=r["paper_count"], more_papers=r["more_papers"],
                      papers=[dict(p) for p in r["papers"]])
            for r in run(cypher.queue_edges(params["types"], group), **params)]


def _why(group: str, reason: str | None, contest: str | None, confidence: float | None, threshold: float) -> str:
    if group == "flagged":
        return "flagged by a curator" + (f": {reason}" if reason else "")
    if group == "contested":
        return f"a re-ingest disagrees: {contest}"
    if group == "same_as":
        return "possibly the same entity: merge, or reject the candidate"
    return f"extracted with confidence {confidence:.2f} < {threshold:.2f}"


def _uncovered(run, params: dict[str, Any], limit: int) -> list[QueueItem]:
    """Figures and tables the coverage check finds unlinked, as far as the view admits them, paper by paper."""
    labels = [l for l in _UNCOVERED if l in params["labels"]]
    if not labels:
        return []
    found = run(cypher.QUEUE_UNLINKED, **{**params, "labels": labels, "has": [FLOAT_HAS[l] for l in labels],
                                          "links": FLOAT_LINKS, "limit": limit})
    query = cypher.queue_nodes(labels, "uncovered", cypher.REVIEW_SORTS["confidence"])
    rows = {r["id"]: item(r) for r in run(query, **{**params, "labels": labels, "node_ids": [f["id"] for f in found]},
                                          offset=0)}
    items = []
    for f in found:
        if r := rows.get(f["id"]):  # else changed since it was found
            missing = unlinked_item(f["kind"], f)
            items.append(_node_item("uncovered", r, f"{missing.reason}; {missing.action}"))
    return items

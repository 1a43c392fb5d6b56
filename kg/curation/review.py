"""The review list of the curator workbench: the graph's curatable nodes as a filtered, sorted page, so that the
page never loads everything to filter it. A view is a queue (which nodes deserve a look) narrowed by filters;
every view also counts its nodes by status, which is the curator's progress through it.

Queues: `all`; `low_confidence` (automatic nodes under the curation threshold); `high_impact` (nodes that the
extracted edges of several papers point at, so one mistake misleads every one of them; most papers first);
`sample` (a random sample for quality audits: the seeded order of the whole view, the same for the same seed and
graph, so two auditors or two runs look at the same items); `contested` (curated nodes a re-ingest disagreed with,
kg.ingest.reconcile.contests: the decision stands until a curator looks again; newest disagreement first).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kg.curation import cypher
from kg.db.graph import Graph
from ontology.loader import Schema

# Passages are the evidence shown beside an item, not claims to judge one by one.
NOT_REVIEWED = frozenset({"Chunk"})
HIGH_IMPACT_PAPERS = 2
MAX_PAPERS = 100  # a row counts at most this many of its papers (kg.curation.cypher.REVIEW_SHAS says why)
QUEUES = tuple(cypher.REVIEW_QUEUES)
SORTS = tuple(cypher.REVIEW_SORTS)
# A queue's order when the curator chose none: the most important first.
DEFAULT_ORDER = {"high_impact": ("papers", True), "contested": ("contested", True)}


def reviewable_labels(schema: Schema) -> list[str]:
    return sorted(l for l, c in schema.nodes.items() if "verification_status" in c.properties and l not in NOT_REVIEWED)


@dataclass(frozen=True)
class View:
    """Which nodes a curator looks at, and in which order. None means "any"."""

    queue: str = "all"
    labels: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    paper_sha256: str | None = None
    min_confidence: float | None = None
    max_confidence: float | None = None
    extractor: str | None = None
    changed_since: datetime | None = None
    text: str | None = None
    sort: str | None = None  # None: the queue's default order (DEFAULT_ORDER, else least confident first)
    descending: bool = False
    seed: int = 0

    def parameters(self, schema: Schema, threshold: float) -> dict[str, Any]:
        return {"labels": list(self.labels) or reviewable_labels(schema), "statuses": list(self.statuses) or None,
                "sha": self.paper_sha256, "min_confidence": self.min_confidence,
                "max_confidence": self.max_confidence, "extractor": self.extractor or None,
                "since": self.changed_since.isoformat() if self.changed_since else None,
                "text": self.text.lower() if self.text else None, "threshold": threshold, "ids": None,
                "min_papers": HIGH_IMPACT_PAPERS, "max_papers": MAX_PAPERS}


def review_page(graph: Graph, schema: Schema, view: View, *, threshold: float, offset: int = 0,
                limit: int = 50) -> dict[str, Any]:
    """One page of the view, its total and its counts by status."""
    run = graph.read
    params = view.parameters(schema, threshold)
    match = {"queue": cypher.REVIEW_QUEUES[view.queue], "shas": cypher.REVIEW_SHAS,
             "nodes": cypher.REVIEW_NODES[view.paper_sha256 is not None]}
    counts = {r["status"]: r["count"] for r in run(cypher.REVIEW_COUNTS.format(**match), **params)}
    default = DEFAULT_ORDER.get(view.queue, ("confidence", False))
    sort, descending = (view.sort, view.descending) if view.sort else default
    order = cypher.REVIEW_SORTS[sort] + (" DESC" if descending else "")
    if view.queue == "sample":
        chosen = _sample(run(cypher.REVIEW_KEYS.format(**match), **params), view.seed)[offset:offset + limit]
        rank = {element_id: i for i, element_id in enumerate(chosen)}
        rows = run(cypher.REVIEW_PAGE.format(order=order, **match), **{**params, "ids": chosen}, offset=0,
                   limit=len(chosen))
        rows = sorted(rows, key=lambda r: rank[r["element_id"]])
    else:
        rows = run(cypher.REVIEW_PAGE.format(order=order, **match), **params, offset=offset, limit=limit)
    total = sum(counts.values())
    return {"total": total, "offset": offset, "limit": limit,
            "progress": {"verified": counts.get("verified", 0), "rejected": counts.get("rejected", 0),
                         "edited": counts.get("edited", 0), "flagged": counts.get("flagged", 0),
                         "auto": counts.get("auto", 0), "total": total},
            "labels": reviewable_labels(schema),
            "items": [item(r) for r in rows]}


def _sample(keys: list, seed: int) -> list[str]:
    """Element ids in the seeded order: a hash of the seed with each node's label and id (stable across
    reloads of the graph, unlike element ids)."""
    digest = lambda k: hashlib.sha256(f"{seed}\x1f{k['label']}\x1f{k['id']}".encode()).digest()  # noqa: E731
    return [k["element_id"] for k in sorted(keys, key=digest)]


def item(r) -> dict[str, Any]:
    last = r["last_event"] or {}
    return {"id": r["id"], "label": r["label"], "name": r["name"], "confidence": r["confidence"],
            "status": r["status"], "reason": last.get("reason"), "last_action": last.get("action"),
            "extractor": r["extractor"], "updated_at": r["updated_at"], "paper_count": r["paper_count"],
            "more_papers": r["more_papers"], "papers": [dict(p) for p in r["papers"]],
            "contested": {"at": r["contested_at"], "run": r["contested_by_run"], "reason": r["contested_reason"]}
            if r["contested_at"] else None}

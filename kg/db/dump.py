"""A canonical text dump of the graph: one sorted JSON line per node and per relationship, with the
properties that change on every write left out. Two graphs are the same graph when their dumps are equal."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from kg.db.graph import Graph

VOLATILE = ("created_at", "updated_at", "run_id")  # set by each write, not part of what the graph says
# The schema's version node and the ingest ledger: two ingests of the same papers differ there, not in the graph.
LEDGER = ("PaperKGSchema", "IngestRun")

_NODES = "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props"
_EDGES = ("MATCH (s)-[r]->(t) RETURN labels(s) AS slabels, s.id AS source, type(r) AS type, "
          "labels(t) AS tlabels, t.id AS target, properties(r) AS props")


def _clean(props: dict[str, Any], volatile: tuple[str, ...]) -> dict[str, Any]:
    def value(v: Any) -> Any:
        if isinstance(v, float):
            return round(v, 6)  # embeddings: float32 noise below this is not a difference
        if isinstance(v, list):
            return [value(x) for x in v]
        return v if isinstance(v, (str, int, bool, type(None))) else str(v)
    return {k: value(v) for k, v in sorted(props.items()) if k not in volatile}


def canonical_dump(graph: Graph, *, skip_labels: tuple[str, ...] = ("PaperKGSchema",),
                   volatile: tuple[str, ...] = VOLATILE) -> list[str]:
    """Sorted lines; nodes and edges touching a label in `skip_labels` are left out."""
    lines = []
    for r in graph.read(_NODES):
        if not set(r["labels"]) & set(skip_labels):
            lines.append(json.dumps({"labels": sorted(r["labels"]), **_clean(r["props"], volatile)}, sort_keys=True))
    for r in graph.read(_EDGES):
        if not (set(r["slabels"]) | set(r["tlabels"])) & set(skip_labels):
            lines.append(json.dumps({"edge": [r["source"], r["type"], r["target"]], **_clean(r["props"], volatile)},
                                    sort_keys=True))
    return sorted(lines)


def checksum(graph: Graph) -> str:
    """SHA-256 of the canonical dump without the ledger: equal for two graphs of the same papers with the same
    content, however and whenever they were ingested, so "this change leaves the graph as it was" is one line
    to compare (`kg export checksum`)."""
    dump = "\n".join(canonical_dump(graph, skip_labels=LEDGER))
    return "sha256:" + hashlib.sha256(dump.encode()).hexdigest()

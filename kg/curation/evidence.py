"""The evidence of a workbench item side by side: for an edge, the passages it rests on with the spans that state
it and the boxes they are printed in; for a node, the same for each of its edges that has a paper (an entity is
shared by papers and has no page of its own: what each paper says about it is on its edges). Provenance comes
as fields a page can put in words (extractor, run, confidence, status), not as a property dump."""

from __future__ import annotations

from typing import Any

from kg.curation import cypher
from kg.curation.operations import EdgeRef, NodeRef
from kg.db.graph import Graph
from kg.read.evidence import edge_passages
from kg.read.queries import get_edge
from ontology.loader import Schema

MAX_EDGES = 10  # the item panel shows this many of a node's edges, the most confident first


def item_evidence(graph: Graph, schema: Schema, ref: NodeRef | EdgeRef, edge_id: str | None) -> list[dict[str, Any]]:
    """One entry per edge: the edge itself (`edge_id` given), else the node's edges with evidence."""
    run = graph.read
    if isinstance(ref, NodeRef):
        ids = [r["edge_id"] for r in run(cypher.EVIDENCE_EDGES_OF_NODE.format(label=ref.label), id=ref.id,
                                         types=list(schema.relationship_types), limit=MAX_EDGES)]
    else:
        ids = [edge_id] if edge_id else []
    out = []
    for one in ids:
        edge = get_edge(graph, one)
        p = edge["properties"]
        paper = run(cypher.PAPER_BY_SHA, sha=p.get("paper_sha256")) if p.get("paper_sha256") else []
        out.append({"edge_id": one, "type": edge["type"], "source": _end(schema, edge["source_node"]),
                    "target": _end(schema, edge["target_node"]), "extractor": p.get("extractor"),
                    "run_id": p.get("run_id"), "confidence": p.get("confidence"),
                    "status": p.get("verification_status"),
                    "paper": dict(paper[0]) if paper else None,
                    "passages": [{"chunk_id": c["chunk_id"], "text": c["text"], "section": c["section"],
                                  "page": c["page_start"], "spans": [list(s) for s in c["spans"]], "boxes": c["boxes"]}
                                 for c in edge_passages(graph, schema, edge)]})
    return out


def _end(schema: Schema, node: dict[str, Any]) -> dict[str, Any]:
    p = node["properties"]
    return {"id": node["id"], "label": next((l for l in node["labels"] if l in schema.nodes), None),
            "name": p.get("name") or p.get("title") or p.get("label") or node["id"]}

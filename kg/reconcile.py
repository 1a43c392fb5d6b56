"""The re-ingestion rules (docs/ingestion.md): what a fresh extraction may write, and what of the paper's
previous graph it removes, so that human work survives. Pure: the writer reads the state and applies the plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.mapping import PIPELINE_PREFIX
from ontology.records import EdgeRecord, NodeRecord

NodeKey = tuple[str, str]  # (label, id)
EdgeKey = tuple[str, str, str]  # (source id, type, target id), as EdgeRecord.key


@dataclass(frozen=True)
class State:
    """An element already in the graph: its curation state and Neo4j elementId."""

    element_id: str
    status: str | None
    extractor: str | None
    paper_scoped: bool = True  # carries this paper's sha256 (False: a node shared by papers, such as an Author)

    @property
    def human(self) -> bool:
        """Curated (any status but auto) or made by someone other than this pipeline."""
        return self.status != "auto" or not (self.extractor or "").startswith(PIPELINE_PREFIX)


@dataclass
class Existing:
    """The paper's graph before this write: its nodes (and shared neighbours) and its edges."""

    nodes: dict[NodeKey, State] = field(default_factory=dict)
    edges: dict[EdgeKey, State] = field(default_factory=dict)
    edge_ends: dict[EdgeKey, tuple[NodeKey, NodeKey]] = field(default_factory=dict)


@dataclass
class Plan:
    nodes: list[NodeRecord]  # to MERGE
    edges: list[EdgeRecord]
    delete_edges: list[str]  # elementIds
    delete_nodes: list[str]  # elementIds, detached
    orphan_candidates: list[str]  # shared automatic nodes to delete if nothing links them any more
    kept: int = 0  # proposed elements not written because a person owns them
    skipped_rejected: int = 0  # proposed edges not written because an endpoint was rejected by a curator


def reconcile(nodes: list[NodeRecord], edges: list[EdgeRecord], existing: Existing) -> Plan:
    """Apply the rules: human elements are never overwritten or removed; rejected nodes get no new edges;
    automatic elements the new extraction no longer proposes are removed, unless they hold human work."""
    human_nodes = {k for k, s in existing.nodes.items() if s.human}
    rejected = {k for k, s in existing.nodes.items() if s.status == "rejected"}
    human_edges = {k for k, s in existing.edges.items() if s.human}
    survivors = human_nodes | {end for k in human_edges for end in existing.edge_ends[k]}

    write_nodes = [n for n in nodes if (n.label, n.id) not in human_nodes]
    write_edges, skipped = [], 0
    for e in edges:
        if {(e.source_label, e.source_id), (e.target_label, e.target_id)} & rejected:
            skipped += 1
        elif e.key not in human_edges:
            write_edges.append(e)

    proposed_nodes = {(n.label, n.id) for n in nodes}
    proposed_edges = {e.key for e in edges}
    delete_nodes = [s.element_id for k, s in existing.nodes.items()
                    if s.paper_scoped and k not in proposed_nodes and k not in survivors]
    delete_edges = [s.element_id for k, s in existing.edges.items()
                    if k not in proposed_edges and not s.human and not set(existing.edge_ends[k]) & human_nodes]
    orphans = [s.element_id for k, s in existing.nodes.items() if not s.paper_scoped and not s.human]
    return Plan(nodes=write_nodes, edges=write_edges, delete_edges=delete_edges, delete_nodes=delete_nodes,
                orphan_candidates=orphans, kept=len(nodes) - len(write_nodes) + len(edges) - len(write_edges) - skipped,
                skipped_rejected=skipped)

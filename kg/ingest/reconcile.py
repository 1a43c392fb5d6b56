"""The re-ingestion rules (docs/ingestion.md): what a fresh extraction may write, and what of the paper's
previous graph it removes, so that human work survives. Pure: the writer reads the state and applies the plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kg.ingest.mapping import PIPELINE_PREFIX
from ontology.records import EdgeRecord, NodeRecord

NodeKey = tuple[str, str]  # (label, id)
EdgeKey = tuple[str, str, str]  # (source id, type, target id), as EdgeRecord.key
# Identity and content fingerprints: neither a curator's edit nor a disagreement with one.
IDENTITY = frozenset({"id", "embedding", "sha256", "content_hash"})
# The trace a disagreeing re-ingest leaves on a curated element (ontology: pkg:contestedAt ...); a curator's next
# change to the element removes it.
CONTESTED = ("contested_at", "contested_by_run", "contested_reason")
_SHOWN = 80  # characters of a value quoted in a reason


@dataclass(frozen=True)
class State:
    """An element already in the graph: its curation state and Neo4j elementId."""

    element_id: str
    status: str | None
    extractor: str | None
    paper_scoped: bool = True  # carries this paper's sha256 (False: a node shared by papers, such as an Author)
    edited: Mapping[str, Any] | None = None  # an `edited` element's properties that curators edited: their values

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


@dataclass(frozen=True)
class Contest:
    """A curated element the new extraction disagrees with: kept as the curator left it, and marked."""

    element_id: str
    node: bool
    reason: str  # what the extractor said against what the curator decided


@dataclass
class Plan:
    nodes: list[NodeRecord]  # to MERGE
    edges: list[EdgeRecord]
    delete_edges: list[str]  # elementIds
    delete_nodes: list[str]  # elementIds, detached
    orphan_candidates: list[str]  # shared automatic nodes to delete if nothing links them any more
    kept: int = 0  # proposed elements not written because a person owns them
    skipped_rejected: int = 0  # proposed edges not written because an endpoint was rejected by a curator
    contested: list[Contest] = field(default_factory=list)


def reconcile(nodes: list[NodeRecord], edges: list[EdgeRecord], existing: Existing,
              not_content: frozenset[str] = IDENTITY) -> Plan:
    """Apply the rules: human elements are never overwritten or removed; rejected nodes get no new edges;
    automatic elements the new extraction no longer proposes are removed, unless they hold human work. Where the
    extraction disagrees with a curator's decision, the plan says so (`contested`); `not_content` are the
    properties that are no disagreement when they differ (provenance, identity)."""
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
                skipped_rejected=skipped, contested=contests(nodes, edges, existing, not_content))


def contests(nodes: list[NodeRecord], edges: list[EdgeRecord], existing: Existing,
             not_content: frozenset[str]) -> list[Contest]:
    """Where the extraction and a curator disagree: it proposes again what a curator rejected (a node also when
    only edges to it are proposed), it gives an edited property another value than the curator's, or it no longer
    finds an element of the paper that a curator verified, edited or flagged. Elements a person made are not
    the extractor's to find; a shared node the paper no longer names may still rest on other papers."""
    proposed_nodes = {(n.label, n.id): n for n in nodes}
    linked = {end for e in edges for end in ((e.source_label, e.source_id), (e.target_label, e.target_id))}
    proposed_edges = {e.key: e for e in edges}
    out = []
    for key, s in existing.nodes.items():
        if reason := _contest(s, proposed_nodes.get(key), key in proposed_nodes or key in linked, not_content,
                              own=s.paper_scoped):
            out.append(Contest(s.element_id, node=True, reason=reason))
    for key, s in existing.edges.items():
        if reason := _contest(s, proposed_edges.get(key), key in proposed_edges, not_content, own=True):
            out.append(Contest(s.element_id, node=False, reason=reason))
    return out


def _contest(state: State, record: NodeRecord | EdgeRecord | None, proposed: bool, not_content: frozenset[str], *,
             own: bool) -> str | None:
    if state.status in (None, "auto"):
        return None
    if state.status == "rejected":
        if not proposed:
            return None
        confidence = record.props.get("confidence") if record else None
        said = f" (confidence {confidence:.2f})" if isinstance(confidence, (int, float)) else ""
        return f"the extractor proposes it again{said}; a curator rejected it"
    if not (state.extractor or "").startswith(PIPELINE_PREFIX):
        return None
    if not proposed:
        return f"the new parse no longer finds it; a curator {state.status} it" if own else None
    if record is not None and state.edited:
        differ = [f"{k}={_shown(record.props[k])} where a curator set {_shown(v)}"
                  for k, v in sorted(state.edited.items())
                  if k in record.props and k not in not_content and _plain(record.props[k]) != _plain(v)]
        if differ:
            return "the extractor says " + "; ".join(differ)
    return None


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _shown(value: Any) -> str:
    text = repr(_plain(value))
    return text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…"

"""Reads the graph (or one paper's part of it) back as NodeRecord/EdgeRecord, for the exporters.

Only labels and relationship types the schema declares are read, so metadata nodes such as the
schema-version node never leak into an export.

A read may be bounded (ReadBound: the API's exports, which anyone who can read the API may ask for): at most so
many elements, each query stopped by the server after so many seconds. Records are counted as they stream in,
so a graph over the bound is refused after reading one element more than the bound, not all of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from neo4j import Query
from neo4j.exceptions import ClientError

from kg.curation.hidden import visible_records
from kg.db.graph import Graph
from kg.errors import LimitExceededError
from kg.read.queries import resolve_paper
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

_ALL_NODES = """
MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels)
RETURN [l IN labels(n) WHERE l IN $labels][0] AS label, n {.*} AS props
"""
_ALL_EDGES = """
MATCH (s)-[r]->(t) WHERE type(r) IN $types
RETURN type(r) AS type, [l IN labels(s) WHERE l IN $labels][0] AS source_label, s.id AS source_id,
       [l IN labels(t) WHERE l IN $labels][0] AS target_label, t.id AS target_id, r {.*} AS props
"""
# One paper's part: every edge it produced or that touches a node it produced, and the nodes at their ends.
_PAPER_EDGES = """
MATCH (s)-[r]->(t) WHERE type(r) IN $types
  AND (r.paper_sha256 = $sha OR s.paper_sha256 = $sha OR t.paper_sha256 = $sha
       OR (s:Paper AND s.id = $paper_id) OR (t:Paper AND t.id = $paper_id))
RETURN type(r) AS type, [l IN labels(s) WHERE l IN $labels][0] AS source_label, s.id AS source_id,
       [l IN labels(t) WHERE l IN $labels][0] AS target_label, t.id AS target_id, r {.*} AS props,
       elementId(s) AS source_element, elementId(t) AS target_element
"""
_PAPER_NODES = """
MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels)
  AND (n.paper_sha256 = $sha OR elementId(n) IN $element_ids OR (n:Paper AND n.id = $paper_id))
RETURN [l IN labels(n) WHERE l IN $labels][0] AS label, n {.*} AS props
"""


@dataclass(frozen=True)
class ReadBound:
    max_elements: int  # nodes plus edges over the whole read
    timeout_s: float  # per query, enforced by the server


class _Budget:
    """What is left of a ReadBound across the queries of one read (no bound: None)."""

    def __init__(self, bound: ReadBound | None):
        self.bound, self.left = bound, bound.max_elements if bound else 0

    def read(self, graph: Graph, cypher: str, **params) -> list:
        if self.bound is None:
            return graph.read(cypher, **params)
        records = []
        try:
            with graph.read_session() as session:
                for record in session.run(Query(cypher, timeout=self.bound.timeout_s), params):
                    self.left -= 1
                    if self.left < 0:
                        raise LimitExceededError(
                            f"the export has more than {self.bound.max_elements:,} elements (nodes plus edges)",
                            hint="export fewer papers (paper_id), or the whole graph with `kg export` on the server; "
                                 "PAPERKG_EXPORT_MAX_ELEMENTS sets the bound")
                    records.append(record)
        except ClientError as exc:
            if "TransactionTimedOut" not in (exc.code or ""):
                raise
            raise LimitExceededError(f"reading the export took longer than {self.bound.timeout_s:g} s",
                                     hint="export fewer papers (paper_id), or use `kg export` on the server; "
                                          "PAPERKG_EXPORT_TIMEOUT_S sets the time") from None
        return records


def read_graph(graph: Graph, schema: Schema, paper_id: str | None = None,
               include_rejected: bool = False, bound: ReadBound | None = None,
               ) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The elements of the paper `paper_id` names (kg.read.queries.resolve_paper) or of the whole graph, without those
    curators rejected unless `include_rejected`; LimitExceededError beyond `bound`."""
    return _read_graph(graph, schema, paper_id, include_rejected, _Budget(bound))


def _read_graph(graph: Graph, schema: Schema, paper_id: str | None, include_rejected: bool,
                budget: _Budget) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    names = {"labels": list(schema.labels), "types": list(schema.relationship_types)}
    if paper_id is None:
        nodes = budget.read(graph, _ALL_NODES, **names)
        edges = budget.read(graph, _ALL_EDGES, **names)
    else:
        paper = resolve_paper(graph, paper_id)
        scope = {"sha": paper.sha256, "paper_id": paper.id}
        edges = budget.read(graph, _PAPER_EDGES, **names, **scope)
        element_ids = list({r[f"{end}_element"] for r in edges for end in ("source", "target")})
        nodes = budget.read(graph, _PAPER_NODES, **names, **scope, element_ids=element_ids)
    records = ([NodeRecord(r["label"], r["props"].pop("id"), r["props"]) for r in nodes],
               [EdgeRecord(r["type"], r["source_label"], r["source_id"], r["target_label"], r["target_id"], r["props"])
                for r in edges])
    return records if include_rejected else visible_records(*records)


def read_papers(graph: Graph, schema: Schema, paper_ids: list[str] | None = None,
                include_rejected: bool = False, bound: ReadBound | None = None,
                ) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The union of several papers' parts (shared authors, cited papers once), or the whole graph for None/[];
    `bound` applies to the read as a whole."""
    budget = _Budget(bound)
    if not paper_ids:
        return _read_graph(graph, schema, None, include_rejected, budget)
    nodes: dict[tuple[str, str], NodeRecord] = {}
    edges: dict[tuple[str, str, str, str, str], EdgeRecord] = {}
    for paper_id in dict.fromkeys(paper_ids):
        part_nodes, part_edges = _read_graph(graph, schema, paper_id, include_rejected, budget)
        nodes.update(((n.label, n.id), n) for n in part_nodes)
        edges.update(((e.source_label, e.source_id, e.type, e.target_label, e.target_id), e) for e in part_edges)
    return list(nodes.values()), list(edges.values())

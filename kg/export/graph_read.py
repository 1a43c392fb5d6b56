"""Reads the graph (or one paper's part of it) back as NodeRecord/EdgeRecord, for the exporters.

Only labels and relationship types the schema declares are read, so metadata nodes such as the
schema-version node never leak into an export.
"""

from __future__ import annotations

from neo4j import Driver

from kg.curation.hidden import visible_records
from kg.errors import NotFoundError
from kg.records import EdgeRecord, NodeRecord
from ontology.loader import Schema

_ALL_NODES = """
MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels)
RETURN [l IN labels(n) WHERE l IN $labels][0] AS label, n {.*} AS props
"""
_ALL_EDGES = """
MATCH (s)-[r]->(t) WHERE type(r) IN $types
RETURN type(r) AS type, [l IN labels(s) WHERE l IN $labels][0] AS source_label, s.id AS source_id,
       [l IN labels(t) WHERE l IN $labels][0] AS target_label, t.id AS target_id, r {.*} AS props
"""
_PAPER_SHA = "MATCH (p:Paper {id: $paper_id}) RETURN p.sha256 AS sha"
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


def read_graph(driver: Driver, schema: Schema, paper_id: str | None = None,
               database: str | None = None, include_rejected: bool = False) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The elements, without those curators rejected unless `include_rejected`."""
    names = {"labels": list(schema.labels), "types": list(schema.relationship_types)}
    if paper_id is None:
        nodes = driver.execute_query(_ALL_NODES, **names, database_=database).records
        edges = driver.execute_query(_ALL_EDGES, **names, database_=database).records
    else:
        found = driver.execute_query(_PAPER_SHA, paper_id=paper_id, database_=database).records
        if not found:
            raise NotFoundError(f"no paper with id {paper_id!r} in the graph",
                                hint="list papers with: MATCH (p:Paper) RETURN p.id, p.title")
        scope = {"sha": found[0]["sha"], "paper_id": paper_id}
        edges = driver.execute_query(_PAPER_EDGES, **names, **scope, database_=database).records
        element_ids = list({r[f"{end}_element"] for r in edges for end in ("source", "target")})
        nodes = driver.execute_query(_PAPER_NODES, **names, **scope, element_ids=element_ids,
                                     database_=database).records
    records = ([NodeRecord(r["label"], r["props"].pop("id"), r["props"]) for r in nodes],
               [EdgeRecord(r["type"], r["source_label"], r["source_id"], r["target_label"], r["target_id"], r["props"])
                for r in edges])
    return records if include_rejected else visible_records(*records)


def read_papers(driver: Driver, schema: Schema, paper_ids: list[str] | None = None,
                database: str | None = None, include_rejected: bool = False) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The union of several papers' parts (shared authors, cited papers once), or the whole graph for None/[]."""
    if not paper_ids:
        return read_graph(driver, schema, database=database, include_rejected=include_rejected)
    nodes: dict[tuple[str, str], NodeRecord] = {}
    edges: dict[tuple[str, str, str, str, str], EdgeRecord] = {}
    for paper_id in dict.fromkeys(paper_ids):
        part_nodes, part_edges = read_graph(driver, schema, paper_id=paper_id, database=database,
                                            include_rejected=include_rejected)
        nodes.update(((n.label, n.id), n) for n in part_nodes)
        edges.update(((e.source_label, e.source_id, e.type, e.target_label, e.target_id), e) for e in part_edges)
    return list(nodes.values()), list(edges.values())

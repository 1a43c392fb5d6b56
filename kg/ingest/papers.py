"""A paper's subgraph in Neo4j: find it, replace it in one transaction, delete it. All its Cypher is here, and
the steps of a paper's transaction that both writers take (kg.ingest.writer: the reference writer and the tuned
one, kg.ingest.tuned_writer).

A paper's subgraph is what is connected to its Paper node through relationships carrying the paper's
sha256 (paper_sha256), walked breadth-first in either direction. That needs no per-label query and
covers whatever later extractors hang on a paper, as long as their edges carry the paper's sha256.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from neo4j import ManagedTransaction, Session

from extractors.bbox import parse_bbox
from extractors.model import Box
from kg.db.graph import Graph
from kg.ingest.entities import (CatalogUpdate, EntityCatalog, Signature, catalog_update, entity_labels,
                         resolve_in_transaction)
from kg.ingest.mapping import CitationMatch, citation_edges
from kg.curation.cypher import EVENT_LABEL
from kg.ingest.reconcile import IDENTITY, Contest, Existing, State, reconcile
from kg.ingest.runs import Run
from kg.ingest.validation import Rejection, validate_batch
from kg.ingest.write import PLANNED_ONCE, batches, missing_endpoints, write_in_transaction
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord


_FIND_PAPER = "MATCH (p:Paper) WHERE p.sha256 = $key OR p.id = $key RETURN p.sha256 AS sha LIMIT 1"
_PRESENT = "UNWIND $shas AS sha MATCH (p:Paper {sha256: sha}) RETURN DISTINCT sha"
_UNCHANGED = """
UNWIND $shas AS sha
MATCH (:Paper {sha256: sha})-[:GENERATED_BY]->(run:IngestRun {status: 'succeeded'})
WHERE all(v IN $versions WHERE v IN run.extractors)
RETURN DISTINCT sha
"""
_START = PLANNED_ONCE + (
    "MATCH (p:Paper {sha256: $sha}) RETURN elementId(p) AS eid, labels(p) AS labels, p.id AS id, "
    "p.paper_sha256 AS sha, p.verification_status AS status, p.extractor AS extractor")
# One record per step, its rows as a list of maps: a record per row cost the client more than the walk.
_EXPAND = PLANNED_ONCE + """
UNWIND $frontier AS eid
MATCH (a) WHERE elementId(a) = eid
MATCH (a)-[r]-(b) WHERE r.paper_sha256 = $sha
RETURN collect({rid: elementId(r), type: type(r), rstatus: r.verification_status, rextractor: r.extractor,
       slabels: labels(startNode(r)), source: startNode(r).id, tlabels: labels(endNode(r)), target: endNode(r).id,
       eid: elementId(b), labels: labels(b), id: b.id, sha: b.paper_sha256,
       status: b.verification_status, extractor: b.extractor}) AS rows
"""
# Locks (docs/curation.md, Concurrency): a write to a property takes the element's exclusive lock, held to
# commit. The writer locks its Paper first, then the shared nodes it reads, in (label, id) order, and only then
# reads their curation state; curation locks the papers of what it changes before the element. So a curator's
# commit is either seen by the writer's read or waits until the writer has committed, never lost in between.
_PAPER_EXISTS = PLANNED_ONCE + "MATCH (p:Paper {sha256: $sha}) RETURN count(p) AS n"
_LOCK_PAPER = PLANNED_ONCE + "MATCH (p:Paper {sha256: $sha}) SET p.verification_status = p.verification_status"
_LOCK_SHARED = PLANNED_ONCE + """
UNWIND $ids AS id
MATCH (n:`{label}` {{id: id}}) WHERE n.paper_sha256 IS NULL
SET n.verification_status = n.verification_status
RETURN elementId(n) AS eid, n.id AS id, n.verification_status AS status, n.extractor AS extractor
"""
_CITED = PLANNED_ONCE + """
UNWIND $refs AS ref
MATCH (cited:Paper {doi: ref.doi})
RETURN ref.id AS reference, cited.sha256 AS cited, ref.bboxes AS bboxes
"""
_CITING = PLANNED_ONCE + """
MATCH (citing:Paper)-[:HAS_REFERENCE]->(r:Reference {doi: $doi})
RETURN r.id AS reference, citing.sha256 AS citing, r.bboxes AS bboxes
"""
# Not PLANNED_ONCE: planned on an empty graph, Neo4j scans every relationship for each id here instead of seeking
# it (tests/integration/test_ingest_idempotence.py), so its plan must follow the counts.
_DELETE_EDGES = "UNWIND $ids AS id MATCH ()-[r]->() WHERE elementId(r) = id DELETE r"
# The properties curators edited on the paper's `edited` elements (their edit events not undone), with the values
# they have now: a re-ingest that proposes other values contests them.
_EDITED_NODES = f"""
UNWIND $ids AS eid MATCH (n) WHERE elementId(n) = eid
RETURN eid, properties(n) AS props, COLLECT {{
    MATCH (ev:{EVENT_LABEL}) WHERE ev.element = n.id AND ev.action = 'edit' AND ev.undone_by IS NULL
    RETURN ev.new }} AS edits
"""
_EDITED_EDGES = f"""
UNWIND $ids AS eid MATCH (s)-[r]->(t) WHERE elementId(r) = eid
RETURN eid, properties(r) AS props, COLLECT {{
    MATCH (ev:{EVENT_LABEL}) WHERE ev.element = s.id + '|' + type(r) + '|' + t.id AND ev.action = 'edit'
      AND ev.undone_by IS NULL
    RETURN ev.new }} AS edits
"""
# The trace of a disagreement on a curated element (kg.ingest.reconcile.contests); the element is otherwise kept as is.
_CONTEST_NODES = ("UNWIND $rows AS row MATCH (n) WHERE elementId(n) = row.id "
                  "SET n.contested_at = $at, n.contested_by_run = $run, n.contested_reason = row.reason")
_CONTEST_EDGES = ("UNWIND $rows AS row MATCH ()-[r]->() WHERE elementId(r) = row.id "
                  "SET r.contested_at = $at, r.contested_by_run = $run, r.contested_reason = row.reason")
_DELETE_NODES = PLANNED_ONCE + "UNWIND $ids AS id MATCH (n) WHERE elementId(n) = id DETACH DELETE n"
_DELETE_ORPHANS = PLANNED_ONCE + (
    "UNWIND $ids AS id MATCH (n) WHERE elementId(n) = id AND NOT (n)--() DELETE n RETURN count(*) AS n")


@dataclass
class PaperWrite:
    """What one paper's transaction did."""

    nodes_written: int = 0
    edges_written: int = 0
    nodes_deleted: int = 0
    edges_deleted: int = 0
    kept: int = 0  # proposed elements left alone because a person owns them
    skipped_rejected: int = 0
    contested: int = 0  # curated elements the extraction disagreed with (kept, and marked)
    rejections: list[Rejection] = field(default_factory=list)  # found at write time: missing endpoints, citations
    # wall seconds of the transaction's parts: read (lock, resolve, read, reconcile, delete), statements (the
    # pipelined node and edge writes, orphans, the ledger), wait (the tuned writer: for the paper before it), commit
    seconds: dict[str, float] = field(default_factory=dict)
    entities: CatalogUpdate | None = None  # for the writer's EntityCatalog, once committed (None: nothing to tell)


def _session(graph: Graph, *, write: bool):
    """A session without server notifications: on a young graph every query here names types and properties
    that do not exist yet, which Neo4j would report as warnings."""
    return (graph.write_session if write else graph.read_session)(notifications_min_severity="OFF")


def unchanged(graph: Graph, shas: list[str], versions: list[str]) -> set[str]:
    """The files among `shas` that a succeeded run already ingested with exactly these extractor versions."""
    with _session(graph, write=False) as session:
        return {r["sha"] for r in session.run(_UNCHANGED, shas=shas, versions=versions)}


def find_paper(graph: Graph, key: str) -> str | None:
    """The sha256 of the paper whose id or sha256 is `key`."""
    with _session(graph, write=False) as session:
        record = session.run(_FIND_PAPER, key=key).single()
    return record["sha"] if record else None


def papers_present(graph: Graph, shas: list[str]) -> set[str]:
    """The files among `shas` that a paper in the graph refers to (kg.db.filestore keeps exactly those)."""
    with _session(graph, write=False) as session:
        return {r["sha"] for r in session.run(_PRESENT, shas=shas)}


def read_subgraph(tx: ManagedTransaction, sha: str, schema: Schema) -> Existing:
    """The paper's elements and the shared nodes they link to, with their curation state.

    Nodes whose label has no verification_status (IngestRun: the ledger) and their edges are not elements
    and are left out, so re-ingesting and deleting never touch the run history.
    """
    elements = {label for label, cls in schema.nodes.items() if "verification_status" in cls.properties}
    existing = Existing()
    start = tx.run(_START, sha=sha).single()
    if start is None:
        return existing
    seen = {start["eid"]}
    _add_node(existing, start, sha, elements)
    frontier = [start["eid"]]
    while frontier:
        found = []
        for row in tx.run(_EXPAND, frontier=frontier, sha=sha).single()["rows"]:
            source, target = (row["slabels"][0], row["source"]), (row["tlabels"][0], row["target"])
            if source[0] in elements and target[0] in elements:
                key = (row["source"], row["type"], row["target"])
                existing.edges[key] = State(row["rid"], row["rstatus"], row["rextractor"])
                existing.edge_ends[key] = (source, target)
            if row["eid"] not in seen and _add_node(existing, row, sha, elements):
                seen.add(row["eid"])
                found.append(row["eid"])
        frontier = found
    return existing


def _add_node(existing: Existing, row, sha: str, elements: set[str]) -> bool:
    label = row["labels"][0]
    if label not in elements:
        return False
    existing.nodes[(label, row["id"])] = State(row["eid"], row["status"], row["extractor"],
                                               paper_scoped=row["sha"] == sha)
    return True


def _read_edits(tx: ManagedTransaction, existing: Existing) -> None:
    """Give each `edited` element of `existing` the properties curators edited on it, with their values now."""
    for elements, query in ((existing.nodes, _EDITED_NODES), (existing.edges, _EDITED_EDGES)):
        keys = {s.element_id: k for k, s in elements.items() if s.status == "edited"}
        if not keys:
            continue
        for row in tx.run(query, ids=list(keys)):
            edited = {name for new in row["edits"] for name in json.loads(new)}
            key = keys[row["eid"]]
            elements[key] = replace(elements[key], edited={name: row["props"].get(name) for name in edited})


def _contest(tx: ManagedTransaction, contests: list[Contest], run: Run) -> None:
    at = datetime.now(timezone.utc)
    for node, query in ((True, _CONTEST_NODES), (False, _CONTEST_EDGES)):
        rows = [{"id": c.element_id, "reason": c.reason} for c in contests if c.node is node]
        for chunk in batches(rows):
            tx.run(query, rows=chunk, at=at, run=run.id).consume()


def lock_paper(tx: ManagedTransaction, sha: str) -> None:
    """The paper's lock: re-ingests, deletes and curators of the paper's elements take it first."""
    tx.run(_LOCK_PAPER, sha=sha).consume()


def _lock_shared_nodes(tx: ManagedTransaction, existing: Existing, nodes: list[NodeRecord],
                       edges: list[EdgeRecord]) -> dict[tuple[str, str], str]:
    """Lock the shared nodes (no paper sha256) this write reads or links, then read their curation state afresh:
    those of the paper's graph, those it proposes, and the known entities its edges were resolved to. A shared
    node new to the paper is only recorded when curated (so reconcile keeps it and links nothing to it if
    rejected). Returns the element id of every node locked: the paper's edges to them match them by it (one
    statement for edges to any label, not one per label)."""
    keys = {k for k, s in existing.nodes.items() if not s.paper_scoped}
    keys |= {(n.label, n.id) for n in nodes if "paper_sha256" not in n.props}
    proposed = {(n.label, n.id) for n in nodes}
    keys |= {end for e in edges for end in ((e.source_label, e.source_id), (e.target_label, e.target_id))
             if end not in proposed}
    by_label: dict[str, list[str]] = {}
    for label, node_id in sorted(keys):
        by_label.setdefault(label, []).append(node_id)
    locked: dict[tuple[str, str], str] = {}
    for label, ids in by_label.items():
        for row in tx.run(_LOCK_SHARED.format(label=label), ids=ids):
            state = State(row["eid"], row["status"], row["extractor"], paper_scoped=False)
            if (label, row["id"]) in existing.nodes or state.human:
                existing.nodes[(label, row["id"])] = state
            locked[(label, row["id"])] = row["eid"]
    return locked


def _resolve_and_lock(tx: ManagedTransaction, schema: Schema, run: Run, nodes: list[NodeRecord],
                      edges: list[EdgeRecord], existing: Existing, catalog: EntityCatalog | None,
                      ends: dict[tuple[str, str], str]) -> tuple[list[NodeRecord], list[EdgeRecord], Signature | None]:
    """The paper's entities resolved (one node per real entity: kg.ingest.entities), then its shared nodes locked (their
    element ids added to `ends`). An entity the catalog remembered may be gone: another writer that deleted one
    and created another left its counts as they were. Its edges would have no end, so the catalog forgets all
    and the paper is resolved again from the graph itself (once: an end missing after a read of the graph is
    another writer's deletion since, reported as a missing endpoint as before)."""
    for attempt in range(2):
        resolved_nodes, resolved_edges, signature = resolve_in_transaction(tx, schema, run, nodes, edges, catalog)
        locked = _lock_shared_nodes(tx, existing, resolved_nodes, resolved_edges)
        proposed = {(n.label, n.id) for n in resolved_nodes}
        gone = [end for e in resolved_edges for end in ((e.source_label, e.source_id), (e.target_label, e.target_id))
                if end[0] in entity_labels() and end not in proposed and end not in locked]
        if not gone or signature is None or attempt or not catalog.from_memory:
            break
        catalog.forget()
    ends.update(locked)
    return resolved_nodes, resolved_edges, signature


def _citations(tx: ManagedTransaction, sha: str, nodes: list[NodeRecord]) -> list[EdgeRecord]:
    """CITES/REFERS_TO between this paper and papers in the graph, both ways, matched by DOI."""
    refs = [{"id": n.id, "doi": n.props["doi"], "bboxes": n.props.get("bboxes", [])}
            for n in nodes if n.label == "Reference" and n.props.get("doi")]
    matches = [CitationMatch(r["reference"], sha, r["cited"], stored_boxes(r["bboxes"]))
               for r in tx.run(_CITED, refs=refs)] if refs else []
    doi = next((n.props.get("doi") for n in nodes if n.label == "Paper"), None)
    if doi:
        matches += [CitationMatch(r["reference"], r["citing"], sha, stored_boxes(r["bboxes"])) for r in tx.run(_CITING, doi=doi)]
    return citation_edges(matches)


def stored_boxes(bboxes: list[str] | None) -> tuple[Box, ...]:
    """The boxes of a stored `bboxes` property (a citation's evidence is the boxes of its bibliography entry)."""
    return tuple(Box(page=page, bbox=box) for page, box in map(parse_bbox, bboxes or []))


class WriteObserver:
    """Told what a paper's write does, from inside its transaction (kg.ingest.writer.WriterOptions.observer); this
    base is silent. What an observer raises fails the paper's transaction, which rolls back: tests fail a paper
    half-written there to check that nothing of it is left, race curators against a paper whose state was read,
    or hold one paper to see what the next one does meanwhile; `kg bench robustness` kills the server mid-write
    (bench/faults.py). So the writers' signatures carry no hooks of their own. Each attempt of a transaction counts
    from the start again."""

    def writing(self, run: Run) -> None:
        """The paper's transaction is about to send its first write: the paper is locked and its state read and
        reconciled, or (a paper new to the graph that the tuned writer writes ahead) nothing of the graph read."""

    def sent(self, run: Run, statement: int) -> None:
        """The transaction sent the paper's `statement`-th node or edge statement (from 1)."""


def paper_written(graph: Graph, attempts: Callable[[Session], PaperWrite]) -> PaperWrite:
    """What `attempts` wrote in a write session of its own (one execute_write a transaction, retried by the driver
    on transient failures), with the seconds the transactions' own steps did not count: the commit, and any
    attempt retried."""
    with _session(graph, write=True) as session:
        began = time.perf_counter()
        result = attempts(session)
    result.seconds["commit"] = time.perf_counter() - began - sum(result.seconds.values())
    return result


class PaperTransaction:
    """One attempt at writing a paper, inside one transaction: the steps both writers take (kg.ingest.writer).
    The caller locks the paper (lock_paper) and reads its subgraph (read_subgraph), then `replace` writes what
    the re-ingestion rules leave of the new records. The tuned writer may first write the nodes a new paper has
    alone (`write_own_new`), and CREATEs rather than MERGEs what it knows to be new; neither changes the graph.
    `result` gathers what the attempt did and where its time went."""

    def __init__(self, tx: ManagedTransaction, schema: Schema, run: Run, observer: WriteObserver) -> None:
        self._tx, self._schema, self._run, self._observer = tx, schema, run, observer
        self.result = PaperWrite()
        self._ends: dict[tuple[str, str], str] = {}  # element ids of the nodes written so far: edges find them
        self._written_ahead: frozenset[tuple[str, str]] = frozenset()
        self._announced = False
        self._statements = itertools.count(1)
        self._began = time.perf_counter()

    def lap(self, part: str) -> None:
        """Add the seconds since the last lap (or the start) to `part` of the result."""
        now = time.perf_counter()
        self.result.seconds[part] = self.result.seconds.get(part, 0.0) + now - self._began
        self._began = now

    def write_own_new(self, nodes: list[NodeRecord], edges: list[EdgeRecord]) -> None:
        """CREATE the nodes of a paper new to the graph that are its alone, and the edges between them (_own_new),
        before anything of the graph is read: nothing the graph holds changes how they are written. `replace`
        then writes the rest, against the paper's empty previous state."""
        own_nodes, own_edges, self._written_ahead = _own_new(self._run.sha256, nodes, edges)
        self._announce()
        self.lap("read")
        self._write(own_nodes, own_edges, new=self._written_ahead)
        self.lap("statements")

    def replace(self, existing: Existing, nodes: list[NodeRecord], edges: list[EdgeRecord], *, rejected: int,
                catalog: EntityCatalog | None = None, create_new: bool = False) -> PaperWrite:
        """Replace the paper's automatic elements in `existing` (its subgraph, read under its lock) with
        `nodes`/`edges` (validated, stamped) by the rules of kg.ingest.reconcile, and record the run as its
        generator, `rejected` records refused before the write. `catalog` resolves the paper's entities without
        reading all of the graph's (the tuned writer's), and learns those it created once the caller committed.

        With `create_new`, the paper's own nodes that its subgraph lacks are CREATEd (see write_in_transaction):
        ids derive from the paper's sha256, so only a node of this paper cut off from it (a curator removed its
        edges) or one a concurrent first ingest of the same file wrote can have such an id; the uniqueness
        constraint then fails the attempt, and the tuned writer makes it again with MERGE only. So this relies on
        the constraints of kg.db.schema.init_schema, which every ingest creates first."""
        tx, schema, run, result = self._tx, self._schema, self._run, self.result
        nodes, edges, signature = _resolve_and_lock(tx, schema, run, nodes, edges, existing, catalog, self._ends)
        citations = validate_batch([], [run.stamped(e, schema) for e in _citations(tx, run.sha256, nodes)], schema)
        _read_edits(tx, existing)
        plan = reconcile(nodes, edges + citations.edges, existing, schema.provenance | IDENTITY)
        self._announce()
        result.kept, result.skipped_rejected = plan.kept, plan.skipped_rejected
        result.rejections += citations.rejections
        result.nodes_deleted, result.edges_deleted = len(plan.delete_nodes), len(plan.delete_edges)
        for ids in batches(plan.delete_edges):
            tx.run(_DELETE_EDGES, ids=ids).consume()
        for ids in batches(plan.delete_nodes):
            tx.run(_DELETE_NODES, ids=ids).consume()
        _contest(tx, plan.contested, run)
        result.contested = len(plan.contested)
        self.lap("read")
        new = frozenset((n.label, n.id) for n in plan.nodes if create_new and n.props.get("paper_sha256") == run.sha256
                        and (n.label, n.id) not in existing.nodes)
        ahead = self._written_ahead
        self._write([n for n in plan.nodes if (n.label, n.id) not in ahead],
                    [e for e in plan.edges if not _between(e, ahead)], new=new)
        for ids in batches(plan.orphan_candidates):
            tx.run(_DELETE_ORPHANS, ids=ids).consume()
        if signature is not None:
            result.entities = catalog_update(tx, signature, [n for n in plan.nodes if n.label in entity_labels()],
                                             bool(plan.orphan_candidates))
        ledger = validate_batch([run.node("succeeded", nodes_written=result.nodes_written,
                                          edges_written=result.edges_written,
                                          rejected=rejected + len(result.rejections))],
                                [run.stamped(run.generated_edge(), schema)], schema)
        if ledger.rejections:  # the ledger is ours: a refusal here is a bug, not data to skip
            raise ValueError(f"the ontology refuses the run record: {ledger.rejections[0].message}")
        write_in_transaction(tx, ledger.nodes, ledger.edges)
        self.lap("statements")  # with orphan removal and the ledger: both small
        return result

    def _announce(self) -> None:
        """Tell the observer once, before the attempt's first write."""
        if not self._announced:
            self._announced = True
            self._observer.writing(self._run)

    def _write(self, nodes: list[NodeRecord], edges: list[EdgeRecord], *, new: frozenset[tuple[str, str]]) -> None:
        """write_in_transaction, its statements numbered for the observer across the attempt; counts what it wrote,
        and its edges without an endpoint."""
        written, edges_written, missing = write_in_transaction(
            self._tx, nodes, edges, new=new, schema=self._schema, element_ids=self._ends,
            on_statement=lambda _: self._observer.sent(self._run, next(self._statements)))
        self.result.nodes_written += written
        self.result.edges_written += edges_written
        self.result.rejections += missing_endpoints(missing)


def paper_exists(tx: ManagedTransaction, sha: str) -> bool:
    """Whether the graph holds the paper's node (a paper new to it has no previous state to read)."""
    return tx.run(_PAPER_EXISTS, sha=sha).single()["n"] > 0


def _own_new(sha: str, nodes: list[NodeRecord], edges: list[EdgeRecord]
             ) -> tuple[list[NodeRecord], list[EdgeRecord], frozenset[tuple[str, str]]]:
    """The nodes of a paper new to the graph that are its alone (its sha256, not an entity: kg.ingest.entities may
    resolve those to another paper's), and the edges between two of them. Nothing of the graph changes how
    they are written: resolution rewrites entities and their edges only, and reconcile writes every proposed
    element the graph does not hold. Also returns their (label, id) keys."""
    own = [n for n in nodes if n.props.get("paper_sha256") == sha and n.label not in entity_labels()]
    keys = frozenset((n.label, n.id) for n in own)
    return own, [e for e in edges if _between(e, keys)], keys


def _between(edge: EdgeRecord, keys: frozenset[tuple[str, str]]) -> bool:
    return (edge.source_label, edge.source_id) in keys and (edge.target_label, edge.target_id) in keys


def delete_subgraph(graph: Graph, sha: str, schema: Schema) -> tuple[int, int]:
    """Remove the paper's nodes and edges and the shared automatic nodes only it used; returns (nodes, edges)
    removed. Curated shared nodes stay even when no paper links them any more."""
    with _session(graph, write=True) as session:
        return session.execute_write(_delete_subgraph, sha, schema)


def _delete_subgraph(tx: ManagedTransaction, sha: str, schema: Schema) -> tuple[int, int]:
    lock_paper(tx, sha)
    existing = read_subgraph(tx, sha, schema)
    _lock_shared_nodes(tx, existing, [], [])
    scoped = [s.element_id for s in existing.nodes.values() if s.paper_scoped]
    shared = [s.element_id for s in existing.nodes.values() if not s.paper_scoped and not s.human]
    edges = [s.element_id for s in existing.edges.values()]
    for ids in batches(edges):
        tx.run(_DELETE_EDGES, ids=ids).consume()
    for ids in batches(scoped):
        tx.run(_DELETE_NODES, ids=ids).consume()
    orphans = sum(tx.run(_DELETE_ORPHANS, ids=ids).single()["n"] for ids in batches(shared))
    return len(scoped) + orphans, len(edges)

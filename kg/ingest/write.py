"""Writes a validated set of nodes and edges to Neo4j in one transaction, with batched UNWIND/MERGE.

Labels and relationship types cannot be Cypher parameters: every element passes the schema validator
first, and only the schema's own names are interpolated (backtick-quoted). Everything else is a parameter.

Properties equal in every row of a statement (a paper's sha256, run_id, extractor, timestamps, status) are
sent once as `$shared` instead of once per row: the graph stores the same values on every element, but the
driver packs a few values instead of thousands (a datetime is among the costliest values to pack).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from neo4j import ManagedTransaction

from kg.db.graph import Graph
from kg.ingest.validation import Reason, Rejection, count_reasons, validate_batch
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

BATCH_SIZE = 5000  # rows per UNWIND statement

# Neo4j plans a statement text once and caches the plan, but replans it when the graph's counts have moved far
# since (by more than 75 %, checked at most every 10 s). An ingest into an emptied or growing graph moves them all
# the time, so each of a paper write's statement texts would be planned again every 10 s, and planning one costs
# more than executing it. The paper write's statements are anchored on element ids,
# unique ids and indexed keys, whose plans the counts do not change (a test EXPLAINs them on an empty graph: seeks),
# so they keep the plan they have; kg.ingest.papers._DELETE_EDGES is the exception.
PLANNED_ONCE = "CYPHER replan=skip\n"

# An element a person decided on (any verification_status but auto) is never overwritten by a write: the
# re-ingestion rules leave out the paper's own human elements, and this also covers what the paper shares
# with others (an Author, an edge between two shared entities) that another paper's curator decided on.

_MERGE_NODES = PLANNED_ONCE + """
UNWIND $rows AS row
MERGE (n:`{label}` {{id: row.id}})
ON CREATE SET n.created_at = coalesce(row.created_at, $created_at)
WITH n, row, coalesce(n.verification_status, 'auto') = 'auto' AS automatic
SET n += CASE WHEN automatic THEN $shared ELSE {{}} END, n += CASE WHEN automatic THEN row.props ELSE {{}} END
RETURN collect([$label, row.id, elementId(n)]) AS written
"""

# Elements known to be new (write_in_transaction's `new`) are CREATEd: no seek for an existing one, no check of
# its curation state. A node's uniqueness constraint still refuses an id that exists after all; an edge with a
# node created by the same transaction at one end cannot exist yet.
# The properties of a CREATE are one map in its pattern (see _properties): `SET n += map` applied each map apart,
# diffing it against the node's properties so far, 60 % of the node and edge statements' server time.
# New nodes of every label share a statement, as new edges do (below): the label is each row's.
_CREATE_NODES = PLANNED_ONCE + """
UNWIND $rows AS row
CREATE (n:$(row.label) {{id: row.id, {properties}}})
RETURN collect([row.label, row.id, elementId(n)]) AS written
"""

# Endpoints are matched, never created: an edge to a node that does not exist is reported, not invented. An end
# the same transaction wrote is found by the element id its node statement returned (a record read); any other by
# its label's unique id index (a locking seek: a quarter of the edge statements' time when every end was one).
# One record per statement: a record per edge cost the server and the client more than the edge's own write.
_BY_ELEMENT_ID = "MATCH ({var}) WHERE elementId({var}) = row.{var}"
_BY_ID = "MATCH ({var}:`{label}` {{id: row.{var}}})"

_MERGE_EDGE = """
MERGE (s)-[r:`{type}`]->(t)
ON CREATE SET r.created_at = coalesce(row.created_at, $created_at)
WITH r, row, coalesce(r.verification_status, 'auto') = 'auto' AS automatic
SET r += CASE WHEN automatic THEN $shared ELSE {{}} END, r += CASE WHEN automatic THEN row.props ELSE {{}} END
RETURN collect(row.i) AS written
"""

# New edges of every type share a statement: the type is each row's (a dynamic type, whose name validation has
# checked against the ontology), so a paper's 24 types whose ends it wrote itself need one statement text, not 24.
# Neo4j parses, checks and plans each text once per server start (on a cold server that costs more than executing
# it), and executes a dynamic type as fast as a literal one.
_CREATE_EDGE = """
CREATE (s)-[r:$(row.type) {{{properties}}}]->(t)
RETURN collect(row.i) AS written
"""


@dataclass(frozen=True)
class _EdgeShape:
    """What an edge statement's text depends on: a label only for an end matched by its id, a type only for MERGE."""

    type: str | None
    source: str | None
    target: str | None
    created: bool


def _edge_shape(edge: EdgeRecord, created: bool, source_written: bool, target_written: bool) -> _EdgeShape:
    return _EdgeShape(None if created else edge.type, None if source_written else edge.source_label,
                      None if target_written else edge.target_label, created)


def _edge_statement(params: dict[str, Any], declared: Iterable[str], shape: _EdgeShape) -> str:
    ends = [_BY_ELEMENT_ID.format(var=var) if label is None else _BY_ID.format(var=var, label=label)
            for var, label in (("s", shape.source), ("t", shape.target))]
    write = (_CREATE_EDGE.format(properties=_properties(params, declared)) if shape.created
             else _MERGE_EDGE.format(type=shape.type))
    return "\n".join([PLANNED_ONCE + "UNWIND $rows AS row", *ends]) + write


def _properties(params: dict[str, Any], declared: Iterable[str]) -> str:
    """The map of a CREATE pattern for the parameters of _split_shared. It names the `declared` properties (the
    ontology's for every node label, or for every relationship type) besides those the rows carry, each
    taken from its row or else from `$shared`, so that a statement has one text, and one cached plan, whichever
    properties a paper's rows carry and share. Names are the ontology's (validation refuses any other); a
    property a row lacks is null, which CREATE leaves unset, as `+=` did."""
    names = {name for row in params["rows"] for name in row["props"]}.union(params["shared"], declared)
    entries = [f"{q}: coalesce(row.props.{q}, $shared.{q})" for q in map(_quoted, sorted(names - {"id", "created_at"}))]
    return ", ".join(["created_at: coalesce(row.created_at, $created_at)", *entries])


def _quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


@dataclass
class WriteReport:
    nodes_written: int = 0
    edges_written: int = 0
    rejections: list[Rejection] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return count_reasons(self.rejections)

    @property
    def ok(self) -> bool:
        return not self.rejections


def write_graph(graph: Graph, nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema, *,
                now: datetime | None = None) -> WriteReport:
    """Validate, then MERGE nodes by (label, id) and edges by (source, type, target) in one transaction.

    created_at and updated_at default to `now` (UTC); created_at is kept when the element already exists.
    """
    now = now or datetime.now(timezone.utc)
    batch = validate_batch([stamp(n, schema, now) for n in nodes], [stamp(e, schema, now) for e in edges], schema)
    report = WriteReport(rejections=list(batch.rejections))
    if not batch.nodes and not batch.edges:
        return report
    with graph.write_session() as session:
        report.nodes_written, report.edges_written, missing = session.execute_write(write_in_transaction, batch.nodes,
                                                                                   batch.edges)
    report.rejections += missing_endpoints(missing)
    return report


def missing_endpoints(edges: list[EdgeRecord]) -> list[Rejection]:
    """The rejections of the edges write_in_transaction found no endpoint for."""
    return [Rejection(Reason.MISSING_ENDPOINT, edge, "source or target node is not in the graph") for edge in edges]


def stamp(element: NodeRecord | EdgeRecord, schema: Schema, now: datetime) -> NodeRecord | EdgeRecord:
    """The element with created_at/updated_at set to `now` where its label or type declares them and it has none."""
    owner = schema.nodes.get(element.label) if isinstance(element, NodeRecord) else schema.relationships.get(element.type)
    declared = owner.properties if owner else {}
    times = {name: now for name in ("created_at", "updated_at") if name in declared}
    return replace(element, props={**times, **element.props})


def write_in_transaction(tx: ManagedTransaction, nodes: list[NodeRecord], edges: list[EdgeRecord], *,
                         new: frozenset[tuple[str, str]] = frozenset(), schema: Schema | None = None,
                         batch_size: int = BATCH_SIZE, on_statement: Callable[[int], None] | None = None,
                         element_ids: dict[tuple[str, str], str] | None = None) -> tuple[int, int, list[EdgeRecord]]:
    """The statements of write_graph inside a caller's transaction, for already validated and stamped elements:
    new nodes, existing nodes by label, then edges by _EdgeShape, `batch_size` rows a statement. Nodes whose (label, id) is in `new`,
    and edges with such a node at an end, are CREATEd (naming the properties `schema` declares for them: see
    _properties); the rest is MERGEd. A node or edge proposed twice is written once, as
    MERGE would make it (see distinct). Returns the nodes and edges written (each once) and the proposed edges
    whose endpoints were missing.

    Statements are pipelined: each returns a record, so the server answers its RUN before executing it and the
    client builds and packs statement k + 1 while the server executes statement k (a statement without a RETURN
    is executed before its RUN is answered). The one pause is after the node statements: they return their
    nodes' element ids, which the edge rows (built while the node statements run) need before the first edge
    statement is sent. `on_statement(n)` is called after the n-th statement is sent (kg.ingest.papers tells its
    WriteObserver). `element_ids` maps (label, id) to the element id of nodes an earlier call in the same
    transaction wrote, so edges to them are matched by element id too; the call adds its own nodes to it.
    """
    pending, sent = [], 0

    def send(template: str, params: dict[str, Any]) -> None:
        nonlocal sent
        pending.append(tx.run(template, **params))
        sent += 1
        if on_statement:
            on_statement(sent)

    distinct_nodes = distinct(nodes, lambda n: (n.label, n.id))
    # New nodes in one group whatever their label (one statement text); existing ones by label (MERGE seeks by it).
    by_label: dict[str | None, list[NodeRecord]] = defaultdict(list)
    for _, node in distinct_nodes:
        by_label[None if (node.label, node.id) in new else node.label].append(node)
    # Every label's properties, so that the CREATE text is the same whichever labels a statement holds.
    node_properties = sorted({name for owner in (schema.nodes.values() if schema else ()) for name in owner.properties})
    for label, group in by_label.items():
        for part in batches(group, batch_size):
            if label is None:
                params = _split_shared([n.props for n in part], [{"label": n.label, "id": n.id} for n in part])
                send(_CREATE_NODES.format(properties=_properties(params, node_properties)), params)
            else:
                params = _split_shared([n.props for n in part], [{"id": n.id} for n in part])
                send(_MERGE_NODES.format(label=label), {**params, "label": label})

    # The edge rows are built while the server executes the node statements; the element ids of the ends written
    # here are filled in once those statements answer.
    element_ids = {} if element_ids is None else element_ids
    written_ends = {(node.label, node.id) for _, node in distinct_nodes} | element_ids.keys()
    distinct_edges = distinct(edges, lambda e: e.key)
    by_shape: dict[_EdgeShape, list[tuple[int, EdgeRecord]]] = defaultdict(list)
    for group_index, (_, e) in enumerate(distinct_edges):
        source, target = (e.source_label, e.source_id), (e.target_label, e.target_id)
        shape = _edge_shape(e, source in new or target in new, source in written_ends, target in written_ends)
        by_shape[shape].append((group_index, e))
    statements = [(shape, part, _split_shared([e.props for _, e in part], [
                       {"i": i, "type": e.type, "s": e.source_id, "t": e.target_id} for i, e in part]))
                  for shape, group in by_shape.items() for part in batches(group, batch_size)]

    element_ids.update({(label, node_id): element_id for result in pending
                        for label, node_id, element_id in result.single()["written"]})
    pending.clear()
    # Every type's properties, so that the CREATE text is the same whichever types a statement holds.
    owners = schema.relationships.values() if schema else ()
    declared = sorted({name for owner in owners for name in owner.properties})
    for shape, part, params in statements:
        for row, (_, e) in zip(params["rows"], part):
            if shape.source is None:
                row["s"] = element_ids[(e.source_label, row["s"])]
            if shape.target is None:
                row["t"] = element_ids[(e.target_label, row["t"])]
        send(_edge_statement(params, declared, shape), params)

    written = {i for result in pending for i in result.single()["written"]}
    missing = {i for group_index, (indices, _) in enumerate(distinct_edges) if group_index not in written
               for i in indices}
    return len(distinct_nodes), len(written), [edge for i, edge in enumerate(edges) if i in missing]


def distinct(records: list, key: Callable[[Any], Any]) -> list[tuple[list[int], Any]]:
    """One record per key, in order of first appearance, with the positions it stands for. MERGE row by row made a
    repeated element once, a later row's properties over an earlier one's and the first one's created_at (set on
    create only); CREATE would make it twice (parallel relationships, or a node's uniqueness failing the paper)."""
    groups: dict[Any, list[int]] = {}
    for i, record in enumerate(records):
        groups.setdefault(key(record), []).append(i)
    out = []
    for indices in groups.values():
        kept = records[indices[0]]
        if len(indices) > 1:
            props: dict[str, Any] = {}
            for i in indices:
                props.update(records[i].props)
            if "created_at" in kept.props:
                props["created_at"] = kept.props["created_at"]
            kept = replace(kept, props=props)
        out.append((indices, kept))
    return out


def batches(items: list, size: int = BATCH_SIZE):
    """Consecutive slices of at most `size` items (UNWIND statements stay bounded in memory)."""
    for i in range(0, len(items), size):
        yield items[i:i + size]


class Rows(list):
    """A statement's UNWIND rows with a short repr. The driver formats the text of its RUN debug message, repr of
    every parameter, even when debug logging is off: for a statement of chunk rows with their vectors that costs
    more than packing them. The packer takes a list subclass as a list, so what is sent is the same."""

    def __repr__(self) -> str:
        return f"<{len(self)} rows>"


def _split_shared(props: list[dict[str, Any]], keys: list[dict[str, Any]]) -> dict[str, Any]:
    """The parameters of one statement: `shared` holds the properties whose value is the same in every row
    (same type too, so the stored type never changes), each row keeps the rest; created_at is set only on
    create, so it travels apart (`$created_at` when shared, else per row)."""
    first, rest = props[0], props[1:]
    shared = {name: value for name, value in first.items() if _everywhere(rest, name, value)}
    rows = []
    for key, p in zip(keys, props):
        own = {name: value for name, value in p.items() if name not in shared}
        if "created_at" in own:
            key = {**key, "created_at": own.pop("created_at")}
        rows.append({**key, "props": own})
    return {"rows": Rows(rows), "created_at": shared.pop("created_at", None), "shared": shared}


_ABSENT = object()


def _everywhere(rows: list[dict[str, Any]], name: str, value: Any) -> bool:
    """Whether every row has `value` as `name`. Most shared values are one object (the run's timestamps, the
    paper's sha256), so `is` settles them; a plain loop, as this runs for every property of every row."""
    kind = type(value)
    for p in rows:
        v = p.get(name, _ABSENT)
        if v is not value and (type(v) is not kind or v != value or not _same(v, value)):
            return False
    return True


_PLAIN = frozenset({str, int, float, bool})


def _same(a: Any, b: Any) -> bool:
    """Equal and stored alike: 1 == 1.0 == True and two equal instants in different zones are not."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _PLAIN:
        return a == b
    if kind is list or kind is tuple:
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, datetime):
        return a == b and a.utcoffset() == b.utcoffset()
    return a == b

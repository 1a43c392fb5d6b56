"""Curation operations on nodes and edges: verify, edit, flag, unflag, reject, add and remove an edge, reverse.

Each runs in one write transaction that locks the element, checks the caller's version (optimistic locking),
applies the change and records its event, so the change and its history commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from neo4j import ManagedTransaction

from kg.db.graph import Graph
from kg.read import queries

from kg.curation import cypher
from kg.curation.history import Event, decode, encode, record, version
from kg.errors import ConflictError, InvalidEditError, NotFoundError
from kg.ingest.papers import lock_paper
from kg.ingest.reconcile import CONTESTED, IDENTITY
from kg.ingest.validation import Rejection, validate_edge, validate_node
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

STATUSES = ("auto", "verified", "edited", "flagged", "rejected")


def curator_extractor(actor: str) -> str:
    """The `extractor` of what a curator creates: not the pipeline's, so re-ingestion keeps it."""
    return f"curator:{actor}@paperkg"


@dataclass(frozen=True)
class NodeRef:
    label: str
    id: str

    @property
    def key(self) -> str:
        return self.id

    @property
    def elements(self) -> list[str]:
        return [self.id]

    @property
    def nodes(self) -> list[tuple[str, str]]:
        return [(self.label, self.id)]

    def as_dict(self) -> dict[str, str]:
        return {"kind": "node", "label": self.label, "id": self.id}

    def lock(self, tx: ManagedTransaction, template: str = cypher.LOCK_NODE) -> dict[str, Any] | None:
        row = tx.run(template.format(label=self.label), id=self.id).single()
        return dict(row["props"]) if row else None

    def read(self, tx: ManagedTransaction) -> dict[str, Any] | None:
        return self.lock(tx, cypher.READ_NODE)

    def set(self, tx: ManagedTransaction, props: dict[str, Any]) -> None:
        tx.run(cypher.SET_NODE.format(label=self.label), id=self.id, props=props).consume()

    def validate(self, schema: Schema, props: dict[str, Any]) -> Rejection | None:
        return validate_node(NodeRecord(self.label, self.id, {k: v for k, v in props.items() if k != "id"}), schema)


@dataclass(frozen=True)
class EdgeRef:
    source_label: str
    source: str
    type: str
    target_label: str
    target: str

    @property
    def key(self) -> str:
        """Stable across deletion and re-creation, unlike Neo4j's element id: the writer's MERGE key."""
        return f"{self.source}|{self.type}|{self.target}"

    @property
    def elements(self) -> list[str]:
        return [self.key, self.source, self.target]

    @property
    def nodes(self) -> list[tuple[str, str]]:
        return [(self.source_label, self.source), (self.target_label, self.target)]

    def as_dict(self) -> dict[str, str]:
        return {"kind": "edge", "source_label": self.source_label, "source": self.source, "type": self.type,
                "target_label": self.target_label, "target": self.target}

    def _params(self) -> dict[str, str]:
        return {"source": self.source, "target": self.target}

    def _cypher(self, template: str) -> str:
        return template.format(source=self.source_label, type=self.type, target=self.target_label)

    def lock(self, tx: ManagedTransaction, template: str = cypher.LOCK_EDGE) -> dict[str, Any] | None:
        row = tx.run(self._cypher(template), **self._params()).single()
        return dict(row["props"]) if row else None

    def read(self, tx: ManagedTransaction) -> dict[str, Any] | None:
        return self.lock(tx, cypher.READ_EDGE_PROPS)

    def set(self, tx: ManagedTransaction, props: dict[str, Any]) -> None:
        tx.run(self._cypher(cypher.SET_EDGE), **self._params(), props=props).consume()

    def create(self, tx: ManagedTransaction, props: dict[str, Any]) -> None:
        tx.run(self._cypher(cypher.CREATE_EDGE), **self._params(), props=props).consume()

    def delete(self, tx: ManagedTransaction) -> None:
        tx.run(self._cypher(cypher.DELETE_EDGE), **self._params()).consume()

    def element_id(self, tx: ManagedTransaction) -> str | None:
        row = tx.run(self._cypher(cypher.READ_EDGE), **self._params()).single()
        return row["id"] if row else None

    def validate(self, schema: Schema, props: dict[str, Any]) -> Rejection | None:
        return validate_edge(EdgeRecord(self.type, self.source_label, self.source, self.target_label, self.target,
                                        props), schema)


Ref = NodeRef | EdgeRef


def ref_from_dict(d: dict[str, str]) -> Ref:
    if d["kind"] == "node":
        return NodeRef(d["label"], d["id"])
    return EdgeRef(d["source_label"], d["source"], d["type"], d["target_label"], d["target"])


def state(ref: Ref, props: dict[str, Any] | None, edge_id: str | None = None) -> dict[str, Any] | None:
    """What a client sees of an element: its reference, version and properties (JSON-ready)."""
    if props is None:
        return None
    out = {**ref.as_dict(), "key": ref.key, "version": version(props), "properties": queries.props(props)}
    if isinstance(ref, EdgeRef):
        out["edge_id"] = edge_id
    return out


def papers_of(tx: ManagedTransaction, ref: NodeRef | EdgeRef) -> set[str]:
    """The sha256 of the paper whose graph holds the element (none for one shared by papers), read before any
    lock is taken: papers are locked before elements."""
    props = ref.read(tx)
    return {props["paper_sha256"]} if props and props.get("paper_sha256") else set()


def lock_papers(tx: ManagedTransaction, shas: set[str]) -> None:
    """Papers are locked in sha256 order, the one order every transaction uses, so two never deadlock on them."""
    for sha in sorted(shas):
        lock_paper(tx, sha)


def refusal(rejection: Rejection) -> InvalidEditError:
    return InvalidEditError(rejection.message, details={"reason": rejection.reason.value,
                                                        "property": rejection.property})


def uncontested(props: dict[str, Any]) -> dict[str, Any]:
    """The updates that remove a re-ingest's contest from an element (kg.ingest.reconcile.CONTESTED): a curator acted on
    it again. Empty when it is not contested."""
    return {k: None for k in CONTESTED if props.get(k) is not None}


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Outcome:
    element: dict[str, Any] | None  # the element after the change (None: it was removed)
    event: Event | None  # None when the change changed nothing (e.g. verifying a verified element)

    def as_json(self) -> dict[str, Any]:
        return {"element": self.element, "event": self.event.as_json() if self.event else None}


class Curation:
    """Curation by one authenticated curator (`actor`) within one request (`request_id`)."""

    def __init__(self, graph: Graph, schema: Schema, actor: str, *, request_id: str | None = None):
        self.graph, self.schema, self.actor, self.request_id = graph, schema, actor, request_id
        self.not_editable = schema.provenance | IDENTITY

    # ------------------------------------------------------------ references
    def node_ref(self, node_id: str) -> NodeRef:
        node = queries.get_node(self.graph, self.schema, node_id)
        return NodeRef(self._curatable(node["labels"]), node_id)

    def edge_ref(self, edge_id: str) -> EdgeRef:
        """An edge by the element id the read API returns."""
        edge = queries.get_edge(self.graph, edge_id)
        if edge["type"] not in self.schema.relationships:
            raise NotFoundError(f"{edge_id!r} is not an edge of the graph's schema")
        return EdgeRef(self._curatable(edge["source_node"]["labels"]), edge["source"], edge["type"],
                       self._curatable(edge["target_node"]["labels"]), edge["target"])

    def ref(self, text: str) -> Ref:
        """A node id, or an edge key `source|TYPE|target` (what history and the CLI use)."""
        if text.count("|") == 2:
            source_id, rel_type, target_id = text.split("|")
            if rel_type not in self.schema.relationships:  # it is interpolated into Cypher: schema names only
                raise NotFoundError(f"{rel_type!r} is not a relationship type of the schema",
                                    hint=f"types: {', '.join(sorted(self.schema.relationships))}")
            source, target = self.node_ref(source_id), self.node_ref(target_id)
            return EdgeRef(source.label, source_id, rel_type, target.label, target_id)
        return self.node_ref(text)

    def _curatable(self, labels: list[str]) -> str:
        label = next((l for l in labels if l in self.schema.nodes), None)
        if label is None or "verification_status" not in self.schema.nodes[label].properties:
            raise InvalidEditError(f"nodes labelled {', '.join(labels)} are not curated (a ledger, not content)")
        return label

    def get(self, ref: Ref) -> dict[str, Any]:
        """The element with its version (the ETag a change must send back in If-Match)."""
        def work(tx: ManagedTransaction) -> dict[str, Any]:
            props = ref.read(tx)
            if props is None:
                raise NotFoundError(f"{ref.key} is not in the graph")
            return state(ref, props, self._edge_id(tx, ref))
        with self.graph.read_session() as session:
            return session.execute_read(work)

    # ------------------------------------------------------------ status and properties
    def verify(self, ref: Ref, *, reason: str | None = None, if_match: str | None = None) -> Outcome:
        return self._change(ref, "verify", {"verification_status": "verified"}, reason, if_match)

    def reject(self, ref: Ref, *, reason: str | None = None, if_match: str | None = None) -> Outcome:
        """Soft delete: hidden from QA and exports, kept in the graph so re-ingestion never brings it back."""
        return self._change(ref, "reject", {"verification_status": "rejected"}, reason, if_match)

    def flag(self, ref: Ref, *, reason: str, if_match: str | None = None) -> Outcome:
        return self._change(ref, "flag", {"verification_status": "flagged"}, reason, if_match)

    def unflag(self, ref: Ref, *, reason: str | None = None, if_match: str | None = None) -> Outcome:
        """Back to the status the element had when it was flagged."""
        def previous(tx: ManagedTransaction, current: dict[str, Any]) -> dict[str, Any]:
            if current.get("verification_status") != "flagged":
                raise ConflictError(f"{ref.key} is not flagged", details={"current": state(ref, current)})
            row = tx.run(cypher.LAST_EVENT, element=ref.key, action="flag").single()
            status = Event.from_props(row["event"]).old.get("verification_status") if row else None
            return {"verification_status": status if status in STATUSES and status != "flagged" else "auto"}
        return self._change(ref, "unflag", previous, reason, if_match)

    def edit(self, ref: Ref, changes: dict[str, Any], *, reason: str | None = None,
             if_match: str | None = None) -> Outcome:
        """New values for content properties (None removes one), checked against the ontology."""
        fixed = sorted(set(changes) & self.not_editable)
        if fixed:
            raise InvalidEditError(f"{', '.join(fixed)} cannot be edited: identity and provenance are structural",
                                   details={"reason": "NOT_EDITABLE", "property": fixed[0]})
        return self._change(ref, "edit", {**changes, "verification_status": "edited"}, reason, if_match,
                            validate=True)

    def _change(self, ref: Ref, action: str,
                updates: dict[str, Any] | Callable[[ManagedTransaction, dict[str, Any]], dict[str, Any]],
                reason: str | None, if_match: str | None, *, validate: bool = False) -> Outcome:
        def work(tx: ManagedTransaction) -> Outcome:
            current, _ = self.locked(tx, ref, if_match)
            wanted = {**(updates(tx, current) if callable(updates) else updates), **uncontested(current)}
            if all(encode(current.get(k)) == encode(v) for k, v in wanted.items()):
                return Outcome(state(ref, current, self._edge_id(tx, ref)), None)
            new = {**wanted, "updated_at": now_utc()}
            after = {k: v for k, v in {**current, **new}.items() if v is not None}
            if validate and (rejection := ref.validate(self.schema, after)):
                raise refusal(rejection)
            ref.set(tx, new)
            event = self.new_event(action, "props", ref, old={k: current.get(k) for k in new}, new=new, reason=reason,
                                before=current, after=after)
            record(tx, event, ref.nodes)
            return Outcome(state(ref, after, self._edge_id(tx, ref)), event)
        return self.write(work)

    # ------------------------------------------------------------ edges
    def add_edge(self, source_id: str, rel_type: str, target_id: str, *, reason: str | None = None) -> Outcome:
        """A curator's edge: type and endpoints checked by the ontology; the curator is its provenance."""
        source = queries.get_node(self.graph, self.schema, source_id)
        target = queries.get_node(self.graph, self.schema, target_id)
        ref = EdgeRef(self._curatable(source["labels"]), source_id, rel_type, self._curatable(target["labels"]),
                      target_id)
        now = now_utc()
        props = {"confidence": 1.0, "extractor": curator_extractor(self.actor), "verification_status": "verified",
                 "source_chunk_ids": [], "pages": [], "bboxes": [], "created_at": now, "updated_at": now}
        sha = source["properties"].get("paper_sha256") or target["properties"].get("paper_sha256")
        if sha:
            props["paper_sha256"] = sha  # the paper's own edge: `kg delete` of the paper removes it too
        if rejection := ref.validate(self.schema, props):
            raise refusal(rejection)

        papers = {p.get("paper_sha256") for p in (source["properties"], target["properties"])} - {None}

        def work(tx: ManagedTransaction) -> Outcome:
            existing = self.lock(tx, ref, papers)
            if existing is not None:
                raise ConflictError(f"the edge {ref.key} exists already", details={"current": state(ref, existing)})
            ref.create(tx, props)
            event = self.new_event("add_edge", "edge_added", ref, old=None, new=props, reason=reason, after=props)
            record(tx, event, ref.nodes)
            return Outcome(state(ref, props, self._edge_id(tx, ref)), event)
        return self.write(work)

    def remove_edge(self, ref: EdgeRef, *, reason: str | None = None, if_match: str | None = None) -> Outcome:
        """Delete an edge; its properties stay in the event, so undo puts it back exactly."""
        def work(tx: ManagedTransaction) -> Outcome:
            current, _ = self.locked(tx, ref, if_match)
            ref.delete(tx)
            event = self.new_event("remove_edge", "edge_removed", ref, old=current, new=None, reason=reason,
                                before=current)
            record(tx, event, ref.nodes)
            return Outcome(None, event)
        return self.write(work)

    def retype_edge(self, ref: EdgeRef, new_type: str, *, reason: str | None = None,
                    if_match: str | None = None) -> Outcome:
        """The same link under another type that the ontology allows between its ends (a USES that is an
        EVALUATES_ON): a new edge of that type with the old one's properties, `edited`; the old edge stays,
        `rejected`, so a re-ingest does not propose it again. Undo removes the new edge and gives the old one back
        its properties."""
        if new_type not in self.schema.relationships:
            raise InvalidEditError(f"{new_type!r} is not a relationship type of the ontology",
                                   details={"reason": "UNKNOWN_TYPE", "property": "type"})
        retyped = EdgeRef(ref.source_label, ref.source, new_type, ref.target_label, ref.target)

        def work(tx: ManagedTransaction) -> Outcome:
            current, _ = self.locked(tx, ref, if_match)
            if new_type == ref.type:
                return Outcome(state(ref, current, self._edge_id(tx, ref)), None)
            if (existing := retyped.lock(tx)) is not None:
                raise ConflictError(f"the edge {retyped.key} exists already",
                                    details={"current": state(retyped, existing)})
            now = now_utc()
            after = {**{k: v for k, v in current.items() if k not in CONTESTED}, "verification_status": "edited",
                     "updated_at": now}
            if rejection := retyped.validate(self.schema, after):
                raise refusal(rejection)
            ref.set(tx, {"verification_status": "rejected", "updated_at": now, **uncontested(current)})
            retyped.create(tx, after)
            event = self.new_event("retype", "retyped", retyped, old={"target": ref.as_dict(), "props": current},
                                   new={"target": retyped.as_dict(), "props": after}, reason=reason,
                                   before=current, after=after, elements=[ref.key, retyped.key])
            record(tx, event, retyped.nodes)
            return Outcome(state(retyped, after, self._edge_id(tx, retyped)), event)
        return self.write(work)

    # ------------------------------------------------------------ undo
    def reverse(self, tx: ManagedTransaction, done: Event, reason: str | None) -> Outcome:
        """Undo one property or edge change in `tx` (kg/curation/undo.py checks the event, and reverses merges
        and splits with kg/curation/merge.py)."""
        ref = ref_from_dict(done.target)
        recorded = [v for v in (done.old, done.new) if isinstance(v, dict)]
        current = self.lock(tx, ref, {v["paper_sha256"] for v in recorded if isinstance(v.get("paper_sha256"), str)})
        undo = dict(reason=reason, undoes=done.id, before=current)
        if done.change == "props":
            if current is None:
                raise NotFoundError(f"{ref.key} is no longer in the graph")
            changed = sorted(k for k, v in done.new.items() if k != "updated_at" and encode(current.get(k)) != v)
            if changed:
                raise ConflictError(f"{ref.key} changed since event {done.id} ({', '.join(changed)}); undo the later "
                                    "changes first", details={"current": state(ref, current)})
            old = decode(done.old)
            ref.set(tx, old)
            after = {k: v for k, v in {**current, **old}.items() if v is not None}
            event = self.new_event("undo", "props", ref, old=decode(done.new), new=old, after=after, **undo)
        elif done.change == "retyped":
            old_ref, after = ref_from_dict(done.old["target"]), decode(done.old["props"])
            replaced = old_ref.lock(tx)
            if current is None or version(current) != version(decode(done.new["props"])) or replaced is None or \
                    version(replaced) != version({**after, "verification_status": "rejected"}):
                raise ConflictError(f"the edges {old_ref.key} and {ref.key} changed since event {done.id}; undo the "
                                    "later changes first", details={"current": state(ref, current)})
            ref.delete(tx)
            old_ref.set(tx, after)
            event = self.new_event("undo", "retype_undone", old_ref, old=done.new, new=done.old, after=after,
                                   elements=[ref.key, old_ref.key], **undo)
            ref = old_ref
        elif done.change == "retype_undone":
            raise InvalidEditError(f"event {done.id} undid a change of type; change the type again instead",
                                   details={"reason": "NOT_UNDOABLE", "property": None})
        elif done.change == "edge_added":
            if current is None or version(current) != version(decode(done.new)):
                raise ConflictError(f"the edge {ref.key} changed or went since event {done.id}",
                                    details={"current": state(ref, current)})
            ref.delete(tx)
            after = None
            event = self.new_event("undo", "edge_removed", ref, old=current, new=None, **undo)
        else:  # edge_removed
            if current is not None:
                raise ConflictError(f"the edge {ref.key} exists again", details={"current": state(ref, current)})
            after = decode(done.old)
            ref.create(tx, after)
            event = self.new_event("undo", "edge_added", ref, old=None, new=after, after=after, **undo)
        record(tx, event, ref.nodes)
        return Outcome(state(ref, after, self._edge_id(tx, ref)), event)

    # ------------------------------------------------------------ plumbing
    def write(self, work: Callable[[ManagedTransaction], Any]) -> Any:
        with self.graph.write_session() as session:
            return session.execute_write(work)

    def locked(self, tx: ManagedTransaction, ref: Ref, if_match: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The element's properties, locked, after the version check; and its client view."""
        current = self.lock(tx, ref)
        if current is None:
            raise NotFoundError(f"{ref.key} is not in the graph")
        view = state(ref, current, self._edge_id(tx, ref))
        if if_match is not None and if_match.strip('"') not in ("*", view["version"]):
            raise ConflictError(f"{ref.key} changed since version {if_match.strip(chr(34))}; it is now at "
                                f"{view['version']}", hint="re-read the element and apply your change to it",
                                details={"current": view})
        return current, view

    @staticmethod
    def lock(tx: ManagedTransaction, ref: Ref, papers: set[str] = frozenset()) -> dict[str, Any] | None:
        """Lock the papers whose graph holds the element (and `papers`), then the element; its properties, read
        under the lock (None: it is not in the graph). A re-ingest of such a paper holds the paper's lock from
        before it reads the curation state until it commits, so this waits for it and then sees its result."""
        lock_papers(tx, papers_of(tx, ref) | set(papers))
        return ref.lock(tx)

    @staticmethod
    def _edge_id(tx: ManagedTransaction, ref: Ref) -> str | None:
        return ref.element_id(tx) if isinstance(ref, EdgeRef) else None

    def new_event(self, action: str, change: str, ref: Ref, *, old: Any, new: Any, reason: str | None = None,
               before: dict | None = None, after: dict | None = None, undoes: str | None = None,
               elements: list[str] | None = None) -> Event:
        return Event(action=action, change=change, target=ref.as_dict(), element=ref.key,
                     elements=elements or ref.elements, old=old, new=new, actor=self.actor, reason=reason,
                     request_id=self.request_id, undoes=undoes,
                     version_before=version(before) if before is not None else None,
                     version_after=version(after) if after is not None else None)

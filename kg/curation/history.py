"""Curation events: who changed what, when, why, from which value to which, under which request id.

Old and new values are stored as JSON text (Neo4j properties cannot hold maps); datetimes are tagged so that
an undo writes back exactly the value it found. An element's version (its ETag) is a hash of its properties
without those each write refreshes, so a re-ingest that proposes the same content does not make a curator's
copy stale, while any real change does.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from neo4j import ManagedTransaction
from neo4j.time import DateTime as Neo4jDateTime

from kg.curation import cypher
from kg.db.dump import VOLATILE
from kg.db.graph import Graph

_DATETIME = "$datetime"


def encode(value: Any) -> Any:
    """Property values as JSON-ready values; datetimes become {"$datetime": iso}."""
    if isinstance(value, Neo4jDateTime):
        value = value.to_native()
    if isinstance(value, datetime):
        return {_DATETIME: value.isoformat()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def decode(value: Any) -> Any:
    """The inverse of encode: the values to write back to Neo4j."""
    if isinstance(value, dict):
        if set(value) == {_DATETIME}:
            return datetime.fromisoformat(value[_DATETIME])
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def version(props: dict[str, Any]) -> str:
    """The element's version: 16 hex digits of the SHA-256 of its non-volatile properties."""
    stable = {k: v for k, v in encode(props).items() if k not in VOLATILE}
    return hashlib.sha256(json.dumps(stable, sort_keys=True, default=str).encode()).hexdigest()[:16]


def new_event_id(now: datetime) -> str:
    """Sortable by time (the feed pages by id), unique by its random tail."""
    return f"cur_{now:%Y%m%dT%H%M%S%f}_{uuid.uuid4().hex[:8]}"


ACTIONS = ("verify", "edit", "flag", "unflag", "reject", "add_edge", "remove_edge", "retype", "merge", "split",
           "relabel", "undo")


@dataclass
class Event:
    """One recorded change. `target` names the element (see operations.Ref.as_dict); `elements` every node id
    or edge key it touched, which is how per-element history is found."""

    action: str  # one of ACTIONS
    change: str  # props | edge_added | edge_removed | retyped | merged | split | relabeled ...: what undo reverses
    target: dict[str, Any]
    element: str
    elements: list[str]
    old: Any
    new: Any
    actor: str
    at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    reason: str | None = None
    request_id: str | None = None
    undoes: str | None = None
    undone_by: str | None = None
    version_before: str | None = None
    version_after: str | None = None
    id: str = ""

    def __post_init__(self) -> None:
        self.id = self.id or new_event_id(self.at)

    def as_props(self) -> dict[str, Any]:
        return {"id": self.id, "action": self.action, "change": self.change, "target": json.dumps(self.target),
                "element": self.element, "elements": self.elements, "old": json.dumps(encode(self.old)),
                "new": json.dumps(encode(self.new)), "actor": self.actor, "at": self.at, "reason": self.reason,
                "request_id": self.request_id, "undoes": self.undoes, "undone_by": self.undone_by,
                "version_before": self.version_before, "version_after": self.version_after}

    @classmethod
    def from_props(cls, p: dict[str, Any]) -> Event:
        at = p["at"].to_native() if isinstance(p["at"], Neo4jDateTime) else p["at"]
        return cls(action=p["action"], change=p["change"], target=json.loads(p["target"]), element=p["element"],
                   elements=list(p["elements"]), old=json.loads(p["old"]), new=json.loads(p["new"]),
                   actor=p["actor"], at=at, reason=p.get("reason"), request_id=p.get("request_id"),
                   undoes=p.get("undoes"), undone_by=p.get("undone_by"), version_before=p.get("version_before"),
                   version_after=p.get("version_after"), id=p["id"])

    def as_json(self) -> dict[str, Any]:
        """For API responses: values stay in their JSON encoding."""
        return {"id": self.id, "action": self.action, "change": self.change, "target": self.target,
                "element": self.element, "elements": self.elements, "old": encode(self.old), "new": encode(self.new),
                "actor": self.actor, "at": self.at.isoformat(), "reason": self.reason, "request_id": self.request_id,
                "undoes": self.undoes, "undone_by": self.undone_by, "version_before": self.version_before,
                "version_after": self.version_after}


def record(tx: ManagedTransaction, event: Event, nodes: list[tuple[str, str]]) -> Event:
    """Store the event, attribute it to its curator and link it to the (label, id) nodes it revised."""
    tx.run(cypher.CREATE_EVENT, event=event.as_props()).consume()
    for label, node_id in dict.fromkeys(nodes):
        tx.run(cypher.LINK_EVENT.format(label=label), event=event.id, id=node_id).consume()
    return event


def read(graph: Graph, *, element: str | None = None, actor: str | None = None, action: str | None = None,
         since: datetime | None = None, before: str | None = None, limit: int = 50) -> list[Event]:
    """Events newest first: of one element (node id or edge key), of one curator, of one action, at or after
    `since`, or all; `before` pages."""
    records = graph.read(cypher.HISTORY, element=element, actor=actor, action=action, since=since, before=before,
                         limit=limit)
    return [Event.from_props(r["event"]) for r in records]

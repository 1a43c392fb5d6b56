"""Changing an entity's label within the ontology (a Method that is really a Dataset), and undoing that.

An entity's id is derived from its label and name (extractors.semantic.canonical.entity_id), so a relabel is not a
property change: the node is created under the new label (or, when a node of that label and name exists, merged
into it as a merge would), its edges move to it, and the old node stays as a rejected tombstone, which a
re-ingest never revives nor links again (kg/ingest/reconcile.py). An edge the ontology does not allow at the new label
refuses the whole relabel before anything is written. The event keeps everything the undo needs to put the graph
back exactly.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from extractors.semantic.canonical import entity_id
from kg.curation import cypher
from kg.curation.history import Event, decode, encode, record, version
from kg.curation.merge import absorb, oriented, papers_of_node
from kg.curation.operations import (Curation, NodeRef, Outcome, lock_papers, now_utc, ref_from_dict, refusal, state,
                                    uncontested)
from kg.ingest.reconcile import CONTESTED
from kg.errors import ConflictError, InvalidEditError, NotFoundError


def relabel(cur: Curation, node_id: str, new_label: str, *, reason: str | None = None,
            if_match: str | None = None) -> Outcome:
    """Give the entity `node_id` the entity label `new_label` (If-Match: its version). 422 when the label is not
    an entity label or when some of its edges would be invalid (named in `error.details.edges`); 409 when the
    node of the new label and name was rejected."""
    old = cur.node_ref(node_id)
    labels = cur.schema.entity_labels
    if old.label not in labels or new_label not in labels:
        raise InvalidEditError(f"only entities change label, to an entity label ({', '.join(sorted(labels))})",
                               details={"reason": "UNKNOWN_LABEL", "property": "label"})

    def work(tx: ManagedTransaction) -> Outcome:
        lock_papers(tx, papers_of_node(tx, old))
        current, _ = cur.locked(tx, old, if_match)
        if new_label == old.label:
            return Outcome(state(old, current), None)
        if not current.get("name"):
            raise InvalidEditError(f"{node_id} has no name to derive its new id from",
                                   details={"reason": "MISSING_NAME", "property": "name"})
        new = NodeRef(new_label, entity_id(new_label, current["name"]))
        edges = _edges(cur, tx, old)
        wanted = [(e["ref"], oriented(e["row"], new.label, new.id, *e["other"])) for e in edges]
        invalid = [f"{ref.key} ({edge.source_label}-{edge.type}->{edge.target_label})" for ref, edge in wanted
                   if not _allowed(cur, edge)]
        if invalid:
            raise InvalidEditError(f"the ontology does not allow these edges of {node_id} at a {new_label}: "
                                   f"{'; '.join(invalid)}",
                                   details={"reason": "INVALID_ENDPOINTS", "property": "label", "edges": invalid})
        existing = new.lock(tx)
        if existing is not None and existing.get("verification_status") == "rejected":
            raise ConflictError(f"{new.id} ({new_label} {current['name']!r}) is rejected; relabelling into it "
                                "would revive it", details={"current": state(new, existing)})
        now = now_utc()
        after = _new_node(cur, new, current, existing, now)
        if rejection := new.validate(cur.schema, after):
            raise refusal(rejection)
        if existing is None:
            tx.run(cypher.CREATE_NODE.format(label=new.label), props=after).consume()
        else:
            tx.run(cypher.REPLACE_NODE.format(label=new.label), id=new.id, props=after).consume()
        has = {(e["ref"].type, e["row"]["outgoing"], e["row"]["other_id"]) for e in _edges(cur, tx, new)}
        taken, moved = [], []
        for e in edges:
            e["ref"].delete(tx)
            taken.append({"ref": e["ref"].as_dict(), "props": dict(e["row"]["props"])})
            if (e["ref"].type, e["row"]["outgoing"], e["row"]["other_id"]) in has:
                continue  # the node of the new label has this edge already
            moved_ref = oriented(e["row"], new.label, new.id, *e["other"])
            moved_ref.create(tx, dict(e["row"]["props"]))
            moved.append(moved_ref.as_dict())
        tombstone = {"verification_status": "rejected", "updated_at": now, **uncontested(current)}
        old.set(tx, tombstone)
        event = cur.new_event("relabel", "relabeled", new, elements=[old.id, new.id], reason=reason,
                              before=current, after=after,
                              old={"node": old.as_dict(), "props": current, "existing": existing, "edges": taken},
                              new={"node": new.as_dict(), "props": after, "tombstone": tombstone, "moved": moved})
        record(tx, event, old.nodes + new.nodes)
        return Outcome(state(new, after), event)
    return cur.write(work)


def _edges(cur: Curation, tx: ManagedTransaction, node: NodeRef) -> list[dict[str, Any]]:
    params = dict(types=list(cur.schema.relationship_types), labels=list(cur.schema.labels))
    rows = tx.run(cypher.EDGES_OF_NODE.format(label=node.label), id=node.id, **params)
    return [{"row": r, "other": (r["other_label"], r["other_id"]),
             "ref": oriented(r, node.label, node.id, r["other_label"], r["other_id"])} for r in rows]


def _allowed(cur: Curation, edge) -> bool:
    rel = cur.schema.relationships.get(edge.type)
    return rel is not None and (edge.source_label, edge.target_label) in rel.patterns


def _new_node(cur: Curation, new: NodeRef, current: dict[str, Any], existing: dict[str, Any] | None,
              now: datetime) -> dict[str, Any]:
    """The node under its new label: the old node's properties that the new label declares (a Concept's
    definition has no place on a Method; the event keeps it for the undo), or, when the node exists, its own
    with the old node's names and evidence added; `edited`."""
    if existing is not None:
        kept = {k: v for k, v in existing.items() if k not in CONTESTED}
        return {**kept, **absorb(cur, new.label, existing, current), "verification_status": "edited",
                "updated_at": now}
    declared = cur.schema.nodes[new.label].properties
    kept = {k: v for k, v in current.items() if k in declared and k not in CONTESTED}
    return {**kept, "id": new.id, "verification_status": "edited", "updated_at": now}


def unrelabel_in_transaction(cur: Curation, tx: ManagedTransaction, done: Event, reason: str | None) -> Outcome:
    """Reverse a relabel if neither node changed since: the moved edges go, the old node and its edges come back
    with their recorded properties, and the node of the new label is deleted (or has its former properties back
    when it existed before)."""
    old, new = ref_from_dict(done.old["node"]), ref_from_dict(done.new["node"])
    before = decode(done.old)
    lock_papers(tx, {e["props"]["paper_sha256"] for e in before["edges"]
                     if isinstance(e["props"].get("paper_sha256"), str)} | papers_of_node(tx, new))
    current, tomb = new.lock(tx), old.lock(tx)
    if current is None or tomb is None:
        raise NotFoundError(f"{new.id} or {old.id} is no longer in the graph")
    if version(current) != version(decode(done.new["props"])) or \
            any(encode(tomb.get(k)) != v for k, v in done.new["tombstone"].items() if k != "updated_at"):
        raise ConflictError(f"{new.id} or {old.id} changed since event {done.id}; undo the later changes first",
                            details={"current": state(new, current)})
    for moved in done.new["moved"]:
        ref_from_dict(moved).delete(tx)
    if before["existing"] is None:
        if _edges(cur, tx, new):
            raise ConflictError(f"{new.id} has edges added since event {done.id}; remove them first",
                                details={"current": state(new, current)})
        tx.run(cypher.DELETE_NODE.format(label=new.label), id=new.id).consume()
    else:
        tx.run(cypher.REPLACE_NODE.format(label=new.label), id=new.id, props=before["existing"]).consume()
    tx.run(cypher.REPLACE_NODE.format(label=old.label), id=old.id, props=before["props"]).consume()
    for edge in before["edges"]:
        ref = ref_from_dict(edge["ref"])
        if ref.lock(tx) is not None:
            raise ConflictError(f"the edge {ref.key} exists again, so the relabel cannot be undone cleanly")
        ref.create(tx, edge["props"])
    event = cur.new_event("undo", "relabel_undone", old, elements=done.elements, reason=reason, undoes=done.id,
                          before=current, after=before["props"], old=done.new, new=done.old)
    record(tx, event, old.nodes + ([] if before["existing"] is None else new.nodes))
    return Outcome(state(old, before["props"]), event)

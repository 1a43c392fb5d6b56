"""Merging two entity nodes that name the same thing, and splitting a wrong merge back.

The survivor takes the duplicate's edges, its name and aliases (as aliases) and its evidence. The duplicate is
not deleted: it stays as a rejected tombstone with a verified SAME_AS to the survivor, the decision that
resolves any SAME_AS candidate between the two, so re-ingestion (which never revives a rejected node) cannot
bring the duplicate back. The merge event keeps everything the split needs to restore the graph exactly.
"""

from __future__ import annotations

from typing import Any

from neo4j import ManagedTransaction

from kg import queries
from kg.curation import cypher
from kg.curation.history import Event, decode, encode, record
from kg.curation.operations import (Curation, EdgeRef, NodeRef, Outcome, curator_extractor, now_utc, ref_from_dict,
                                    state)
from kg.errors import ConflictError, InvalidEditError, NotFoundError

_EVIDENCE = ("source_chunk_ids", "pages", "bboxes")


def merge(cur: Curation, survivor_id: str, duplicate_id: str, *, reason: str | None = None,
          if_match: str | None = None) -> Outcome:
    """Merge `duplicate_id` into `survivor_id` (same entity label); `if_match` is the survivor's version."""
    survivor, duplicate = cur.node_ref(survivor_id), cur.node_ref(duplicate_id)
    if survivor_id == duplicate_id:
        raise InvalidEditError("a node cannot be merged into itself", details={"reason": "SAME_NODE", "property": None})
    if survivor.label != duplicate.label or survivor.label not in queries.entity_labels(cur.schema):
        raise InvalidEditError(f"only two entities of one label merge; these are {survivor.label} and "
                               f"{duplicate.label}", details={"reason": "INVALID_ENDPOINTS", "property": None})

    def work(tx: ManagedTransaction) -> Outcome:
        s_props, _ = cur.locked(tx, survivor, if_match)
        d_props, _ = cur.locked(tx, duplicate, None)
        if d_props.get("verification_status") == "rejected":
            raise ConflictError(f"{duplicate_id} is rejected (merged already?)", details={"current": state(duplicate, d_props)})
        now = now_utc()
        taken, moved = _move_edges(cur, tx, survivor, duplicate)
        s_new = {k: v for k, v in _absorb(cur, survivor.label, s_props, d_props).items() if v != s_props.get(k)}
        s_new.update(verification_status="edited", updated_at=now)
        d_new = {"verification_status": "rejected", "updated_at": now}
        decision = EdgeRef(duplicate.label, duplicate_id, "SAME_AS", survivor.label, survivor_id)
        decision_props = {"confidence": 1.0, "extractor": curator_extractor(cur.actor), "verification_status": "verified",
                          "source_chunk_ids": [], "pages": [], "bboxes": [], "created_at": now, "updated_at": now}
        survivor.set(tx, s_new)
        duplicate.set(tx, d_new)
        decision.create(tx, decision_props)
        after = {**s_props, **s_new}
        event = cur.new_event("merge", "merged", survivor, elements=[survivor_id, duplicate_id], reason=reason,
                           before=s_props, after=after,
                           old={"survivor": {k: s_props.get(k) for k in s_new},
                                "duplicate": {k: d_props.get(k) for k in d_new}, "edges": taken},
                           new={"survivor": s_new, "duplicate": d_new, "moved": moved,
                                "decision": {"ref": decision.as_dict(), "props": decision_props}})
        record(tx, event, survivor.nodes + duplicate.nodes)
        return Outcome(state(survivor, after), event)
    return cur.write(work)


def _move_edges(cur: Curation, tx: ManagedTransaction, survivor: NodeRef, duplicate: NodeRef
                ) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Delete the duplicate's edges and give the survivor those it lacks; returns (every edge taken, with its
    properties, for the split) and (the survivor's new edges). Edges between the two (SAME_AS candidates)
    are resolved by the merge and not moved."""
    params = dict(types=list(cur.schema.relationship_types), labels=list(cur.schema.labels))
    has = {(r["type"], r["outgoing"], r["other_id"])
           for r in tx.run(cypher.EDGES_OF_NODE.format(label=survivor.label), id=survivor.id, **params)}
    taken, moved = [], []
    for r in list(tx.run(cypher.EDGES_OF_NODE.format(label=duplicate.label), id=duplicate.id, **params)):
        there = (r["other_label"], r["other_id"])
        old = _oriented(r, duplicate.label, duplicate.id, *there)
        old.delete(tx)
        taken.append({"ref": old.as_dict(), "props": dict(r["props"])})
        if r["other_id"] == survivor.id or (r["type"], r["outgoing"], r["other_id"]) in has:
            continue
        new = _oriented(r, survivor.label, survivor.id, *there)
        new.create(tx, dict(r["props"]))
        has.add((r["type"], r["outgoing"], r["other_id"]))
        moved.append(new.as_dict())
    return taken, moved


def _oriented(row, label: str, node_id: str, other_label: str, other_id: str) -> EdgeRef:
    if row["outgoing"]:
        return EdgeRef(label, node_id, row["type"], other_label, other_id)
    return EdgeRef(other_label, other_id, row["type"], label, node_id)


def _absorb(cur: Curation, label: str, survivor: dict[str, Any], duplicate: dict[str, Any]) -> dict[str, Any]:
    """The survivor's aliases and evidence with the duplicate's added (order kept, no repeats)."""
    declared = cur.schema.nodes[label].properties
    out: dict[str, Any] = {}
    if "aliases" in declared:
        names = [*(survivor.get("aliases") or []), duplicate.get("name"), *(duplicate.get("aliases") or [])]
        out["aliases"] = [n for n in dict.fromkeys(names) if n and n != survivor.get("name")]
    for name in _EVIDENCE:
        if name in declared:
            merged = list(dict.fromkeys([*(survivor.get(name) or []), *(duplicate.get(name) or [])]))
            out[name] = sorted(merged) if name == "pages" else merged
    return out


def split(cur: Curation, event_id: str, *, reason: str | None = None) -> Outcome:
    """Undo a merge: the duplicate, its edges and the survivor's former properties come back."""
    return cur.undo(event_id, reason=reason, merges_only=True)


def split_in_transaction(cur: Curation, tx: ManagedTransaction, done: Event, reason: str | None) -> Outcome:
    survivor = ref_from_dict(done.target)
    duplicate = NodeRef(survivor.label, done.elements[1])
    s_props, d_props = survivor.lock(tx), duplicate.lock(tx)
    if s_props is None or d_props is None:
        raise NotFoundError(f"{survivor.id} or {duplicate.id} is no longer in the graph")
    for ref, props, expected in ((survivor, s_props, done.new["survivor"]), (duplicate, d_props, done.new["duplicate"])):
        changed = sorted(k for k, v in expected.items() if k != "updated_at" and encode(props.get(k)) != v)
        if changed:
            raise ConflictError(f"{ref.id} changed since the merge ({', '.join(changed)}); undo those changes first",
                                details={"current": state(ref, props)})
    for moved in [done.new["decision"]["ref"], *done.new["moved"]]:
        ref_from_dict(moved).delete(tx)
    old = decode(done.old)
    survivor.set(tx, old["survivor"])
    duplicate.set(tx, old["duplicate"])
    for edge in old["edges"]:
        ref = ref_from_dict(edge["ref"])
        if ref.lock(tx) is not None:
            raise ConflictError(f"the edge {ref.key} exists again, so the merge cannot be split cleanly")
        ref.create(tx, edge["props"])
    after = {k: v for k, v in {**s_props, **old["survivor"]}.items() if v is not None}
    event = cur.new_event("split", "split", survivor, elements=done.elements, reason=reason, undoes=done.id,
                       before=s_props, after=after, old=decode(done.new), new=old)
    record(tx, event, survivor.nodes + duplicate.nodes)
    return Outcome(state(survivor, after), event)

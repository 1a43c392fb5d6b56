"""Merging two entity nodes that name the same thing, and splitting a wrong merge back.

The survivor takes the duplicate's edges, its name and aliases (as aliases) and its evidence. The duplicate is
not deleted: it stays as a rejected tombstone with a verified SAME_AS to the survivor, the decision that
resolves any SAME_AS candidate between the two, so re-ingestion (which never revives a rejected node) cannot
bring the duplicate back. The merge event keeps everything the split needs to restore the graph exactly.
"""

from __future__ import annotations

from typing import Any

from neo4j import ManagedTransaction

from kg.curation import cypher
from kg.curation.history import Event, decode, encode, record, version
from kg.curation.operations import (Curation, EdgeRef, NodeRef, Outcome, curator_extractor, lock_papers, now_utc,
                                    papers_of, ref_from_dict, state, uncontested)
from kg.errors import ConflictError, InvalidEditError, NotFoundError

_EVIDENCE = ("source_chunk_ids", "pages", "bboxes")


def merge(cur: Curation, survivor_id: str, duplicate_id: str, *, reason: str | None = None,
          if_match: str | None = None) -> Outcome:
    """Merge `duplicate_id` into `survivor_id` (same entity label); `if_match` is the survivor's version."""
    survivor, duplicate = cur.node_ref(survivor_id), cur.node_ref(duplicate_id)
    if survivor_id == duplicate_id:
        raise InvalidEditError("a node cannot be merged into itself", details={"reason": "SAME_NODE", "property": None})
    if survivor.label != duplicate.label or survivor.label not in cur.schema.entity_labels:
        raise InvalidEditError(f"only two entities of one label merge; these are {survivor.label} and "
                               f"{duplicate.label}", details={"reason": "INVALID_ENDPOINTS", "property": None})

    def work(tx: ManagedTransaction) -> Outcome:
        _lock_pair(tx, survivor, duplicate)
        s_props, _ = cur.locked(tx, survivor, if_match)
        d_props, _ = cur.locked(tx, duplicate, None)
        if d_props.get("verification_status") == "rejected":
            raise ConflictError(f"{duplicate_id} is rejected (merged already?)", details={"current": state(duplicate, d_props)})
        now = now_utc()
        taken, moved = _move_edges(cur, tx, survivor, duplicate)
        s_new = {k: v for k, v in absorb(cur, survivor.label, s_props, d_props).items() if v != s_props.get(k)}
        s_new.update(verification_status="edited", updated_at=now, **uncontested(s_props))
        d_new = {"verification_status": "rejected", "updated_at": now, **uncontested(d_props)}
        decision = EdgeRef(duplicate.label, duplicate_id, "SAME_AS", survivor.label, survivor_id)
        decision_props = {"confidence": 1.0, "extractor": curator_extractor(cur.actor), "verification_status": "verified",
                          "source_chunk_ids": [], "pages": [], "bboxes": [], "created_at": now, "updated_at": now}
        survivor.set(tx, s_new)
        duplicate.set(tx, d_new)
        decision.create(tx, decision_props)
        after = {k: v for k, v in {**s_props, **s_new}.items() if v is not None}
        event = cur.new_event("merge", "merged", survivor, elements=[survivor_id, duplicate_id], reason=reason,
                           before=s_props, after=after,
                           old={"survivor": {k: s_props.get(k) for k in s_new},
                                "duplicate": {k: d_props.get(k) for k in d_new}, "edges": taken},
                           new={"survivor": s_new, "duplicate": d_new, "moved": moved,
                                "decision": {"ref": decision.as_dict(), "props": decision_props}})
        record(tx, event, survivor.nodes + duplicate.nodes)
        return Outcome(state(survivor, after), event)
    return cur.write(work)


def _lock_pair(tx: ManagedTransaction, survivor: NodeRef, duplicate: NodeRef, papers: set[str] = frozenset()) -> None:
    """Lock the papers whose edges a merge or split moves (a re-ingest of one of them must not plan on the
    edges before the move and write after it), then the two nodes in id order, the order a re-ingest locks
    shared nodes in. A paper that linked a node between the two steps is locked late; should that deadlock with
    its re-ingest, the driver retries the transaction."""
    pair = sorted((survivor, duplicate), key=lambda ref: ref.id)
    found = set(papers).union(*(papers_of_node(tx, ref) for ref in pair))
    lock_papers(tx, found)
    for ref in pair:
        ref.lock(tx)
    lock_papers(tx, set().union(*(papers_of_node(tx, ref) for ref in pair)) - found)


def papers_of_node(tx: ManagedTransaction, node: NodeRef) -> set[str]:
    row = tx.run(cypher.EDGE_PAPERS_OF_NODE.format(label=node.label), id=node.id).single()
    return papers_of(tx, node) | set(row["shas"] if row else [])


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
        old = oriented(r, duplicate.label, duplicate.id, *there)
        old.delete(tx)
        taken.append({"ref": old.as_dict(), "props": dict(r["props"])})
        if r["other_id"] == survivor.id or (r["type"], r["outgoing"], r["other_id"]) in has:
            continue
        new = oriented(r, survivor.label, survivor.id, *there)
        new.create(tx, dict(r["props"]))
        has.add((r["type"], r["outgoing"], r["other_id"]))
        moved.append(new.as_dict())
    return taken, moved


def oriented(row, label: str, node_id: str, other_label: str, other_id: str) -> EdgeRef:
    if row["outgoing"]:
        return EdgeRef(label, node_id, row["type"], other_label, other_id)
    return EdgeRef(other_label, other_id, row["type"], label, node_id)


def absorb(cur: Curation, label: str, survivor: dict[str, Any], duplicate: dict[str, Any]) -> dict[str, Any]:
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


def split_in_transaction(cur: Curation, tx: ManagedTransaction, done: Event, reason: str | None) -> Outcome:
    """Reverse a merge event (or the undo of a split, which is one): the state before the merge comes back."""
    survivor, duplicate = _pair(done)
    old = decode(done.old)
    _lock_pair(tx, survivor, duplicate, _edge_shas(old["edges"]))
    s_props = _unchanged_since(tx, survivor, done.new["survivor"], "merge")
    _unchanged_since(tx, duplicate, done.new["duplicate"], "merge")
    for moved in [done.new["decision"]["ref"], *done.new["moved"]]:
        ref_from_dict(moved).delete(tx)
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


def remerge_in_transaction(cur: Curation, tx: ManagedTransaction, done: Event, reason: str | None) -> Outcome:
    """Undo a split: the merged state it reversed comes back exactly (the duplicate's edges go again, the moved
    edges and the SAME_AS decision return with their recorded properties). Recorded as a merge, so a later
    split or undo reverses it like the first one."""
    survivor, duplicate = _pair(done)
    split_old, merged = decode(done.new), decode(done.old)  # the split's "new" is the state before the merge
    _lock_pair(tx, survivor, duplicate, _edge_shas(split_old["edges"]))
    s_props = _unchanged_since(tx, survivor, done.new["survivor"], "split")
    _unchanged_since(tx, duplicate, done.new["duplicate"], "split")
    for edge in split_old["edges"]:
        ref = ref_from_dict(edge["ref"])
        current = ref.lock(tx)
        if current is None or version(current) != version(edge["props"]):
            raise ConflictError(f"the edge {ref.key} changed or went since the split; undo that first",
                                details={"current": state(ref, current)})
        ref.delete(tx)
    survivor.set(tx, merged["survivor"])
    duplicate.set(tx, merged["duplicate"])
    moved = {ref_from_dict(m) for m in merged["moved"]}
    decision = merged["decision"]
    recreate = [(ref_from_dict(decision["ref"]), decision["props"])]
    recreate += [(ref, edge["props"]) for edge in split_old["edges"]
                 if (ref := _onto(ref_from_dict(edge["ref"]), duplicate, survivor)) in moved]
    for ref, props in recreate:
        if ref.lock(tx) is not None:
            raise ConflictError(f"the edge {ref.key} exists already, so the split cannot be undone cleanly")
        ref.create(tx, props)
    after = {k: v for k, v in {**s_props, **merged["survivor"]}.items() if v is not None}
    event = cur.new_event("undo", "merged", survivor, elements=done.elements, reason=reason, undoes=done.id,
                          before=s_props, after=after, old=done.new, new=done.old)
    record(tx, event, survivor.nodes + duplicate.nodes)
    return Outcome(state(survivor, after), event)


def _pair(done: Event) -> tuple[NodeRef, NodeRef]:
    survivor = ref_from_dict(done.target)
    return survivor, NodeRef(survivor.label, done.elements[1])


def _edge_shas(edges: list[dict[str, Any]]) -> set[str]:
    return {e["props"]["paper_sha256"] for e in edges if isinstance(e["props"].get("paper_sha256"), str)}


def _unchanged_since(tx: ManagedTransaction, node: NodeRef, expected: dict[str, Any], what: str) -> dict[str, Any]:
    """The node's properties, or 409 if a value the `what` event set has changed since."""
    props = node.lock(tx)
    if props is None:
        raise NotFoundError(f"{node.id} is no longer in the graph")
    changed = sorted(k for k, v in expected.items() if k != "updated_at" and encode(props.get(k)) != v)
    if changed:
        raise ConflictError(f"{node.id} changed since the {what} ({', '.join(changed)}); undo those changes first",
                            details={"current": state(node, props)})
    return props


def _onto(edge: EdgeRef, duplicate: NodeRef, survivor: NodeRef) -> EdgeRef:
    """The duplicate's edge as the merge moved it: the same edge with the survivor at the duplicate's end."""
    if edge.source == duplicate.id:
        return EdgeRef(survivor.label, survivor.id, edge.type, edge.target_label, edge.target)
    return EdgeRef(edge.source_label, edge.source, edge.type, survivor.label, survivor.id)

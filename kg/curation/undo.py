"""Undo of any recorded curation change, and the split (the undo of a merge).

It sits above the kinds of change it reverses: operations.py reverses property and edge changes, merge.py
merges and splits, relabel.py relabels, so none of those has to import another's undo.
"""

from __future__ import annotations

from neo4j import ManagedTransaction

from kg.curation import cypher
from kg.curation.history import Event
from kg.curation.merge import remerge_in_transaction, split_in_transaction
from kg.curation.operations import Curation, Outcome
from kg.curation.relabel import unrelabel_in_transaction
from kg.errors import ConflictError, InvalidEditError, NotFoundError


def undo_change(cur: Curation, event_id: str, *, reason: str | None = None, merges_only: bool = False) -> Outcome:
    """Reverse a recorded change if the element is still as that change left it; otherwise 409. Undoing a
    merge is a split (`merges_only`: refuse anything else, for the split endpoint)."""
    def work(tx: ManagedTransaction) -> Outcome:
        row = tx.run(cypher.LOCK_EVENT, id=event_id).single()
        if row is None:
            raise NotFoundError(f"no curation event {event_id!r}", hint="GET /curation/history lists them")
        done = Event.from_props(row["event"])
        if merges_only and done.change != "merged":
            raise InvalidEditError(f"event {event_id} is a {done.action}, not a merge",
                                   details={"reason": "NOT_A_MERGE", "property": None})
        if done.undone_by:
            raise ConflictError(f"event {event_id} was undone already by {done.undone_by}")
        if done.change == "merged":
            outcome = split_in_transaction(cur, tx, done, reason)
        elif done.change == "split":
            outcome = remerge_in_transaction(cur, tx, done, reason)
        elif done.change == "relabeled":
            outcome = unrelabel_in_transaction(cur, tx, done, reason)
        elif done.change == "relabel_undone":
            raise InvalidEditError(f"event {event_id} undid a change of label; change the label again instead",
                                   details={"reason": "NOT_UNDOABLE", "property": None})
        else:
            outcome = cur.reverse(tx, done, reason)
        tx.run(cypher.MARK_UNDONE, id=done.id, by=outcome.event.id).consume()
        return outcome
    return cur.write(work)


def split(cur: Curation, event_id: str, *, reason: str | None = None) -> Outcome:
    """Undo a merge: the duplicate, its edges and the survivor's former properties come back."""
    return undo_change(cur, event_id, reason=reason, merges_only=True)

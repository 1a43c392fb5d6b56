"""Pure parts of curation: value encoding for undo, element versions, API key entries and roles, and the
rejected-element filters."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest
from neo4j import Record
from neo4j.time import DateTime as Neo4jDateTime

from kg.auth.apikeys import Identity, entry, hash_key, identify, parse_entries
from kg.curation.hidden import visible_records, without_rejected
from kg.curation.cypher import AGENT_LABEL, EVENT_LABEL, LEDGER_LABELS
from kg.curation.history import Event, decode, encode, version
from kg.curation.operations import NodeRef
from kg.errors import ConfigurationError
from ontology.records import EdgeRecord, NodeRecord
from kg.ingest.validation import Reason, validate_node
from ontology.loader import get_schema

WHEN = datetime(2026, 11, 29, 12, 0, 1, 250000, tzinfo=timezone.utc)


def test_values_survive_encoding_exactly():
    props = {"name": "SRT", "aliases": ["a", "b"], "confidence": 0.75, "pages": [1, 2], "updated_at": WHEN,
             "created_at": Neo4jDateTime(2026, 11, 29, 12, 0, 1, 250000000, tzinfo=timezone.utc), "doi": None}
    encoded = encode(props)
    assert encoded["updated_at"] == {"$datetime": "2026-11-29T12:00:01.250000+00:00"}
    assert decode(encoded) == {**props, "created_at": WHEN}


def test_version_ignores_write_stamps_and_follows_content():
    base = {"name": "SRT", "verification_status": "auto", "updated_at": WHEN, "run_id": "run_1"}
    assert version(base) == version({**base, "updated_at": datetime.now(timezone.utc), "run_id": "run_2"})
    assert version(base) != version({**base, "verification_status": "verified"})
    assert len(version(base)) == 16 and int(version(base), 16) >= 0


def test_key_entries_and_roles():
    line = entry("alice", "curator", "secret-key")
    assert line == f"alice:curator:{hash_key('secret-key')}" and "secret-key" not in line
    keys = parse_entries(f"# team\n{line}, bob:admin:{hash_key('other')}\n")
    assert identify(keys, "secret-key") == Identity("alice", "curator")
    assert identify(keys, "secret-key ") is None
    assert [Identity("alice", "curator").allows(r) for r in ("reader", "curator", "admin")] == [True, True, False]
    with pytest.raises(ConfigurationError):
        parse_entries("alice:owner:" + "0" * 64)
    with pytest.raises(ConfigurationError):
        parse_entries("alice:curator:plain-text-key")


def test_rejected_elements_are_filtered():
    ok, gone = NodeRecord("Method", "m1", {"verification_status": "auto"}), NodeRecord("Method", "m2", {
        "verification_status": "rejected"})
    edges = [EdgeRecord("SAME_AS", "Method", "m2", "Method", "m1", {"verification_status": "auto"}),
             EdgeRecord("USES", "Paper", "p", "Method", "m1", {"verification_status": "rejected"}),
             EdgeRecord("USES", "Paper", "p", "Method", "m1x", {"verification_status": "verified"})]
    assert visible_records([ok, gone], edges) == ([ok], [edges[2]])
    records = [Record([("n", "plain"), ("items", [1, 2])])]
    assert [dict(r) for r in without_rejected(records)] == [{"n": "plain", "items": [1, 2]}]


def test_the_ontology_declares_the_curation_ledger_the_code_writes():
    schema = get_schema()
    assert set(schema.ledger) == set(LEDGER_LABELS) and not set(LEDGER_LABELS) & set(schema.labels)  # not content
    assert schema.ledger_relationships["WAS_ATTRIBUTED_TO"].patterns == {(EVENT_LABEL, AGENT_LABEL)}
    curated = {label for label, cls in schema.nodes.items() if "verification_status" in cls.properties}
    assert schema.ledger_relationships["WAS_REVISION_OF"].patterns == {(EVENT_LABEL, label) for label in curated}
    event = Event(action="edit", change="props", target=NodeRef("Method", "m").as_dict(), element="m",
                  elements=["m"], old={"name": "a"}, new={"name": "b", "updated_at": WHEN}, actor="alice",
                  request_id="req-1", version_before="0" * 16, version_after="f" * 16)
    props = event.as_props()
    assert set(props) == set(schema.ledger[EVENT_LABEL].properties)
    with_ledger = replace(schema, nodes={**schema.nodes, **schema.ledger})
    assert validate_node(NodeRecord(EVENT_LABEL, props.pop("id"), props), with_ledger) is None
    refused = validate_node(NodeRecord(EVENT_LABEL, event.id, {**props, "action": "delete"}), with_ledger)
    assert (refused.reason, refused.property) == (Reason.INVALID_VALUE, "action")

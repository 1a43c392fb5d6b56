"""Pure parts of curation: value encoding for undo, element versions, API key entries and roles, and the
rejected-element filters."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from neo4j import Record
from neo4j.time import DateTime as Neo4jDateTime

from kg.apikeys import Identity, entry, hash_key, identify, parse_entries
from kg.curation.hidden import visible_records, without_rejected
from kg.curation.history import decode, encode, version
from kg.errors import ConfigurationError
from kg.records import EdgeRecord, NodeRecord

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

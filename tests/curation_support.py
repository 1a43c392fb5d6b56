"""Shared by the curation tests: the app with one key per role, and the canonical dump without the ledgers."""

from __future__ import annotations

from kg.auth.apikeys import entry
from kg.curation.cypher import LEDGER_LABELS
from kg.db.dump import canonical_dump
from kg.db.graph import Graph

KEYS = {"reader": "key-of-rita-reader", "curator": "key-of-alice-curator", "admin": "key-of-ada-admin"}
NAMES = {"reader": "rita", "curator": "alice", "admin": "ada"}
API_KEYS = ",".join(entry(NAMES[role], role, key) for role, key in KEYS.items())


# A change to an existing element needs If-Match (428 without); `*` is for tests that are not about versions
ANY_VERSION = {"If-Match": "*"}


def as_role(role: str) -> dict[str, str]:
    return {"X-API-Key": KEYS[role]}


def curated_settings(settings, **overrides):
    return settings.model_copy(update={"api_keys": API_KEYS, "qa_vectors": False, **overrides})


def graph_dump(driver) -> list[str]:
    """The graph's content: curation events and curators are history, not content."""
    return canonical_dump(Graph(driver), skip_labels=("PaperKGSchema", *LEDGER_LABELS))


def error_of(response, status: int, code: str) -> dict:
    """The error body of an API answer, after checking its status and error code."""
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    return response.json()["error"]

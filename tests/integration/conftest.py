from __future__ import annotations

import pytest

from kg.settings import get_settings


@pytest.fixture
def cli_env(neo4j_settings, monkeypatch):
    """`kg ...` commands run in-process (CliRunner) talk to the session's Neo4j, not the user's."""
    monkeypatch.setenv("PAPERKG_NEO4J_URI", neo4j_settings.uri)
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", neo4j_settings.neo4j_password.get_secret_value())
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()

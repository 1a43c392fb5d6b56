from __future__ import annotations

import pytest

from kg.db.graph import Graph
from kg.settings import get_settings
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.sample_graph import sample_graph


@pytest.fixture
def cli_env(neo4j_settings, monkeypatch):
    """`kg ...` commands run in-process (CliRunner) talk to the session's Neo4j, not the user's."""
    monkeypatch.setenv("PAPERKG_NEO4J_URI", neo4j_settings.uri)
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", neo4j_settings.neo4j_password.get_secret_value())
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture
def sample_db(schema_db):
    """The session's database holding the sample graph (tests/sample_graph.py) and nothing else."""
    assert write_graph(Graph(schema_db), *sample_graph(), get_schema()).ok
    return schema_db

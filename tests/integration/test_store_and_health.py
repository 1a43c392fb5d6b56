"""A Cypher round trip through our driver factory, its errors, and the API's /health against real Neo4j."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api.app import create_app
from kg.db import store
from kg.errors import ConfigurationError, DatabaseUnavailable
from tests.neo4j_harness import free_port


def test_cypher_round_trip_keeps_values(empty_db):
    props = {"id": "p1", "title": "Über Graphs — a \"test\"", "pages": [1, 2, 3], "score": 0.25}
    empty_db.execute_query("CREATE (p:Probe) SET p = $props", props=props)
    record = empty_db.execute_query("MATCH (p:Probe {id: $id}) RETURN p", id="p1").records[0]
    assert dict(record["p"]) == props


def test_server_is_neo4j_5_26_community(driver):
    info = store.server_info(driver)
    assert info.version.startswith("5.26.") and info.edition == "community"


def test_wrong_password_is_a_configuration_error(neo4j_settings):
    bad = neo4j_settings.model_copy(update={"neo4j_password": SecretStr("definitely-wrong")})
    with pytest.raises(ConfigurationError, match="rejected the credentials"):
        store.connect(bad)


def test_unreachable_server_is_reported(neo4j_settings):
    nowhere = neo4j_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    with pytest.raises(DatabaseUnavailable, match="cannot reach Neo4j") as info:
        store.connect(nowhere)
    assert "kg db start" in info.value.hint


def test_health_reports_neo4j_version(neo4j_settings):
    with TestClient(create_app(neo4j_settings), base_url="http://localhost") as client:
        body = client.get("/health").json()
    assert body["status"] == "ok" and body["neo4j"]["version"].startswith("5.26.")


def test_health_is_503_when_neo4j_is_down(neo4j_settings):
    nowhere = neo4j_settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    with TestClient(create_app(nowhere), base_url="http://localhost") as client:
        response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "DATABASE_UNAVAILABLE"

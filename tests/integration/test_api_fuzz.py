"""API fuzzing: schemathesis reads the live OpenAPI of the API served by uvicorn (sample graph in a real Neo4j)
and sends every operation requests generated from its schema, valid and invalid, each once without a key and
once with an admin key (which passes every role check, so the requests reach the handlers behind them). No answer
may be a 5xx, and every answer must be documented for its operation: its status code, content type and body
schema. The number of examples per operation is bounded so the run fits CI."""

from __future__ import annotations

import pytest
import schemathesis

from api.app import create_app
from bench.fuzz import fuzz_operation
from kg.schema import init_schema
from kg.settings import Settings
from kg.write import write_graph
from ontology.loader import get_schema
from tests.curation_support import as_role, curated_settings
from tests.live_api import served
from tests.sample_graph import sample_graph

EXAMPLES = 25  # per operation and generation mode; each example is sent twice (without and with a key)
# The operations, from the app's schema at collection time (no server is needed to list them; the test itself
# reads the live server's). Schemathesis's own pytest loader needs a fixture API that this pytest lacks.
OPERATIONS = [(path, method.upper()) for path, methods in create_app(Settings()).openapi()["paths"].items()
              for method in methods]


@pytest.fixture(scope="module")
def live_api(driver, neo4j_settings, tmp_path_factory):
    driver.execute_query("MATCH (n) DETACH DELETE n")
    schema = get_schema()
    init_schema(driver, schema, neo4j_settings.embedding_dim)
    assert write_graph(driver, *sample_graph(), schema).ok
    with served(curated_settings(neo4j_settings, data_dir=tmp_path_factory.mktemp("data"))) as url:
        yield url


@pytest.fixture(scope="module")
def live_schema(live_api):
    return schemathesis.openapi.from_url(f"{live_api}/openapi.json")


@pytest.mark.parametrize("path, method", OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_no_operation_answers_5xx_or_off_its_schema(live_api, live_schema, path, method):
    found = fuzz_operation(live_schema[path][method], live_api, as_role("admin"), EXAMPLES)
    assert found["cases"] >= 2
    assert found["server_errors"] == 0 and found["schema_violations"] == 0, found["failures"]

"""API fuzzing: schemathesis reads the live OpenAPI of the API served by uvicorn (sample graph in a real Neo4j)
and sends every operation requests generated from its schema, valid and invalid, each once without a key and
once with an admin key (which passes every role check, so the requests reach the handlers behind them). No answer
may be a 5xx, and every answer must be documented for its operation: its status code, content type and body
schema. The number of examples per operation is bounded so the run fits CI."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest
import schemathesis

from api.app import create_app
from bench.fuzz import fuzz_operation
from kg.db.graph import Graph
from kg.settings import Settings
from kg.ingest.write import write_graph
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
def live_api(driver, neo4j_settings, tmp_path_factory, reset_db):
    reset_db()
    schema = get_schema()
    assert write_graph(Graph(driver), *sample_graph(), schema).ok
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


def sent_as_written(base_url: str, method: str, target: str, headers: str = "") -> tuple[int, dict]:
    """(status, JSON body) of one request sent byte for byte, without a body: a client may declare any length."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(f"{method} {target} HTTP/1.1\r\nHost: {parts.netloc}\r\n{headers}Connection: close\r\n\r\n"
                     .encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


@pytest.mark.parametrize("path, method", OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_every_operation_documents_the_refusals_of_the_bounds(live_api, live_schema, path, method):
    """A URL or a body over its bound is refused before routing, whatever the operation (the fuzzer's examples
    rarely reach either bound): each refusal has the error body and a status the operation declares."""
    declared = live_schema.raw_schema["paths"][path][method.lower()]["responses"]
    target = path.replace("{", "").replace("}", "")  # any path will do: nothing is routed
    too_long = f"{target}?q={'x' * Settings().api_max_url_bytes}"
    for expected, code, request in ((414, "URI_TOO_LONG", (method, too_long)),
                                    (413, "PAYLOAD_TOO_LARGE", (method, target, "Content-Length: 10000000000\r\n"))):
        status, body = sent_as_written(live_api, *request)
        assert (status, body["error"]["code"]) == (expected, code), body
        assert str(status) in declared, f"{method} {path} does not declare {status}: {sorted(declared)}"

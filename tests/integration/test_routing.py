"""Issue 31: the API over a routing URI (`neo4j://`), the driver a cluster or Aura needs, against the session's real
server: every read endpoint answers from the graph through read transactions only, a curation write goes through
a write transaction, and the read right after it sees the write (the sessions share the driver's bookmarks)."""

from __future__ import annotations

import neo4j
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.db import store
from kg.auth.apikeys import entry, new_key

KEY = new_key()
ADMIN = {"X-API-Key": KEY}


class _RecordingSession:
    def __init__(self, session, mode: str, modes: list[str]):
        self._session, self._mode, self._modes = session, mode, modes

    def __enter__(self):
        self._session.__enter__()
        return self

    def __exit__(self, *exc):
        return self._session.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._session, name)

    def run(self, *args, **kwargs):
        self._modes.append(self._mode)
        return self._session.run(*args, **kwargs)

    def begin_transaction(self, *args, **kwargs):
        self._modes.append(self._mode)
        return self._session.begin_transaction(*args, **kwargs)

    def execute_read(self, *args, **kwargs):
        self._modes.append("read")
        return self._session.execute_read(*args, **kwargs)

    def execute_write(self, *args, **kwargs):
        self._modes.append("write")
        return self._session.execute_write(*args, **kwargs)


class RecordingDriver:
    """The API's real driver, recording "read" or "write" for each transaction the code starts through it."""

    def __init__(self, driver):
        self.driver, self.modes = driver, []

    def __getattr__(self, name):
        return getattr(self.driver, name)

    def execute_query(self, *args, routing_=neo4j.RoutingControl.WRITE, **kwargs):
        self.modes.append("read" if str(getattr(routing_, "value", routing_)).lower() == "r" else "write")
        return self.driver.execute_query(*args, routing_=routing_, **kwargs)

    def session(self, **options):
        mode = "read" if options.get("default_access_mode", neo4j.WRITE_ACCESS) == neo4j.READ_ACCESS else "write"
        return _RecordingSession(self.driver.session(**options), mode, self.modes)


@pytest.fixture
def routed(sample_db, neo4j_settings, monkeypatch):
    """The app over neo4j://127.0.0.1:<bolt port>, its driver recorded; /ask answered in the API process."""
    settings = neo4j_settings.model_copy(update={
        "neo4j_uri": f"neo4j://127.0.0.1:{neo4j_settings.bolt_port}", "qa_vectors": False, "qa_processes": 0,
        "api_keys": entry("routing-admin", "admin", KEY)})
    opened: list[RecordingDriver] = []
    real = store.connect_api

    def connect_api(s):
        opened.append(RecordingDriver(real(s)))
        return opened[-1]

    monkeypatch.setattr(store, "connect_api", connect_api)
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        yield client, opened[0]


READS = [
    ("get", "/papers", None),
    ("get", "/papers/paper_a", None),
    ("get", "/papers/paper_a/outline", None),
    ("get", "/papers/paper_a/related", None),
    ("get", "/papers/paper_a/domains", None),
    ("get", "/nodes?q=attention", None),
    ("get", "/nodes/method_srt", None),
    ("get", "/nodes/method_srt/neighbours", None),
    ("get", "/evidence/method_srt", None),
    ("get", "/search?q=routing%20attention", None),
    ("get", "/locate?q=Table%201", None),
    ("get", "/coverage/paper_a", None),
    ("get", "/domains", None),
    ("get", "/export/json?paper_id=paper_a", None),
    ("get", "/curation/queue", None),
    ("get", "/curation/items", None),
    ("get", "/curation/duplicates", None),
    ("get", "/curation/history", None),
    ("get", "/curation/nodes/method_srt", None),
    ("post", "/ask", {"question": "Which datasets does Sparse Routing Transformers use?"}),
]


def test_the_api_reads_through_read_transactions_over_a_routing_uri(routed):
    client, driver = routed
    assert isinstance(driver.driver, neo4j.Neo4jDriver)  # neo4j://: the routing driver, not a direct one
    titles = {p["title"] for p in client.get("/papers").json()["items"]}
    assert titles == {"Sparse Routing Transformers", "A Benchmark for Long Documents"}
    for method, path, body in READS:
        before = len(driver.modes)
        response = client.request(method, path, json=body, headers=ADMIN)
        assert response.status_code == 200, (path, response.text)
        sent = driver.modes[before:]
        assert sent and set(sent) == {"read"}, (path, sent)
    answer = client.post("/ask", json={"question": "Which datasets does Sparse Routing Transformers use?"}).json()
    assert "PG-19" in answer["answer"]


def test_a_curation_write_goes_to_the_writer_and_is_read_back(routed):
    client, driver = routed
    etag = client.get("/curation/nodes/method_srt", headers=ADMIN).headers["ETag"]
    before = len(driver.modes)
    changed = client.post("/curation/nodes/method_srt/verify", json={}, headers={**ADMIN, "If-Match": etag})
    assert changed.status_code == 200, changed.text
    assert "write" in driver.modes[before:]
    assert client.get("/nodes/method_srt").json()["properties"]["verification_status"] == "verified"

"""What /cypher refuses beyond writes (LOAD CSV, USE, SHOW, TERMINATE, administration, procedures that are not
graph reads), its bound in bytes and nesting, the memory and time its worker may take to read a result, and the
bounds of every URL parameter: each refusal a 4xx with the error body, against the real app and a real Neo4j
holding the sample graph."""

from __future__ import annotations

import http.server
import threading
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.app import create_app
from api.params import MAX_OFFSET
from kg.db import store
from kg.db.graph import Graph
from kg.errors import BusyError
from kg.read.queries import run_read_only
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.integration.test_api_endpoints import error_of
from tests.neo4j_harness import local_settings, throwaway_neo4j
from tests.sample_graph import sample_graph


@pytest.fixture(scope="module")
def sample_db(driver, reset_db):
    reset_db()
    schema = get_schema()
    nodes, edges = sample_graph()
    assert write_graph(Graph(driver), nodes, edges, schema).ok
    driver.execute_query("CALL db.awaitIndexes(60)")
    return driver


@pytest.fixture(scope="module")
def client(sample_db, neo4j_settings):
    app = create_app(neo4j_settings.model_copy(update={"qa_vectors": False}))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def cypher(client, query: str, **parameters):
    return client.post("/cypher", json={"query": query, "parameters": parameters})


# ------------------------------------------------------------------ /cypher: what reaches beyond the graph

@pytest.fixture
def web_server():
    """A local HTTP server that counts the requests it gets: LOAD CSV must never reach it."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"a,b\n1,2\n")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/data.csv", hits
    server.shutdown()


def test_load_csv_is_refused_and_fetches_nothing(client, web_server):
    url, hits = web_server
    for query in (f"LOAD CSV FROM '{url}' AS row RETURN row",
                  f"MATCH (p:Paper) CALL (p) {{ LOAD CSV FROM '{url}' AS row RETURN row }} RETURN p.id, row",
                  "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row"):
        assert "LOAD CSV" in error_of(cypher(client, query), 403, "QUERY_REFUSED")["message"]
    assert hits == []


@pytest.mark.parametrize("query", [
    "SHOW TRANSACTIONS",
    "SHOW TRANSACTIONS YIELD currentQuery, parameters RETURN currentQuery, parameters",
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
    "SHOW SETTINGS",
    "SHOW PROCEDURES",
    "SHOW INDEXES",
    "SHOW USERS",
    "CREATE USER mallory SET PASSWORD 'secret-secret'",
    "CALL dbms.components()",
    "CALL dbms.listConfig()",
    "MATCH (p:Paper) WITH p CALL dbms.components() YIELD name RETURN p.id, name",
    "CALL db.resampleOutdatedIndexes()",
    "CALL db.clearQueryCaches()",
    "CALL tx.setMetaData({who: 'me'})",
    "USE neo4j MATCH (p:Paper) RETURN p.id",
    "CYPHER runtime=slotted USE neo4j MATCH (p:Paper) RETURN p.id",
    "CALL () { USE neo4j MATCH (p:Paper) RETURN p } RETURN p.id",
    "MATCH (p:Paper) RETURN p.id AS x UNION ALL USE neo4j MATCH (p:Paper) RETURN p.title AS x",
])
def test_reads_beyond_the_graph_are_refused(client, query):
    error_of(cypher(client, query), 403, "QUERY_REFUSED")


def test_graph_reads_still_run(client):
    """What the checks must not catch: graph procedures, and USE or SHOW as names or text."""
    labels = cypher(client, "CALL db.labels() YIELD label RETURN label ORDER BY label").json()["rows"]
    assert {"label": "Paper"} in labels
    found = cypher(client, "CALL db.index.fulltext.queryNodes('entity_names', 'PG19') YIELD node "
                           "RETURN node.id AS id").json()
    assert found["rows"] == [{"id": "dataset_pg19"}]
    named = cypher(client, "MATCH (use:Paper) // USE system\nRETURN use.id AS show, {use: 1} AS m, 'USE x' AS s "
                           "ORDER BY show").json()
    assert named["rows"][0] == {"show": "paper_a", "m": {"use": 1}, "s": "USE x"}


def test_paths_are_returned_as_nodes_and_edges(client):
    body = cypher(client, "MATCH path = (:Paper {id: 'paper_a'})-[:HAS_AUTHOR]->(a:Author {id: 'author_lee'}) "
                          "RETURN path").json()
    path = body["rows"][0]["path"]
    assert [n["id"] for n in path["nodes"]] == ["paper_a", "author_lee"]
    assert [e["type"] for e in path["edges"]] == ["HAS_AUTHOR"]


# ------------------------------------------------------------------ /cypher: bounds of the result

def test_one_huge_value_is_refused_in_bytes(client):
    error = error_of(cypher(client, "RETURN range(1, 3000000) AS numbers"), 400, "RESULT_TOO_LARGE")
    assert "10,000,000 bytes" in error["message"]


def test_many_rows_are_cut_at_the_byte_limit(neo4j_settings, sample_db):
    small = neo4j_settings.model_copy(update={"cypher_max_bytes": 5000, "qa_vectors": False})
    with TestClient(create_app(small), base_url="http://localhost") as quick:
        body = cypher(quick, "UNWIND range(1, 900) AS x RETURN x, 'some text of forty characters, or so.' AS t")
        assert body.status_code == 200, body.text
        rows = body.json()["rows"]
        assert body.json()["truncated"] and 40 < len(rows) < 900
        assert rows == [{"x": i + 1, "t": "some text of forty characters, or so."} for i in range(len(rows))]
        assert len(body.content) <= 5000 + 200  # the rows within the limit, plus columns and flags


def test_deeply_nested_value_is_refused(client):
    error_of(cypher(client, "RETURN reduce(l = [], x IN range(1, 600) | [l]) AS deep"), 400, "RESULT_TOO_LARGE")
    shallow = cypher(client, "RETURN reduce(l = [], x IN range(1, 20) | [l]) AS ok")
    assert shallow.status_code == 200, shallow.text


# ------------------------------------------------------------------ /cypher: what reading a result may cost

SMALL_MEMORY_MB = 128  # `RETURN range(1, 10000000)`, one record, takes several times this to read


def test_a_value_too_large_to_read_costs_its_worker_not_the_api(neo4j_settings, sample_db):
    """One lazily built record larger than the reader's memory: its worker is stopped at the limit and the
    caller gets a 400 naming it; the API, and /cypher itself, answer the next query at once."""
    small = neo4j_settings.model_copy(update={"cypher_memory_mb": SMALL_MEMORY_MB, "cypher_timeout_s": 120.0,
                                              "cypher_processes": 1, "qa_vectors": False})
    with TestClient(create_app(small), base_url="http://localhost") as bounded:
        error = error_of(cypher(bounded, "RETURN range(1, 10000000) AS numbers"), 400, "RESULT_TOO_LARGE")
        assert f"{SMALL_MEMORY_MB} MB" in error["message"], error
        assert bounded.get("/papers").json()["total"] == 2
        assert cypher(bounded, "RETURN 1 AS one").json()["rows"] == [{"one": 1}]


def test_a_value_nested_too_deep_to_send_is_refused_in_bounded_time(neo4j_settings, sample_db):
    """Nested this deep, Neo4j fails to send the value and leaves the connection silent for its read timeout
    (minutes); the worker's wall-clock limit ends the wait, and the worker that replaces it answers."""
    quick = neo4j_settings.model_copy(update={"cypher_timeout_s": 3.0, "cypher_processes": 1, "qa_vectors": False})
    with TestClient(create_app(quick), base_url="http://localhost") as bounded:
        began = time.monotonic()
        response = cypher(bounded, "RETURN reduce(l = [], x IN range(1, 100000) | [l]) AS deep")
        assert time.monotonic() - began < 60  # limit 3 s + grace; generous for a loaded machine, not minutes
        assert (response.status_code, response.json()["error"]["code"]) in {(400, "RESULT_TOO_LARGE"),
                                                                            (422, "QUERY_TIMEOUT")}, response.text
        assert cypher(bounded, "RETURN 1 AS one").json()["rows"] == [{"one": 1}]


SLOW = "UNWIND range(1, 1000000000) AS x WITH x WHERE x < 0 RETURN count(x) AS n"  # stopped by Neo4j's timeout


def test_a_query_that_finds_no_free_worker_in_time_is_refused_busy(neo4j_settings, sample_db):
    """One worker, three slow queries ahead: a query behind them (behind two, if one overtook it) cannot start
    within its time limit, so it is refused (429) rather than kept waiting for the backlog; the slow ones end
    with their timeout (or, last in line, busy too), and then queries run again."""
    one = neo4j_settings.model_copy(update={"cypher_timeout_s": 3.0, "cypher_processes": 1, "qa_vectors": False})
    with TestClient(create_app(one), base_url="http://localhost") as bounded:
        assert cypher(bounded, "RETURN 1 AS one").status_code == 200  # the worker is up
        slow = []
        threads = [threading.Thread(target=lambda: slow.append(cypher(bounded, SLOW))) for _ in range(3)]
        for thread in threads:
            thread.start()
            time.sleep(0.5)  # in this order into the queue
        busy = cypher(bounded, "RETURN 2 AS two")
        for thread in threads:
            thread.join(120)
        error_of(busy, 429, "BUSY")
        assert int(busy.headers["retry-after"]) > 0
        codes = [r.json()["error"]["code"] for r in slow]
        assert "QUERY_TIMEOUT" in codes and set(codes) <= {"QUERY_TIMEOUT", "BUSY"}, codes
        # the one worker may still be ending the timed-out queries, which on a loaded machine outlasted one query's
        # limit: queries must run again within a minute
        deadline, answer = time.monotonic() + 60, None
        while time.monotonic() < deadline and (answer is None or answer.status_code != 200):
            answer = cypher(bounded, "RETURN 3 AS three")
        assert answer.status_code == 200 and answer.json()["rows"] == [{"three": 3}], answer.text


# A loop inside one expression, which Neo4j does not interrupt at the timeout: it would run on for hours
RUNAWAY = "RETURN none(x IN range(1, 1000000000000) WHERE x < 0) AS none_below"


def test_queries_neo4j_cannot_stop_at_their_time_are_bounded_in_number(tmp_path):
    """Neo4j marks the runaway's transaction terminated at the timeout and runs it on; the caller gets 422 when
    its worker is stopped. With as many of them still running as /cypher runs at once, the next query is refused
    (429) instead of taking one more of Neo4j's threads; other clients' reads still run. On a server of the test's
    own, killed at the end: nothing else ends the loop."""
    settings = local_settings(tmp_path / "data", qa_vectors=False, cypher_timeout_s=2.0, cypher_processes=1)
    with throwaway_neo4j(settings):
        with TestClient(create_app(settings), base_url="http://localhost") as bounded:
            error_of(cypher(bounded, RUNAWAY), 422, "QUERY_TIMEOUT")
            busy = error_of(cypher(bounded, "RETURN 1 AS one"), 429, "BUSY")
            assert "still runs 1 earlier" in busy["message"], busy
            with store.connect(settings) as driver:
                assert driver.execute_query("RETURN 1 AS one").records[0]["one"] == 1



def test_a_runaway_that_neo4j_started_late_counts_from_when_the_endpoint_started_it(tmp_path):
    """On a slow server Neo4j may begin a query's transaction seconds after the endpoint started it, so by Neo4j's
    own clock the loop is within its time when its worker is stopped. Here such a loop runs with the endpoint's
    mark of a start 10 s ago: the next query is refused although Neo4j has run the loop for under a second."""
    settings = local_settings(tmp_path / "data", qa_vectors=False)
    with throwaway_neo4j(settings), store.connect(settings) as driver:
        def runaway() -> None:
            with Graph(driver, settings.neo4j_database).read_session() as session:
                mark = {"paperkg": "user-cypher", "started_ms": int(time.time() * 1000) - 10_000}
                try:
                    session.begin_transaction(timeout=60, metadata=mark).run(RUNAWAY).consume()
                except Exception:  # the server is killed under it at the end
                    pass

        threading.Thread(target=runaway, daemon=True).start()
        deadline = time.monotonic() + 30
        while not driver.execute_query("SHOW TRANSACTIONS YIELD metaData WHERE metaData.paperkg = 'user-cypher' "
                                       "RETURN count(*) AS n", routing_="r").records[0]["n"]:
            assert time.monotonic() < deadline, "the loop never started"
            time.sleep(0.1)
        with pytest.raises(BusyError, match="still runs 1 earlier"):
            run_read_only(Graph(driver, settings.neo4j_database), "RETURN 1 AS one", None, timeout_s=5.0,
                          row_limit=10, max_bytes=10_000, max_overdue=1)

@pytest.mark.parametrize("query, parameters", [
    ("RETURN [1, 2][176086315491..176086315492] AS x", {}),  # Cypher slices take 32-bit integers
    ("RETURN $x AS x", {"x": 10 ** 30}),  # more than Bolt's 64-bit integers
])
def test_values_neo4j_cannot_take_are_400(client, query, parameters):
    error_of(cypher(client, query, **parameters), 400, "INVALID_QUERY")


# ------------------------------------------------------------------ URL parameters

@pytest.mark.parametrize("path", ["/papers", "/nodes?q=PG19"])
def test_offsets_beyond_the_bound_are_422_not_500(client, path):
    join = "&" if "?" in path else "?"
    for offset in (176086315491, MAX_OFFSET + 1, -1):
        error_of(client.get(f"{path}{join}offset={offset}"), 422, "INVALID_REQUEST")
    last = client.get(f"{path}{join}offset={MAX_OFFSET}")
    assert last.status_code == 200 and last.json()["items"] == [] and last.json()["total"] >= 1


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(["/papers", "/nodes?q=PG19", "/locate?q=Figure 1", "/nodes/method_srt/neighbours"]),
       offset=st.one_of(st.integers(), st.integers(min_value=2 ** 31 - 300, max_value=2 ** 64)),
       limit=st.one_of(st.integers(), st.integers(min_value=1, max_value=200)))
def test_any_paging_numbers_are_answered_or_refused_never_a_500(client, path, offset, limit):
    response = client.get(path, params={"offset": offset, "limit": limit})
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        body = response.json()
        assert len(body["items"] if "items" in body else body["edges"]) <= limit  # one hop: an edge per path


@pytest.mark.parametrize("path", ["/papers?q=", "/nodes?q=", "/locate?q="])
def test_search_text_is_bounded(client, path):
    error_of(client.get(path + "x" * 501), 422, "INVALID_REQUEST")
    assert client.get(path + "graph " * 83).status_code == 200  # 498 characters


def test_overlong_url_is_414_with_the_error_body(client):
    error_of(client.get("/nodes/neighbours", params={"label": ["Method"] * 2000}), 414, "URI_TOO_LONG")
    error_of(client.get("/papers/" + "p" * 9000), 414, "URI_TOO_LONG")
    assert client.get("/papers", params={"q": "sparse"}).status_code == 200

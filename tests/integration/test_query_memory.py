"""/cypher queries that build huge values inside Neo4j (issue 23). Neo4j accounts for what collect(), ORDER BY and
DISTINCT hold and stops them at a transaction's limit (db.memory.transaction.max); lists and strings built inside
an expression are not accounted for and fill the heap until Java's OutOfMemoryError. Either way the caller gets
422 QUERY_MEMORY_LIMIT, and the server reads, writes and ingests afterwards.

On a server of this module's own, with the tests' small heap and a transaction limit below Neo4j's pool for all
transactions (70% of the heap), as the defaults have it for a user's server: the heap these queries fill is no
other test's."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.db import store
from tests.ingest_support import SAMPLE_A, SAMPLE_B, run_ingest, value
from tests.integration.test_api_endpoints import error_of
from kg.db.localserver.server import LocalNeo4j
from tests.neo4j_harness import local_settings, throwaway_neo4j

TX_LIMIT_MB = 128  # of the tests' 512 MB heap; Neo4j's pool for all transactions is 70% of it
POOL_MB = 128


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    settings = local_settings(tmp_path_factory.mktemp("memory"), neo4j_tx_memory_max=f"{TX_LIMIT_MB}m")
    with throwaway_neo4j(settings):
        yield settings


@pytest.fixture(scope="module")
def own_driver(server):
    with store.connect(server) as driver:
        yield driver


@pytest.fixture(scope="module")
def client(server):
    # A time limit no query here meets on a busy machine: each is stopped for memory, within seconds
    settings = server.model_copy(update={"qa_vectors": False, "cypher_timeout_s": 120.0})
    with TestClient(create_app(settings), base_url="http://localhost") as test_client:
        yield test_client


def cypher(client, query: str):
    return client.post("/cypher", json={"query": query})


def assert_reads_and_writes(client, driver) -> None:
    assert cypher(client, "RETURN 1 AS one").json()["rows"] == [{"one": 1}]
    written = driver.execute_query("CREATE (n:Probe {at: timestamp()}) WITH n DELETE n RETURN count(n) AS n")
    assert written.records[0]["n"] == 1


# What Neo4j holds for a row-consuming operator, and accounts for: 100 million integers are gigabytes of heap.
ACCOUNTED = {
    "collect": "UNWIND range(1, 100000000) AS x WITH collect(x) AS xs RETURN size(xs) AS n",
    "order by": "UNWIND range(1, 100000000) AS x WITH x ORDER BY -x RETURN count(x) AS n",
    "distinct": "UNWIND range(1, 100000000) AS x RETURN count(DISTINCT x) AS n",
}


@pytest.mark.parametrize("query", ACCOUNTED.values(), ids=ACCOUNTED.keys())
def test_an_aggregation_past_the_transaction_limit_is_422(client, own_driver, query):
    error = error_of(cypher(client, query), 422, "QUERY_MEMORY_LIMIT")
    assert "one transaction" in error["message"]
    assert f"{TX_LIMIT_MB:.1f} MiB" in error["details"]["info"], error  # Neo4j's words: the limit it applied
    assert "LIMIT" in error["details"]["hint"]
    assert_reads_and_writes(client, own_driver)


class PooledNeo4j(LocalNeo4j):
    """A server whose pool for all transactions (dbms.memory.transaction.total.max) is far below its heap. At
    Neo4j's default, 70% of the heap, the heap's other tenants may leave less than the pool, and Java's
    OutOfMemoryError then comes first."""

    def _write_config(self) -> None:
        super()._write_config()
        with (self.conf_dir / "neo4j.conf").open("a") as conf:
            conf.write(f"dbms.memory.transaction.total.max={POOL_MB}m\n")


@pytest.fixture(scope="module")
def pooled_server(tmp_path_factory):
    settings = local_settings(tmp_path_factory.mktemp("pooled"), neo4j_tx_memory_max="0")
    with throwaway_neo4j(settings, PooledNeo4j):
        yield settings


def test_without_a_transaction_limit_the_pool_of_all_transactions_stops_the_query(pooled_server):
    """A server whose transactions have no limit of their own (PAPERKG_NEO4J_TX_MEMORY_MAX=0, or one above the
    pool): the query meets the pool of all transactions instead, and is refused all the same."""
    settings = pooled_server.model_copy(update={"qa_vectors": False, "cypher_timeout_s": 120.0})
    with TestClient(create_app(settings), base_url="http://localhost") as unlimited:
        error = error_of(cypher(unlimited, ACCOUNTED["collect"]), 422, "QUERY_MEMORY_LIMIT")
        assert "transactions together" in error["message"]
        assert "dbms.memory.transaction.total.max" in error["details"]["info"], error
        assert f"{POOL_MB:.1f} MiB" in error["details"]["info"], error  # the pool this server was given
        assert cypher(unlimited, "RETURN 1 AS one").json()["rows"] == [{"one": 1}]


def _replace_tenfold(times: int) -> str:
    return "replace(" * times + "'xxxxxxxxxx'" + ", 'x', 'xxxxxxxxxx')" * times


# Values built inside one expression, which no memory limit of Neo4j's sees: each needs more than the 512 MB heap.
UNACCOUNTED = {
    "string doubled 31 times": "RETURN size(reduce(s = 'x', i IN range(1, 31) | s + s)) AS n",
    "string replaced tenfold 9 times": f"RETURN size({_replace_tenfold(9)}) AS n",
    "list comprehension": "RETURN size([x IN range(1, 200000000) | x]) AS n",
    "list doubled then mapped": "RETURN size([x IN reduce(l = [0], i IN range(1, 28) | l + l) | x + 1]) AS n",
}


@pytest.mark.parametrize("query", UNACCOUNTED.values(), ids=UNACCOUNTED.keys())
def test_a_value_that_fills_the_heap_is_422_and_the_server_recovers(client, own_driver, query):
    error = error_of(cypher(client, query), 422, "QUERY_MEMORY_LIMIT")
    assert "heap" in error["message"]
    assert_reads_and_writes(client, own_driver)


def test_papers_ingest_beside_queries_that_fill_the_heap(server, own_driver, client, tmp_path):
    """A paper is written in one transaction while other clients' queries fill the heap: the paper is written
    whole (Neo4j's OutOfMemoryError is a transient error, which the write's managed transaction retries), and
    each query gets its 422."""
    own_driver.execute_query("MATCH (n) DETACH DELETE n")
    statuses: list[int] = []
    written = threading.Event()

    def attack() -> None:
        while not written.is_set():
            for query in UNACCOUNTED.values():
                statuses.append(cypher(client, query).status_code)

    attacker = threading.Thread(target=attack)
    attacker.start()
    try:
        report = run_ingest(server.model_copy(update={"data_dir": tmp_path / "data"}), own_driver,
                            [SAMPLE_A, SAMPLE_B])
    finally:
        written.set()
        attacker.join(300)
    assert report.ok and [p.status for p in report.papers] == ["ingested", "ingested"], report
    assert value(own_driver, "MATCH (p:Paper) RETURN count(p)") == 2
    assert value(own_driver, "MATCH (p:Paper) WHERE NOT (p)-[:HAS_CHUNK]->() RETURN count(p)") == 0
    assert statuses and set(statuses) == {422}, statuses

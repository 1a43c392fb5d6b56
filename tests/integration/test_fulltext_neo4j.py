"""User text that reaches a Lucene fulltext query (name search, locate, QA retrieval and entity resolution),
against the real indexes of a real Neo4j: Lucene operators, syntax characters and over-long text never fail,
through the kg functions (property-tested) and through the API."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings

from kg.db.graph import Graph
from kg.read import queries
from kg.read.fulltext import lucene_phrase, lucene_query
from kg.find.locate import locate
from kg.qa.graph import GraphReader
from kg.qa.retrieval import retrieve
from ontology.loader import get_schema
from tests.integration.test_query_bounds import client, sample_db  # noqa: F401  (fixtures)
from tests.unit.test_fulltext_query import user_text

# Each example is a few round trips to Neo4j; enough examples to meet every syntax character many times.
ROUND_TRIPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HOSTILE = ["AND", "OR", "NOT", "a AND b", "OR OR", "NOT NOT NOT", '"unclosed', "(x", "x)", "[a TO b}", "a:b",
           "\\", "*", "?", "~2", "^3", "-".join(["w"] * 3000), " ".join(f"w{i}" for i in range(3000))]


def chunk_index(schema) -> str:
    return queries.index_name(schema, "fulltext", "Chunk", "text")


@ROUND_TRIPS
@given(user_text)
@example("AND")
@example("-".join(["w"] * 3000))
@example(" ".join(f"w{i}" for i in range(3000)))
def test_every_built_query_parses_in_neo4j(sample_db, text):
    """Straight into both fulltext indexes, the way name search and chunk retrieval call them."""
    schema = get_schema()
    for query in (lucene_query(text), lucene_phrase(text)):
        if not query:
            continue
        for index in (queries.index_name(schema, "fulltext", "Method", "name"), chunk_index(schema)):
            sample_db.execute_query("CALL db.index.fulltext.queryNodes($index, $q, {limit: 5}) YIELD node "
                                    "RETURN count(node)", index=index, q=query, routing_="r")


@ROUND_TRIPS
@given(user_text)
def test_name_search_locate_and_retrieval_take_any_text(sample_db, text):
    schema = get_schema()
    if lucene_query(text):
        queries.search_nodes(Graph(sample_db), schema, text, None, 0, 20)
    if text.strip():
        locate(Graph(sample_db), schema, text, None, 10)
    reader = GraphReader(Graph(sample_db), schema)
    reader.resolve(text)
    retrieve(reader, text, None)


def test_lower_casing_keeps_what_a_search_finds(sample_db):
    """The builder lower-cases words so that AND/OR/NOT are words; the indexes' analyser lower-cases too, so
    the same nodes are found whatever the case."""
    schema = get_schema()
    for text in ("PG19", "Sparse Routing Transformer", "SRT"):
        upper = queries.search_nodes(Graph(sample_db), schema, text.upper(), None, 0, 20).items
        lower = queries.search_nodes(Graph(sample_db), schema, text.lower(), None, 0, 20).items
        assert upper and [n["id"] for n in upper] == [n["id"] for n in lower]


@pytest.mark.parametrize("text", HOSTILE)
def test_api_answers_hostile_text_without_a_server_error(client, text):
    nodes = client.get("/nodes", params={"q": text[:500]})
    assert nodes.status_code in (200, 400), nodes.text  # 400: no word left to look for
    assert client.get("/locate", params={"q": text[:500]}).status_code == 200
    asked = client.post("/ask", json={"question": f"What is {text}?"[:1000]})
    assert asked.status_code == 200, asked.text


def test_operator_words_are_searched_as_words(client):
    """`AND` is the word 'and': Method 'Sparse Routing Transformer' has no such word, an OR-query of 'routing'
    and 'and' still finds it."""
    assert client.get("/nodes", params={"q": "AND"}).json()["total"] == 0
    found = client.get("/nodes", params={"q": "routing AND"}).json()["items"]
    assert "method_srt" in [n["id"] for n in found]

"""kg/read/cypher_guard.py without a server: USE found as a clause only, and the byte and depth measure of a result
that stops early on a huge value. The plan checks run against a real Neo4j in
tests/integration/test_query_bounds.py."""

from __future__ import annotations

import pytest

from kg.read.cypher_guard import MAX_DEPTH, ResultBudget, check_text, json_size
from kg.errors import QueryRefusedError, ResultTooLargeError


@pytest.mark.parametrize("query", [
    "USE neo4j MATCH (n) RETURN n",
    "use `my-db` MATCH (n) RETURN n",
    "CYPHER 5 runtime=slotted USE neo4j MATCH (n) RETURN n",
    "CALL () { USE other MATCH (n) RETURN n } RETURN n",
    "MATCH (n) RETURN n UNION ALL USE other MATCH (n) RETURN n",
    "/* first */ USE neo4j RETURN 1",
])
def test_use_as_a_clause_is_refused(query):
    with pytest.raises(QueryRefusedError):
        check_text(query)


@pytest.mark.parametrize("query", [
    "MATCH (use) RETURN use",
    "WITH 1 AS use RETURN use",
    "MATCH (n) WITH n AS use MATCH (m) RETURN use, m",
    "RETURN {use: 1} AS m",
    "WITH 1 AS use RETURN {use} AS m",
    "RETURN 'USE neo4j' AS s, \"use x\" AS t",
    "// USE neo4j\nRETURN 1",
    "MATCH (n) WHERE n.use = 'USE x' RETURN n.`use other` AS x",
])
def test_use_as_a_name_or_in_text_is_not(query):
    check_text(query)


def test_a_huge_value_is_measured_only_up_to_the_budget():
    huge = list(range(10_000_000))
    assert 1000 < json_size(huge, 1000) < 1100
    assert json_size({"a": "xyz", "b": [1, 22]}, 10_000) >= len('{"a":"xyz","b":[1,22]}')


def test_nesting_beyond_the_limit_is_refused():
    value: list = []
    for _ in range(MAX_DEPTH + 1):
        value = [value]
    with pytest.raises(ResultTooLargeError):
        json_size(value, 10_000)
    json_size(value[0][0], 10_000)  # within the limit


def test_budget_cuts_later_rows_and_refuses_a_first_row_too_large():
    budget = ResultBudget(100)
    assert budget.fits({"x": "a" * 40})
    assert not budget.fits({"x": "b" * 60})
    with pytest.raises(ResultTooLargeError):
        ResultBudget(100).fits({"x": "a" * 200})

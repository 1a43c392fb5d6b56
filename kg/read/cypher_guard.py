"""What the read-only Cypher endpoint refuses besides writes, and how much of a result it sends back.

The planner's query type says whether a query writes, but several things of type 'r' still reach beyond the
graph: `LOAD CSV` fetches URLs and reads files, `SHOW TRANSACTIONS` shows other clients' queries and
parameters, `TERMINATE TRANSACTIONS` ends them, `SHOW SETTINGS`/`SHOW PROCEDURES` describe the server, and
procedures run whatever code they hold. So the plan of every query (EXPLAIN) is checked operator by operator:
those are refused, and a procedure runs only when it is one of the few known to read the graph and nothing
else. `USE` is refused from the query text, as its plan looks like the same query without it.

A result is bounded in bytes as well as rows: one row can hold a single huge value (`RETURN range(1, 20000000)`
is one row), and a value nested deeper than the JSON encoders recurse would fail after it was read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from neo4j.graph import Node, Path, Relationship

from kg.errors import QueryRefusedError, ResultTooLargeError

# Procedures that only read the graph or its schema: index lookups and the schema summaries Browser shows.
READ_PROCEDURES = frozenset({
    "db.labels", "db.relationshipTypes", "db.propertyKeys",
    "db.schema.visualization", "db.schema.nodeTypeProperties", "db.schema.relTypeProperties",
    "db.index.fulltext.queryNodes", "db.index.fulltext.queryRelationships",
    "db.index.vector.queryNodes", "db.index.vector.queryRelationships",
})
# Plan operators (name prefixes) that read or act beyond the graph, whatever the query type says.
_REFUSED_OPERATORS = {"LoadCSV": "LOAD CSV reads files and URLs", "Show": "SHOW commands describe the server "
                      "and other clients", "Terminate": "TERMINATE ends other clients' transactions",
                      "AdministrationCommand": "administration commands change the server"}
MAX_DEPTH = 64  # lists and maps nested deeper are refused: the response encoders recurse once per level

_TOKEN = re.compile(r"""(?P<skip>\s+|//[^\n]*|/\*.*?\*/)|(?P<text>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`]|``)*`)
                        |(?P<word>[^\W\d]\w*)|(?P<number>\d[\w.]*)|(?P<symbol>.)""", re.S | re.X)
_CLAUSE_START = {"{", "UNION", "ALL"}  # tokens after which a word is the first word of a clause


def check_plan(plan: dict[str, Any], database: str) -> None:
    """QueryRefusedError when an operator of the plan (as the driver gives it, with children) is refused, calls a
    procedure that is not a known read of the graph, or runs on another database than `database`."""
    for operator in _operators(plan):
        kind, _, where = operator.get("operatorType", "").partition("@")
        if where and where != database:
            raise QueryRefusedError(f"the query runs on database {where!r}; only {database!r} is read here")
        for prefix, reason in _REFUSED_OPERATORS.items():
            if kind.startswith(prefix):
                raise QueryRefusedError(f"refused: {reason}", hint="/cypher reads the graph only: MATCH ... RETURN")
        if kind.startswith("ProcedureCall"):
            name = str(operator.get("args", {}).get("Details", "")).split("(", 1)[0].strip()
            if name not in READ_PROCEDURES:
                raise QueryRefusedError(f"procedure {name or '?'} is not one that only reads the graph",
                                        hint=f"procedures allowed here: {', '.join(sorted(READ_PROCEDURES))}")


def _operators(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack = [plan]
    while stack:
        operator = stack.pop()
        yield operator
        stack.extend(operator.get("children") or ())


def check_text(cypher: str) -> None:
    """QueryRefusedError for a USE clause (at the start of the query, of a subquery or of a UNION part, after
    the CYPHER options if any). Strings, comments and quoted names are skipped, so only a clause counts."""
    tokens = [(m.lastgroup, m.group()) for m in _TOKEN.finditer(cypher) if m.lastgroup != "skip"]
    start = _after_options(tokens)
    previous = None
    for i, (kind, text) in enumerate(tokens):
        word = text.upper() if kind == "word" else None
        after = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
        names_a_graph = after[0] == "word" or after[1].startswith("`")  # not a map key `{use: 1}` nor `{use}`
        if word == "USE" and (i == start or previous in _CLAUSE_START) and names_a_graph:
            raise QueryRefusedError("refused: USE chooses another database; /cypher reads the API's own graph",
                                    hint="leave out the USE clause")
        previous = word if word else text


def _after_options(tokens: list[tuple[str, str]]) -> int:
    """Index of the first token after a leading `CYPHER [version] [option=value ...]`, else 0."""
    if not tokens or tokens[0][1].upper() != "CYPHER":
        return 0
    i = 1
    if i < len(tokens) and tokens[i][0] == "number":
        i += 1
    while i + 2 < len(tokens) and tokens[i][0] == "word" and tokens[i + 1][1] == "=":
        i += 3
    return i


class ResultBudget:
    """The bytes of JSON the rows of one response may take. `fits(row)` counts a row of driver values (before
    they are converted, so a huge one is not copied) and says whether it still fits; a first row that alone
    does not fit, or any value nested deeper than MAX_DEPTH, is ResultTooLargeError, since no truncation could
    make it fit. Node and relationship properties named in `hidden` are not sent, so not counted."""

    def __init__(self, max_bytes: int, hidden: frozenset[str] = frozenset()):
        self.max_bytes = max_bytes
        self.hidden = hidden
        self.used = 2  # the list's brackets

    def fits(self, row: dict[str, Any]) -> bool:
        size = json_size(row, self.max_bytes - self.used + 1, self.hidden)
        if self.used + size + 1 <= self.max_bytes:
            self.used += size + 1
            return True
        if self.used == 2:
            raise ResultTooLargeError(f"the first row alone is larger than the {self.max_bytes:,} bytes a "
                                      "response may hold", hint="return less: a LIMIT, size(...) or a slice [..n]")
        return False


def json_size(value: Any, budget: int, hidden: frozenset[str] = frozenset()) -> int:
    """About the JSON size of a driver value (strings and numbers as written, each separator counted), walked
    without recursion and given up as soon as it passes `budget`, so a huge value costs no more than the
    budget to measure."""
    size = 0
    stack: list[tuple[Iterator[Any], int]] = [(iter((value,)), 0)]
    while stack and size <= budget:
        items, depth = stack[-1]
        item = next(items, _END)
        if item is _END:
            stack.pop()
            continue
        size += 1  # a comma or colon
        children = _children(item, hidden)
        if children is None:
            size += len(item) + 2 if isinstance(item, str) else len(str(item))
        elif depth >= MAX_DEPTH:
            raise ResultTooLargeError(f"a value is nested deeper than {MAX_DEPTH} levels",
                                      hint="return flatter values")
        else:
            size += 2
            stack.append((iter(children), depth + 1))
    return size


_END = object()


def _children(value: Any, hidden: frozenset[str]) -> Iterable[Any] | None:
    """The parts of a composite value (map keys and values alike), None for a scalar."""
    if isinstance(value, dict):
        return (part for pair in value.items() for part in pair)
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, (Node, Relationship)):
        return (part for key, v in value.items() if key not in hidden for part in (key, v))
    if isinstance(value, Path):
        return (*value.nodes, *value.relationships)
    return None

"""Issue 31: every statement of paperkg says whether it reads or writes, so that a driver opened with a routing URI
(`neo4j://`) sends reads to a cluster's readers and writes to its leader. Two checks: the source (every
execute_query names its routing, only kg/db/store.py opens drivers and only the Graph gateway of kg/db/graph.py
opens sessions) and the read paths themselves, run
against a driver that records the access mode of each statement they send."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest
from neo4j import READ_ACCESS, WRITE_ACCESS

from kg.find import locate, related, search
from kg.ingest import domains, papers

from kg.read import coverage, queries

from kg.db import dump
from kg.db.graph import Graph
from kg.curation import duplicates, history, queue, review
from kg.curation.operations import Curation
from kg.export.formats import export
from kg.qa import engine
from ontology.loader import get_schema

ROOT = Path(__file__).resolve().parents[2]


def _calls(attr: str):
    for folder in ("kg", "api", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr:
                    yield path.relative_to(ROOT).as_posix(), node


def test_every_execute_query_names_its_routing():
    unnamed = [f"{path}:{call.lineno}" for path, call in _calls("execute_query")
               if not any(k.arg == "routing_" for k in call.keywords)]
    assert unnamed == []


def test_only_the_store_opens_drivers_and_only_the_gateway_sessions():
    """A session opened elsewhere would default to write access (a read sent to the leader) and miss the shared
    bookmarks that let a read see the same process's last write on a lagging reader."""
    sessions = [f"{path}:{call.lineno}" for path, call in _calls("session") if path != "kg/db/graph.py"]
    drivers = [f"{path}:{call.lineno}" for path, call in _calls("driver")
               if path != "kg/db/store.py" and ast.unparse(call.func) == "GraphDatabase.driver"]
    assert sessions == [] and drivers == []


# ------------------------------------------------------------------ a driver that records access modes

class _Result(list):
    def single(self):
        return None

    def consume(self):
        return SimpleNamespace(plan={}, notifications=[], counters=SimpleNamespace())


class _Tx:
    def __init__(self, modes: list[str], mode: str):
        self.modes, self.mode = modes, mode

    def run(self, *_, **__):
        self.modes.append(self.mode)
        return _Result()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False


class _Session(_Tx):
    def execute_read(self, work, *args, **kwargs):
        return work(_Tx(self.modes, "read"), *args, **kwargs)

    def execute_write(self, work, *args, **kwargs):
        return work(_Tx(self.modes, "write"), *args, **kwargs)

    def begin_transaction(self, *_, **__):
        return _Tx(self.modes, self.mode)


class RecordingDriver:
    """Records "read" or "write" per statement: execute_query's routing (WRITE when not named, as the driver's),
    a session's default access mode, or execute_read/execute_write. Every read answers no rows."""

    def __init__(self):
        self.modes: list[str] = []
        self.sessions: list[dict] = []
        self.execute_query_bookmark_manager = object()

    def execute_query(self, *_, routing_="w", **__):
        self.modes.append("read" if str(getattr(routing_, "value", routing_)).lower() == "r" else "write")
        return SimpleNamespace(records=[], summary=None, keys=[])

    def session(self, **options):
        self.sessions.append(options)
        mode = options.get("default_access_mode", WRITE_ACCESS)
        return _Session(self.modes, "read" if mode == READ_ACCESS else "write")


def test_gateway_sessions_carry_their_mode_and_the_shared_bookmarks():
    driver = RecordingDriver()
    Graph(driver, "neo4j").read_session(fetch_size=5)
    Graph(driver, "neo4j").write_session()
    assert [(s["default_access_mode"], s["database"]) for s in driver.sessions] == [(READ_ACCESS, "neo4j"),
                                                                                   (WRITE_ACCESS, "neo4j")]
    assert all(s["bookmark_manager"] is driver.execute_query_bookmark_manager for s in driver.sessions)
    assert driver.sessions[0]["fetch_size"] == 5


def _reads(schema):
    """What the API's GET endpoints, `kg ask`/`kg export`/`kg papers` and ingest's skip check read (a paper is
    named by its id so that resolution goes to the graph)."""
    paper = "paper_" + "a" * 64
    return {
        "list_papers": lambda g: queries.list_papers(g, None, 0, 10),
        "get_paper": lambda g: queries.get_paper(g, schema, paper),
        "outline": lambda g: queries.paper_outline(g, paper),
        "overview": lambda g: queries.paper_overview(g, schema),
        "get_node": lambda g: queries.get_node(g, schema, "method_x"),
        "get_edge": lambda g: queries.get_edge(g, "edge_x"),
        "search_nodes": lambda g: queries.search_nodes(g, schema, "attention", None, 0, 10),
        "neighbours": lambda g: queries.neighbours(g, schema, "method_x", 1, None, None, 10),
        "evidence_chunks": lambda g: queries.evidence_chunks(g, schema, "method_x"),
        "cypher": lambda g: queries.run_read_only(g, "MATCH (n) RETURN n LIMIT 1", None, timeout_s=1.0,
                                                row_limit=10, max_bytes=10_000, max_overdue=2),
        "related": lambda g: related.related_papers(g, schema, paper, 5),
        "domains": lambda g: domains.domains(g),
        "paper_domains": lambda g: domains.paper_domains(g, paper),
        "coverage": lambda g: coverage.coverage(g, paper, list(schema.entity_labels)),
        "locate": lambda g: locate.locate(g, schema, "Table 1"),
        "search": lambda g: search.search(g, schema, search.SearchQuery("attention", 10, None, None, None, False)),
        "ask": lambda g: engine.ask(g, schema, "Which datasets are used?"),
        "review_queue": lambda g: queue.review_queue(g, schema, threshold=0.6),
        "review_page": lambda g: review.review_page(g, schema, review.View(), threshold=0.6),
        "history": lambda g: history.read(g, limit=10),
        "duplicate_candidates": lambda g: duplicates.candidates(g, schema),
        "curation_get": lambda g: Curation(g, schema, "tester").get(Curation(g, schema, "tester").node_ref("m")),
        "export_json": lambda g: export(g, schema, "json"),
        "canonical_dump": lambda g: dump.canonical_dump(g),
        "unchanged": lambda g: papers.unchanged(g, ["a" * 64], ["x@1"]),
        "find_paper": lambda g: papers.find_paper(g, "a" * 64),
        "papers_present": lambda g: papers.papers_present(g, ["a" * 64]),
    }


@pytest.mark.parametrize("name", sorted(_reads(get_schema())))
def test_read_paths_send_only_reads(name):
    """Each read path reaches the graph (the empty answers may end it early with a not-found error) and sends
    nothing in write mode."""
    driver = RecordingDriver()
    try:
        _reads(get_schema())[name](Graph(driver))
    except Exception:  # noqa: BLE001 - no rows: most paths stop at "not found"; what they sent is the point
        pass
    assert driver.modes, f"{name} sent no statement"
    assert set(driver.modes) == {"read"}, driver.modes


def test_the_recorder_sees_a_write_path():
    """The check above can fail: a write path records writes."""
    driver = RecordingDriver()
    try:
        papers.delete_subgraph(Graph(driver), "a" * 64, get_schema())
    except Exception:  # noqa: BLE001 - as above
        pass
    assert "write" in driver.modes

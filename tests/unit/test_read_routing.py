"""Issue 31: every statement of paperkg says whether it reads or writes, so that a driver opened with a routing URI
(`neo4j://`) sends reads to a cluster's readers and writes to its leader. Two checks: the source (every
execute_query names its routing, only kg/db/store.py opens sessions or drivers) and the read paths themselves, run
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

from kg.db import dump, store
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


def test_only_the_store_opens_drivers_and_sessions():
    """A session opened elsewhere would default to write access (a read sent to the leader) and miss the shared
    bookmarks that let a read see the same process's last write on a lagging reader."""
    elsewhere = [f"{path}:{call.lineno}" for attr in ("session", "driver") for path, call in _calls(attr)
                 if path != "kg/db/store.py" and (attr == "session" or ast.unparse(call.func) == "GraphDatabase.driver")]
    assert elsewhere == []


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


def test_store_sessions_carry_their_mode_and_the_shared_bookmarks():
    driver = RecordingDriver()
    store.read_session(driver, "neo4j", fetch_size=5)
    store.write_session(driver, "neo4j")
    assert [(s["default_access_mode"], s["database"]) for s in driver.sessions] == [(READ_ACCESS, "neo4j"),
                                                                                   (WRITE_ACCESS, "neo4j")]
    assert all(s["bookmark_manager"] is driver.execute_query_bookmark_manager for s in driver.sessions)
    assert driver.sessions[0]["fetch_size"] == 5


def _reads(schema):
    """What the API's GET endpoints, `kg ask`/`kg export`/`kg papers` and ingest's skip check read (a paper is
    named by its id so that resolution goes to the graph)."""
    paper = "paper_" + "a" * 64
    return {
        "list_papers": lambda d: queries.list_papers(d, None, 0, 10),
        "get_paper": lambda d: queries.get_paper(d, schema, paper),
        "outline": lambda d: queries.paper_outline(d, paper),
        "overview": lambda d: queries.paper_overview(d, schema),
        "get_node": lambda d: queries.get_node(d, schema, "method_x"),
        "get_edge": lambda d: queries.get_edge(d, "edge_x"),
        "search_nodes": lambda d: queries.search_nodes(d, schema, "attention", None, 0, 10),
        "neighbours": lambda d: queries.neighbours(d, schema, "method_x", 1, None, None, 10),
        "evidence_chunks": lambda d: queries.evidence_chunks(d, schema, "method_x"),
        "cypher": lambda d: queries.run_read_only(d, "MATCH (n) RETURN n LIMIT 1", None, timeout_s=1.0,
                                                row_limit=10, max_bytes=10_000, max_overdue=2),
        "related": lambda d: related.related_papers(d, schema, paper, 5),
        "domains": lambda d: domains.domains(d),
        "paper_domains": lambda d: domains.paper_domains(d, paper),
        "coverage": lambda d: coverage.coverage(d, paper, list(schema.entity_labels)),
        "locate": lambda d: locate.locate(d, schema, "Table 1"),
        "search": lambda d: search.search(d, schema, search.SearchQuery("attention", 10, None, None, None, False)),
        "ask": lambda d: engine.ask(d, schema, "Which datasets are used?"),
        "review_queue": lambda d: queue.review_queue(d, schema, threshold=0.6),
        "review_page": lambda d: review.review_page(d, schema, review.View(), threshold=0.6),
        "history": lambda d: history.read(d, limit=10),
        "duplicate_candidates": lambda d: duplicates.candidates(d, schema),
        "curation_get": lambda d: Curation(d, schema, "tester").get(Curation(d, schema, "tester").node_ref("m")),
        "export_json": lambda d: export(d, schema, "json"),
        "canonical_dump": lambda d: dump.canonical_dump(d),
        "unchanged": lambda d: papers.unchanged(d, ["a" * 64], ["x@1"]),
        "find_paper": lambda d: papers.find_paper(d, "a" * 64),
        "papers_present": lambda d: papers.papers_present(d, ["a" * 64]),
    }


@pytest.mark.parametrize("name", sorted(_reads(get_schema())))
def test_read_paths_send_only_reads(name):
    """Each read path reaches the graph (the empty answers may end it early with a not-found error) and sends
    nothing in write mode."""
    driver = RecordingDriver()
    try:
        _reads(get_schema())[name](driver)
    except Exception:  # noqa: BLE001 - no rows: most paths stop at "not found"; what they sent is the point
        pass
    assert driver.modes, f"{name} sent no statement"
    assert set(driver.modes) == {"read"}, driver.modes


def test_the_recorder_sees_a_write_path():
    """The check above can fail: a write path records writes."""
    driver = RecordingDriver()
    try:
        papers.delete_subgraph(driver, "a" * 64, get_schema())
    except Exception:  # noqa: BLE001 - as above
        pass
    assert "write" in driver.modes

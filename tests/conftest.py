from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from kg.db import store
from kg.db.graph import Graph
from tests.neo4j_harness import local_settings, running_neo4j, throwaway_neo4j

# pytest-xdist's workers are started with COLUMNS=80, which a rich Console created at import (cli/output.py) would
# keep as its width for good; the CLI tests set the width they need for each command.
os.environ.pop("COLUMNS", None)

ROOT = Path(__file__).resolve().parent
SHARED = ROOT.parent.parent / "shared"


def pytest_collection_modifyitems(items):
    for item in items:
        kind = "unit" if (ROOT / "unit") in Path(item.fspath).parents else "integration"
        item.add_marker(kind)


@pytest.fixture(scope="session")
def neo4j_settings(tmp_path_factory):
    with running_neo4j(tmp_path_factory.mktemp("neo4j")) as settings:
        yield settings


@pytest.fixture(scope="session")
def driver(neo4j_settings):
    with store.connect(neo4j_settings) as drv:
        yield drv


@pytest.fixture(scope="session")
def _killable_server(tmp_path_factory):
    with throwaway_neo4j(local_settings(tmp_path_factory.mktemp("killable-neo4j"))) as server:
        yield server


@pytest.fixture
def killable_neo4j(_killable_server):
    """A local server besides the session's, for the fault tests that kill or stop it (a fresh one costs a JVM start):
    running and empty when the test starts, whatever the test before left; its settings are the server's own."""
    _killable_server.start()  # a no-op unless a test left it killed or stopped
    with store.connect(_killable_server.settings) as driver:
        _delete_data(driver)
    return _killable_server


def _delete_data(driver) -> None:
    with driver.session() as session:  # CALL IN TRANSACTIONS needs an auto-commit transaction
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()


def _drop_schema(driver) -> None:
    for kind, show in (("CONSTRAINT", "SHOW CONSTRAINTS YIELD name"), ("INDEX", "SHOW INDEXES YIELD name, type "
                       "WHERE type <> 'LOOKUP'")):
        for record in driver.execute_query(show).records:
            driver.execute_query(f"DROP {kind} `{record['name']}` IF EXISTS")  # names come from the server


def _schema_rows(driver) -> list[str]:
    """Every constraint and index as the server describes it (vector dimensions and state included)."""
    rows = [*driver.execute_query("SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties").records,
            *driver.execute_query("SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options, state "
                                  "WHERE type <> 'LOOKUP'").records]
    return sorted(repr(sorted(r.data().items())) for r in rows)


@pytest.fixture
def empty_db(driver):
    """The session's database with no data, constraints or indexes left by earlier tests."""
    _delete_data(driver)
    _drop_schema(driver)
    return driver


@pytest.fixture(scope="session")
def _made_schema() -> dict:
    """The rows of _schema_rows() just after init_schema made the schema on an empty database."""
    return {}


@pytest.fixture(scope="session")
def reset_db(driver, neo4j_settings, _made_schema):
    """A function that leaves the session's database with no data and the ontology's constraints and indexes as
    init_schema makes them on an empty database (its version node included), for fixtures of any scope: what an
    earlier test left (a vector index of another dimension, say) depends on which tests a worker ran before.
    Dropping and making the vector and full-text indexes again costs more than the rest of most tests' set-up,
    so they stay when the test before left them exactly as made; any difference, and they are dropped and made
    again."""
    from kg.db.schema import init_schema
    from ontology.loader import get_schema

    def reset() -> None:
        _delete_data(driver)
        kept = _schema_rows(driver) == _made_schema.get("rows")
        if not kept:
            _drop_schema(driver)
        # on the kept schema: its version node only
        init_schema(Graph(driver), get_schema(), neo4j_settings.embedding_dim)
        if not kept:
            _made_schema["rows"] = _schema_rows(driver)

    return reset


@pytest.fixture
def schema_db(driver, reset_db):
    """The session's database with no data and the ontology's schema (reset_db)."""
    reset_db()
    return driver


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    path = SHARED / "corpus"
    if not path.is_dir():
        pytest.fail(f"the shared corpus is missing at {path}: integration tests need ../shared beside the checkout")
    return path


@pytest.fixture(scope="session")
def ocr_readings(tmp_path_factory) -> Path:
    """The session's OCR cache (extractors/ocr_cache.py): a scanned paper parsed twice pays Tesseract once, as it
    would when ingested twice."""
    return tmp_path_factory.mktemp("ocr")


@pytest.fixture(scope="session")
def parsed_corpus(ocr_readings):
    """parse_pdf(path), parsed once per session: the corpus and semantic tests read the same papers, and parsing is
    most of what they cost. A test that checks parsing itself still parses again on its own (with `ocr_readings`)."""
    from extractors.limits import ParseLimits
    from extractors.pipeline import parse_pdf

    limits = ParseLimits(ocr_cache=ocr_readings)
    return cache(lambda path: parse_pdf(path, limits))

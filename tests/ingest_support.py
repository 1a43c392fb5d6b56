"""Shared by the ingestion tests: settings with a throw-away data directory, and small helpers."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import neo4j._sync.work.transaction as transaction
import pytest

from kg.db.graph import Graph
from kg.ingest.papers import WriteObserver
from kg.ingest.pipeline import IngestReport, Ingestor, Prepared
from kg.ingest.runs import Run
from kg.ingest.writer import WriterOptions

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_A = SAMPLES / "sample-sparse-routing.pdf"  # authors Ada Lee, Bo Kim
SAMPLE_B = SAMPLES / "sample-longbench.pdf"  # authors Bo Kim, Chloe Martin, Dev Patel
GENERATED = [SAMPLE_A, SAMPLE_B]  # samples/ also holds a real paper for `make run`, which these tests leave out


@pytest.fixture
def ingest_settings(neo4j_settings, schema_db, tmp_path):
    """The session's Neo4j, emptied but for its schema, with a data directory (PDF store) of this test's own."""
    return neo4j_settings.model_copy(update={"data_dir": tmp_path / "data"})


def run_ingest(settings, driver, paths, **options) -> IngestReport:
    """In-process ingest (workers=0) without embeddings unless asked: fast and deterministic."""
    options = {"workers": 0, "embed": False, **options}
    return Ingestor(settings, Graph(driver), **options).run([Path(p) for p in paths])


def kg_ingest_json(settings, monkeypatch, folder: Path):
    """`kg ingest FOLDER --json --workers 1 --no-embed` in this process, against the test's Neo4j and data
    directory (as the environment would set them for a user); the CliRunner result."""
    from typer.testing import CliRunner

    from cli.main import app
    from kg.settings import get_settings

    monkeypatch.setenv("PAPERKG_NEO4J_URI", settings.uri)
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", settings.neo4j_password.get_secret_value())
    monkeypatch.setenv("PAPERKG_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    try:
        return CliRunner().invoke(app, ["ingest", str(folder), "--json", "--workers", "1", "--no-embed"])
    finally:
        get_settings.cache_clear()


def clear(driver) -> None:
    """Empty the graph but for its schema (constraints and indexes stay)."""
    driver.execute_query("MATCH (n) WHERE NOT n:PaperKGSchema DETACH DELETE n")


def prepared(settings, driver, paths) -> list[Prepared]:
    """Each paper's records as an ingest prepares them (to write them again as a test likes); the graph is emptied
    again afterwards."""
    written: list[Prepared] = []
    report = run_ingest(settings, driver, paths, on_written=written.append)
    assert report.ok and len(written) == len(paths)
    clear(driver)
    return written


def without(paper: Prepared, label: str) -> Prepared:
    """The paper's records without its nodes of `label` and their edges: a new version of it that names none."""
    gone = {(n.label, n.id) for n in paper.nodes if n.label == label}
    edges = [e for e in paper.edges
             if (e.source_label, e.source_id) not in gone and (e.target_label, e.target_id) not in gone]
    return replace(paper, nodes=[n for n in paper.nodes if (n.label, n.id) not in gone], edges=edges)


def value(driver, cypher: str, **params):
    return driver.execute_query(cypher, **params).records[0][0]


def record_statements(monkeypatch) -> list[str]:
    """From now on, the text of every statement the paper writer (kg/ingest/papers.py) runs in a transaction: a paper's
    write or delete, not the ingest run's own checks. The list fills as they are sent."""
    sent, run = [], transaction.TransactionBase.run

    def recording(self, query, parameters=None, **kwargs):
        if any(frame.filename.endswith(f"kg{os.sep}ingest{os.sep}papers.py") for frame in traceback.extract_stack()):
            sent.append(str(query))
        return run(self, query, parameters, **kwargs)

    monkeypatch.setattr(transaction.TransactionBase, "run", recording)
    return sent


Hook = Callable[[int], object]


class Hooks(WriteObserver):
    """The tests' write observer: each paper's hook is called with 0 when its transaction is about to write and with n
    after its n-th node or edge statement, where a test holds a paper, fails it or races curators against it. A
    paper's hook is the one `hooks` pairs with its Run, else `every` (if any)."""

    def __init__(self, every: Hook | None = None, *, hooks: Sequence[tuple[Run, Hook]] = ()) -> None:
        self.every, self.hooks = every, hooks

    def writing(self, run: Run) -> None:
        self._call(run, 0)

    def sent(self, run: Run, statement: int) -> None:
        self._call(run, statement)

    def _call(self, run: Run, statement: int) -> None:
        hook = next((hook for paired, hook in self.hooks if paired is run), self.every)
        if hook is not None:
            hook(statement)


def hooked(every: Hook) -> WriterOptions:
    """The ingest's default writer, `every` paper watched by the hook."""
    return WriterOptions(observer=Hooks(every))

"""A curator's change committed while a re-ingest of the same paper runs is never lost (docs/curation.md,
Concurrency). The race is forced, not hoped for: the ingest pauses once it has locked the paper and read its
curation state (its write observer's `writing`), curators change elements of that paper (and a shared Author) from
other threads, then the ingest resumes. Without the locks the curators commit during the pause and the ingest
then writes its stale plan over their changes; with them they wait and apply on top of the new state."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from extractors.model import paper_id
from kg.curation import history
from kg.curation.history import version
from kg.curation.operations import Curation
from kg.db.graph import Graph
from kg.errors import NotFoundError
from kg.db.filestore import file_sha256
from kg.ingest.pipeline import Ingestor
from kg.ingest.papers import lock_paper
from ontology.loader import get_schema
from tests.curation_support import curated_settings
from tests.ingest_support import hooked

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample-sparse-routing.pdf"
PAUSE_SECONDS = 60


def ingest(settings, driver, **options):
    report = Ingestor(settings, Graph(driver), workers=0, embed=False, **options).run([SAMPLE])
    assert report.count("ingested") == 1, report.as_json()
    return report.papers[0]


def one(driver, cypher: str, **params):
    return driver.execute_query(cypher, **params).records[0][0]


def blocked_transactions(driver) -> int:
    """Transactions Neo4j reports as waiting for a lock."""
    return sum(r["status"].startswith("Blocked") for r in driver.execute_query("SHOW TRANSACTIONS YIELD status").records)


def until(condition, what: str) -> None:
    """Poll (Neo4j's own report of lock waits, not a guessed delay) so the outcome does not depend on timing."""
    deadline = time.monotonic() + PAUSE_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.1)


def test_a_curator_racing_a_reingest_never_loses_an_edit(schema_db, neo4j_settings, tmp_path):
    driver, sha = schema_db, file_sha256(SAMPLE)
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    ingest(settings, driver)
    sections = [r[0] for r in driver.execute_query(
        "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id ORDER BY s.ordinal", sha=sha).records]
    author = one(driver, "MATCH (:Paper {sha256: $sha})-[:HAS_AUTHOR]->(a:Author) RETURN a.id ORDER BY a.id LIMIT 1",
                 sha=sha)
    assert one(driver, "MATCH (a:Author {id: $id}) RETURN a.paper_sha256", id=author) is None  # shared by papers
    # An automatic chunk that the new extraction no longer proposes: the re-ingest removes it.
    driver.execute_query("""
        MATCH (p:Paper {sha256: $sha})
        CREATE (p)-[:HAS_CHUNK {paper_sha256: $sha, verification_status: 'auto', extractor: 'paperkg-extractors@0.0.1',
                                confidence: 1.0}]->(:Chunk {id: 'chunk_stale', text: 'old', paper_sha256: $sha,
                                verification_status: 'auto', extractor: 'paperkg-extractors@0.0.1', confidence: 1.0})""",
                         sha=sha)

    cur = Curation(Graph(driver), get_schema(), "alice")
    verified, edited, edge = cur.node_ref(sections[0]), cur.node_ref(sections[1]), \
        cur.ref(f"{paper_id(sha)}|HAS_SECTION|{sections[2]}")
    renamed, stale = cur.node_ref(author), cur.node_ref("chunk_stale")
    seen_version = cur.get(edited)["version"]
    changes = {
        "verify section": lambda: cur.verify(verified),
        "edit section": lambda: cur.edit(edited, {"title": "Curated title"}, if_match=seen_version),
        "verify edge": lambda: cur.verify(edge),
        "edit shared author": lambda: cur.edit(renamed, {"name": "A. Curated"}),
        "verify removed chunk": lambda: cur.verify(stale),
    }

    paused, resume = threading.Event(), threading.Event()

    def pause_once_read(statement: int) -> None:
        if statement == 0 and not paused.is_set():
            paused.set()
            assert resume.wait(PAUSE_SECONDS), "the test never resumed the ingest"

    with ThreadPoolExecutor(1 + len(changes)) as pool:
        reingest = pool.submit(ingest, settings, driver, force=True, writer=hooked(pause_once_read))
        assert paused.wait(PAUSE_SECONDS), "the re-ingest never reached its write"
        curators: dict[str, Future] = {name: pool.submit(change) for name, change in changes.items()}
        # Each curator either commits during the pause (no lock stops it) or waits on one: until all are one or other.
        until(lambda: sum(not f.done() for f in curators.values()) == blocked_transactions(driver),
              "every curator has committed or waits for a lock")
        waiting = {name for name, future in curators.items() if not future.done()}
        resume.set()
        outcome = reingest.result(timeout=PAUSE_SECONDS)
        results = {}
        for name, future in curators.items():
            try:
                results[name] = future.result(timeout=PAUSE_SECONDS)
            except NotFoundError as exc:
                results[name] = exc

    assert waiting == set(changes), "curators must wait for the ingest that holds the paper"
    assert outcome.status == "ingested" and outcome.nodes_deleted >= 1

    # Each change is in the graph exactly as its event left it, element by element.
    for name in ("verify section", "edit section", "verify edge", "edit shared author"):
        event = results[name].event
        assert event is not None, name
        ref = {"verify section": verified, "edit section": edited, "verify edge": edge,
               "edit shared author": renamed}[name]
        now = cur.get(ref)
        assert now["version"] == event.version_after, name
        assert [e.id for e in history.read(Graph(driver), element=ref.key)][0] == event.id, name
    assert cur.get(verified)["properties"]["verification_status"] == "verified"
    assert (cur.get(edited)["properties"]["title"], cur.get(edited)["properties"]["verification_status"]) == \
        ("Curated title", "edited")
    assert cur.get(edge)["properties"]["verification_status"] == "verified"
    assert cur.get(renamed)["properties"]["name"] == "A. Curated"
    # The chunk the ingest removed: the curator is told (404), and no event claims a change that is not there.
    assert isinstance(results["verify removed chunk"], NotFoundError)
    assert history.read(Graph(driver), element="chunk_stale") == []
    assert one(driver, "MATCH (c:Chunk {id: 'chunk_stale'}) RETURN count(c)") == 0


def test_a_curator_holding_the_paper_makes_the_ingest_read_after_it(schema_db, neo4j_settings, tmp_path):
    """The other order: a curator's transaction that took the paper first commits before the ingest reads, so
    the ingest sees the curated element (kept) and re-proposes nothing over it."""
    driver, sha = schema_db, file_sha256(SAMPLE)
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    ingest(settings, driver)
    section = one(driver, "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id ORDER BY s.ordinal LIMIT 1", sha=sha)
    state_read = threading.Event()
    pool = ThreadPoolExecutor(1)
    try:
        with driver.session() as session, session.begin_transaction() as tx:  # rolled back (unlocked) on failure
            lock_paper(tx, sha)
            tx.run("MATCH (s:Section {id: $id}) SET s.title = 'Held', s.verification_status = 'edited'", id=section)
            reingest = pool.submit(ingest, settings, driver, force=True,
                                   writer=hooked(lambda n: state_read.set() if n == 0 else None))
            until(lambda: state_read.is_set() or blocked_transactions(driver) == 1,
                  "the ingest has read the paper's state or waits for a lock")
            assert not state_read.is_set(), "the ingest read the paper while a curator's transaction held it"
            tx.commit()
        outcome = reingest.result(timeout=PAUSE_SECONDS)
    finally:
        pool.shutdown(wait=True)
    assert outcome.kept >= 1
    assert one(driver, "MATCH (s:Section {id: $id}) RETURN s.title", id=section) == "Held"

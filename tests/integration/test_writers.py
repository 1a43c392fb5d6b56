"""One writer, two speeds (kg.ingest.writer): the tuned writer's shortcuts (two papers at once, writing ahead, CREATE
for what is new, the entity catalog, the collector pause) must leave the graph exactly as the plain reference writer
makes it, on real papers and through what happens to a graph: papers sharing entities, curators' edits, re-ingests
that contest them, a new version of a paper that drops entities, and the version before again."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from extractors.model import paper_id
from kg.curation.cypher import LEDGER_LABELS
from kg.curation.operations import Curation
from kg.db.dump import LEDGER, VOLATILE, canonical_dump, checksum
from kg.db.graph import Graph
from kg.ingest.papers import PaperWrite
from kg.ingest.pipeline import Prepared
from kg.ingest.runs import Run
from kg.ingest.writer import WriterOptions, open_writer
from ontology.loader import get_schema
from tests.ingest_support import (SAMPLE_A, SAMPLE_B, clear, ingest_settings, prepared,  # noqa: F401
                                  record_statements, run_ingest, value, without)

# Corpus papers that name some of the same methods, datasets and tasks (two are one paper in two files).
CORPUS_PAPERS = ("latex_1911.02782.pdf", "pm_2020.acl-main.447.pdf", "s2orc_2020.acl-main.207.pdf", "sp_aimag10.pdf",
                 "latex_2305.03393.pdf", "pm_papermage.pdf")
SPEEDS = ("reference", "tuned")
REINGESTED_AT = datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc)  # one re-ingest run for both writers
# Neither writer's doing: the curators' event ledger, and when a re-ingest contested a curated value.
SKIPPED = LEDGER + LEDGER_LABELS
NOT_COMPARED = VOLATILE + ("contested_at",)


def _again(paper: Prepared) -> Prepared:
    """The paper's records under a run of a later ingest."""
    return replace(paper, run=Run(paper.run.sha256, "test_reingest", REINGESTED_AT, paper.run.extractors))


def _curate(graph: Graph, sha: str) -> None:
    """A curator works on the paper: verifies a section, edits another's title (the re-ingest proposes the old one:
    a contest), rejects the paper's link to a third, gives an entity that papers share an alias, and links the
    paper to a method of another paper."""
    cur = Curation(graph, get_schema(), "alice")
    sections = [r["id"] for r in graph.read("MATCH (:Paper {sha256: $sha})-[:HAS_SECTION]->(s:Section) "
                                            "RETURN s.id AS id ORDER BY s.ordinal LIMIT 3", sha=sha)]
    cur.verify(cur.node_ref(sections[0]))
    cur.edit(cur.node_ref(sections[1]), {"title": "A curated title"})
    cur.reject(cur.ref(f"{paper_id(sha)}|HAS_SECTION|{sections[2]}"))
    shared = graph.read("MATCH (p:Paper)-->(n:Method|Dataset|Task) WITH n, count(DISTINCT p) AS papers "
                        "WHERE papers > 1 RETURN n.id AS id ORDER BY n.id LIMIT 1")[0]["id"]
    cur.edit(cur.node_ref(shared), {"aliases": ["a curated alias"]})
    unused = graph.read("MATCH (m:Method) WHERE NOT (:Paper {sha256: $sha})--(m) RETURN m.id AS id ORDER BY m.id "
                        "LIMIT 1", sha=sha)[0]["id"]
    cur.add_edge(paper_id(sha), "USES", unused)


def _history(graph: Graph, speed: str, papers: list[Prepared]) -> tuple[list[str], list[PaperWrite]]:
    """The papers written with the writer of `speed`, curated, and re-ingested: the first paper as it was (its
    curated elements kept or contested), the last without its metrics (entities only it named go), then as it was;
    the canonical dump of what the writer made, and what each write reported."""
    writer = open_writer(graph, get_schema(), WriterOptions(speed=speed))
    try:
        written = [f.result() for f in [writer.submit(p.run, p.nodes, p.edges, rejected=len(p.rejections))
                                         for p in papers]]
        _curate(graph, papers[0].run.sha256)
        for paper in (_again(papers[0]), without(_again(papers[-1]), "Metric"), _again(papers[-1])):
            written.append(writer.submit(paper.run, paper.nodes, paper.edges).result())
    finally:
        writer.close()
    return canonical_dump(graph, skip_labels=SKIPPED, volatile=NOT_COMPARED), written


def test_both_writers_make_the_same_graph_of_corpus_papers_curated_and_re_ingested(ingest_settings, driver,
                                                                                    corpus_dir):
    papers = prepared(ingest_settings, driver, [corpus_dir / name for name in CORPUS_PAPERS])
    assert any(n.label == "Metric" for n in papers[-1].nodes)
    graphs, reports = {}, {}
    for speed in SPEEDS:
        clear(driver)
        graphs[speed], reports[speed] = _history(Graph(driver), speed, papers)
    assert graphs["tuned"] == graphs["reference"]
    first_again = reports["reference"][len(papers)]
    assert first_again.kept >= 3 and first_again.contested >= 1  # the curator's work met the re-ingest
    assert reports["reference"][-2].edges_deleted >= 1  # the version without metrics unlinked them
    for mine, theirs in zip(reports["tuned"], reports["reference"]):
        assert (mine.nodes_written, mine.edges_written, mine.nodes_deleted, mine.edges_deleted, mine.kept,
                mine.contested) == (theirs.nodes_written, theirs.edges_written, theirs.nodes_deleted,
                                    theirs.edges_deleted, theirs.kept, theirs.contested)


def test_the_ingest_writes_with_the_writer_its_options_name(ingest_settings, driver, monkeypatch):
    """`kg ingest`'s Ingestor takes its writer from WriterOptions: the reference writer MERGEs everything (no CREATE
    statement), the tuned one CREATEs what is new; the graphs are one."""
    sums, creates = {}, {}
    for speed in SPEEDS:
        clear(driver)
        sent = record_statements(monkeypatch)
        report = run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B], writer=WriterOptions(speed=speed))
        assert report.count("ingested") == 2
        sums[speed], creates[speed] = checksum(Graph(driver)), sum("CREATE (n:" in q for q in sent)
        monkeypatch.undo()
    assert sums["tuned"] == sums["reference"]
    assert creates["reference"] == 0 and creates["tuned"] > 0

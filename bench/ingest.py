"""Measurements behind `kg bench ingest`: the end-to-end ingest of a corpus (first and unchanged re-run), the
writer alone on the corpus's papers and on large synthetic papers, and bare PyMuPDF text extraction as the floor."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from neo4j import Driver
from neo4j.exceptions import ClientError

from extractors.model import Audit, Box, Chunk, Document, Metadata, Profile, Section, element_id
from kg.ingest.entities import entity_labels
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import IngestReport, Ingestor, Prepared, discover
from kg.db.localserver.java import LUCENE_SIMD_MAJORS
from kg.ingest.mapping import EXTRACTOR, map_document
from kg.ingest.papers import PaperWrite, delete_subgraph, find_paper
from kg.ingest.tuned_writer import TunedWriter
from kg.ingest.runs import Run
from kg.settings import Settings
from kg.db.store import server_info
from kg.ingest.validation import validate_batch
from kg.ingest.write import batches
from ontology.loader import get_schema

SYNTHETIC_SHA = "0" * 63 + "1"  # the first synthetic paper; the others of a batch count up from it
_JAVA_RUNTIME = """CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes
RETURN attributes.VmVersion.value AS version, attributes.SpecVersion.value AS major,
       attributes.InputArguments.value AS arguments"""


def synthetic_sha(n: int) -> str:
    return f"{int(SYNTHETIC_SHA, 16) + n:064x}"


@dataclass
class WriterResult:
    nodes: int
    edges: int
    seconds: float
    parts: dict[str, float] = field(default_factory=dict)  # PaperWrite.seconds summed: read, statements, wait, commit
    papers: int = 1

    @property
    def elements(self) -> int:
        return self.nodes + self.edges

    @property
    def per_second(self) -> float:
        return self.elements / self.seconds

    def split(self) -> dict[str, float]:
        """Elements/s of each part: per second of the (pipelined) write statements, and per second of commit."""
        return {"statements": self.elements / self.parts["statements"], "commit": self.elements / self.parts["commit"]}


@dataclass(frozen=True)
class ServerRuntime:
    """What the writer's figures depend on besides the machine, printed with them so that runs on different servers
    are not compared as if alike: Lucene's SIMD vector scoring speeds up the HNSW insertion of chunk vectors at
    commit, and the JIT's inlining options change how much a just-started server compiles while it writes."""
    neo4j: str
    java: str | None  # None where the server does not let us read its JVM (JMX procedures refused)
    simd: bool | None  # a Java of LUCENE_SIMD_MAJORS that reads jdk.incubator.vector
    # The JIT's inlining options on the server's command line (kg.db.localserver.server._JVM_FLAGS says why they are set)
    inlining: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.java is None:
            return f"Neo4j {self.neo4j}, Java not readable"
        jit = " ".join(self.inlining) or "Java's defaults"
        return (f"Neo4j {self.neo4j} on Java {self.java}, JIT inlining {jit}, "
                f"Lucene SIMD vector scoring {'on' if self.simd else 'off'}")


def server_runtime(driver: Driver) -> ServerRuntime:
    """Read from the server itself: the Java it runs on need not be the one this machine would start."""
    neo4j = "{0.version} {0.edition}".format(server_info(driver))
    try:
        records = driver.execute_query(_JAVA_RUNTIME, database_="system").records
    except ClientError:
        records = []
    if not records:
        return ServerRuntime(neo4j, None, None)
    record = records[0]
    arguments = record["arguments"]
    module = any("jdk.incubator.vector" in argument for argument in arguments)
    inlining = tuple(a for a in arguments if a.startswith("-XX:") and "Inline" in a)
    return ServerRuntime(neo4j, record["version"], module and int(record["major"]) in LUCENE_SIMD_MAJORS, inlining)


def bare_text_seconds(files: list[Path]) -> tuple[float, int]:
    """Seconds to open each PDF and extract its plain text with PyMuPDF, and the pages read."""
    from extractors.mupdf import pymupdf  # here, not at the top: `kg` imports this module for every command, MuPDF only this one needs

    began, pages = time.perf_counter(), 0
    for path in files:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()
                pages += 1
    return time.perf_counter() - began, pages


def synthetic_document(sections: int, chunks_per_section: int, sha: str = SYNTHETIC_SHA) -> Document:
    """A paper of the given size: sections with text chunks (embeddings come apart: see writer_throughput)."""
    box = Box(page=1, bbox=(72.0, 72.0, 540.0, 90.0))
    secs, chunks = [], []
    for s in range(sections):
        sid = element_id("section", sha, s)
        secs.append(Section(id=sid, number=str(s + 1), title=f"Section {s + 1}", level=1, parent_id=None, ordinal=s + 1,
                            page_start=1, page_end=1, box=box, char_start=0, char_end=1))
        for c in range(chunks_per_section):
            n = s * chunks_per_section + c
            chunks.append(Chunk(id=element_id("chunk", sha, n), kind="text", text=f"passage {n} " * 40,
                                section_id=sid, section_path=[], page_start=1, page_end=1, boxes=[box],
                                char_start=n, char_end=n + 1, content_hash=str(n)))
    return Document(sha256=sha, file_name="synthetic.pdf", page_count=1, text="", metadata=Metadata(title="x"),
                    sections=secs, chunks=chunks, profile=Profile(text_kind="native", chars_per_page=0, columns=1),
                    audit=Audit(sha256=sha, page_count=1))


def writer_throughput(graph: Graph, sections: int = 100, chunks_per_section: int = 20,
                      embedding_dim: int = 0, papers: int = 5) -> WriterResult:
    """Nodes + relationships per second that the ingest's writer (kg.ingest.tuned_writer.TunedWriter) commits for a
    batch of `papers` large papers, one transaction each (validated beforehand), timed from the commit of one paper
    written first as a warm-up to the last paper's; all are removed again afterwards. With `embedding_dim`, every
    chunk carries a random vector of that size, so the vector index is updated at commit as in a real ingest (the
    vectors are made here: torch is not measured)."""
    schema = get_schema()
    batch = []
    for n in range(papers + 1):
        sha = synthetic_sha(n)
        run = Run(sha256=sha, invocation="bench", started_at=datetime.now(timezone.utc), extractors=[EXTRACTOR])
        doc = synthetic_document(sections, chunks_per_section, sha)
        rng = random.Random(n)
        vectors = {c.id: [rng.random() for _ in range(embedding_dim)] for c in doc.chunks} if embedding_dim else None
        nodes, edges = map_document(doc, vectors)
        checked = validate_batch([run.stamped(x, schema) for x in nodes], [run.stamped(e, schema) for e in edges], schema)
        batch.append((run, checked))
    pipeline = TunedWriter(graph, schema)
    try:
        futures = [pipeline.submit(run, checked.nodes, checked.edges) for run, checked in batch]
        futures[0].result()  # the warm-up: the batch is timed from its commit to the last paper's
        total = _written(futures[1:], time.perf_counter())
    finally:
        pipeline.close()
        for run, _ in batch:
            delete_subgraph(graph, run.sha256, schema)
            graph.write("MATCH (r:IngestRun {paper_sha256: $sha}) DELETE r", sha=run.sha256)
    return total


def _written(futures: list[Future[PaperWrite]], began: float) -> WriterResult:
    """What the papers of `futures` wrote, summed, timed from `began` to the last one's commit."""
    total = WriterResult(0, 0, 0.0, papers=len(futures))
    for future in futures:
        written = future.result()
        total.nodes += written.nodes_written
        total.edges += written.edges_written
        for part, seconds in written.seconds.items():
            total.parts[part] = total.parts.get(part, 0.0) + seconds
    total.seconds = time.perf_counter() - began
    return total


def papers_writer_throughput(graph: Graph, papers: list[Prepared], entities: int = 0) -> WriterResult:
    """Nodes + relationships per second that the ingest's writer commits for real papers (their records as an
    ingest prepared them), written back to back as `kg ingest` writes them into a graph that lacks them. A real
    paper has a few hundred elements, so the fixed cost of its transaction (its statements, entity resolution,
    locks, the commit's index work) weighs far more than in writer_throughput's large synthetic papers. The papers
    are deleted first and are in the graph again afterwards, as their ingest wrote them (their run records too).
    With `entities`, that many more entities are in the graph meanwhile (named apart from real ones: they resolve to
    nothing), as after a thousand papers or more, which entity resolution must not make slower."""
    schema = get_schema()
    for paper in papers:
        delete_subgraph(graph, paper.run.sha256, schema)
    with _more_entities(graph, entities):
        pipeline = TunedWriter(graph, schema)
        try:
            began = time.perf_counter()
            return _written([pipeline.submit(p.run, p.nodes, p.edges, rejected=len(p.rejections)) for p in papers],
                            began)
        finally:
            pipeline.close()


BENCH_ENTITY_PREFIX = "bench_entity_"
_ADD_ENTITIES = "UNWIND $rows AS row CREATE (n:`{label}` {{id: row.id, name: row.name}})"
_REMOVE_ENTITIES = "MATCH (n:`{label}`) WHERE n.id STARTS WITH $prefix DETACH DELETE n"


@contextmanager
def _more_entities(graph: Graph, count: int) -> Iterator[None]:
    """`count` entities spread over the entity labels (the ontology's entity classes), removed again afterwards."""
    rows = [{"id": f"{BENCH_ENTITY_PREFIX}{i:07d}", "name": f"bench entity {i:07d}"} for i in range(count)]
    labels = entity_labels()
    try:
        for n, label in enumerate(labels):
            for batch in batches(rows[n::len(labels)]):
                graph.write(_ADD_ENTITIES.format(label=label), rows=batch)
        yield
    finally:
        if count:
            for label in labels:
                graph.write(_REMOVE_ENTITIES.format(label=label), prefix=BENCH_ENTITY_PREFIX)


def corpus_ingest(settings: Settings, graph: Graph, corpus: Path, workers: int
                  ) -> tuple[IngestReport, IngestReport, list[Prepared]]:
    """First ingest of the corpus (its papers are deleted from the graph beforehand), an unchanged re-run, and the
    records of the papers the first ingest wrote (all held in memory, for papers_writer_throughput)."""
    schema = get_schema()
    for path in discover([corpus]):
        sha = file_sha256(path)
        if find_paper(graph, sha):
            delete_subgraph(graph, sha, schema)
    written: list[Prepared] = []
    first = Ingestor(settings, graph, workers=workers, force=True, on_written=written.append).run([corpus])
    again = Ingestor(settings, graph, workers=workers).run([corpus])
    return first, again, written

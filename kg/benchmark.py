"""Measurements behind `kg bench ingest`: the end-to-end ingest of a corpus (first and unchanged re-run),
the writer alone on a large synthetic paper, and bare PyMuPDF text extraction as the floor."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pymupdf
from neo4j import Driver

from extractors.model import Audit, Box, Chunk, Document, Metadata, Profile, Section, element_id
from kg.filestore import file_sha256
from kg.ingest import IngestReport, Ingestor, discover
from kg.mapping import EXTRACTOR, map_document
from kg.papers import delete_subgraph, find_paper, write_paper
from kg.runs import Run
from kg.settings import Settings
from kg.validation import validate_batch
from ontology.loader import get_schema

SYNTHETIC_SHA = "0" * 63 + "1"


@dataclass
class WriterResult:
    nodes: int
    edges: int
    seconds: float
    parts: dict[str, float] = field(default_factory=dict)  # PaperWrite.seconds: read, statements, commit

    @property
    def elements(self) -> int:
        return self.nodes + self.edges

    @property
    def per_second(self) -> float:
        return self.elements / self.seconds

    def split(self) -> dict[str, float]:
        """Elements/s of each part: per second of the (pipelined) write statements, and per second of commit."""
        return {"statements": self.elements / self.parts["statements"], "commit": self.elements / self.parts["commit"]}


def bare_text_seconds(files: list[Path]) -> tuple[float, int]:
    """Seconds to open each PDF and extract its plain text with PyMuPDF, and the pages read."""
    began, pages = time.perf_counter(), 0
    for path in files:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()
                pages += 1
    return time.perf_counter() - began, pages


def synthetic_document(sections: int, chunks_per_section: int) -> Document:
    """A paper of the given size: sections with text chunks (embeddings come apart: see writer_throughput)."""
    box = Box(page=1, bbox=(72.0, 72.0, 540.0, 90.0))
    secs, chunks = [], []
    for s in range(sections):
        sid = element_id("section", SYNTHETIC_SHA, s)
        secs.append(Section(id=sid, number=str(s + 1), title=f"Section {s + 1}", level=1, parent_id=None, ordinal=s + 1,
                            page_start=1, page_end=1, box=box, char_start=0, char_end=1))
        for c in range(chunks_per_section):
            n = s * chunks_per_section + c
            chunks.append(Chunk(id=element_id("chunk", SYNTHETIC_SHA, n), kind="text", text=f"passage {n} " * 40,
                                section_id=sid, section_path=[], page_start=1, page_end=1, boxes=[box],
                                char_start=n, char_end=n + 1, content_hash=str(n)))
    return Document(sha256=SYNTHETIC_SHA, file_name="synthetic.pdf", page_count=1, text="", metadata=Metadata(title="x"),
                    sections=secs, chunks=chunks, profile=Profile(text_kind="native", chars_per_page=0, columns=1),
                    audit=Audit(sha256=SYNTHETIC_SHA, page_count=1))


def writer_throughput(driver: Driver, database: str | None, sections: int = 200, chunks_per_section: int = 50,
                      embedding_dim: int = 0) -> WriterResult:
    """Nodes + relationships per second that write_paper commits for one large paper (validated beforehand),
    removed again afterwards. With `embedding_dim`, every chunk carries a random vector of that size, so the
    vector index is updated at commit as in a real ingest (the vectors are made here: torch is not measured)."""
    schema = get_schema()
    run = Run(sha256=SYNTHETIC_SHA, invocation="bench", started_at=datetime.now(timezone.utc), extractors=[EXTRACTOR])
    doc = synthetic_document(sections, chunks_per_section)
    rng = random.Random(0)
    vectors = {c.id: [rng.random() for _ in range(embedding_dim)] for c in doc.chunks} if embedding_dim else None
    nodes, edges = map_document(doc, vectors)
    batch = validate_batch([run.stamped(n, schema) for n in nodes], [run.stamped(e, schema) for e in edges], schema)
    began = time.perf_counter()
    written = write_paper(driver, schema, run, batch.nodes, batch.edges, database=database)
    seconds = time.perf_counter() - began
    delete_subgraph(driver, SYNTHETIC_SHA, schema, database)
    driver.execute_query("MATCH (r:IngestRun {paper_sha256: $sha}) DELETE r", sha=SYNTHETIC_SHA, database_=database)
    return WriterResult(written.nodes_written, written.edges_written, seconds, written.seconds)


def corpus_ingest(settings: Settings, driver: Driver, corpus: Path, workers: int) -> tuple[IngestReport, IngestReport]:
    """First ingest of the corpus (its papers are deleted from the graph beforehand) and an unchanged re-run."""
    schema = get_schema()
    for path in discover([corpus]):
        sha = file_sha256(path)
        if find_paper(driver, sha, settings.neo4j_database):
            delete_subgraph(driver, sha, schema, settings.neo4j_database)
    first = Ingestor(settings, driver, workers=workers, force=True).run([corpus])
    again = Ingestor(settings, driver, workers=workers).run([corpus])
    return first, again

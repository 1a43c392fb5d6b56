"""`kg bench checksum`: the corpus ingested into a throw-away Neo4j of its own, then the graph's checksum
(kg.db.dump.checksum: the canonical dump without write times, run ids and the ingest ledger). Issue 25 asks that a
refactoring leave the corpus's graph as it was: comparing this figure with the committed one checks it. With the
reference writer (kg.ingest.writer) it checks that the tuned writer's shortcuts change nothing on the whole corpus."""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.neo4j import own_neo4j, throwaway_settings
from bench.stamp import commit, header
from kg.db import store
from kg.db.dump import checksum
from kg.ingest.pipeline import Ingestor
from kg.ingest.writer import Speed, WriterOptions
from kg.db.schema import init_schema
from ontology.loader import get_schema


def run(corpus: Path, workers: int, speed: Speed = "tuned") -> dict:
    """Ingest every PDF of `corpus` into a new database with the writer of `speed` and return the checksum with
    what it depends on."""
    schema = get_schema()
    with tempfile.TemporaryDirectory(prefix="paperkg-bench-checksum-") as tmp:
        settings = throwaway_settings(Path(tmp) / "data", neo4j_heap="1g", neo4j_pagecache="256m")
        with own_neo4j(settings), store.open_graph(settings) as graph:
            init_schema(graph, schema, settings.embedding_dim)
            report = Ingestor(settings, graph, workers=workers, writer=WriterOptions(speed=speed)).run(
                sorted(corpus.glob("*.pdf")))
            digest = checksum(graph)
    return {**header(), "commit": commit(), "corpus": str(corpus), "ontology_version": schema.version,
            "embeddings": report.embeddings, "workers": workers, "writer": speed, "ingested": report.count("ingested"),
            "failed": sorted(Path(p.path).name for p in report.papers if p.status == "failed"), "checksum": digest}

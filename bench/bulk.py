"""`kg bench bulk`: the import step of a bulk first load (kg.ingest.bulk) in graph elements per second.

The papers of a corpus are parsed once; bench.synth then makes `papers` synthetic papers of them (new ids and
DOIs, perturbed titles and text, entities and authors drawn from Zipf-distributed vocabularies, citations by
preferential attachment), which go through kg.ingest.bulk's GraphImage as `kg ingest --bulk` writes parsed papers. The
CSV is imported into a throw-away local server by kg.ingest.bulk.import_files, as `kg ingest --bulk` does; the figure is
nodes plus relationships over the wall time of `neo4j-admin database import full` (its JVM start included); the
importer's own reported time is recorded beside it, and the pass after it (empty lists, line breaks) and the
constraints and indexes (fulltext and vector) are timed on their own.

With `then_write` K, how the graph's size changes the transactional path is measured as well (issue 31, item 4):
K more synthetic papers go through the ingest's writer (kg.ingest.tuned_writer.TunedWriter, one transaction per paper)
into the empty database before the import and, the same papers, into the loaded graph after it; and node lookups
(kg.read.queries.get_node, one client) of papers and entities of the loaded graph are timed.

With `load_clients` N, the loaded graph is then served (`kg serve`, as bench.load's scripts do) and N concurrent
clients alternate questions about its papers (POST /ask, scoped to a paper as an application asks them) and node
lookups (GET /nodes/{id}) through the API: the latencies the issue's targets at 100,000 papers are about. Then N
clients send each of the other reads and the curators' work in its own phase (`endpoints`): /locate of an entity's
name over the whole corpus, /coverage of a paper, a paper's review list, the needs-attention queue and a verify.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import shutil
import tempfile
import time
from contextlib import closing
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from bench.api_server import served_api
from bench.load import QUESTIONS, idle_load, loopback_address, phases
from bench.neo4j import own_neo4j, throwaway_settings
from bench.stamp import commit, dated, machine as machine_info, write_json
from bench.ingest import WriterResult, _written
from bench.synth import SynthConfig, SynthPaper, Synthesizer, Template
from kg.db import store
from kg.db.graph import Graph
from kg.ingest.bulk import BulkIngestor, CsvGraph, GraphImage, import_files
from kg.ingest.pipeline import Prepared
from kg.ingest.tuned_writer import TunedWriter
from kg.read.queries import get_node
from kg.db.schema import init_schema
from kg.settings import Settings

TARGET_ELEMENTS_PER_S = 100_000  # issue 31: the import step of a bulk load on this machine


def transactional(graph: Graph, schema, papers: list[SynthPaper]) -> WriterResult:
    """What the ingest's writer commits for `papers`, one transaction each, timed from the first paper's commit (a
    warm-up) to the last one's."""
    pipeline = TunedWriter(graph, schema)
    try:
        futures = [pipeline.submit(p.run, p.nodes, p.edges) for p in papers]
        futures[0].result()
        return _written(futures[1:], time.perf_counter())
    finally:
        pipeline.close()


def _writer_json(result: WriterResult) -> dict:
    return {"papers": result.papers, "elements": result.elements, "seconds": round(result.seconds, 2),
            "elements_per_s": round(result.per_second)}


def lookups(graph: Graph, schema, ids: list[str]) -> dict:
    """Milliseconds per get_node of each id, one after the other: median and p95."""
    times = []
    for node_id in ids:
        began = time.perf_counter()
        get_node(graph, schema, node_id)
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    return {"lookups": len(times), "p50_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[max(0, round(0.95 * len(times)) - 1)], 2)}


def api_load(settings: Settings, workdir: Path, paper_ids: list[str], node_ids: list[str], names: list[str],
             clients: int, per_client: int = 40, max_seconds: float = 600) -> dict:
    """`clients` clients at once against `kg serve` on the loaded graph, each alternating a question about one of
    `paper_ids` and a lookup of one of `node_ids` (after an untimed warm-up): p50/p95/p99 and errors of each. Then,
    as `endpoints`, the same number of clients on the other reads and the curators' work, one kind at a time
    (bench.load.phases): /locate of an entity's name over the whole corpus, /coverage of a paper, a paper's review
    list, the needs-attention queue, and a verify of one of the chunks (a write, with its history event)."""
    questions = [{"question": q, "paper_id": pid} for pid in paper_ids for q in QUESTIONS]
    chunks = [node_id for node_id in node_ids if node_id.startswith("chunk_")]
    others = {"locate": [("locate", f"/locate?q={quote(name)}&limit=10", None) for name in names],
              "coverage": [("coverage", f"/coverage/{pid}", None) for pid in paper_ids],
              "review": [("review", f"/curation/items?paper={pid}&limit=50", None) for pid in paper_ids],
              "queue": [("queue", "/curation/queue?limit=50", None)],
              "verify": [("verify", f"/curation/nodes/{cid}/verify", {"reason": "bench"}) for cid in chunks]}
    processes = os.cpu_count() or 1  # `kg serve`'s default: a question process per core
    with served_api(settings, workdir, qa_processes=processes) as api:
        address = loopback_address(api.url)
        report = asyncio.run(idle_load(*address, questions, node_ids, clients, per_client, max_seconds))
        curator = {**api.headers("curator"), "If-Match": "*"}  # the benchmark is not about versions
        endpoints = asyncio.run(phases(*address, curator, others, clients))
    return {"clients": clients, "per_client": per_client, "qa_processes": processes,
            "papers_asked_about": len(paper_ids), **report, "endpoints": endpoints}


def run(corpus: Path, settings: Settings, synth: SynthConfig, workers: int, limit: int | None,
        progress=lambda _: None, then_write: int = 0, load_clients: int = 0, compressed: bool = False) -> dict:
    started, machine = datetime.now(timezone.utc), machine_info()  # the load average before the run
    with tempfile.TemporaryDirectory(prefix="paperkg-bench-bulk-") as tmp:
        local = throwaway_settings(Path(tmp), cache_dir=settings.cache_dir, neo4j_heap=settings.neo4j_heap,
                                   neo4j_pagecache=settings.neo4j_pagecache)
        with own_neo4j(local) as server:
            progress("parsing the corpus")
            with store.open_graph(local) as graph:
                ingestor = BulkIngestor(local, graph, workers=workers, embed=True)
                files = sorted(corpus.glob("*.pdf"))[:limit]
                began = time.perf_counter()
                with closing(ingestor.parsed(files)) as papers:
                    parsed = [Template(r, p.nodes, p.edges) for _, _, r, p in papers if isinstance(p, Prepared)]
                parse_seconds = time.perf_counter() - began
            folder = Path(tmp) / "csv"
            folder.mkdir()
            csv = CsvGraph(ingestor.schema, folder, compressed=compressed)
            image = GraphImage(ingestor.schema, csv)
            progress(f"writing {synth.papers:,} synthetic papers made of {len(parsed)} as CSV")
            began = time.perf_counter()
            synthesizer = Synthesizer(parsed, synth)
            sample: list[str] = []  # ids of papers and chunks of the load, for lookups
            asked: list[str] = []  # ids of papers of the load, for questions
            names: list[str] = []  # names of entities of the load, for /locate
            pick = random.Random(synth.seed)  # not the synthesizer's: sampling must not change the papers
            for paper in synthesizer.papers():
                image.add(paper.run, paper.nodes, paper.edges, 0)
                if len(sample) < 400 and pick.random() < 0.2:
                    sample += [n.id for n in paper.nodes if n.label in ("Paper", "Chunk")][:2]  # written as they are
                    asked += [n.id for n in paper.nodes if n.label == "Paper"]
                    names += [n.props["name"] for n in paper.nodes
                              if n.label in ingestor.schema.entity_labels and n.props.get("name")][:1]
            arguments = image.close()
            csv_seconds = time.perf_counter() - began
            extra = [synthesizer.paper(synth.papers + k) for k in range(then_write + 1 if then_write else 0)]
            growth = {}
            if extra:
                progress(f"writing {then_write} papers into the empty database")
                with store.open_graph(local) as graph:
                    init_schema(graph, ingestor.schema, local.embedding_dim)
                    growth["empty_graph"] = _writer_json(transactional(graph, ingestor.schema, extra))
            csv_bytes = sum(f.stat().st_size for f in folder.iterdir())
            progress(f"importing {csv.nodes + csv.relationships:,} elements")
            seconds = import_files(server, local, ingestor.schema, folder, arguments, csv.fixes)
            if extra:
                progress(f"writing the same {then_write} papers into the loaded graph; lookups")
                with store.open_graph(local) as graph:
                    growth["loaded_graph"] = _writer_json(transactional(graph, ingestor.schema, extra))
                    growth["ratio"] = round(growth["empty_graph"]["elements_per_s"]
                                            / growth["loaded_graph"]["elements_per_s"], 3)
                    pick.shuffle(sample)
                    growth["node_lookup"] = lookups(graph, ingestor.schema, sample)
            load = None
            if load_clients:
                progress(f"serving the loaded graph: {load_clients} clients ask and look up nodes")
                load = api_load(local, Path(tmp) / "api", asked, sample, names, load_clients)
            shutil.rmtree(folder)
            database = server.data_dir / "databases" / "neo4j"
            store_bytes = sum(f.stat().st_size for f in database.rglob("*") if f.is_file())
            vector_bytes = _vector_index_bytes(local, database) if synth.vectors else None
    elements = csv.nodes + csv.relationships
    rate = elements / seconds["import"]
    return {"started_at": started.isoformat(timespec="seconds"), "commit": commit(), "machine": machine,
            "corpus": str(corpus), "papers_parsed": len(parsed), "papers": synth.papers,
            "synthetic": {"config": asdict(synth), "drawn": synthesizer.stats.as_json()},
            "nodes": csv.nodes, "relationships": csv.relationships, "elements": elements,
            "csv_bytes": csv_bytes, "csv_compressed": compressed, "store_bytes": store_bytes,
            "vector_index_bytes": vector_bytes,
            "neo4j_heap": local.neo4j_heap, "neo4j_pagecache": local.neo4j_pagecache,
            "seconds": {"parse": round(parse_seconds, 2), "csv": round(csv_seconds, 2),
                        **{k: round(v, 2) for k, v in seconds.items()}},
            "transactional": growth or None, "api_load": load,
            "import_elements_per_s": round(rate), "target_elements_per_s": TARGET_ELEMENTS_PER_S,
            "import_tool_elements_per_s": (round(elements / seconds["import_tool"]) if seconds.get("import_tool")
                                           else None),
            "met": rate >= TARGET_ELEMENTS_PER_S, "load_average_end": [round(x, 2) for x in os.getloadavg()]}


def _vector_index_bytes(settings: Settings, database: Path) -> int:
    """The size of the database's vector indexes on disk (schema/index/vector-*/<index id>)."""
    with store.connect(settings) as driver:
        ids = [r["id"] for r in driver.execute_query("SHOW VECTOR INDEXES YIELD id RETURN id").records]
    return sum(f.stat().st_size for i in ids for folder in (database / "schema" / "index").glob(f"vector-*/{i}")
               for f in folder.rglob("*") if f.is_file())


def write(report: dict, out_dir: Path) -> Path:
    """The report as bulk-<UTC time of its start>.json in `out_dir`."""
    return write_json(dated(out_dir, "bulk", datetime.fromisoformat(report["started_at"])), report)

"""`kg bench bulk`: the import step of a bulk first load (kg.bulk) in graph elements per second.

The papers of a corpus are parsed once; their records then go through kg.bulk's GraphImage `copies` times, each
copy a paper of its own (a new sha256, new ids for the paper's own elements, no DOI of its own, so copies do not
cite each other) sharing the authors, entities and domains of the original, as papers of a larger corpus do. The
CSV is imported into a throw-away local server by kg.bulk.import_files, as `kg ingest --bulk` does; the figure is
nodes plus relationships over the wall time of `neo4j-admin database import full` (its JVM start included); the
importer's own reported time is recorded beside it, and the empty-list pass and the constraints and indexes
(fulltext and vector) are timed on their own.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from contextlib import closing
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from bench.neo4j import own_neo4j, throwaway_settings
from bench.stamp import commit, dated, machine as machine_info, write_json
from extractors.model import paper_id
from kg import store
from kg.bulk import BulkIngestor, CsvGraph, GraphImage, import_files
from kg.entities import entity_labels
from kg.ingest import Prepared
from kg.runs import Run
from kg.settings import Settings
from ontology.records import EdgeRecord, NodeRecord

TARGET_ELEMENTS_PER_S = 100_000  # issue 31: the import step of a bulk load on this machine


def copy_of(run: Run, prepared: Prepared, k: int) -> tuple[Run, list[NodeRecord], list[EdgeRecord]]:
    """Copy `k` of a parsed paper (copy 0 is the paper itself)."""
    if k == 0:
        return run, prepared.nodes, prepared.edges
    sha = hashlib.sha256(f"{run.sha256}#{k}".encode()).hexdigest()
    new_run = replace(run, sha256=sha)
    own = {n.id for n in prepared.nodes if n.props.get("paper_sha256") == run.sha256 and n.label not in entity_labels()}
    old_paper = paper_id(run.sha256)

    def renamed(node_id: str) -> str:
        return paper_id(sha) if node_id == old_paper else f"{node_id}-{k}" if node_id in own else node_id

    def props(values: dict) -> dict:
        out = dict(values)
        if out.get("paper_sha256") == run.sha256:
            out["paper_sha256"] = sha
        if "run_id" in out:
            out["run_id"] = new_run.id
        if "source_chunk_ids" in out:
            out["source_chunk_ids"] = [renamed(c) for c in out["source_chunk_ids"]]
        return out

    nodes = []
    for n in prepared.nodes:
        values = props(n.props)
        if n.label == "Paper":
            values.update(sha256=sha, doi=None)
        nodes.append(NodeRecord(n.label, renamed(n.id), values))
    edges = [EdgeRecord(e.type, e.source_label, renamed(e.source_id), e.target_label, renamed(e.target_id),
                        props(e.props)) for e in prepared.edges]
    return new_run, nodes, edges


def run(corpus: Path, settings: Settings, copies: int, workers: int, limit: int | None,
        progress=lambda _: None) -> dict:
    started, machine = datetime.now(timezone.utc), machine_info()  # the load average before the run
    with tempfile.TemporaryDirectory(prefix="paperkg-bench-bulk-") as tmp:
        local = throwaway_settings(Path(tmp), cache_dir=settings.cache_dir, neo4j_heap=settings.neo4j_heap,
                                   neo4j_pagecache=settings.neo4j_pagecache)
        with own_neo4j(local) as server:
            progress("parsing the corpus")
            with store.connect(local) as driver:
                ingestor = BulkIngestor(local, driver, workers=workers, embed=True)
                files = sorted(corpus.glob("*.pdf"))[:limit]
                began = time.perf_counter()
                with closing(ingestor.parsed(files)) as papers:
                    parsed = [(r, p) for _, _, r, p in papers if isinstance(p, Prepared)]
                parse_seconds = time.perf_counter() - began
            folder = Path(tmp) / "csv"
            folder.mkdir()
            csv = CsvGraph(ingestor.schema, folder)
            image = GraphImage(ingestor.schema, csv)
            progress(f"writing {copies} copies of {len(parsed)} papers as CSV")
            began = time.perf_counter()
            for k in range(copies):
                for paper_run, prepared in parsed:
                    new_run, nodes, edges = copy_of(paper_run, prepared, k)
                    image.add(new_run, nodes, edges, len(prepared.rejections))
            arguments = image.close()
            csv_seconds = time.perf_counter() - began
            csv_bytes = sum(f.stat().st_size for f in folder.iterdir())
            progress(f"importing {csv.nodes + csv.relationships:,} elements")
            seconds = import_files(server, local, ingestor.schema, folder, arguments)
            shutil.rmtree(folder)
            store_bytes = sum(f.stat().st_size for f in (server.data_dir / "databases" / "neo4j").rglob("*")
                              if f.is_file())
    elements = csv.nodes + csv.relationships
    rate = elements / seconds["import"]
    return {"started_at": started.isoformat(timespec="seconds"), "commit": commit(), "machine": machine,
            "corpus": str(corpus), "papers_parsed": len(parsed), "copies": copies, "papers": len(parsed) * copies,
            "nodes": csv.nodes, "relationships": csv.relationships, "elements": elements,
            "csv_bytes": csv_bytes, "store_bytes": store_bytes,
            "neo4j_heap": local.neo4j_heap, "neo4j_pagecache": local.neo4j_pagecache,
            "seconds": {"parse": round(parse_seconds, 2), "csv": round(csv_seconds, 2),
                        **{k: round(v, 2) for k, v in seconds.items()}},
            "import_elements_per_s": round(rate), "target_elements_per_s": TARGET_ELEMENTS_PER_S,
            "import_tool_elements_per_s": (round(elements / seconds["import_tool"]) if seconds.get("import_tool")
                                           else None),
            "met": rate >= TARGET_ELEMENTS_PER_S, "load_average_end": [round(x, 2) for x in os.getloadavg()]}


def write(report: dict, out_dir: Path) -> Path:
    """The report as bulk-<UTC time of its start>.json in `out_dir`."""
    return write_json(dated(out_dir, "bulk", datetime.fromisoformat(report["started_at"])), report)

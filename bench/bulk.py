"""`kg bench bulk`: the import step of a bulk first load (kg.bulk) in graph elements per second.

The papers of a corpus are parsed once; bench.synth then makes `papers` synthetic papers of them (new ids and
DOIs, perturbed titles and text, entities and authors drawn from Zipf-distributed vocabularies, citations by
preferential attachment), which go through kg.bulk's GraphImage as `kg ingest --bulk` writes parsed papers. The
CSV is imported into a throw-away local server by kg.bulk.import_files, as `kg ingest --bulk` does; the figure is
nodes plus relationships over the wall time of `neo4j-admin database import full` (its JVM start included); the
importer's own reported time is recorded beside it, and the empty-list pass and the constraints and indexes
(fulltext and vector) are timed on their own.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import closing
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

from bench.neo4j import own_neo4j, throwaway_settings
from bench.stamp import commit, dated, machine as machine_info, write_json
from bench.synth import SynthConfig, Synthesizer, Template
from kg import store
from kg.bulk import BulkIngestor, CsvGraph, GraphImage, import_files
from kg.ingest import Prepared
from kg.settings import Settings

TARGET_ELEMENTS_PER_S = 100_000  # issue 31: the import step of a bulk load on this machine


def run(corpus: Path, settings: Settings, synth: SynthConfig, workers: int, limit: int | None,
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
                    parsed = [Template(r, p.nodes, p.edges) for _, _, r, p in papers if isinstance(p, Prepared)]
                parse_seconds = time.perf_counter() - began
            folder = Path(tmp) / "csv"
            folder.mkdir()
            csv = CsvGraph(ingestor.schema, folder)
            image = GraphImage(ingestor.schema, csv)
            progress(f"writing {synth.papers:,} synthetic papers made of {len(parsed)} as CSV")
            began = time.perf_counter()
            synthesizer = Synthesizer(parsed, synth)
            for paper in synthesizer.papers():
                image.add(paper.run, paper.nodes, paper.edges, 0)
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
            "corpus": str(corpus), "papers_parsed": len(parsed), "papers": synth.papers,
            "synthetic": {"config": asdict(synth), "drawn": synthesizer.stats.as_json()},
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

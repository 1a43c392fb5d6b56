"""`kg bench fanout`: how parsing scales with workers (issue 31: >= 1.8x with 2 worker processes vs 1). The corpus's
papers go through kg ingest's parse stage (Ingestor.parsed: parse, chunk, embed, map, semantic, validate, results in
input order) on the chosen executor, without writing, so that the figure is the workers' and not Neo4j's or the
writer's. The worker counts run in turns, round after round, so that a neighbour's load falls on each about alike."""

from __future__ import annotations

import os
import statistics
import time
from contextlib import closing
from pathlib import Path

from bench.stamp import commit, header, machine
from kg.ingest.pipeline import ExecutorFactory, Ingestor, Prepared
from kg.settings import Settings


def parse_run(files: list[Path], settings: Settings, workers: int, executor: ExecutorFactory) -> dict:
    """Every file parsed once by `workers` workers. pages/s includes the workers' start-up (a run pays it too);
    after start-up counts from the first result on, the pages of the papers after it: what more files would add."""
    # force: no file is skipped as unchanged, so parsed() reads nothing from the graph and needs no driver
    ingestor = Ingestor(settings, None, workers=workers, force=True, executor=executor)  # type: ignore[arg-type]
    load, began = os.getloadavg()[0], time.perf_counter()
    pages = papers = failed = 0
    first: tuple[float, int] | None = None  # when the first result came, and the pages counted by then
    with closing(ingestor.parsed(files)) as parsed:
        for _, _, _, prepared in parsed:
            if isinstance(prepared, Prepared):
                papers, pages = papers + 1, pages + prepared.pages
            else:
                failed += 1
            first = first or (time.perf_counter(), pages)
    ended = time.perf_counter()
    seconds = ended - began
    startup = first[0] - began if first else seconds
    steady = (pages - first[1]) / (ended - first[0]) if first and ended > first[0] else 0.0
    return {"workers": workers, "papers": papers, "failed": failed, "pages": pages, "seconds": round(seconds, 2),
            "pages_per_second": round(pages / seconds, 2), "first_result_seconds": round(startup, 2),
            "pages_per_second_after_first": round(steady, 2), "load_average_before": round(load, 2),
            "load_average_after": round(os.getloadavg()[0], 2)}


def run(corpus: Path, settings: Settings, executor_name: str, executor: ExecutorFactory, counts: list[int],
        rounds: int, progress=lambda _: None) -> dict:
    files = sorted(corpus.glob("*.pdf"))
    started = machine()
    runs = []
    for n in range(rounds):
        for workers in counts:
            progress(f"round {n + 1}/{rounds}: {workers} worker(s), {executor_name}")
            runs.append(parse_run(files, settings, workers, executor))
    medians = {w: statistics.median(r["pages_per_second"] for r in runs if r["workers"] == w) for w in counts}
    steady = {w: statistics.median(r["pages_per_second_after_first"] for r in runs if r["workers"] == w)
              for w in counts}
    base, steady_base = medians[min(counts)], steady[min(counts)]
    return {**header(), "commit": commit(), "machine_detail": started, "corpus": str(corpus), "files": len(files),
            "executor": executor_name, "rounds": rounds, "runs": runs,
            "median_pages_per_second": {str(w): round(v, 2) for w, v in medians.items()},
            "speedup": {str(w): round(v / base, 2) for w, v in medians.items()},
            "median_pages_per_second_after_first": {str(w): round(v, 2) for w, v in steady.items()},
            "speedup_after_first": {str(w): round(v / steady_base, 2) if steady_base else None
                                    for w, v in steady.items()},
            "target": ">= 1.8x with 2 workers vs 1"}

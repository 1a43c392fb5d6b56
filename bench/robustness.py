"""`kg bench robustness`: everything it needs started by itself (a throw-away Neo4j and `kg serve` with a key of
each role, in a temporary folder), then the API fuzzed, fed malformed inputs, its Neo4j killed mid-ingest, and
timed under load; one report with the invariants issue 23 asks for, written as dated JSON."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from bench.api_server import served_api
from bench.faults import neo4j_killed_mid_ingest
from bench.fuzz import fuzz
from bench.load import load_phase
from bench.malformed import malformed_inputs
from bench.neo4j import own_neo4j, throwaway_settings
from bench.stamp import commit, dated, machine, write_json

LOAD_RATIO_TARGET = 2.0  # p95 under writes at most this many times the idle p95 (issue 23)


@dataclass
class Bounds:
    """How much of each phase runs: the defaults take some minutes on a small machine; tests pass tiny ones."""

    examples: int = 10  # fuzz: generated requests per operation and generation mode (each sent twice)
    kinds: list[str] = field(default_factory=list)  # malformed PDF kinds (file names); empty: all
    papers: int = 3  # fault injection: the corpus's smallest papers, killed during the second one's write
    clients: int = 8  # load: concurrent clients
    per_client: int = 20  # load: requests each client sends per phase
    uploads: int = 2  # load: corpus papers uploaded during the write phase (besides one re-ingest)
    max_seconds: float = 300  # load: every phase ends after this long
    neo4j_heap: str = "1g"


def run(corpus: Path, bounds: Bounds, progress: Callable[[str], None] = lambda _: None) -> dict:
    """Every phase against servers of its own; the report (see `invariants`)."""
    pdfs = sorted(corpus.glob("*.pdf"), key=lambda p: (p.stat().st_size, p.name))
    if len(pdfs) < bounds.papers + bounds.uploads or bounds.papers < 2:
        raise ValueError(f"{corpus} needs at least {max(2, bounds.papers) + bounds.uploads} PDFs "
                         f"(--papers, at least 2, plus --uploads); it has {len(pdfs)}")
    killed_papers, uploads = pdfs[:bounds.papers], pdfs[bounds.papers:bounds.papers + bounds.uploads]
    started, seconds = datetime.now(timezone.utc), {}
    report: dict = {"started_at": started.isoformat(timespec="seconds"), "commit": commit(),
                    "machine": machine(), "bounds": asdict(bounds), "corpus": str(corpus)}

    def phase(name: str, work: Callable[[], dict]) -> None:
        progress(name)
        begin = time.perf_counter()
        report[name] = work()
        seconds[name] = round(time.perf_counter() - begin, 1)

    with tempfile.TemporaryDirectory(prefix="paperkg-bench-robustness-") as tmp:
        settings = throwaway_settings(Path(tmp) / "data", neo4j_heap=bounds.neo4j_heap, qa_vectors=False)
        report["settings"] = {"neo4j_heap": settings.neo4j_heap, "neo4j_pagecache": settings.neo4j_pagecache,
                              "parse_timeout_s": settings.parse_timeout_s, "parse_memory_mb": settings.parse_memory_mb,
                              "qa_vectors": settings.qa_vectors, "qa_processes": 1, "embeddings": False}
        progress("starting Neo4j and kg serve")
        with own_neo4j(settings) as server, served_api(settings, Path(tmp)) as api:
            phase("malformed", lambda: malformed_inputs(api, settings, bounds.kinds or None))
            phase("faults", lambda: neo4j_killed_mid_ingest(server, settings, killed_papers))
            report["faults"]["api_health_after_restart"] = api.health()
            phase("load", lambda: load_phase(api, settings, uploads, killed_papers[0], bounds.clients,
                                             bounds.per_client, bounds.max_seconds))
            phase("fuzz", lambda: fuzz(api.url, api.headers("admin"), bounds.examples))
    report["seconds"] = seconds
    report["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    report["invariants"] = invariants(report)
    report["ok"] = all(report["invariants"].values())
    return report


def invariants(report: dict) -> dict[str, bool]:
    """What issue 23 asks of each phase, each true or false."""
    fuzzed, bad, faults, load = report["fuzz"], report["malformed"], report["faults"], report["load"]
    reported = set(faults["reported_committed"])
    return {
        "fuzz: no 5xx": fuzzed["server_errors"] == 0,
        "fuzz: no schema violation": fuzzed["schema_violations"] == 0,
        "malformed: no 5xx": bad["server_errors"] == 0,
        "malformed: each refused or its job failed": all(
            r["http_status"] in (400, 413, 422) or (r["http_status"] == 202 and r["job_status"] == "failed")
            for r in bad["files"]) and all(400 <= r["http_status"] < 500 for r in bad["bad_names"]),
        "malformed: /health answered after each": bad["health_failures"] == 0,
        "malformed: nothing left in graph, store or spool": not (bad["papers_left"] or bad["stored_pdfs_left"]
                                                                 or bad["spool_files_left"]),
        "faults: Neo4j was killed mid-write": faults["killed"],
        "faults: reported committed = papers in graph": reported == set(faults["in_graph_after_restart"]),
        "faults: the paper cut off is reported failed": faults["reported"].get(faults["cut_mid_write"]) == "failed",
        "faults: no partial paper": not (faults["partial_papers_after_restart"]
                                         or faults["partial_papers_after_next_ingest"]),
        "faults: next kg ingest finished the rest": faults["next_ingest"]["exit_status"] == 0
        and set(faults["in_graph_after_next_ingest"]) == set(faults["papers"])
        and all(faults["next_ingest"]["papers"].get(name) == ("unchanged" if name in reported else "ingested")
                for name in faults["papers"]),
        "faults: API answered after restart": faults["api_health_after_restart"] == 200,
        "load: no errors": load["errors"] == 0,
        f"load: p95 under writes <= {LOAD_RATIO_TARGET:g}x idle": all(
            ratio is not None and ratio <= LOAD_RATIO_TARGET for ratio in load["p95_ratio"].values()),
    }


def write(report: dict, out_dir: Path) -> Path:
    """The report as robustness-<UTC time it started>.json in `out_dir`."""
    return write_json(dated(out_dir, "robustness", datetime.fromisoformat(report["started_at"])), report)

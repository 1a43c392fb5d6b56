"""`kg bench first-ingest`: the user's first ingest as `make run` does it, timed from outside. Each run takes a new
data directory and so a new database: `kg db start` (which creates the graph's schema), then `kg ingest samples/`
at once, both as the commands a user runs, in processes of their own; the wall time of the ingest command is the
figure (interpreter start, imports, parser processes, the cold server's writes). The cache directory is the
configured one: on a first `make run` the Neo4j jars and the embeddings' table are there by the time the ingest
starts. Each run's server is stopped at its end."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from bench.neo4j import free_port
from bench.stamp import commit, dated, machine, write_json
from kg.settings import Settings

TARGET_SECONDS = 10.0  # issue 24: the first sample ingest


def run_once(papers: Path, settings: Settings) -> dict:
    """One new data directory: `kg db start`, then the timed `kg ingest PAPERS --json`, then `kg db stop`."""
    with tempfile.TemporaryDirectory(prefix="paperkg-bench-first-ingest-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERKG_")}
        env.update(PAPERKG_DATA_DIR=str(Path(tmp) / "data"), PAPERKG_CACHE_DIR=str(settings.cache_dir),
                   PAPERKG_BOLT_PORT=str(free_port()), PAPERKG_HTTP_PORT=str(free_port()))
        kg = [sys.executable, "-m", "cli"]
        began = time.perf_counter()
        subprocess.run([*kg, "db", "start"], env=env, cwd=tmp, check=True, capture_output=True, timeout=900)
        start_seconds = time.perf_counter() - began
        pid_file = Path(tmp) / "data" / "neo4j" / "run" / "paperkg-neo4j.pid"
        try:
            neo4j_before, children_before = _cpu_seconds(int(pid_file.read_text())), _children_cpu()
            load = os.getloadavg()[0]
            began = time.perf_counter()
            ingest = subprocess.run([*kg, "ingest", str(papers.resolve()), "--json"], env=env, cwd=tmp,
                                    capture_output=True, text=True, timeout=900)
            wall = time.perf_counter() - began
            neo4j_cpu = _cpu_seconds(int(pid_file.read_text())) - neo4j_before
            ingest_cpu = _children_cpu() - children_before
        finally:
            subprocess.run([*kg, "db", "stop"], env=env, cwd=tmp, capture_output=True, timeout=300)
    report = json.loads(ingest.stdout) if ingest.stdout.strip() else {}
    return {"ok": ingest.returncode == 0 and report.get("ok", False), "seconds": round(wall, 2),
            "db_start_seconds": round(start_seconds, 1), "load_average_before": round(load, 2),
            "ingest_cpu_seconds": round(ingest_cpu, 2), "neo4j_cpu_seconds": round(neo4j_cpu, 2),
            "report_wall_seconds": report.get("wall_seconds"), "ingested": report.get("ingested"),
            "pages": report.get("pages"), "seconds_per_stage": report.get("seconds_per_stage"),
            "error": None if ingest.returncode == 0 else ingest.stderr[-2000:]}


def summary(runs: list[dict]) -> dict:
    """The median wall time of the runs that succeeded, and whether it meets the target."""
    times = [r["seconds"] for r in runs if r["ok"]]
    median = round(statistics.median(times), 2) if times else None
    return {"median_seconds": median, "target_seconds": TARGET_SECONDS, "failed_runs": len(runs) - len(times),
            "met": median is not None and not len(runs) - len(times) and median <= TARGET_SECONDS}


def run(papers: Path, settings: Settings, runs: int, progress=lambda _: None) -> dict:
    started = datetime.now(timezone.utc)
    results = []
    for n in range(runs):
        progress(f"run {n + 1} of {runs}")
        results.append(run_once(papers, settings))
    return {"started_at": started.isoformat(timespec="seconds"), "commit": commit(), "machine": machine(),
            "papers": str(papers), "runs": results, **summary(results),
            "load_average_end": [round(x, 2) for x in os.getloadavg()]}


def write(report: dict, out_dir: Path) -> Path:
    """The report as first-ingest-<UTC time it started>.json in `out_dir`."""
    return write_json(dated(out_dir, "first-ingest", datetime.fromisoformat(report["started_at"])), report)


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a running process (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    """CPU time of this process's finished children and theirs (the ingest command and its parser processes)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

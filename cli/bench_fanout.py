"""`kg bench fanout --corpus DIR`: parse throughput with 1, 2, ... workers on the local pool or Dask (bench/fanout.py)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from bench.fanout import run
from bench.stamp import RESULTS, dated, write_json
from cli.ingest import parse_executor
from cli.output import console
from kg.settings import get_settings


def fanout_bench(
    corpus: Path = typer.Option(..., "--corpus", exists=True, file_okay=False, help="directory of PDFs"),
    executor: str = typer.Option("dask", "--executor", help="'local' (parser processes) or 'dask'"),
    scheduler: str | None = typer.Option(None, "--scheduler", help="with --executor dask: tcp://HOST:PORT "
                                         "(default: a local cluster of as many processes as workers)"),
    workers: list[int] = typer.Option([1, 2], "--workers", "-w", min=1, help="worker counts to compare (repeat)"),
    rounds: int = typer.Option(2, "--rounds", min=1, help="turns over the worker counts; medians are the figures"),
    out: Path = typer.Option(RESULTS, "--out", file_okay=False, help="folder of the dated JSON report"),
) -> None:
    """Parse the corpus (no writes) with each worker count in turn; pages/s and the speed-up over the fewest workers."""
    factory = parse_executor(executor, scheduler)
    with console.status("starting") as status:
        result = run(corpus, get_settings(), executor, factory, sorted(set(workers)), rounds, progress=status.update)
    table = Table(title=f"kg bench fanout — {executor}, {result['date']}, {result['machine']}")
    for column in ("workers", "pages/s (median)", "speed-up", "after the first paper", "speed-up",
                   "runs (pages/s, load before)"):
        table.add_column(column)
    for w, rate in result["median_pages_per_second"].items():
        runs = ", ".join(f"{r['pages_per_second']:.1f} ({r['load_average_before']:.1f})"
                         for r in result["runs"] if str(r["workers"]) == w)
        after = result["speedup_after_first"][w]
        table.add_row(w, f"{rate:.1f}", f"{result['speedup'][w]:.2f}x",
                      f"{result['median_pages_per_second_after_first'][w]:.1f}",
                      f"{after:.2f}x" if after is not None else "—", runs)
    console.print(table)
    console.print(f"report: {write_json(dated(out, 'fanout'), result)}", highlight=False)

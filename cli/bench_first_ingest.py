"""`kg bench first-ingest`: a new database, `kg db start`, then `kg ingest samples/` timed (bench/first_ingest.py)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from bench.first_ingest import run, write
from cli.output import console
from kg.settings import get_settings


def first_ingest_bench(
    papers: Path = typer.Option(Path("samples"), "--papers", exists=True, file_okay=False,
                                help="the folder `make run` ingests"),
    runs: int = typer.Option(3, "--runs", min=1, help="new databases, one ingest each; the median is the figure"),
    out: Path = typer.Option(Path("bench/results"), "--out", file_okay=False, help="folder of the JSON report"),
) -> None:
    """Time the first ingest of a new database as `make run` makes it (a new data directory, `kg db start`, then
    `kg ingest`), several times; print the median and write the figures as dated JSON. Exit status 1 when a run
    failed."""
    with console.status("starting") as status:
        report = run(papers, get_settings(), runs, progress=status.update)
    table = Table(title=f"kg bench first-ingest ({report['machine']['cpu_model']}, {report['machine']['cores']} cores)")
    for column in ("run", "wall s", "kg CPU s", "Neo4j CPU s", "load before", "ok"):
        table.add_column(column)
    for n, r in enumerate(report["runs"], 1):
        table.add_row(str(n), f"{r['seconds']:.1f}", f"{r['ingest_cpu_seconds']:.1f}", f"{r['neo4j_cpu_seconds']:.1f}",
                      f"{r['load_average_before']:.1f}", "yes" if r["ok"] else f"[red]no[/] {r['error'] or ''}")
    console.print(table)
    console.print(f"median {report['median_seconds']} s (target {report['target_seconds']:g} s: "
                  f"{'met' if report['met'] else 'not met'})")
    console.print(f"report: {write(report, out)}", highlight=False)
    if report["failed_runs"]:
        raise typer.Exit(1)

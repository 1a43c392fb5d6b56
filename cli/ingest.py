"""`kg ingest PATH...` and `kg delete PAPER`: thin wrappers over kg.ingest.pipeline and kg.ingest.delete."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.table import Table

from cli.output import console, err_console
from kg.db import store
from kg.ingest.bulk import bulk_load
from kg.ingest.delete import collect_orphan_pdfs, delete_paper
from kg.db.filestore import PDFStore
from kg.ingest.pipeline import STAGES, ExecutorFactory, IngestReport, Ingestor, PaperOutcome, discover, local_executor
from kg.settings import get_settings
from ontology.loader import get_schema


def ingest(
    paths: list[Path] = typer.Argument(..., exists=True, help="PDF files or folders (searched recursively)"),
    workers: int = typer.Option(max(1, (os.cpu_count() or 2)), "--workers", "-w", min=1,
                                help="parser processes (each with the PAPERKG_PARSE_* limits)"),
    force: bool = typer.Option(False, "--force", help="re-ingest files already in the graph with the same versions"),
    embed: bool = typer.Option(True, "--embed/--no-embed", help="compute chunk embeddings (PAPERKG_EMBEDDER)"),
    as_json: bool = typer.Option(False, "--json", help="print a machine-readable report on stdout"),
    bulk: bool = typer.Option(False, "--bulk", help="first load of an empty local database with neo4j-admin's "
                                                    "importer (stops and restarts the local server)"),
    replace: bool = typer.Option(False, "--replace", help="with --bulk: discard the graph the database holds"),
    compress: bool = typer.Option(False, "--compress-csv", help="with --bulk: write the CSV gzip-compressed "
                                  "(about a fifth of the disk; the import step reads it more slowly)"),
    executor: str = typer.Option("local", "--executor", help="where papers are parsed: 'local' (this machine's "
                                 "parser processes) or 'dask' (Dask distributed workers; the `distributed` extra)"),
    scheduler: str | None = typer.Option(None, "--scheduler", help="with --executor dask: the scheduler's "
                                         "tcp://HOST:PORT (default: a local cluster of --workers processes)"),
) -> None:
    """Parse, chunk, embed, validate and write PDFs into Neo4j, one transaction per paper.

    Files already ingested with the same extractor versions are skipped ("unchanged"). With --bulk, the same
    graph is written as CSV and loaded by Neo4j's importer into the local server's database, which must hold
    no graph (or --replace). With --executor dask, the papers are parsed on Dask workers and written here, in
    the same order. Exit status 1 when any paper failed or the run stopped early.
    """
    for flag, given in (("--replace", replace), ("--compress-csv", compress)):
        if given and not bulk:
            raise typer.BadParameter(f"{flag} goes with --bulk only", param_hint=flag)
    parse_on = parse_executor(executor, scheduler)
    settings = get_settings()
    files = list(discover(paths))
    shown = err_console if as_json else console
    if bulk:
        _bulk(files, settings, replace, compress, workers, embed, as_json, shown, parse_on)
        return
    with store.open_graph(settings) as graph, _progress(shown) as progress:
        collect_orphan_pdfs(graph, PDFStore(settings.data_dir))
        task = progress.add_task("ingesting", total=len(files), pages=0)
        report = Ingestor(settings, graph, workers=workers, force=force, embed=embed, executor=parse_on,
                          on_paper=_advance_on(progress, task)).run(files)
    if as_json:
        typer.echo(json.dumps(report.as_json(), indent=2, default=str))
    else:
        _summary(report, console)
        console.print(f"Explore: Neo4j Browser {settings.browser_url}; while `kg serve` runs, it opens paperkg's "
                      "guide on connect, starting with the papers and their methods, datasets and tasks",
                      markup=False, highlight=False)
    if not report.ok:
        raise typer.Exit(1)


def parse_executor(name: str, scheduler: str | None) -> ExecutorFactory:
    """The --executor and --scheduler options as the factory Ingestor takes (kg ingest, kg bench fanout)."""
    if name not in ("local", "dask"):
        raise typer.BadParameter(f"{name!r} is neither 'local' nor 'dask'", param_hint="--executor")
    if name == "local":
        if scheduler:
            raise typer.BadParameter("--scheduler goes with --executor dask only", param_hint="--scheduler")
        return local_executor
    from kg.ingest.dask_workers import dask_executor  # imports Dask only when asked for

    return dask_executor(scheduler)


def _advance_on(progress: Progress, task: TaskID) -> Callable[[PaperOutcome], None]:
    """A callback that moves `task` one paper on, adds the paper's pages and names its file: the ingest and the bulk
    load report each paper the same way."""
    pages = 0

    def advance(outcome: PaperOutcome) -> None:
        nonlocal pages
        pages += outcome.pages
        progress.update(task, advance=1, pages=pages, description=Path(outcome.path).name[:40])
    return advance


def _bulk(files: list[Path], settings, replace: bool, compress: bool, workers: int, embed: bool, as_json: bool,
          shown: Console, executor: ExecutorFactory) -> None:
    with _progress(shown) as progress:
        task = progress.add_task("parsing", total=len(files), pages=0)
        report = bulk_load(files, settings, replace=replace, workers=workers, embed=embed, executor=executor,
                           on_paper=_advance_on(progress, task), compressed=compress)
    if as_json:
        typer.echo(json.dumps(report.as_json(), indent=2, default=str))
    else:
        _summary(report.ingest, console)
        console.print(f"bulk import: {report.nodes} nodes, {report.relationships} relationships in "
                      f"{report.seconds['import']:.1f} s ({report.import_elements_per_s:,.0f} elements/s); "
                      f"empty lists {report.seconds['lists']:.1f} s, constraints and indexes "
                      f"{report.seconds['schema']:.1f} s", markup=False, highlight=False)
    if not report.ingest.ok:
        raise typer.Exit(1)


def _progress(shown: Console) -> Progress:
    return Progress(TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("papers, {task.fields[pages]} pages"), TimeElapsedColumn(), TextColumn("ETA"),
                    TimeRemainingColumn(), console=shown, transient=True)


def _summary(report: IngestReport, out: Console) -> None:
    totals = report.totals()
    papers = Table(title="ingest summary", show_header=False)
    papers.add_row("papers ingested / unchanged / failed",
                   f"{totals['ingested']} / {totals['unchanged']} / [{'red' if totals['failed'] else 'green'}]"
                   f"{totals['failed']}[/]")
    papers.add_row("pages parsed", str(totals["pages"]))
    papers.add_row("nodes / edges written", f"{totals['nodes_written']} / {totals['edges_written']}")
    papers.add_row("elements kept as curated", str(totals["kept_human"]))
    papers.add_row("curated elements contested (review queue: contested)", str(totals["contested"]))
    papers.add_row("embeddings", report.embeddings)
    papers.add_row("wall time", f"{report.wall_seconds:.1f} s")
    papers.add_row("time per stage (s, summed over workers)",
                   ", ".join(f"{s} {totals['seconds_per_stage'][s]:.1f}" for s in STAGES))
    out.print(papers)
    if totals["rejections"]:
        rejected = Table(title="elements rejected by the ontology")
        for column in ("reason", "count", "examples"):
            rejected.add_column(column)
        for reason, count in sorted(totals["rejections"].items()):
            rejected.add_row(reason, str(count), "\n".join(report.rejection_examples.get(reason, [])))
        out.print(rejected)
    scanned = [p for p in report.papers if p.warnings]
    if scanned:
        table = Table(title="pages without a text layer")
        table.add_column("file")
        table.add_column("what happened")
        for p in scanned:
            table.add_row(p.path, "\n".join(p.warnings))
        out.print(table)
    failed = [p for p in report.papers if p.status == "failed"]
    if failed:
        table = Table(title="failed papers")
        table.add_column("file")
        table.add_column("reason")
        for p in failed:
            table.add_row(p.path, p.reason or "")
        out.print(table)
    if report.stopped:
        out.print(f"[bold red]stopped:[/] {report.stopped}", highlight=False)


def delete(paper: str = typer.Argument(..., help="a paper's id (paper_...), its PDF's SHA-256, DOI, arXiv id or "
                                                "whole title")) -> None:
    """Remove a paper, its structure and chunks, and the shared entities no other paper uses."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        report = delete_paper(graph, paper, get_schema(), PDFStore(settings.data_dir))
    console.print(f"Deleted paper {report.sha256[:12]}…: {report.nodes_deleted} nodes, {report.edges_deleted} "
                  f"relationships{', stored PDF removed' if report.pdf_removed else ''}")

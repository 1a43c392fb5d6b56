"""`kg bench robustness`: fuzzing, malformed inputs, fault injection and load against servers of its own (bench/)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from bench.robustness import Bounds, run, write
from cli.output import console


def robustness_bench(
    corpus: Path = typer.Option(Path("../shared/corpus"), "--corpus", exists=True, file_okay=False,
                                help="PDFs for fault injection and load (the smallest are used)"),
    out: Path = typer.Option(Path("bench/results"), "--out", file_okay=False, help="folder of the JSON report"),
    examples: int = typer.Option(Bounds.examples, "--examples", min=1,
                                 help="fuzz: generated requests per operation and mode (each sent without and with "
                                      "an admin key)"),
    kinds: list[str] = typer.Option([], "--kind", help="a malformed PDF kind to upload, e.g. truncated.pdf "
                                                       "(repeatable; default all)"),
    papers: int = typer.Option(Bounds.papers, "--papers", min=2, help="fault injection: papers in the killed run"),
    clients: int = typer.Option(Bounds.clients, "--clients", min=1, help="load: concurrent clients"),
    per_client: int = typer.Option(Bounds.per_client, "--per-client", min=2, help="load: requests per client"),
    uploads: int = typer.Option(Bounds.uploads, "--uploads", min=0, help="load: papers uploaded under load"),
    max_seconds: float = typer.Option(Bounds.max_seconds, "--max-seconds", min=1, help="load: longest phase"),
) -> None:
    """Start a throw-away Neo4j and `kg serve`, then fuzz the API, upload malformed PDFs, kill Neo4j mid-ingest and
    time /ask and lookups under load; print the figures and write them as JSON. Exit status 1 when an invariant
    (zero 5xx, nothing left over, no partial paper, p95 within 2x, ...) fails."""
    bounds = Bounds(examples=examples, kinds=kinds, papers=papers, clients=clients, per_client=per_client,
                    uploads=uploads, max_seconds=max_seconds)
    with console.status("starting") as status:
        report = run(corpus, bounds, progress=lambda phase: status.update(phase))
    path = write(report, out)
    _print(report)
    console.print(f"report: {path}", highlight=False)
    if not report["ok"]:
        raise typer.Exit(1)


def _print(report: dict) -> None:
    fuzzed, bad, faults, load = report["fuzz"], report["malformed"], report["faults"], report["load"]
    summary = Table(title=f"kg bench robustness ({report['machine']['cpu_model']}, {report['machine']['cores']} cores)")
    for column in ("phase", "measure", "value"):
        summary.add_column(column)
    summary.add_row("fuzz", "cases / operations", f"{fuzzed['cases']} / {fuzzed['operations']}")
    summary.add_row("", "5xx / schema violations", f"{fuzzed['server_errors']} / {fuzzed['schema_violations']}")
    for failure in fuzzed["failures"][:10]:
        summary.add_row("", f"{failure['operation']} (key {failure['key']})", f"{failure['status']} {failure['problem']}")
    for row in bad["files"]:
        summary.add_row("malformed", row["file"], f"{row['http_status']} {row['job_status'] or ''} "
                                                  f"{row['error_code'] or ''} {row['seconds']} s, health {row['health']}")
    summary.add_row("", "bad upload names", ", ".join(f"{r['http_status']} {r['error_code']}" for r in bad["bad_names"]))
    summary.add_row("", "papers / stored PDFs / spool files left",
                    f"{len(bad['papers_left'])} / {len(bad['stored_pdfs_left'])} / {len(bad['spool_files_left'])}")
    summary.add_row("faults", "reported committed", ", ".join(faults["reported_committed"]) or "none")
    summary.add_row("", "in graph after restart", ", ".join(faults["in_graph_after_restart"]) or "none")
    summary.add_row("", "next kg ingest", f"exit {faults['next_ingest']['exit_status']}, "
                                          f"{len(faults['in_graph_after_next_ingest'])}/{len(faults['papers'])} papers")
    for kind in ("ask", "node"):
        idle, busy = load["idle"].get(kind, {}), load["writes"].get(kind, {})
        summary.add_row("load" if kind == "ask" else "", f"{kind} p50 / p95 ms idle",
                        f"{idle.get('p50_ms')} / {idle.get('p95_ms')}")
        summary.add_row("", f"{kind} p50 / p95 ms under writes",
                        f"{busy.get('p50_ms')} / {busy.get('p95_ms')} ({load['p95_ratio'][kind]}x)")
    summary.add_row("", "errors", str(load["errors"]))
    console.print(summary)
    checks = Table(title="invariants")
    checks.add_column("invariant")
    checks.add_column("holds")
    for name, holds in report["invariants"].items():
        checks.add_row(name, "[green]yes[/]" if holds else "[red]no[/]")
    console.print(checks)

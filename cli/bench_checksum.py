"""`kg bench checksum --corpus DIR`: the graph checksum of a corpus ingested afresh (bench/checksum.py)."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import typer

from bench.checksum import run
from bench.stamp import dated, write_json
from cli.output import console
from kg.ingest.writer import Speed


def checksum_bench(
    corpus: Path = typer.Option(..., "--corpus", exists=True, file_okay=False, help="directory of PDFs"),
    workers: int = typer.Option(2, "--workers", "-w", min=1, help="parser processes"),
    writer: str = typer.Option("tuned", "--writer", help="the ingest's writer: tuned (the default) or reference, "
                                                         "the plain one it must match"),
    out: Path = typer.Option(Path("bench/results"), "--out", file_okay=False, help="folder of the JSON report"),
) -> None:
    """Ingest the corpus into a throw-away Neo4j and print the graph's checksum (`kg export checksum`); the same
    code and corpus give the same checksum, so a change that must not alter the graph is checked against the last
    committed result; so must the reference writer's. Writes it as dated JSON."""
    if writer not in get_args(Speed):
        raise typer.BadParameter(f"--writer must be one of {', '.join(get_args(Speed))}")
    with console.status("ingesting the corpus into a Neo4j of its own..."):
        report = run(corpus, workers, writer)
    path = write_json(dated(out, "checksum"), report)
    console.print(f"{report['checksum']} ({report['ingested']} papers ingested, {len(report['failed'])} failed); "
                  f"written to {path}", highlight=False)

"""`kg bench ingest --corpus DIR`: end-to-end pages/s with the stage split, the writer's elements/s (on the corpus's
own papers and on large synthetic ones), the unchanged re-run as a share of the first ingest, and bare PyMuPDF text
extraction as the floor.

Registered as `kg bench ingest` in cli/main.py. It writes into the configured database: the corpus's
papers are deleted first so the first ingest is a real one, are deleted and written again to time the writer on
them, and stay in the graph afterwards.
"""

from __future__ import annotations

import os
from pathlib import Path

import typer
from rich.table import Table

from bench.ingest import (WriterResult, bare_text_seconds, corpus_ingest, papers_writer_throughput, server_runtime,
                          writer_throughput)
from bench.stamp import header, write_json
from cli.output import console
from kg.db import store
from kg.ingest.pipeline import STAGES, discover
from kg.settings import get_settings


def ingest_bench(
    corpus: Path = typer.Option(..., "--corpus", exists=True, file_okay=False, help="directory of PDFs"),
    workers: int = typer.Option(max(1, os.cpu_count() or 2), "--workers", "-w", min=1, help="parser processes"),
    writer_chunks: int = typer.Option(2_000, "--writer-chunks", min=100,
                                      help="chunks of each synthetic paper for the writer (in 100 sections: a "
                                           "multiple of 100)"),
    writer_papers: int = typer.Option(5, "--writer-papers", min=1,
                                      help="synthetic papers the writer writes back to back (after one warm-up paper)"),
    writer_entities: int = typer.Option(20_000, "--writer-entities", min=0,
                                        help="the corpus's papers are written again with this many more entities in "
                                             "the graph (as after a thousand papers or more; 0: not measured)"),
    json_out: Path | None = typer.Option(None, "--json", help="also write the figures to this JSON file"),
) -> None:
    """Benchmark ingestion on a corpus; the result says which targets it meets."""
    if writer_chunks % 100:
        raise typer.BadParameter(f"{writer_chunks} is not a multiple of 100 (the synthetic papers have 100 sections)",
                                 param_hint="--writer-chunks")
    settings = get_settings()
    files = list(discover([corpus]))
    with store.open_graph(settings) as graph:
        runtime = server_runtime(graph.driver)
        with console.status("first ingest of the corpus..."):
            first, again, written = corpus_ingest(settings, graph, corpus, workers)
        with console.status("writer on the corpus's papers..."):
            real = papers_writer_throughput(graph, written) if written else None
        with console.status(f"writer on the corpus's papers, {writer_entities:,} more entities in the graph..."):
            large = (papers_writer_throughput(graph, written, entities=writer_entities)
                     if written and writer_entities else None)
        with console.status("writer on a batch of synthetic papers..."):
            writers = {dim: writer_throughput(graph, sections=100, chunks_per_section=writer_chunks // 100,
                                              embedding_dim=dim, papers=writer_papers)
                       for dim in (0, settings.embedding_dim)}
    floor, floor_pages = bare_text_seconds(files)
    totals = first.totals()
    result = {
        **header(),
        "server": runtime.describe(),
        "workers": workers, "embeddings": first.embeddings, "papers": len(files),
        "failed": totals["failed"], "pages": totals["pages"], "seconds": round(first.wall_seconds, 2),
        "pages_per_second": round(totals["pages"] / first.wall_seconds, 2),
        "seconds_per_stage": totals["seconds_per_stage"],
        "bare_pymupdf_seconds": round(floor, 2), "bare_pymupdf_pages": floor_pages,
        "ratio_to_bare_pymupdf": round(first.wall_seconds / floor, 1),
        "writer_corpus_papers": _figures(real) if real else None,
        "writer_corpus_papers_large_graph": {"more_entities": writer_entities, **_figures(large)} if large else None,
        "writer": {("with_embeddings" if dim else "without_embeddings"): _figures(w) for dim, w in writers.items()},
        "reingest_seconds": round(again.wall_seconds, 2), "reingest_unchanged": again.count("unchanged"),
        "reingest_share": round(again.wall_seconds / first.wall_seconds, 4),
    }
    table = Table(title=f"kg bench ingest — {result['date']}, {result['machine']}; {result['server']}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target")
    table.add_row("end-to-end pages/s", f"{result['pages_per_second']:.2f} ({result['pages']} pages, "
                  f"{result['seconds']:.0f} s, {totals['failed']} failed)", ">= 10")
    table.add_row("stage split (s, summed over workers)",
                  ", ".join(f"{s} {result['seconds_per_stage'][s]:.1f}" for s in STAGES), "")
    table.add_row("total / bare PyMuPDF text", f"{result['ratio_to_bare_pymupdf']}x ({floor:.1f} s)", "")
    table.add_row("writer elements/s, the corpus's papers as ingested", _row(real) if real else "no paper written",
                  ">= 20000")
    if large:
        table.add_row(f"writer elements/s, the same, {writer_entities:,} more entities in the graph", _row(large), "")
    for dim, w in writers.items():
        table.add_row(f"writer elements/s, synthetic papers, {f'{dim}-d embeddings' if dim else 'no embeddings'}",
                      _row(w), ">= 20000")
    table.add_row("unchanged re-ingest / first", f"{result['reingest_share']:.2%} ({again.wall_seconds:.1f} s)", "< 5%")
    console.print(table)
    if json_out:
        write_json(json_out, result)


def _figures(w: WriterResult) -> dict:
    return {"papers": w.papers, "elements": w.elements, "seconds": round(w.seconds, 2),
            "elements_per_second": round(w.per_second),
            "seconds_per_part": {k: round(v, 2) for k, v in w.parts.items()},
            "elements_per_second_per_part": {k: round(v) for k, v in w.split().items()}}


def _row(w: WriterResult) -> str:
    split = ", ".join(f"{part} {rate:,.0f}/s" for part, rate in w.split().items())
    return f"{w.per_second:,.0f} ({w.papers} papers, {w.elements} in {w.seconds:.1f} s; {split})"

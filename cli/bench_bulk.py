"""`kg bench bulk`: a bulk first load's import step in graph elements per second (bench/bulk.py)."""

from __future__ import annotations

from pathlib import Path

import typer

from bench.bulk import run, write
from bench.synth import SynthConfig
from cli.output import console
from kg.settings import get_settings


def bulk_bench(
    corpus: Path = typer.Option(Path("../shared/corpus"), "--corpus", exists=True, file_okay=False,
                                help="folder of PDFs, parsed once"),
    templates: int | None = typer.Option(None, "--templates", min=1,
                                         help="only the first N PDFs of the corpus as templates"),
    papers: int = typer.Option(1000, "--papers", min=1, help="synthetic papers to load (bench/synth.py)"),
    seed: int = typer.Option(0, "--seed", help="the synthetic corpus follows from it"),
    vocabulary: int = typer.Option(5000, "--vocabulary", min=1,
                                   help="entity names per label the papers draw from (fewer: more shared)"),
    vectors: bool = typer.Option(True, "--vectors/--no-vectors", help="chunk vectors in the load"),
    then_write: int = typer.Option(0, "--then-write", min=0,
                                   help="then write N more papers transactionally, into the empty and the loaded "
                                        "graph, and time node lookups"),
    load_clients: int = typer.Option(0, "--load-clients", min=0,
                                     help="then serve the loaded graph and time /ask and node lookups with N "
                                          "concurrent clients, then /locate, /coverage, review lists, the queue "
                                          "and verifies (0: no API load)"),
    workers: int = typer.Option(2, "--workers", "-w", min=0, help="parser processes"),
    compress: bool = typer.Option(False, "--compress-csv", help="gzip the CSV, as `kg ingest --bulk --compress-csv` "
                                  "does (for a load whose plain CSV would not fit the disk beside the store)"),
    out: Path = typer.Option(Path("bench/results"), "--out", file_okay=False, help="folder of the JSON report"),
) -> None:
    """Parse a corpus, make `papers` synthetic papers of it (bench/synth.py), load them into a throw-away local
    Neo4j with `neo4j-admin database import full` as `kg ingest --bulk` does, and report the import step's elements per second (target 100,000), the
    pass after it (empty lists, line breaks) and the constraint and index builds apart. Exit status 1 below the
    target."""
    with console.status("starting") as status:
        report = run(corpus, get_settings(), SynthConfig(papers, seed=seed, vocabulary=vocabulary, vectors=vectors),
                     workers, templates, progress=status.update, then_write=then_write,
                     load_clients=load_clients, compressed=compress)
    seconds = report["seconds"]
    shared = report["synthetic"]["drawn"]
    console.print(f"{report['papers']:,} synthetic papers of {report['papers_parsed']} parsed ({shared['entities']:,} "
                  f"entities, {shared['entity_reuse_share']:.0%} of mentions shared; {shared['citations']:,} "
                  f"citations): "
                  f"{report['nodes']:,} nodes, {report['relationships']:,} relationships, "
                  f"{report['csv_bytes'] / 2**20:.0f} MiB of CSV{' (gzip)' if compress else ''}, "
                  f"{report['store_bytes'] / 2**20:.0f} MiB store")
    console.print(f"import {seconds['import']:.1f} s: {report['import_elements_per_s']:,} elements/s (target "
                  f"{report['target_elements_per_s']:,}: {'met' if report['met'] else 'not met'}; by the importer's "
                  f"own time "
                  f"{report['import_tool_elements_per_s'] or 0:,}); empty lists and line breaks "
                  f"{seconds['lists']:.1f} s, constraints and indexes {seconds['schema']:.1f} s; parse "
                  f"{seconds['parse']:.1f} s, CSV {seconds['csv']:.1f} s", highlight=False)
    if "vector_index" in seconds:
        console.print(f"of the indexes, the chunk vector index {seconds['vector_index']:.1f} s, "
                      f"{report['vector_index_bytes'] / 2**20:.0f} MiB", highlight=False)
    if report["transactional"]:
        growth = report["transactional"]
        console.print(f"transactional writer, {then_write} papers: {growth['empty_graph']['elements_per_s']:,} "
                      f"elements/s into the empty graph, {growth['loaded_graph']['elements_per_s']:,} into the loaded "
                      f"one ({growth['ratio']}x); node lookup p95 {growth['node_lookup']['p95_ms']} ms",
                      highlight=False)
    if report["api_load"]:
        load = report["api_load"]
        console.print(f"API, {load['clients']} clients: " + "; ".join(
            f"{kind} p95 {load[kind]['p95_ms']} ms ({load[kind]['errors']} errors)" for kind in ("ask", "node")
            if kind in load), highlight=False)
        others = load["endpoints"]
        console.print(f"API, {load['clients']} clients, one kind at a time: " + "; ".join(
            f"{kind} p95 {others[kind]['p95_ms']} ms ({others[kind]['errors']} errors)"
            for kind in ("locate", "coverage", "review", "queue", "verify") if kind in others), highlight=False)
    console.print(f"report: {write(report, out)}", highlight=False)
    if not report["met"]:
        raise typer.Exit(1)

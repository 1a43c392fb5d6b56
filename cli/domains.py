"""`kg domains`: the research domains papers and sections are tagged with; `retag` applies a changed seeds file to
every paper in the graph without parsing any PDF again."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from cli.output import console
from cli.qa import PAPER_NAME
from extractors.domains import Seeds, Tagger, seeds_text
from kg.db import store
from kg.ingest.domains import domains, paper_domains, retag
from kg.embeddings import load_embedder
from kg.settings import get_settings
from ontology.loader import get_schema

app = typer.Typer(help="Research domains of papers and sections, from editable seed phrases.", no_args_is_help=True)


@app.command("list")
def list_(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """Every domain in the graph with the number of papers and sections tagged with it."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        rows = domains(graph)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        console.print("No domains yet: `kg ingest` tags papers as it writes them, `kg domains retag` tags those in "
                      "the graph.")
        return
    table = Table(title="research domains")
    for column in ("id", "name", "papers", "sections"):
        table.add_column(column, justify="right" if column in ("papers", "sections") else "left")
    for row in rows:
        table.add_row(row["id"], escape(row["name"] or ""), str(row["papers"]), str(row["sections"]))
    console.print(table)


@app.command("paper")
def paper(name: str = typer.Argument(..., help="The paper: " + PAPER_NAME + "."),
          as_json: bool = typer.Option(False, "--json", help="Print the API's JSON instead of a table.")) -> None:
    """A paper's domains and its sections', each with its score, the seed phrases that matched and, for the
    paper, the domain's venues its bibliography cites."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        report = paper_domains(graph, name)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    table = Table(title=escape(report["title"] or report["paper_id"]))
    for column in ("of", "domain", "score", "matched phrases", "venues cited"):
        table.add_column(column, overflow="fold")
    for tag in report["domains"]:
        table.add_row("paper", tag["id"], f"{tag['score']:.3f}", escape(", ".join(tag["matched"])),
                      escape(", ".join(tag["cited_venues"])))
    for tag in report["sections"]:
        table.add_row(escape(tag["section_title"] or tag["section_id"]), tag["id"], f"{tag['score']:.3f}",
                      escape(", ".join(tag["matched"])), "")
    console.print(table)


@app.command("seeds")
def seeds_() -> None:
    """Print the seeds file in effect (PAPERKG_DOMAIN_SEEDS, else the shipped one): a start for your own."""
    typer.echo(seeds_text(get_settings().domain_seeds), nl=False)


@app.command("retag")
def retag_(seeds: Path | None = typer.Option(None, "--seeds", exists=True, dir_okay=False,
                                             help="Seeds YAML (default: PAPERKG_DOMAIN_SEEDS or the shipped file)."),
           as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Tag every paper in the graph again from the seeds, reading its text and stored embeddings: only IN_DOMAIN
    edges and Domain nodes change, and tags a curator decided stay as they are. Set PAPERKG_DOMAIN_SEEDS to the
    same file so that later ingests use it too."""
    settings = get_settings()
    parsed = Seeds.load(seeds or settings.domain_seeds)  # a broken file is refused before the graph is touched
    embedder = load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
    with store.open_graph(settings) as graph:
        report = retag(graph, get_schema(), Tagger(parsed, embedder.embed if embedder else None))
    if as_json:
        typer.echo(json.dumps(report.as_json(), indent=2))
        return
    console.print(f"Retagged {report.papers} paper{'s' if report.papers != 1 else ''} with {report.domains} domains "
                  f"(seeds {report.seeds}): {report.written} tags written, {report.deleted} replaced, {report.kept} "
                  f"left as curated, {report.domains_removed} domains removed"
                  + ("" if report.embeddings else "; keywords only, embeddings are off"), highlight=False)

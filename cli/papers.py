"""`kg papers`: the papers in the graph, with the ids the other commands take."""

from __future__ import annotations

import json

import typer
from rich.table import Table

from cli.output import console
from kg import store
from kg.queries import paper_overview
from kg.settings import get_settings
from ontology.loader import get_schema

COUNTS = ("sections", "chunks", "entities")


def papers(as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of a table.")) -> None:
    """List the ingested papers: id, title, year and their sections, chunks and entities (rejected ones left out)."""
    settings = get_settings()
    with store.connect(settings) as driver:
        rows = paper_overview(driver, get_schema(), settings.neo4j_database)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        console.print("No papers in the graph yet: `kg ingest PATH...` adds some.")
        return
    table = Table(title=f"{len(rows)} paper{'s' if len(rows) != 1 else ''}")
    table.add_column("id", no_wrap=True)
    table.add_column("title", overflow="fold")
    table.add_column("year", justify="right")
    for name in COUNTS:
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(row["id"], row["title"] or "", str(row["year"] or ""), *(str(row[name]) for name in COUNTS))
    console.print(table, highlight=False)

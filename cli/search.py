"""`kg search`: papers and their sections by text and meaning, with facets and the signals of each hit's rank."""

from __future__ import annotations

import json
from dataclasses import asdict

import typer
from rich.markup import escape
from rich.table import Table

from cli.output import console
from kg.db import store
from kg.find import search as kg_search
from kg.qa.retrieval import query_embedder
from kg.settings import get_settings
from ontology.loader import get_schema


def _bounded(text: str) -> str:
    if not text.strip() or len(text) > kg_search.MAX_QUERY_CHARS:
        raise typer.BadParameter(f"give 1 to {kg_search.MAX_QUERY_CHARS} characters")
    return text


def search(query: str = typer.Argument(..., callback=_bounded, help="Topic words."),
           as_json: bool = typer.Option(False, "--json", help="Print the API's JSON instead of a table."),
           limit: int = typer.Option(10, min=1, max=kg_search.MAX_LIMIT, help="Papers to list."),
           domain: str | None = typer.Option(None, help="Only papers tagged with this domain (id or name)."),
           year: int | None = typer.Option(None, min=1000, max=9999, help="Only papers of this year."),
           entity: str | None = typer.Option(None, help="Only papers mentioning this entity (name or alias)."),
           mmr: bool = typer.Option(False, "--mmr", help="Re-order for diversity (maximal marginal relevance).")
           ) -> None:
    """Search the ingested papers: fulltext and vector similarity over their chunks, ranked by text match,
    semantic similarity, entity overlap, in-corpus citations and recency (docs/search.md)."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        result = kg_search.search(graph, get_schema(), kg_search.SearchQuery(query, limit, domain, year, entity, mmr),
                                  query_embedder(settings))
    if as_json:
        body = asdict(result)
        for hit in body["hits"]:
            hit.pop("vector")
        typer.echo(json.dumps(body, indent=2))
        return
    if not result.hits:
        console.print("No paper matches.")
        return
    table = Table(title=f"search: {escape(query)}")
    for column in ("#", "score", "paper", "year", "text", "sem", "ent", "cite", "rec", "best section"):
        table.add_column(column, overflow="fold")
    for rank, hit in enumerate(result.hits, start=1):
        s = hit.signals
        section = hit.sections[0].title if hit.sections else ""
        table.add_row(str(rank), f"{hit.score:.3f}", escape(hit.title or hit.paper_id), str(hit.year or ""),
                      *(f"{s[k]:.2f}" for k in ("text", "semantic", "entities", "citations", "recency")),
                      escape(section or ""))
    console.print(table)

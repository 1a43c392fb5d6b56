"""`kg papers`: the papers in the graph, with the ids the other commands take; `kg outline`: one paper's section
tree with each section's summary; `kg related`: the papers related to one, with the reasons."""

from __future__ import annotations

import json

import typer
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from cli.output import console
from cli.qa import PAPER_NAME
from kg.find import related as related_papers
from kg.db import store
from kg.read.queries import paper_outline, paper_overview
from kg.settings import get_settings
from ontology.loader import get_schema

COUNTS = ("sections", "chunks", "entities")


def papers(as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of a table.")) -> None:
    """List the ingested papers: id, title, year and their sections, chunks and entities (rejected ones left out)."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        rows = paper_overview(graph, get_schema())
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


def outline(paper: str = typer.Argument(..., help="The paper: " + PAPER_NAME + "."),
            as_json: bool = typer.Option(False, "--json", help="Print the API's JSON instead of a tree.")) -> None:
    """A paper's sections as a tree in reading order, each with its summary: its most central sentences, with
    the page each is printed on (`--json` adds their character spans and boxes)."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        report = paper_outline(graph, paper)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    tree = Tree(f"[bold]{escape(report['title'] or report['paper_id'])}[/]")
    _add_sections(tree, report["sections"])
    console.print(tree, highlight=False)
    if not report["sections"]:
        console.print("No sections: the parse found no headings in this paper.")


def _add_sections(parent: Tree, sections: list[dict]) -> None:
    for section in sections:
        heading = " ".join(filter(None, (section["number"], section["title"])))
        unprinted = "" if section["printed"] else " (no heading printed)"
        branch = parent.add(f"[bold]{escape(heading)}[/][dim]{unprinted} p. {section['page_start']}[/]")
        for sentence in section["summary"]:
            branch.add(f"{escape(' '.join(sentence['text'].split()))} [dim](p. {sentence['page']})[/]")
        _add_sections(branch, section["children"])


def related(paper: str = typer.Argument(..., help="The paper: " + PAPER_NAME + "."),
            limit: int = typer.Option(10, "--limit", min=1, max=related_papers.MAX_LIMIT,
                                      help="Related papers to list at most."),
            as_json: bool = typer.Option(False, "--json", help="Print the API's JSON instead of a table.")) -> None:
    """The papers of the graph related to this one, best first: the entities they share (rarer ones weigh more),
    shared bibliography entries and papers citing both, and embedding similarity, each with its contribution."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        report = related_papers.related_papers(graph, get_schema(), paper, limit)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    if not report["related"]:
        console.print("No related papers: no other paper shares an entity, a reference or similar text with it.")
        return
    table = Table(title=f"Related to {escape(report['title'] or report['paper_id'])}")
    table.add_column("score", justify="right")
    table.add_column("paper", overflow="fold")
    table.add_column("reasons", overflow="fold")
    for row in report["related"]:
        table.add_row(f"{row['score']:.3f}", escape(f"{row['title'] or ''} ({row['paper_id']})"),
                      escape("; ".join(_reason_text(r) for r in row["reasons"])))
    console.print(table, highlight=False)


def _reason_text(reason: dict) -> str:
    kind, share = reason["kind"], f"+{reason['contribution']:.3f}"
    if kind == "entities":
        return f"{share} shares " + ", ".join(f"{e['label']} {e['name']}" for e in reason["entities"])
    if kind == "citations":
        parts = [{"cites": "cites it", "cited_by": "cited by it"}[d] for d in reason["direct"]]
        parts += [f"{len(reason['shared_references'])} shared reference(s)"] if reason["shared_references"] else []
        parts += [f"co-cited by {len(reason['co_cited_by'])} paper(s)"] if reason["co_cited_by"] else []
        return f"{share} " + ", ".join(parts)
    return f"{share} embedding similarity {reason['similarity']:.2f}"

"""`kg ask`, `kg verify`, `kg locate`, `kg coverage`: the API's answers in the terminal, as readable tables."""

from __future__ import annotations

import json

import typer
from rich.table import Table

from cli.output import console
from kg.db import store
from kg.read.coverage import coverage as paper_coverage
from kg.find.locate import locate as locate_in_graph
from kg.qa.engine import ask as ask_graph
from kg.qa.llm import rewriter
from kg.qa.retrieval import query_embedder
from kg.qa.verify import verify as verify_claim
from kg.settings import get_settings
from ontology.loader import get_schema

_JSON = typer.Option(False, "--json", help="Print the API's JSON instead of tables.")
PAPER_NAME = "its id, DOI, arXiv id or title (whole, before its colon, or a run of its words)"


def ask(question: str = typer.Argument(..., help="The question, in quotes."),
        paper: str = typer.Option(None, "--paper", "-p", help="Answer from this paper only: " + PAPER_NAME + ". "
                                   "Without it, a paper the question names unambiguously."),
        top_k: int = typer.Option(5, "--top-k", "-k", min=1, max=20, help="Evidence items."),
        as_json: bool = _JSON) -> None:
    """Answer a question from the graph, with the evidence (paper, section, page, box) it came from."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        result = ask_graph(graph, get_schema(), question, paper, top_k,
                           embed=query_embedder(settings), rewrite=rewriter(settings))
    if as_json:
        console.print_json(json.dumps(result.as_dict(), default=str))
        return
    console.print(f"[bold]{result.answer}[/]" if result.answer is not None else f"(no answer: {result.reason})",
                  highlight=False)
    scope = f", from paper {result.paper_id}" if result.paper_id else ""
    console.print(f"intent [cyan]{result.intent}[/], confidence {result.confidence:.2f}{scope}", highlight=False)
    for listed in result.papers or []:  # a cross-paper answer: each paper with its evidence
        first = listed["evidence"][0] if listed["evidence"] else None
        where = f" (p. {first['page']}: {first['text'][:120]})" if first else ""
        console.print(f"- {listed['title'] or listed['paper_id']} [{', '.join(listed['relations'])}]{where}",
                      highlight=False)
    table = Table(title="evidence")
    for col in ("#", "page", "section", "text", "paper", "chunk"):
        table.add_column(col, overflow="fold")
    for n, e in enumerate(result.evidence, start=1):
        table.add_row(str(n), str(e["page"]), e["section"] or "", e["text"][:200], (e["title"] or "")[:40],
                      e["chunk_id"])
    if result.evidence:
        console.print(table)


def verify(claim: str = typer.Argument(..., help='The claim, in quotes: "SPECTER achieves 80.0 on SciDocs".'),
           paper: str = typer.Option(None, "--paper", "-p", help="Check within this paper only: " + PAPER_NAME + "."),
           as_json: bool = _JSON) -> None:
    """Check a claim against the graph and the papers' text: supported, contradicted or not_found, with evidence."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        result = verify_claim(graph, get_schema(), claim, paper,
                              embed=query_embedder(settings))
    if as_json:
        console.print_json(json.dumps(result.as_dict(), default=str))
        return
    colour = {"supported": "green", "contradicted": "red"}.get(result.verdict, "yellow")
    console.print(f"[bold {colour}]{result.verdict}[/]: {result.reason}", highlight=False)
    table = Table(title="evidence")
    for col in ("role", "source", "page", "box", "numbers", "text", "paper"):
        table.add_column(col, overflow="fold")
    for e in result.evidence:
        table.add_row(e["role"], e["source"], str(e["page"]), e["bbox"] or "", " ".join(e["numbers"]),
                      e["text"][:200], (e["title"] or "")[:40])
    if result.evidence:
        console.print(table)


def locate(text: str = typer.Argument(..., help="Figure 3, a method name, a phrase..."),
           paper: str = typer.Option(None, "--paper", "-p", help="Only in this paper: " + PAPER_NAME + "."),
           limit: int = typer.Option(10, "--limit", "-n", min=1, max=100), as_json: bool = _JSON) -> None:
    """Where a figure, table, section, entity or phrase is printed or discussed."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        items = locate_in_graph(graph, get_schema(), text, paper, limit)
    if as_json:
        console.print_json(json.dumps({"query": text, "items": items}))
        return
    table = Table(title=f"locations of {text!r}")
    for col in ("score", "kind", "page", "section", "snippet", "paper"):
        table.add_column(col, overflow="fold")
    for lo in items:
        table.add_row(f"{lo['score']:.2f}", lo["kind"], str(lo["page"]), lo["section"] or "", lo["snippet"][:160],
                      (lo["title"] or "")[:40])
    console.print(table if items else "nothing found")


def coverage(paper: str = typer.Argument(..., help="The paper: " + PAPER_NAME + "."), as_json: bool = _JSON) -> None:
    """How completely a paper's graph links its figures, tables, sections, equations, references and text."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        report = paper_coverage(graph, paper, list(get_schema().entity_labels))
    if as_json:
        console.print_json(json.dumps(report))
        return
    console.print(f"[bold]{report['title'] or paper}[/]: coverage score {report['score']:.2f}", highlight=False)
    table = Table()
    for col in ("category", "linked/total", "ratio"):
        table.add_column(col)
    for c in report["categories"]:
        table.add_row(c["name"], f"{c['linked']}/{c['total']}", "-" if c["ratio"] is None else f"{c['ratio']:.2f}")
    console.print(table)
    missing = Table(title="missing or unlinked")
    for col in ("category", "item", "page", "reason", "action"):
        missing.add_column(col, overflow="fold")
    for c in report["categories"]:
        for item in c["missing"][:15]:
            missing.add_row(c["name"], item["label"] or item["id"], str(item["page"]), item["reason"], item["action"])
    console.print(missing)
    for issue in report["critical"]:
        console.print(f"[bold red]critical:[/] {issue}", highlight=False)

"""`kg export ...`: the graph in other formats (kg/export/formats.py lists them); `kg import` reads the JSON back."""

from __future__ import annotations

from pathlib import Path

import typer

from cli.output import console
from kg.db import store
from kg.db.dump import checksum as graph_checksum
from kg.export.formats import ExportFormat, export
from kg.export.graph_read import read_graph
from kg.export.mermaid import MermaidKind
from kg.export.rdf import RdfFormat, serialize, to_rdf
from kg.export.tabular import CsvTable
from kg.settings import get_settings
from ontology.loader import get_schema

app = typer.Typer(help="Export the graph to other formats.", no_args_is_help=True)
INCLUDE_REJECTED_HELP = ("Also export what curators rejected (hidden by default), marked with its "
                         "verification_status.")


@app.command()
def rdf(
    fmt: RdfFormat = typer.Option(RdfFormat.TURTLE, "--format", "-f", help="RDF serialisation."),
    paper: str | None = typer.Option(None, "--paper",
                                     help="Only this paper's part of the graph (its id, DOI, arXiv id or title)."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write here instead of standard output."),
    include_rejected: bool = typer.Option(False, "--include-rejected", help=INCLUDE_REJECTED_HELP),
) -> None:
    """Export the graph as RDF in the ontology's terms, with provenance as PROV-O."""
    settings, schema = get_settings(), get_schema()
    with store.open_graph(settings) as graph:
        nodes, edges = read_graph(graph, schema, paper_id=paper,
                                  include_rejected=include_rejected)
    text = serialize(to_rdf(nodes, edges, schema), fmt)
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text)
        console.print(f"Wrote {len(nodes)} nodes and {len(edges)} edges as {fmt.value} to {output}")


PAPERS = typer.Option(None, "--paper", help="Only this paper's part of the graph (its id, DOI, arXiv id or title); "
                                            "repeat for several.")
OUTPUT = typer.Option(None, "--output", "-o", help="Write here instead of standard output.")
REJECTED = typer.Option(False, "--include-rejected", help=INCLUDE_REJECTED_HELP)


def _write(fmt: ExportFormat, papers: list[str] | None, output: Path | None, include_rejected: bool = False) -> None:
    settings, schema = get_settings(), get_schema()
    with store.open_graph(settings) as graph:
        result = export(graph, schema, fmt, papers, include_rejected)
    if output is None:
        typer.echo(result.text, nl=False)
    else:
        output.write_text(result.text, encoding="utf-8")
        console.print(f"Wrote {result.nodes} nodes and {result.edges} edges as {fmt.value} to {output}")


@app.command("json")
def json_(papers: list[str] | None = PAPERS, output: Path | None = OUTPUT) -> None:
    """The full graph (nodes, edges, chunks, provenance, status) as paperkg-graph JSON, for `kg import`."""
    _write(ExportFormat.JSON, papers, output)


@app.command()
def checksum() -> None:
    """SHA-256 of the whole graph's canonical dump without write times, run ids and the ingest ledger: the same
    for two graphs of the same papers with the same content, however and whenever they were ingested."""
    settings = get_settings()
    with store.open_graph(settings) as graph:
        typer.echo(graph_checksum(graph))


@app.command()
def markdown(papers: list[str] | None = PAPERS, output: Path | None = OUTPUT,
             include_rejected: bool = REJECTED) -> None:
    """Reading notes: outline with pages, contributions, methods, datasets, metrics, results, figures and tables."""
    _write(ExportFormat.MARKDOWN, papers, output, include_rejected)


@app.command()
def mermaid(kind: MermaidKind = typer.Option(MermaidKind.MINDMAP, "--kind", help="Which diagram."),
            papers: list[str] | None = PAPERS, output: Path | None = OUTPUT, include_rejected: bool = REJECTED) -> None:
    """A Mermaid mind map of each paper, or a flowchart of its methods, experiments and results."""
    _write(ExportFormat.MINDMAP if kind == MermaidKind.MINDMAP else ExportFormat.FLOWCHART, papers, output,
           include_rejected)


@app.command()
def html(papers: list[str] | None = PAPERS, output: Path | None = OUTPUT, include_rejected: bool = REJECTED) -> None:
    """One self-contained interactive page of the graph (works offline); click a node for its evidence."""
    _write(ExportFormat.HTML, papers, output, include_rejected)


@app.command()
def bibtex(papers: list[str] | None = PAPERS, output: Path | None = OUTPUT, include_rejected: bool = REJECTED) -> None:
    """The papers as BibTeX entries, with their provenance in the note field."""
    _write(ExportFormat.BIBTEX, papers, output, include_rejected)


@app.command()
def csv(table: CsvTable = typer.Option(CsvTable.PAPERS, "--table", help="Which table."),
        papers: list[str] | None = PAPERS, output: Path | None = OUTPUT, include_rejected: bool = REJECTED) -> None:
    """The papers, or the results table (method, dataset, metric, value, where reported), as CSV."""
    _write(ExportFormat.CSV_PAPERS if table == CsvTable.PAPERS else ExportFormat.CSV_RESULTS, papers, output,
           include_rejected)


@app.command()
def graphml(papers: list[str] | None = PAPERS, output: Path | None = OUTPUT, include_rejected: bool = REJECTED) -> None:
    """The graph as GraphML for Gephi, Cytoscape or yEd."""
    _write(ExportFormat.GRAPHML, papers, output, include_rejected)

"""`kg export ...`: the graph in other formats (RDF now; more later)."""

from __future__ import annotations

from pathlib import Path

import typer

from cli.output import console
from kg import store
from kg.export.graph_read import read_graph
from kg.export.rdf import RdfFormat, serialize, to_rdf
from kg.settings import get_settings
from ontology.loader import get_schema

app = typer.Typer(help="Export the graph to other formats.", no_args_is_help=True)


@app.command()
def rdf(
    fmt: RdfFormat = typer.Option(RdfFormat.TURTLE, "--format", "-f", help="RDF serialisation."),
    paper: str | None = typer.Option(None, "--paper", help="Only this paper's part of the graph (a Paper id)."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write here instead of standard output."),
) -> None:
    """Export the graph as RDF in the ontology's terms, with provenance as PROV-O."""
    settings, schema = get_settings(), get_schema()
    with store.connect(settings) as driver:
        nodes, edges = read_graph(driver, schema, paper_id=paper, database=settings.neo4j_database)
    text = serialize(to_rdf(nodes, edges, schema), fmt)
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text)
        console.print(f"Wrote {len(nodes)} nodes and {len(edges)} edges as {fmt.value} to {output}")

"""`kg import FILE`: a paperkg-graph JSON file (from `kg export json`) into the database, through the validator."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from cli.output import console
from kg.db import store
from kg.errors import GraphImportError
from kg.export.json_graph import import_graph
from kg.settings import get_settings
from ontology.loader import get_schema


def import_(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="a file written by `kg export json`"),
    merge: bool = typer.Option(False, "--merge", help="merge into a database that already holds a graph (by id)"),
) -> None:
    """Import a graph exported as JSON; into an empty database it gives the same graph.

    Every element is checked against the ontology first: nothing is written unless all of it passes.
    """
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GraphImportError(f"{file} is not JSON: {exc}", hint="export one with: kg export json") from exc
    settings = get_settings()
    with store.open_graph(settings) as graph:
        report = import_graph(graph, get_schema(), document, embedding_dim=settings.embedding_dim, merge=merge)
    console.print(f"Imported {report.nodes_written} nodes and {report.edges_written} edges from {file}")

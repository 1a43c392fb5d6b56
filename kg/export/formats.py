"""Every export format by name, with its media type and file extension: the one table that `kg export ...`
and GET /export/{format} both read, so the CLI and the API offer the same formats with the same output."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Callable

from kg.db.graph import Graph
from kg.export import graphml, html, json_graph, markdown, mermaid, rdf, tabular
from kg.export.graph_read import ReadBound, read_papers
from kg.read.queries import resolve_paper
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord


class ExportFormat(StrEnum):
    JSON = "json"
    MARKDOWN = "markdown"
    MINDMAP = "mermaid-mindmap"
    FLOWCHART = "mermaid-flowchart"
    HTML = "html"
    TURTLE = "turtle"
    JSON_LD = "json-ld"
    BIBTEX = "bibtex"
    CSV_PAPERS = "csv-papers"
    CSV_RESULTS = "csv-results"
    GRAPHML = "graphml"


Render = Callable[[list[NodeRecord], list[EdgeRecord], Schema, list[str] | None], str]


@dataclass(frozen=True)
class FormatSpec:
    media_type: str
    extension: str
    render: Render
    # JSON is the graph itself (backup, move, round trip): it keeps what curators rejected, with that status, so
    # an import restores their decisions. The other formats are for reading and leave rejected elements out.
    with_rejected: bool = False


FORMATS: dict[ExportFormat, FormatSpec] = {
    ExportFormat.JSON: FormatSpec("application/json", "json", lambda n, e, s, papers: json_graph.dumps(
        json_graph.to_document(n, e, s, papers)), with_rejected=True),
    ExportFormat.MARKDOWN: FormatSpec("text/markdown; charset=utf-8", "md",
                                      markdown.to_markdown),
    ExportFormat.MINDMAP: FormatSpec("text/plain; charset=utf-8", "mmd",
                                     lambda n, e, s, p: mermaid.to_mermaid(n, e, s, mermaid.MermaidKind.MINDMAP, p)),
    ExportFormat.FLOWCHART: FormatSpec("text/plain; charset=utf-8", "mmd",
                                       lambda n, e, s, p: mermaid.to_mermaid(n, e, s, mermaid.MermaidKind.FLOWCHART, p)),
    ExportFormat.HTML: FormatSpec("text/html; charset=utf-8", "html", html.to_html),
    ExportFormat.TURTLE: FormatSpec("text/turtle; charset=utf-8", "ttl",
                                    lambda n, e, s, _: rdf.serialize(rdf.to_rdf(n, e, s), rdf.RdfFormat.TURTLE)),
    ExportFormat.JSON_LD: FormatSpec("application/ld+json", "jsonld",
                                     lambda n, e, s, _: rdf.serialize(rdf.to_rdf(n, e, s), rdf.RdfFormat.JSON_LD)),
    ExportFormat.BIBTEX: FormatSpec("application/x-bibtex; charset=utf-8", "bib",
                                    tabular.to_bibtex),
    ExportFormat.CSV_PAPERS: FormatSpec("text/csv; charset=utf-8", "csv",
                                        lambda n, e, s, p: tabular.to_csv(n, e, s, tabular.CsvTable.PAPERS, p)),
    ExportFormat.CSV_RESULTS: FormatSpec("text/csv; charset=utf-8", "csv",
                                         lambda n, e, s, p: tabular.to_csv(n, e, s, tabular.CsvTable.RESULTS, p)),
    ExportFormat.GRAPHML: FormatSpec("application/graphml+xml", "graphml", lambda n, e, s, _: graphml.to_graphml(n, e, s)),
}


@dataclass(frozen=True)
class Export:
    text: str
    spec: FormatSpec
    nodes: int
    edges: int


def export(graph: Graph, schema: Schema, fmt: ExportFormat, paper_ids: list[str] | None = None,
           include_rejected: bool = False, bound: ReadBound | None = None) -> Export:
    """The graph of these papers (all of it for none) in `fmt`; each is named as kg.read.queries.resolve_paper takes
    it, and resolved to its id up front, since the formats scope by id. NotFoundError names an unknown paper.
    `include_rejected`: also what curators rejected (every format shows an element's verification status).
    `bound`: LimitExceededError for a graph larger or slower to read (rendering time grows with its size)."""
    spec = FORMATS[ExportFormat(fmt)]
    paper_ids = [resolve_paper(graph, name).id for name in paper_ids] if paper_ids else paper_ids
    nodes, edges = read_papers(graph, schema, paper_ids,
                               include_rejected=include_rejected or spec.with_rejected, bound=bound)
    return Export(spec.render(nodes, edges, schema, paper_ids), spec, len(nodes), len(edges))

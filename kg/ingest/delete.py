"""`kg delete`: remove one paper, its structure and chunks, the shared entities only it used, and its
stored PDF. Shared entities keep their links to other papers; curated shared entities stay. Also the
collection of stored PDFs that no paper refers to any more."""

from __future__ import annotations

from dataclasses import dataclass

from kg.db.filestore import PDFStore
from kg.db.graph import Graph
from kg.ingest.papers import delete_subgraph, papers_present
from kg.read.queries import resolve_paper
from ontology.loader import Schema


@dataclass(frozen=True)
class DeleteReport:
    paper_id: str
    sha256: str
    nodes_deleted: int
    edges_deleted: int
    pdf_removed: bool


def delete_paper(graph: Graph, name: str, schema: Schema, store: PDFStore) -> DeleteReport:
    """Delete the paper `name` stands for (its id, file SHA-256, DOI, arXiv id or title: kg.read.queries.resolve_paper,
    not loose: a deletion wants more than a few words of a title), in one transaction; then its stored PDF, unless
    a paper refers to it again (the same file ingested again meanwhile)."""
    paper = resolve_paper(graph, name, loose=False)
    nodes, edges = delete_subgraph(graph, paper.sha256, schema)
    removed = store.remove_unreferenced(paper.sha256, lambda shas: papers_present(graph, shas))
    return DeleteReport(paper_id=paper.id, sha256=paper.sha256, nodes_deleted=nodes, edges_deleted=edges,
                        pdf_removed=removed)


def collect_orphan_pdfs(graph: Graph, store: PDFStore) -> int:
    """Remove the stored PDFs no paper refers to (what a crash between file and graph left); how many."""
    return store.collect_orphans(lambda shas: papers_present(graph, shas))

"""`kg delete`: remove one paper, its structure and chunks, the shared entities only it used, and its
stored PDF. Shared entities keep their links to other papers; curated shared entities stay. Also the
collection of stored PDFs that no paper refers to any more."""

from __future__ import annotations

from dataclasses import dataclass

from neo4j import Driver

from kg.errors import NotFoundError
from kg.filestore import PDFStore
from kg.papers import delete_subgraph, find_paper, papers_present
from ontology.loader import Schema


@dataclass(frozen=True)
class DeleteReport:
    sha256: str
    nodes_deleted: int
    edges_deleted: int
    pdf_removed: bool


def delete_paper(driver: Driver, key: str, schema: Schema, store: PDFStore, database: str | None = None) -> DeleteReport:
    """Delete the paper whose id or file SHA-256 is `key`, in one transaction; then its stored PDF, unless a
    paper refers to it again (the same file ingested again meanwhile)."""
    sha = find_paper(driver, key, database)
    if sha is None:
        raise NotFoundError(f"no paper with id or sha256 {key!r} in the graph",
                            hint="ids look like paper_<20 hex>; `MATCH (p:Paper) RETURN p.id, p.sha256, p.title` lists them")
    nodes, edges = delete_subgraph(driver, sha, schema, database)
    removed = store.remove_unreferenced(sha, lambda shas: papers_present(driver, shas, database))
    return DeleteReport(sha256=sha, nodes_deleted=nodes, edges_deleted=edges, pdf_removed=removed)


def collect_orphan_pdfs(driver: Driver, store: PDFStore, database: str | None = None) -> int:
    """Remove the stored PDFs no paper refers to (what a crash between file and graph left); how many."""
    return store.collect_orphans(lambda shas: papers_present(driver, shas, database))

"""What the semantic extractors read: passages of text with the section kind they sit in and the
provenance (chunk, page, boxes) every element derived from them inherits."""

from __future__ import annotations

from dataclasses import dataclass

from extractors.bbox import format_bbox
from extractors.model import BBox, Document

FRONT = "Abstract"  # kind of text before the first section (title, byline, abstract)


@dataclass(frozen=True)
class Passage:
    text: str
    section_kind: str
    chunk_id: str | None = None
    page: int | None = None
    bboxes: tuple[str, ...] = ()
    char_start: int | None = 0  # offset of text in Document.text; None for text that is not in it (table cells)
    kind: str = "text"  # text | table | figure | equation | title | heading | cells
    element_id: str | None = None  # the figure/table/equation a non-text passage holds


@dataclass(frozen=True)
class TableGrid:
    """A result table as the structure parser recovered it: rows of cells, with its caption and place."""

    table_id: str
    label: str
    caption: str
    rows: tuple[tuple[str, ...], ...]
    page: int
    bbox: str
    chunk_id: str | None
    cell_boxes: tuple[tuple[BBox, ...], ...] = ()  # each cell's box, parallel to rows; () when not recovered


def document_passages(doc: Document) -> list[Passage]:
    """Title first, then every chunk in reading order, then the section headings (a heading often names what
    its section is about: 'Citation Prediction'); reference and navigation sections are left out."""
    kinds = {s.id: (s.kind, s.core_kind) for s in doc.sections}
    out = []
    if doc.metadata.title:
        box = doc.metadata.title_box
        out.append(Passage(doc.metadata.title, FRONT, page=box.page if box else 1,
                           bboxes=(format_bbox(box.page, box.bbox),) if box else (), kind="title"))
    for chunk in doc.chunks:
        kind, core = kinds.get(chunk.section_id, (FRONT, "meta")) if chunk.section_id else (FRONT, "meta")
        if core in ("reference", "navigation") or kind in ("References", "Acknowledgments"):
            continue
        out.append(Passage(chunk.text, kind, chunk.id, chunk.page_start,
                           tuple(format_bbox(b.page, b.bbox) for b in chunk.boxes), chunk.char_start, chunk.kind,
                           chunk.element_id))
    return out + heading_passages(doc) + cell_passages(doc)


def heading_passages(doc: Document) -> list[Passage]:
    """Section headings of the body and appendix (chunk text leaves them out), not in Document.text; a heading's
    chunk, for provenance, is the first chunk of its section or, for a section with only subsections, of the
    next section that has one."""
    first_chunk: dict[str, str] = {}
    for chunk in doc.chunks:
        if chunk.section_id:
            first_chunk.setdefault(chunk.section_id, chunk.id)
    ordered = sorted(doc.sections, key=lambda s: s.ordinal)
    out = []
    for n, s in enumerate(ordered):
        chunk = next((first_chunk[t.id] for t in ordered[n:] if t.id in first_chunk), None)
        if s.title and s.core_kind in ("body", "appendix") and chunk:
            box = (format_bbox(s.box.page, s.box.bbox),)
            out.append(Passage(s.title, s.kind, chunk, s.box.page, box, None, "heading"))
    return out


def cell_passages(doc: Document) -> list[Passage]:
    """The recovered cells of each table, one line per row, as passages of the table's chunk: header cells
    name metrics and datasets, row labels name methods."""
    chunk_of = {c.element_id: c for c in doc.chunks if c.element_id}
    out = []
    for table in doc.tables:
        chunk = chunk_of.get(table.id)
        if table.rows:
            out.append(Passage("\n".join(" | ".join(row) for row in table.rows), "Result", chunk.id if chunk else None,
                               table.page, (format_bbox(table.page, table.bbox),), None, "cells", table.id))
    return out


def document_tables(doc: Document) -> list[TableGrid]:
    chunk_of = {c.element_id: c.id for c in doc.chunks if c.element_id}
    return [TableGrid(t.id, t.label, t.caption, tuple(tuple(r) for r in t.rows), t.page, format_bbox(t.page, t.bbox),
                      chunk_of.get(t.id), tuple(tuple(r) for r in t.cell_boxes)) for t in doc.tables]

"""What the semantic extractors read: passages of text with the section kind they sit in and the element of the
document that holds them, which every annotation derived from them points at (`Passage.anchor`)."""

from __future__ import annotations

from dataclasses import dataclass

from extractors.annotations import Anchor
from extractors.model import BBox, Document

FRONT = "Abstract"  # kind of text before the first section (title, byline, abstract)


@dataclass(frozen=True)
class Passage:
    text: str
    section_kind: str
    chunk_id: str | None = None
    page: int | None = None
    char_start: int | None = 0  # offset of text in Document.text; None for text that is not in it (table cells)
    kind: str = "text"  # text | table | figure | equation | title | heading | cells
    # the figure/table/equation a non-text chunk's passage holds, the section of a heading, the table of cells
    element_id: str | None = None

    def anchor(self, start: int | None = None, end: int | None = None) -> Anchor:
        """Where the passage's text from `start` to `end` (offsets in `text`) is in the document; the span is
        kept for chunk text only, the one kind of passage that is part of Document.text."""
        if self.kind == "title":
            return Anchor("title")
        if self.kind in ("heading", "cells"):
            return Anchor(self.kind, self.element_id)
        if start is None or self.char_start is None:
            return Anchor("chunk", self.chunk_id)
        return Anchor("chunk", self.chunk_id, self.char_start + start, self.char_start + (start if end is None else end))


@dataclass(frozen=True)
class TableGrid:
    """A result table as the structure parser recovered it: rows of cells, with its caption and place."""

    table_id: str
    label: str
    caption: str
    rows: tuple[tuple[str, ...], ...]
    page: int
    chunk_id: str | None
    cell_boxes: tuple[tuple[BBox, ...], ...] = ()  # each cell's box, parallel to rows; () when not recovered


def document_passages(doc: Document) -> list[Passage]:
    """Title first, then every chunk in reading order, then the section headings (a heading often names what
    its section is about: 'Citation Prediction'); reference and navigation sections are left out."""
    kinds = {s.id: (s.kind, s.core_kind) for s in doc.sections}
    out = []
    if doc.metadata.title:
        box = doc.metadata.title_box
        out.append(Passage(doc.metadata.title, FRONT, page=box.page if box else 1, kind="title"))
    for chunk in doc.chunks:
        kind, core = kinds.get(chunk.section_id, (FRONT, "meta")) if chunk.section_id else (FRONT, "meta")
        if core in ("reference", "navigation") or kind in ("References", "Acknowledgments"):
            continue
        out.append(Passage(chunk.text, kind, chunk.id, chunk.page_start, chunk.char_start, chunk.kind, chunk.element_id))
    return out + heading_passages(doc) + cell_passages(doc)


def heading_passages(doc: Document) -> list[Passage]:
    """Section headings of the body and appendix (chunk text leaves them out), not in Document.text, each with the
    chunk it is read with (Document.heading_chunk); a heading with no chunk after it is left out."""
    out = []
    for s in sorted(doc.sections, key=lambda s: s.ordinal):
        chunk = doc.heading_chunk(s.id)
        if s.title and s.core_kind in ("body", "appendix") and chunk:
            out.append(Passage(s.title, s.kind, chunk.id, s.box.page, None, "heading", s.id))
    return out


def cell_passages(doc: Document) -> list[Passage]:
    """The recovered cells of each table, one line per row, as passages of the table's chunk: header cells
    name metrics and datasets, row labels name methods."""
    out = []
    for table in doc.tables:
        chunk = doc.chunk_of(table.id)
        if table.rows:
            out.append(Passage("\n".join(" | ".join(row) for row in table.rows), "Result", chunk.id if chunk else None,
                               table.page, None, "cells", table.id))
    return out


def document_tables(doc: Document) -> list[TableGrid]:
    """The tables' grids; a table printed sideways without its cells' boxes, which place facts on the page and
    align columns upright only (its facts point at the whole table)."""
    return [TableGrid(t.id, t.label, t.caption, tuple(tuple(r) for r in t.rows), t.page,
                      c.id if (c := doc.chunk_of(t.id)) else None,
                      () if t.turned else tuple(tuple(r) for r in t.cell_boxes))
            for t in doc.tables]

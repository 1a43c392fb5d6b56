"""The document model: what a PDF becomes before anything touches the graph.

Every element carries where it came from: 1-based page, a box in PDF points (PyMuPDF's top-left
origin), and, where it has text, a character span into `Document.text` (one string of the whole
body, as in papermage). Ids are derived from the file's SHA-256 and the element's position, so the
same PDF always gives the same ids.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field, PrivateAttr

from extractors.layers import Layer

BBox = tuple[float, float, float, float]  # x0, y0, x1, y1 in PDF points, y grows downwards


def turned_box(box: BBox, runs_up: bool) -> BBox:
    """A box as it reads with the page turned a quarter so that text running up the page (or down it) stands
    upright: rows and columns of a table printed sideways fall into place. Only places relative to one another
    count there, so the turn is about the origin."""
    x0, y0, x1, y1 = box
    return (-y1, x0, -y0, x1) if runs_up else (y0, -x1, y1, -x0)


def page_box(box: BBox, runs_up: bool) -> BBox:
    """A turned box (turned_box) on the page again."""
    x0, y0, x1, y1 = box
    return (y0, -x1, y1, -x0) if runs_up else (-y1, x0, -y0, x1)


def hashed_id(prefix: str, *parts: object) -> str:
    """`<prefix>_<20 hex>` from the SHA-256 of the parts: every id of the graph is made here, so the same parts
    always give the same id."""
    return f"{prefix}_{hashlib.sha256(chr(0x1f).join(map(str, parts)).encode()).hexdigest()[:20]}"


def element_id(kind: str, paper_sha256: str, *parts: object) -> str:
    """A document element's id, from the paper hash and the element's position/content."""
    return hashed_id(kind, kind, paper_sha256, *parts)


def paper_id(sha256: str) -> str:
    """The Paper node's id: the file's hash alone, so the structure mapping and the semantic extractors agree."""
    return element_id("paper", sha256)


class Box(BaseModel):
    page: int  # 1-based
    bbox: BBox


class Element(BaseModel):
    """What every element of the document answers: the boxes it is printed in and, where its text is part of
    `Document.text`, its character span there. Code that asks where an element is uses these two and needs no
    knowledge of how each kind stores its place (the fields stay each kind's own, in the order users read them)."""

    def span(self) -> tuple[int, int] | None:
        """[start, end) in Document.text; None for an element whose text is not part of it (a float's region)."""
        return None

    def places(self) -> list[Box]:
        """The boxes it is printed in, in reading order."""
        raise NotImplementedError


class _Printed(Element):
    """An element printed in one box (its `page` and `bbox` fields)."""

    def places(self) -> list[Box]:
        return [Box(page=self.page, bbox=self.bbox)]


class _Spanned(Element):
    """An element whose text is Document.text[char_start:char_end] (its `char_start` and `char_end` fields)."""

    def span(self) -> tuple[int, int] | None:
        return self.char_start, self.char_end


# The page layout's records (spans, lines, pages) are plain slotted dataclasses, not pydantic models: a parse builds
# hundreds of them per page, and building and copying them as pydantic models was a sizeable share of the parse.
# Their values come straight from MuPDF and never cross a process or the
# API, so there is nothing for validation to do; what the pipeline hands on (Document and below) stays pydantic.


@dataclass(slots=True)
class Span:
    """A run of text in one font on one line."""

    text: str
    bbox: BBox
    size: float
    font: str
    bold: bool = False
    italic: bool = False


@dataclass(slots=True)
class Line:
    """One text line as laid out on the page, after normalisation (ligatures, odd Unicode)."""

    text: str
    page: int
    bbox: BBox
    size: float  # dominant font size
    font: str
    bold: bool = False
    italic: bool = False
    block: int = 0  # PyMuPDF block number on its page
    column: int = 0  # 0 = full width or the first column, then 1 (and 2 on a page of three) left to right
    vertical: bool = False  # rotated text (side stamps, rotated table headers)
    rising: bool = False  # rotated text that runs up the page (a quarter turn anticlockwise), else down it
    spans: list[Span] = field(default_factory=list)


@dataclass(slots=True)
class PageLayout:
    page: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)  # reading order, running heads/footers removed
    # the removed running heads, page numbers and margin stamps: not body text, but where a paper prints its
    # journal line and arXiv stamp, which the publication year is read from
    furniture: list[Line] = field(default_factory=list)
    images: list[BBox] = field(default_factory=list)
    drawings: list[BBox] = field(default_factory=list)
    columns: int = 1


class Author(BaseModel):
    name: str
    affiliations: list[str] = Field(default_factory=list)
    email: str | None = None


class Metadata(BaseModel):
    title: str | None = None
    title_box: Box | None = None
    authors: list[Author] = Field(default_factory=list)
    abstract: str | None = None
    abstract_box: Box | None = None
    keywords: list[str] = Field(default_factory=list)
    doi: str | None = None
    arxiv_id: str | None = None
    year: int | None = None
    venue: str | None = None


class SummarySentence(_Printed, _Spanned):
    """One sentence of a section's extractive summary (extractors/summaries.py), where it was printed."""

    text: str  # exactly Document.text[char_start:char_end]
    char_start: int
    char_end: int
    page: int
    bbox: BBox  # the region of the section's text (its page and column) the sentence begins in


class Section(_Spanned):
    id: str
    number: str | None
    title: str
    level: int
    parent_id: str | None
    ordinal: int  # reading order among all sections
    kind: str = "Other"  # ontology section kind (Introduction, Method, ...)
    core_kind: str = "body"  # meta | body | reference | appendix | navigation
    kind_confidence: float = 0.0
    page_start: int
    page_end: int
    box: Box  # the heading
    char_start: int  # body text of the section in Document.text, heading excluded
    char_end: int
    summary: list[SummarySentence] = Field(default_factory=list)  # its most central sentences, in reading order
    text_source: str = "text_layer"  # "ocr": its heading was read by OCR from a page without a text layer
    # False: no heading is printed (a bibliography closing the paper without one); the title names what it holds
    # and the box is its first line
    printed: bool = True

    def places(self) -> list[Box]:
        return [self.box]


class Float(_Printed):
    """A captioned figure or table: the region (graphics + caption), not only the caption."""

    id: str
    kind: str  # "figure" | "table"
    label: str  # as printed: "3", "A.1", "S2"
    caption: str
    page: int
    bbox: BBox  # region including the caption
    caption_bbox: BBox
    rows: list[list[str]] = Field(default_factory=list)  # table cells where recoverable
    # each cell's box, parallel to `rows`: a fact read from a cell points at that cell, not the whole table
    cell_boxes: list[list[BBox]] = Field(default_factory=list)
    section_id: str | None = None
    turned: Literal["", "up", "down"] = ""  # a table printed sideways, its text running up or down the page

    def reading_boxes(self) -> list[list[BBox]]:
        """The cells' boxes as the table reads: turned upright for a table printed sideways (turned_box)."""
        if not self.turned:
            return self.cell_boxes
        return [[turned_box(box, self.turned == "up") for box in row] for row in self.cell_boxes]


class Equation(_Printed):
    id: str
    label: str | None  # printed number, None for unnumbered display equations
    text: str
    page: int
    bbox: BBox
    section_id: str | None = None


class Reference(_Printed):
    id: str
    ordinal: int  # 1-based position in the bibliography
    marker: str | None = None  # "[12]", "12." or None for author-year styles
    raw: str
    authors: list[str] = Field(default_factory=list)
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    page: int
    bbox: BBox


class Mention(_Printed, _Spanned):
    """An in-text pointer: a citation marker or a cross-reference to a figure, table, equation or section."""

    kind: str  # "citation" | "figure" | "table" | "equation" | "section"
    text: str  # as printed: "[12]", "(Smith et al., 2020)", "Figure 3"
    target_label: str
    target_id: str | None  # resolved element id, None when the target was not found
    page: int
    bbox: BBox
    char_start: int
    char_end: int
    chunk_id: str | None = None


class Chunk(_Spanned):
    id: str
    kind: str  # "text" | "figure" | "table" | "equation"
    text: str
    section_id: str | None
    section_path: list[str]  # heading titles from the top level down
    page_start: int
    page_end: int
    boxes: list[Box]
    char_start: int
    char_end: int
    content_hash: str
    element_id: str | None = None  # the figure/table/equation a non-text chunk holds
    box_starts: list[int] = Field(default_factory=list)  # offset in `text` where each box's text begins
    text_source: str = "text_layer"  # "ocr": some of its text was read by OCR from a page without a text layer

    def places(self) -> list[Box]:
        return self.boxes

    def box_at(self, offset: int) -> Box | None:
        """The region (one page and column of the chunk) where the text at `offset` of Document.text is printed."""
        if not self.boxes:
            return None
        at = max(0, bisect.bisect_right(self.box_starts, offset - self.char_start) - 1) if self.box_starts else 0
        return self.boxes[min(at, len(self.boxes) - 1)]


class TextLine(_Printed, _Spanned):
    """A printed line of the body and its text in Document.text: what gives words their box."""

    char_start: int
    char_end: int
    page: int
    bbox: BBox


class Profile(BaseModel):
    text_kind: str  # "native" | "scanned" | "mixed"
    chars_per_page: float
    columns: int
    fonts: list[str] = Field(default_factory=list)
    ocr_pages: list[int] = Field(default_factory=list)  # pages without a text layer whose text OCR read


# why a page went to the layout model: what the rules found too little of there (extractors/escalation.py)
EscalationReason = Literal["sparse headings", "numbered lines in body type", "equation label the rules did not take"]


class Escalation(BaseModel):
    """A page the rules were unsure of, read by PyMuPDF's layout model (extractors/escalation.py)."""

    page: int  # 1-based
    reasons: list[EscalationReason]
    added: int = 0  # elements the model's regions added there (headings, numbered equations)


class Audit(BaseModel):
    sha256: str
    page_count: int
    seconds_per_stage: dict[str, float] = Field(default_factory=dict)
    extractor_versions: dict[str, str] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    # the warnings about pages without a text layer (read by OCR, or left unread and why), also in `warnings`:
    # ingestion reports these, since a page without text is content missing from the graph
    page_warnings: list[str] = Field(default_factory=list)
    escalations: list[Escalation] = Field(default_factory=list)  # pages the layout model read, and why


class Document(BaseModel):
    sha256: str
    file_name: str
    page_count: int
    text: str  # the body text in reading order; spans point into it
    metadata: Metadata
    sections: list[Section] = Field(default_factory=list)
    figures: list[Float] = Field(default_factory=list)
    tables: list[Float] = Field(default_factory=list)
    equations: list[Equation] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)
    mentions: list[Mention] = Field(default_factory=list)
    chunks: list[Chunk] = Field(default_factory=list)
    lines: list[TextLine] = Field(default_factory=list)  # the body's lines in reading order
    profile: Profile
    audit: Audit
    _index: dict = PrivateAttr(default_factory=dict)  # lookups built on first use; a Document is not changed after

    def _cached(self, key: str, build):
        if key not in self._index:
            self._index[key] = build()
        return self._index[key]

    def chunk(self, chunk_id: str) -> Chunk:
        return self._cached("chunks", lambda: {c.id: c for c in self.chunks})[chunk_id]

    def section(self, section_id: str) -> Section:
        return self._cached("sections", lambda: {s.id: s for s in self.sections})[section_id]

    def table(self, table_id: str) -> Float:
        return self._cached("tables", lambda: {t.id: t for t in self.tables})[table_id]

    def chunk_of(self, element_id: str) -> Chunk | None:
        """The chunk that holds a figure, table or equation."""
        return self._cached("holders", lambda: {c.element_id: c for c in self.chunks if c.element_id}).get(element_id)

    def chunk_at(self, offset: int, kind: str | None = "text") -> Chunk | None:
        """The chunk (of `kind`; None: of any kind) whose text holds `offset` of Document.text."""
        layer = self._cached(f"chunks:{kind}", lambda: Layer(c for c in self.chunks if kind in (None, c.kind)))
        return layer.at(offset)

    def line_at(self, offset: int) -> TextLine | None:
        """The body line whose text holds `offset` of Document.text."""
        return self._line_layer().at(offset)

    def boxes_of(self, start: int, end: int) -> list[Box]:
        """Where the text [start, end) of Document.text is printed: the box of each body line it runs over (text
        outside the body's lines, such as a caption's, has none: its chunk's region stands for it)."""
        return [line.places()[0] for line in self._line_layer().overlapping(start, end)]

    def _line_layer(self) -> Layer:
        return self._cached("lines", lambda: Layer(self.lines))

    def heading_chunk(self, section_id: str) -> Chunk | None:
        """The chunk a section's heading is read with: the section's first chunk or, for a section with only
        subsections, the first chunk of the next section that has one."""
        def build() -> dict[str, Chunk]:
            first: dict[str, Chunk] = {}
            for c in self.chunks:
                if c.section_id:
                    first.setdefault(c.section_id, c)
            out, following = {}, None
            for s in sorted(self.sections, key=lambda s: s.ordinal, reverse=True):
                following = first.get(s.id, following)
                out[s.id] = following
            return out
        return self._cached("heading_chunks", build).get(section_id)

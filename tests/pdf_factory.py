"""Synthetic papers generated with PyMuPDF, so extractor tests know the exact truth.

`Writer` flows text through one or two columns with base-14 fonts; `one_column_paper()` and
`two_column_paper()` build complete papers (title, authors, abstract, numbered and unnumbered
headings, a run-in heading, running heads, page numbers, a footnote, references) and return the
PDF bytes together with what a reader sees in them. Other builders may be added (keep additive).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pymupdf

WIDTH, HEIGHT = 612.0, 792.0
REGULAR, BOLD, ITALIC = "tiro", "tibo", "tiit"

SENTENCES = [
    "Structured extraction turns printed papers into data that programs can query.",
    "Every element keeps the page and the box it was printed in, so answers can be traced.",
    "We evaluate the approach on a corpus of scientific articles with known structure.",
    "The method is simple, fast, and makes no use of learned layout models.",
    "Results show that careful rules recover headings, paragraphs and captions reliably.",
    "Future work will address scanned documents and tables without ruling lines.",
]


def prose(n: int, offset: int = 0) -> str:
    """n deterministic sentences."""
    return " ".join(SENTENCES[(offset + i) % len(SENTENCES)] for i in range(n))


@dataclass
class Truth:
    """What a careful reader sees in a generated paper."""

    title: str
    authors: list[str]
    abstract: str
    sections: list[tuple[str | None, str, int, int]] = field(default_factory=list)  # number, title, level, page
    running_head: str = ""
    footnote: str = ""
    pages: int = 0


class Writer:
    """Flows lines top to bottom through the columns of each page, starting new pages as needed."""

    def __init__(self, columns: int = 1, running_head: str = "", margin: float = 72.0, gutter: float = 24.0):
        self.doc = pymupdf.open()
        self.columns = columns
        self.running_head = running_head
        self.margin = margin
        self.col_width = (WIDTH - 2 * margin - (columns - 1) * gutter) / columns
        self.gutter = gutter
        self.page: pymupdf.Page | None = None
        self.column = 0
        self.y = 0.0
        self.top = margin
        self.new_page()

    @property
    def page_number(self) -> int:
        return self.doc.page_count

    def new_page(self) -> None:
        self.page = self.doc.new_page(width=WIDTH, height=HEIGHT)
        n = self.doc.page_count
        if self.running_head:
            self.page.insert_text((self.margin, 40), self.running_head, fontname=ITALIC, fontsize=8)
        self.page.insert_text((WIDTH / 2 - 3, HEIGHT - 36), str(n), fontname=REGULAR, fontsize=9)
        self.column = 0
        self.top = self.margin
        self.y = self.margin

    def x(self) -> float:
        return self.margin + self.column * (self.col_width + self.gutter)

    def _advance(self, height: float) -> None:
        if self.y + height > HEIGHT - self.margin - 20:
            if self.column + 1 < self.columns:
                self.column += 1
                self.y = self.top
            else:
                self.new_page()

    def line(self, text: str, size: float = 10, font: str = REGULAR, full_width: bool = False,
             center: bool = False, x_offset: float = 0.0) -> None:
        width = WIDTH - 2 * self.margin if full_width else self.col_width
        self._advance(size * 1.25)
        x = self.margin if full_width else self.x()
        if center:
            x += (width - pymupdf.get_text_length(text, fontname=font, fontsize=size)) / 2
        self.page.insert_text((x + x_offset, self.y + size), text, fontname=font, fontsize=size)
        self.y += size * 1.25

    def space(self, points: float) -> None:
        self.y += points

    def wrap(self, text: str, size: float, font: str, width: float) -> list[str]:
        lines, current = [], ""
        for word in text.split():
            trial = f"{current} {word}".strip()
            if current and pymupdf.get_text_length(trial, fontname=font, fontsize=size) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        return lines + ([current] if current else [])

    def paragraph(self, text: str, size: float = 10, font: str = REGULAR, full_width: bool = False,
                  run_in: str | None = None) -> None:
        """A paragraph; `run_in` is a bold lead ("Training data.") set on its first line."""
        width = (WIDTH - 2 * self.margin if full_width else self.col_width)
        lead_width = pymupdf.get_text_length(run_in + " ", fontname=BOLD, fontsize=size) if run_in else 0.0
        first, *rest = self.wrap(text, size, font, width - lead_width)
        rest = self.wrap(" ".join(rest), size, font, width) if rest else []
        if run_in:
            self._advance(size * 1.25)
            x = self.margin if full_width else self.x()
            self.page.insert_text((x, self.y + size), run_in, fontname=BOLD, fontsize=size)
            self.page.insert_text((x + lead_width, self.y + size), first, fontname=font, fontsize=size)
            self.y += size * 1.25
        else:
            self.line(first, size, font, full_width)
        for text_line in rest:
            self.line(text_line, size, font, full_width)
        self.space(size * 0.6)

    def heading(self, text: str, size: float = 12) -> int:
        """A bold heading with space above; returns its page."""
        self.space(size * 0.8)
        self._advance(size * 4)  # keep a heading with the text that follows
        self.line(text, size, BOLD)
        self.space(size * 0.3)
        return self.page_number

    def footnote(self, text: str) -> None:
        self.page.insert_text((self.margin, HEIGHT - self.margin - 4), text, fontname=REGULAR, fontsize=7)

    def start_columns(self) -> None:
        """Full-width material ends here; columns start below it."""
        self.top = self.y
        self.column = 0

    def bytes(self, metadata: dict | None = None) -> bytes:
        if metadata:
            self.doc.set_metadata(metadata)
        return self.doc.tobytes()


def _paper(columns: int, abstract_heading: str = "Abstract", run_in: bool = False) -> tuple[bytes, Truth]:
    """A paper whose abstract stands under `abstract_heading`, or after it as a run-in lead ("Résumé.")."""
    truth = Truth(title="Rules Recover the Structure of Scientific Papers",
                  authors=["Alice Smith", "Bob Jones"],
                  abstract=prose(4), running_head="Preprint under review: structure of papers",
                  footnote="1 Code is available from the authors on request.")
    w = Writer(columns=columns, running_head=truth.running_head)
    w.line(truth.title, size=18, font=BOLD, full_width=True, center=True)
    w.space(8)
    w.line("Alice Smith and Bob Jones", size=11, full_width=True, center=True)
    w.line("University of Testing, Example City", size=10, full_width=True, center=True)
    w.space(12)
    if run_in:
        w.paragraph(truth.abstract, size=10, full_width=True, run_in=f"{abstract_heading}.")
    else:
        w.line(abstract_heading, size=12, font=BOLD, full_width=columns == 1, center=columns == 2)
        w.paragraph(truth.abstract, size=10, full_width=True)
    w.start_columns()
    w.footnote(truth.footnote)
    body = [("1", "Introduction", 1, 6), ("1.1", "Scope of This Study", 2, 4), ("2", "Method", 1, 8),
            ("2.1", "Training Setup", 2, 6), ("3", "Experiments", 1, 9), ("4", "Conclusion", 1, 5)]
    for number, title, level, n in body:
        page = w.heading(f"{number} {title}", size=12 if level == 1 else 11)
        truth.sections.append((number, title, level, page))
        w.paragraph(prose(n, offset=level))
        if number == "2.1":
            w.paragraph(prose(3, offset=2), run_in="Training data.")
        w.paragraph(prose(n, offset=level + 1))
    for title in ("Acknowledgments", "References"):
        page = w.heading(title)
        truth.sections.append((None, title, 1, page))
        if title == "Acknowledgments":
            w.paragraph("We thank the reviewers for their comments.")
    for n in range(1, 4):
        w.paragraph(f"[{n}] A. Author. A cited paper number {n}. Journal of Tests, 20{10 + n}.", size=9)
    truth.pages = w.page_number
    return w.bytes({"title": "Microsoft Word - draft.docx", "author": "(anonymous)"}), truth


def one_column_paper(abstract_heading: str = "Abstract", run_in: bool = False) -> tuple[bytes, Truth]:
    return _paper(1, abstract_heading, run_in)


def two_column_paper() -> tuple[bytes, Truth]:
    return _paper(2)


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --- floats, equations, bibliographies (structure elements) -------------------------------------


@dataclass
class FloatTruth:
    """Captioned floats of a generated paper: (label, page, caption after the label[, rows])."""

    figures: list[tuple[str, int, str]] = field(default_factory=list)
    tables: list[tuple[str, int, str, list[list[str]]]] = field(default_factory=list)
    mention_lines: list[str] = field(default_factory=list)  # body lines that mention floats


def _figure(w: Writer, label: str, caption: str, height: float = 90, image: bool = False, size: float = 9) -> int:
    """Graphics (drawn boxes or an inserted image) with a caption below them in `size` points; returns the page."""
    w._advance(height + 40)
    x, top = w.x(), w.y
    if image:
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 32, 16), False)
        pix.set_rect(pix.irect, (40, 120, 200))
        w.page.insert_image(pymupdf.Rect(x + 20, top, x + w.col_width - 20, top + height), pixmap=pix)
    else:
        w.page.draw_rect(pymupdf.Rect(x + 10, top, x + w.col_width / 2 - 5, top + height), color=(0, 0, 0))
        w.page.draw_rect(pymupdf.Rect(x + w.col_width / 2 + 5, top, x + w.col_width - 10, top + height),
                         color=(0, 0, 0), fill=(0.8, 0.8, 0.8))
        w.page.draw_line((x + w.col_width / 2 - 5, top + height / 2), (x + w.col_width / 2 + 5, top + height / 2))
    w.y = top + height + 8
    for text in w.wrap(f"{label} {caption}", size, REGULAR, w.col_width):
        w.line(text, size=size)
    w.space(10)
    return w.page_number


def _table(w: Writer, label: str, caption: str, rows: list[list[str]]) -> int:
    """Caption above a ruled grid of cells (one text piece per cell); returns the page. A cell written
    "**x**" is set in bold (a best value); "^x" is set half a row lower, centred on two header rows (a column
    header that spans them)."""
    w._advance(40 + 14 * len(rows))
    w.line(f"{label} {caption}", size=9)
    w.space(4)
    x, cell = w.x() + 20, min(90.0, (w.col_width - 40) / len(rows[0]))
    w.page.draw_line((x, w.y), (x + cell * len(rows[0]), w.y))
    for row in rows:
        for j, text in enumerate(row):
            bold, low = text.startswith("**"), text.startswith("^")
            w.page.insert_text((x + j * cell + 2, w.y + 10 + 7 * low), text.strip("*^"),
                               fontname=BOLD if bold else REGULAR, fontsize=9)
        w.y += 14
    w.page.draw_line((x, w.y + 2), (x + cell * len(rows[0]), w.y + 2))
    w.space(14)
    return w.page_number


def floats_paper(columns: int = 1) -> tuple[bytes, FloatTruth]:
    """Figures (drawn, image), a table with cells, a two-line caption, and body lines that mention
    floats at a line start ("Figure 1 shows ...", "... in / Table 1. The ...") without being captions."""
    truth = FloatTruth()
    w = Writer(columns=columns)
    w.line("Floats in a Generated Paper", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("1 Introduction")
    w.paragraph(prose(3) + " The boxes are as shown in Figure 1 and the scores are listed in Table 1.")
    caption = "Two boxes joined by a line."
    truth.figures.append(("1", _figure(w, "Figure 1:", caption), caption))
    first = "Figure 1 shows two boxes; the right one is filled."
    truth.mention_lines.append(first)
    w.paragraph(first + " " + prose(2, offset=1))
    rows = [["System", "Precision", "Recall"], ["Rules", "0.91", "0.88"], ["Baseline", "0.75", "0.70"]]
    caption = "Scores of the two systems on the test set."
    truth.tables.append(("1", _table(w, "Table 1:", caption, rows), caption, rows))
    for text in ("The scores of both systems are listed in", "Table 1. The rules win on both measures."):
        w.line(text)
    truth.mention_lines.append("Table 1. The rules win on both measures.")
    w.space(6)
    w.paragraph(prose(6, offset=2))
    caption = ("An inserted raster image whose caption is long enough to wrap onto a second line of the "
               "column, which the extractor must join.")
    truth.figures.append(("2", _figure(w, "Fig. 2.", caption, image=True), caption))
    w.paragraph(prose(2, offset=3))
    rows = [["Split", "Papers"], ["train", "800"], ["test", "200"]]
    caption = "Corpus splits."
    truth.tables.append(("II", _table(w, "Table II:", caption, rows), caption, rows))
    w.paragraph("As Fig. 2 and Table II show, the rules are reliable. " + prose(2, offset=4))
    return w.bytes(), truth


def plain_caption_paper(columns: int = 2) -> tuple[bytes, FloatTruth]:
    """Figures captioned in the body's own font and size with a bare label and no separator ("Figure 2 Mean
    scores ..."), as some journal styles set them; the caption's only mark is that it is set against its figure.
    A body line that opens with the same kind of words away from any figure is in `mention_lines`."""
    truth = FloatTruth()
    w = Writer(columns=columns)
    w.line("Plain Captions in a Generated Paper", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("1 Introduction")
    w.paragraph(prose(4))
    caption = "Mean scores of the two systems over five runs."
    truth.figures.append(("1", _figure(w, "Figure 1", caption, size=10), caption))
    w.paragraph(prose(3, offset=1))
    mention = "Figure 3 Results, drawn as two boxes, come later."  # a label no caption has: taking it would show
    truth.mention_lines.append(mention)
    w.paragraph(mention + " " + prose(2, offset=2))
    caption = "Results on the held-out papers, drawn as an image."
    truth.figures.append(("2", _figure(w, "Figure 2", caption, image=True, size=10), caption))
    w.paragraph(prose(3, offset=3))
    return w.bytes(), truth


def _ruled_rows(w: Writer, x: float, cell: float, rows: list[list[str]]) -> None:
    """Rows of cells `cell` points wide from `x`, one text piece per cell, and a rule under them."""
    for row in rows:
        for j, text in enumerate(row):
            w.page.insert_text((x + j * cell + 2, w.y + 10), text, fontname=REGULAR, fontsize=9)
        w.y += 14
    w.page.draw_line((x, w.y + 2), (x + cell * len(rows[0]), w.y + 2))
    w.y += 2


def _table_below(w: Writer, label: tuple[str, str], caption: str, rows: list[list[str]]) -> int:
    """A ruled grid of cells with its caption set below it; the label in small caps as LaTeX and IEEE set it
    (`label`: the capital and the rest, "T" + "ABLE IV.", the rest in a smaller size); returns the page."""
    w._advance(40 + 14 * len(rows))
    x, cell = w.x() + 10, min(80.0, (w.col_width - 20) / len(rows[0]))
    w.page.draw_line((x, w.y), (x + cell * len(rows[0]), w.y))
    _ruled_rows(w, x, cell, rows)
    w.y += 6
    capital, rest = label
    y = w.y + 9
    w.page.insert_text((w.x(), y), capital, fontname=REGULAR, fontsize=9)
    after = w.x() + pymupdf.get_text_length(capital, fontname=REGULAR, fontsize=9)
    w.page.insert_text((after, y), rest, fontname=REGULAR, fontsize=7)
    after += pymupdf.get_text_length(rest + " ", fontname=REGULAR, fontsize=7)
    w.page.insert_text((after, y), caption, fontname=REGULAR, fontsize=9)
    w.y += 12
    w.space(10)
    return w.page_number


def rule_under_caption_paper() -> tuple[bytes, FloatTruth]:
    """A ruled table of label-value rows set above its caption, with a lone rule drawn just under the caption (a
    float's separator from the text below, nearer the caption than the table's last rule): the table is the side
    that prints text, not the rule."""
    truth = FloatTruth()
    w = _introduced("A Table Above Its Caption", 1, 4)
    rows = [["Number of jobs", "29,423"], ["Average job completion time", "634 secs"], ["Machine days used", "79,186"]]
    caption = "Jobs run in one month."
    w._advance(40 + 14 * len(rows))
    x, cell = w.x() + 10, 160.0
    w.page.draw_line((x, w.y), (x + 2 * cell, w.y))
    _ruled_rows(w, x, cell, rows)
    w.y += 14
    w.page.insert_text((w.x() + 40, w.y + 9), f"Table 1: {caption}", fontname=REGULAR, fontsize=9)
    truth.tables.append(("1", w.page_number, caption, rows))
    w.y += 18
    w.page.draw_line((w.x(), w.y), (w.x() + 200, w.y))
    w.y += 12
    w.paragraph(prose(5, offset=1))
    return w.bytes(), truth


def image_table_paper() -> tuple[bytes, FloatTruth]:
    """A table pasted as a picture below its caption, the paragraph above the caption ending in a short line: the
    picture is the table, not the paragraph's tail (no text to read from it)."""
    truth = FloatTruth()
    w = _introduced("A Table Printed as a Picture", 1, 4)
    w.line("Results follow.")
    caption = "Patient characteristics."
    w._advance(120)
    w.page.insert_text((w.x() + 40, w.y + 9), f"Table 1: {caption}", fontname=REGULAR, fontsize=9)
    truth.tables.append(("1", w.page_number, caption, []))
    w.y += 16
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 32, 16), False)
    pix.clear_with(200)
    w.page.insert_image(pymupdf.Rect(w.x() + 20, w.y, w.x() + 300, w.y + 80), pixmap=pix)
    w.y += 92
    w.paragraph(prose(5, offset=1))
    return w.bytes(), truth


def _rotated_line(w: Writer, x: float, y: float, text: str) -> None:
    """A line of 9 pt text turned a quarter turn, reading up the page from (x, y), set word by word as TeX sets
    text: the gaps are the only spaces."""
    for word in text.split():
        w.page.insert_text((x, y), word, fontname=REGULAR, fontsize=9, rotate=90)
        y -= pymupdf.get_text_length(word + " ", fontname=REGULAR, fontsize=9)


def table_conventions_paper() -> tuple[bytes, FloatTruth]:
    """A two-column paper whose tables follow other conventions: captions below the table with a small-caps
    Roman-numeral label ("TABLE IV."), a table continued on a later page ("TABLE IV (continued)"), a "Fig."
    figure, and a sideways table (rotated a quarter turn on its own page, the caption rotated with it)."""
    truth = FloatTruth()
    w = Writer(columns=2)
    w.line("Table Conventions in a Generated Paper", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("1 Introduction")
    w.paragraph(prose(4))
    rows = [["Corpus", "Papers"], ["arXiv", "120"], ["ACL", "80"]]
    caption = "Papers per corpus."
    truth.tables.append(("IV", _table_below(w, ("T", "ABLE IV."), caption, rows), caption, rows))
    w.paragraph(prose(3, offset=1))
    caption = "Two boxes joined by a line."
    truth.figures.append(("1", _figure(w, "Fig. 1.", caption), caption))
    w.paragraph(prose(12, offset=2))
    w.new_page()
    w.start_columns()
    w.paragraph(prose(2, offset=3))
    _table_below(w, ("T", "ABLE IV (continued)."), "Papers per corpus.", [["Corpus", "Papers"], ["PMC", "40"]])
    w.paragraph(prose(4, offset=4))
    w.new_page()
    caption = "Scores of every system on each test set, set sideways because it is wide."
    truth.tables.append(("5", w.page_number, caption, []))
    # the page's only upright text: a running head centred above the rotated table, narrower than the page
    w.page.insert_text((WIDTH / 2 - 90, 40), "Sideways tables in a generated paper", fontname=ITALIC, fontsize=8)
    x = 100.0
    _rotated_line(w, x, 700.0, f"Table 5. {caption}")
    for j, column in enumerate(["System", "Rules", "Baseline", "Oracle"]):
        for i, cell in enumerate([column, "0.91", "0.88", "0.75"]):
            w.page.insert_text((x + 30 + 14 * j, 700 - 90 * i), cell, fontname=REGULAR, fontsize=9, rotate=90)
    return w.bytes(), truth


SIDEWAYS_ROWS = [["Site", "Area (ha)", "Species", "Rainfall (mm)"], ["Ridge", "120", "Pine", "1472"],
                 ["Creek", "310", "Eucalypt", "1282"], ["Glen", "95", "Pine", "1156"]]


def rotated_in_column_paper(label_apart: bool = False, caption_after: bool = False,
                            wrapped: bool = False) -> tuple[bytes, FloatTruth, EquationTruth]:
    """A two-column paper whose second page sets a landscape table (SIDEWAYS_ROWS) rotated a quarter turn across
    its left column (caption and cells read upwards), while the right column goes on upright with a numbered
    display equation: a page holding rotated content beside upright text, as journals set a wide table. With
    `label_apart`, 'Table 1' stands alone on its line and the title follows on the next, as Elsevier sets it; with
    `caption_after`, the caption is set after the rows (right of them on the page); with `wrapped`, the caption
    runs on to a second line."""
    truth, equations = FloatTruth(), EquationTruth()
    w = _introduced("A Wide Table Set Sideways", 2, 40)
    w.new_page()
    first, rest = "Site characteristics of all catchments,", "with their area and rainfall."
    caption = f"{first} {rest}"
    truth.tables.append(("1", w.page_number, caption, []))
    x = w.margin + 6
    rows_x = x + 20 + (10 if label_apart or wrapped else 0)
    caption_x = rows_x + 14 * len(SIDEWAYS_ROWS) + 6 if caption_after else x
    if label_apart:
        _rotated_line(w, caption_x, HEIGHT - w.margin, "Table 1")
        _rotated_line(w, caption_x + 10, HEIGHT - w.margin, caption)
    elif wrapped:
        _rotated_line(w, caption_x, HEIGHT - w.margin, f"Table 1 {first}")
        _rotated_line(w, caption_x + 10, HEIGHT - w.margin, rest)
    else:
        _rotated_line(w, caption_x, HEIGHT - w.margin, f"Table 1 {caption}")
    for i, row in enumerate(SIDEWAYS_ROWS):  # each row a line up the page, its cells 90 pt apart
        for j, cell in enumerate(row):
            w.page.insert_text((rows_x + 14 * i, HEIGHT - w.margin - 90 * j), cell, fontname=REGULAR, fontsize=9,
                               rotate=90)
    w.column, w.y = 1, w.top
    w.paragraph(prose(6, offset=2))
    equations.numbered.append(("7", _display(w, "F = (SSE_s - SSE_c) / SSE_c", "7"), "F = (SSE_s - SSE_c) / SSE_c"))
    w.paragraph(prose(8, offset=3))
    return w.bytes(), truth, equations


STACKED_HEAD = "Stacked tables in a generated paper"


def _table_over_caption(w: Writer, label: str, caption: str, rows: list[list[str]], gap: float) -> int:
    """A ruled grid of cells with its caption `gap` points below its bottom rule; returns the page."""
    x, cell = w.x() + 10, min(80.0, (w.col_width - 20) / len(rows[0]))
    w.page.draw_line((x, w.y), (x + cell * len(rows[0]), w.y))
    for row in rows:
        for j, text in enumerate(row):
            w.page.insert_text((x + j * cell + 2, w.y + 10), text, fontname=REGULAR, fontsize=9)
        w.y += 14
    w.page.draw_line((x, w.y + 2), (x + cell * len(rows[0]), w.y + 2))
    w.y += 2 + gap
    w.line(f"{label} {caption}", size=9)
    return w.page_number


def stacked_tables_paper() -> tuple[bytes, FloatTruth]:
    """Tables captioned below, as many journals set them: each page opens with two tables stacked in the top
    margin band, the first table's caption further from its own rows than from the next table's top rule (the
    gaps a typesetter leaves when it packs floats), and both pages' tables share their header cells at the
    same place, as a paper's tables of one design do; a running head above them on every page."""
    truth = FloatTruth()
    w = Writer(columns=1, margin=50.0, running_head=STACKED_HEAD)
    for page, (first, second) in enumerate([(("1", "84.2", "54.2"), ("2", "91.5", "92.1")),
                                            (("3", "84.6", "85.8"), ("4", "97.4", "77.5"))]):
        if page:
            w.new_page()
        for n, (label, cs, bio) in enumerate((first, second)):
            rows = [["", "CS", "Bio"], ["Baseline", cs, bio], ["Neural", bio, cs]]
            caption = f"Scores of the systems in setting {label}."
            truth.tables.append((label, _table_over_caption(w, f"Table {label}:", caption, rows, 12.0 if n == 0
                                                            else 4.0), caption, rows))
            w.space(3)
        w.space(14)
        w.paragraph(prose(10, offset=page))
    return w.bytes(), truth


def labels_atop_pages_paper() -> tuple[bytes, FloatTruth]:
    """Tables captioned above, the label on a line of its own ("Table 2") and the title on the next, each opening
    its page under the running head, at the same place on both pages (Elsevier's layout): a line that repeats at
    one place on two pages, digits aside, as a running head does."""
    truth = FloatTruth()
    w = Writer(columns=1, running_head="Journal of Generated Tests 3 (2005) 1-4")
    w.line("Captions at the Top of Pages", size=16, font=BOLD, center=True)
    w.space(8)
    w.heading("1 Introduction")
    w.paragraph(prose(30))
    for label, caption, rows in (("2", "Significance of the rainfall terms", [["Site", "Rain"], ["Ridge", "P"]]),
                                 ("5", "Estimated reductions of flow", [["Site", "Total"], ["Creek", "12"]])):
        w.new_page()
        w.line(f"Table {label}", size=8)
        w.line(caption, size=8)
        w.page.draw_line((w.x(), w.y + 2), (w.x() + 240, w.y + 2))
        w.y += 4
        _ruled_rows(w, w.x(), 80.0, rows)
        truth.tables.append((label, w.page_number, caption, rows))
        w.space(14)
        w.paragraph(prose(20, offset=int(label)))
    return w.bytes(), truth


@dataclass
class EquationTruth:
    numbered: list[tuple[str, int, str]] = field(default_factory=list)  # label, page, formula text
    unnumbered: list[tuple[int, str]] = field(default_factory=list)  # page, formula text


def _display(w: Writer, formula: str, label: str | None, left: bool = False) -> int:
    """A centred italic formula, its "(N)" label flush with the column's right edge (`left`: its left edge)."""
    w.space(6)
    w._advance(20)
    width = pymupdf.get_text_length(formula, fontname=ITALIC, fontsize=10)
    x = w.x() + (w.col_width - width) / 2
    w.page.insert_text((x, w.y + 10), formula, fontname=ITALIC, fontsize=10)
    if label:
        tag = f"({label})"
        tag_x = w.x() if left else w.x() + w.col_width - pymupdf.get_text_length(tag, fontname=REGULAR, fontsize=10)
        w.page.insert_text((tag_x, w.y + 10), tag, fontname=REGULAR, fontsize=10)
    w.y += 18
    return w.page_number


def figure_under_display_paper() -> tuple[bytes, EquationTruth]:
    """A numbered display of two fractions (their bars drawn as rules, as TeX draws them) with a short line of text
    under it, and right below that a figure captioned under its graphics: nothing parts display and figure by more
    than a line's height, as in a one-column physics preprint."""
    truth = EquationTruth()
    w = Writer(columns=1)
    w.heading("1 Model")
    w.paragraph(prose(3) + " Now, consider:")
    w._advance(60)
    x, y = w.x(), w.y
    for k, (top, bottom) in enumerate((("2d cos", "sin2"), ("d cos", "1 - cos2"))):
        left = x + 140 + 90 * k
        w.page.insert_text((left, y + 10), top, fontname=ITALIC, fontsize=10)
        w.page.draw_line((left - 2, y + 14), (left + 45, y + 14), width=0.4)
        w.page.insert_text((left, y + 25), bottom, fontname=ITALIC, fontsize=10)
    w.page.insert_text((x + 120, y + 17), "=", fontname=REGULAR, fontsize=10)
    w.page.insert_text((x + 210, y + 17), "=", fontname=REGULAR, fontsize=10)
    tag = "(1)"
    w.page.insert_text((x + w.col_width - pymupdf.get_text_length(tag, fontname=REGULAR, fontsize=10), y + 17), tag,
                       fontname=REGULAR, fontsize=10)
    truth.numbered.append(("1", w.page_number, ""))
    w.y = y + 34
    w.line("where the angle is taken between the two.")
    _figure(w, "Figure 1:", "The splitting of one parton into two.")
    w.paragraph(prose(2, offset=1))
    return w.bytes(), truth


def numbered_scheme_paper() -> tuple[bytes, float]:
    """A framed scheme whose compounds are numbered "(1)" to "(3)" flush with the text's right edge, captioned under
    it, as chemistry journals set one. Returns the PDF and the top of the scheme's frame."""
    w = Writer(columns=1)
    w.heading("1 Synthesis")
    w.paragraph(prose(3))
    w._advance(200)
    x, top = w.x(), w.y
    w.page.draw_rect(pymupdf.Rect(x + 10, top, x + w.col_width + 2, top + 150), color=(0, 0, 0))
    for k, y in enumerate((top + 30, top + 80, top + 130)):
        w.page.insert_text((x + 30, y), f"R-CH{k}-OH = x + y", fontname=ITALIC, fontsize=9)
        tag = f"({k + 1})"
        w.page.insert_text((x + w.col_width - pymupdf.get_text_length(tag, fontname=REGULAR, fontsize=9), y), tag,
                           fontname=REGULAR, fontsize=9)
    w.y = top + 158
    w.line("Figure 1: A synthesis route through compounds (1) to (3).", size=9)
    w.space(10)
    w.paragraph(prose(2, offset=1))
    return w.bytes(), top


def equations_paper() -> tuple[bytes, EquationTruth]:
    """Numbered and unnumbered displays, and prose that ends in "(2019)" or "Eq. (1)" at the right edge."""
    truth = EquationTruth()
    w = Writer(columns=1)
    w.heading("1 Model")
    w.paragraph(prose(3) + " The loss is defined below.")
    truth.numbered.append(("1", _display(w, "L = a + b = c", "1"), "L = a + b = c"))
    w.paragraph(prose(2, offset=1) + " It was introduced by earlier work on the topic (2019)")
    truth.unnumbered.append((_display(w, "x + y = z", None), "x + y = z"))
    w.paragraph(prose(2, offset=2))
    truth.numbered.append(("2", _display(w, "f = g * h", "2"), "f = g * h"))
    w.paragraph(prose(1, offset=4))
    right_aligned = "and the two terms are weighed against each other as in Eq. (1)"
    w.page.insert_text((w.x() + w.col_width - pymupdf.get_text_length(right_aligned, fontname=REGULAR, fontsize=10),
                        w.y + 10), right_aligned, fontname=REGULAR, fontsize=10)
    w.y += 14
    w.paragraph(prose(3, offset=3))
    return w.bytes(), truth


def full_measure_equation_paper() -> tuple[bytes, EquationTruth]:
    """A display in Symbol and roman type that fills the measure, its "(1)" set right after its closing stop with
    no gap, and a line of prose holding Symbol letters (a big sum sign) that ends in a citation glued the same way
    ("Eq.(2)"); then
    a display numbered (2) the same way whose indices are words set small ('W_new', 'W_old'), and one numbered (3)
    naming functions ('cos', 'sin')."""
    truth = EquationTruth()
    w = Writer(columns=1)
    w.heading("1 Model")
    w.paragraph(prose(3))
    width = lambda pieces: sum(pymupdf.get_text_length(t, fontname=f, fontsize=z) for t, f, z in pieces)

    def row(pieces: list[tuple[str, str, float]]) -> None:
        w._advance(20)
        x = w.x() + w.col_width - width(pieces)
        for text, font, size in pieces:
            w.page.insert_text((x, w.y + (10 if size == 10 else 12)), text, fontname=font, fontsize=size)
            x += pymupdf.get_text_length(text, fontname=font, fontsize=size)
        w.y += 18

    def display(label: str, start: list[tuple[str, str, float]], term: list[tuple[str, str, float]]) -> None:
        tag = [(".", REGULAR, 10), (f"({label})", REGULAR, 10)]
        formula = list(start)
        while width(formula + term + tag) < w.col_width - 30:
            formula += term
        row(formula + tag)
        truth.numbered.append((label, w.page_number, "".join(t for t, _, _ in formula) + "."))

    display("1", [("l", "symb", 10), (" (1 + ", REGULAR, 10), ("q", "symb", 10), (")", REGULAR, 10)],
            [(" + ", REGULAR, 10), ("a", "symb", 10), ("b", "symb", 10)])
    w.paragraph(prose(2, offset=1))
    row([("where the sum ", REGULAR, 10), ("S", "symb", 12), (" of the weights ", REGULAR, 10), ("q", "symb", 10),
         (" is bounded as shown before in Eq.(2)", REGULAR, 10)])
    w.paragraph(prose(2, offset=2))
    display("2", [("W", "symb", 10), ("new", REGULAR, 7), (" = ", REGULAR, 10), ("W", "symb", 10), ("old", REGULAR, 7)],
            [(" + ", REGULAR, 10), ("h", "symb", 10), ("tot", REGULAR, 7)])
    w.paragraph(prose(2, offset=3))
    display("3", [("f", "symb", 10), (" = 1", REGULAR, 10)], [(" + cos ", REGULAR, 10), ("q", "symb", 10),
                                                            (" sin ", REGULAR, 10), ("j", "symb", 10)])
    w.paragraph(prose(2, offset=4))
    return w.bytes(), truth


def low_equations_paper(symbols: bool = False) -> tuple[bytes, EquationTruth]:
    """Two pages, each ending in a display equation set in the page's bottom band, its number where the other
    page's stands, as a running foot's would. With `symbols`, each is a row of a longer display with no relation on
    it, its letters set in Symbol ('l (1 + q)': λ(1 + θ))."""
    truth = EquationTruth()
    w = Writer(columns=1)
    w.heading("1 Model")
    rows = ([("l", "symb"), (" (1 + ", REGULAR), ("q", "symb"), (")", REGULAR)],
            [("a", "symb"), (" (2 + ", REGULAR), ("b", "symb"), (")", REGULAR)]) if symbols else \
        ([("E = m + c", ITALIC)], [("F = a * b", ITALIC)])
    for n, pieces in enumerate(rows, 1):
        while w.y < HEIGHT * 0.87 - 12:
            w.paragraph(prose(1, offset=n))
        baseline, tag = HEIGHT * 0.87 + 12, f"({n})"
        x = w.x() + (w.col_width - sum(pymupdf.get_text_length(t, fontname=f, fontsize=10) for t, f in pieces)) / 2
        for text, font in pieces:
            w.page.insert_text((x, baseline), text, fontname=font, fontsize=10)
            x += pymupdf.get_text_length(text, fontname=font, fontsize=10)
        tag_x = w.x() + w.col_width - pymupdf.get_text_length(tag, fontname=REGULAR, fontsize=10)
        w.page.insert_text((tag_x, baseline), tag, fontname=REGULAR, fontsize=10)
        truth.numbered.append((str(n), w.page_number, "".join(text for text, _ in pieces)))
        w.new_page()
    w.paragraph(prose(2))
    return w.bytes(), truth


def equation_numbering_paper() -> tuple[bytes, EquationTruth]:
    """A two-column paper whose displays are numbered by section ("(3.2)"), in an appendix ("(A1)") and on the
    left (amsmath's leqno), with a list item whose "(3)" hangs at the left edge before prose (no equation)."""
    truth = EquationTruth()
    w = Writer(columns=2)
    w.line("Equation Numbering Conventions", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("3 Model")
    w.paragraph(prose(4) + " The loss of the model is defined as follows.")
    truth.numbered.append(("3.2", _display(w, "L = a + b = c", "3.2"), "L = a + b = c"))
    w.paragraph(prose(3, offset=1))
    truth.numbered.append(("4", _display(w, "f = g * h", "4", left=True), "f = g * h"))
    w.paragraph(prose(2, offset=2))
    w._advance(14)
    w.page.insert_text((w.x(), w.y + 10), "(3)", fontname=REGULAR, fontsize=10)
    w.page.insert_text((w.x() + 24, w.y + 10), "the third item of the list", fontname=REGULAR, fontsize=10)
    w.y += 14
    w.paragraph(prose(8, offset=3))
    w.heading("Appendix A")
    w.paragraph(prose(2, offset=4))
    truth.numbered.append(("A1", _display(w, "p = q - r", "A1"), "p = q - r"))
    w.paragraph(prose(2, offset=5))
    return w.bytes(), truth


def dashed_numbering_paper() -> tuple[bytes, EquationTruth]:
    """Displays numbered by chapter and equation joined with a hyphen ("(2-1)", as many engineering journals and
    theses number them), and prose that ends in "pages (3-5)" at the right edge."""
    truth = EquationTruth()
    w = Writer(columns=1)
    w.heading("2 Model")
    w.paragraph(prose(3))
    truth.numbered.append(("2-1", _display(w, "L = a + b = c", "2-1"), "L = a + b = c"))
    w.paragraph(prose(2, offset=1))
    truth.numbered.append(("2-2", _display(w, "f = g * h", "2-2"), "f = g * h"))
    right_aligned = "as the derivation in the appendix shows on pages (3-5)"
    w.page.insert_text((w.x() + w.col_width - pymupdf.get_text_length(right_aligned, fontname=REGULAR, fontsize=10),
                        w.y + 10), right_aligned, fontname=REGULAR, fontsize=10)
    w.y += 14
    w.paragraph(prose(3, offset=3))
    return w.bytes(), truth


def wide_display_paper() -> tuple[bytes, EquationTruth]:
    """A two-column page with a display as wide as the page between the columns' paragraphs (REVTeX's widetext),
    centred across the gutter and numbered at the page's right edge."""
    truth = EquationTruth()
    w = Writer(columns=2)
    w.line("A Display Across Both Columns", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.paragraph(prose(6))
    w.column, w.y = 1, w.top
    w.paragraph(prose(6, offset=2))
    y, formula = 400.0, "E = m c + a b + x y + p q - r s + t u = v w + k"
    width = pymupdf.get_text_length(formula, fontname=ITALIC, fontsize=10)
    w.page.insert_text(((WIDTH - width) / 2, y), formula, fontname=ITALIC, fontsize=10)
    tag_x = WIDTH - w.margin - pymupdf.get_text_length("(7)", fontname=REGULAR, fontsize=10)
    w.page.insert_text((tag_x, y), "(7)", fontname=REGULAR, fontsize=10)
    truth.numbered.append(("7", w.page_number, formula))
    for column, offset in ((0, 1), (1, 3)):
        w.column, w.y = column, y + 20
        w.paragraph(prose(4, offset=offset))
    return w.bytes(), truth


def equation_array_paper() -> tuple[bytes, EquationTruth]:
    """A two-column paper with an equation array whose rows are numbered one by one ("(5)", "(6)", "(7)", as
    eqnarray and align set them) and, below it, a two-row display numbered once on its last row."""
    truth = EquationTruth()
    w = Writer(columns=2)
    w.line("Equation Arrays", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("2 Updates")
    w.paragraph(prose(4) + " The three updates are as follows.")

    def rows(formulas: list[str], labels: list[str | None]) -> None:
        w.space(6)
        w._advance(14 * len(formulas) + 6)
        for formula, label in zip(formulas, labels):
            w.page.insert_text((w.x() + 40, w.y + 10), formula, fontname=ITALIC, fontsize=10)
            if label:
                tag = f"({label})"
                tag_x = w.x() + w.col_width - pymupdf.get_text_length(tag, fontname=REGULAR, fontsize=10)
                w.page.insert_text((tag_x, w.y + 10), tag, fontname=REGULAR, fontsize=10)
            w.y += 14
        w.y += 4

    array = ["u = a + b - c", "v = u + d + e", "w = v - f + g"]
    rows(array, ["5", "6", "7"])
    truth.numbered += [(label, w.page_number, formula) for label, formula in zip(["5", "6", "7"], array)]
    w.paragraph(prose(3, offset=1) + " Their sum is then bounded.")
    rows(["s = u + v + w", "+ x + y"], [None, "8"])
    truth.numbered.append(("8", w.page_number, "s = u + v + w + x + y"))
    w.paragraph(prose(4, offset=2))
    return w.bytes(), truth


@dataclass
class BibEntry:
    marker: str | None
    authors: list[str]
    title: str
    year: int
    venue: str
    doi: str | None = None
    arxiv_id: str | None = None


BIBLIOGRAPHY = [
    BibEntry("[1]", ["Alice Smith", "Bob Jones"], "Rules recover the structure of scientific papers", 2020,
             "Journal of Document Engineering", doi="10.1234/jde.2020.17"),
    BibEntry("[2]", ["Carol Lee"], "A very long title about table extraction that needs more than one line to be "
             "printed in a column of the reference list", 2019, "Proceedings of the Workshop on Tables"),
    BibEntry("[3]", ["Dan Brown", "Eve Green", "Frank White"], "Citations in context", 2021, "arXiv preprint",
             arxiv_id="2101.01234"),
]


def bibliography_paper(style: str) -> tuple[bytes, list[BibEntry]]:
    """A page with a References heading and the entries of BIBLIOGRAPHY in `style`: "numbered"
    ([1] A. Smith and B. Jones. Title. Venue, 2020.) or "author-year" (ACL: hanging indent,
    Alice Smith and Bob Jones. 2020. Title. Venue.)."""
    w = Writer(columns=1)
    w.heading("References")
    entries = []
    for e in BIBLIOGRAPHY:
        names = e.authors if style == "author-year" else [f"{n[0]}. {n.split()[-1]}" for n in e.authors]
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        extra = f" doi:{e.doi}" if e.doi else (f" arXiv:{e.arxiv_id}" if e.arxiv_id else "")
        if style == "numbered":
            text, marker = f"{e.marker} {joined}. {e.title}. {e.venue}, {e.year}.{extra}", e.marker
        else:
            text, marker = f"{joined}. {e.year}. {e.title}. {e.venue}.{extra}", None
        first, *rest = w.wrap(text, 9, REGULAR, w.col_width)
        rest = w.wrap(" ".join(rest), 9, REGULAR, w.col_width - 12) if rest else []
        w.line(first, size=9)
        for line in rest:
            w.line(line, size=9, x_offset=12)
        w.space(3)
        entries.append(BibEntry(marker, e.authors if style == "author-year" else names, e.title, e.year, e.venue,
                                e.doi, e.arxiv_id))
    return w.bytes(), entries


SURNAMES = ["Smith", "Jones", "Garcia", "Chen", "Okafor", "Novak", "Rossi", "Tanaka", "Dubois", "Kowalski",
            "Larsen", "Moreau", "Silva", "Nguyen", "Ivanova", "Haddad"]
TITLE_WORDS = ["learning", "tables", "structure", "parsing", "graphs", "citations", "layout", "retrieval",
               "documents", "evaluation", "models", "captions"]


BACK_MATTER = ["Conflict of Interest Statement: The authors declare", "that the research was conducted in the",
               "absence of any commercial or financial", "relationships.", "Received: 17 May 2013; accepted: 09 July",
               "2013; published online: 25 July 2013.", "Copyright \u00a9 2013 Smith and Jones. This is an open-",
               "access article distributed under the terms", "of the Creative Commons Attribution License."]


def author_year_bibliography(entries: int, columns: int = 2, heading: str = "References",
                             back_matter: bool = False) -> tuple[bytes, int]:
    """A paper whose author-year bibliography (hanging indent, no space between entries, most entries on one
    line, some on two or three) runs across columns and onto the next page, under `heading`; with `back_matter`,
    the journal's labelled statements follow in the list's type and column (BACK_MATTER, as Frontiers sets them).
    Returns the PDF and the count."""
    w = _introduced("A Paper With a Long Bibliography", columns, 14)
    w.heading(heading)
    _hanging_entries(w, entries)
    for text in BACK_MATTER if back_matter else []:
        w.line(text, size=9)
    return w.bytes(), entries


def _introduced(title: str, columns: int, sentences: int) -> Writer:
    """A paper's title and an introduction of `sentences` of prose, in `columns`: how the bibliographies below and
    other generated papers open."""
    w = Writer(columns=columns)
    w.line(title, size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("1 Introduction")
    w.paragraph(prose(sentences))
    return w


def _hanging_entries(w: Writer, entries: int, start: int = 0) -> None:
    """Author-year entries in small type, each entry's further lines indented under its first."""
    for n in range(start, start + entries):
        head, *rest = w.wrap(_bib_text(n), 9, REGULAR, w.col_width)
        w.line(head, size=9)
        for line in w.wrap(" ".join(rest), 9, REGULAR, w.col_width - 12) if rest else []:
            w.line(line, size=9, x_offset=12)


def carried_over_bibliography() -> tuple[bytes, int]:
    """An author-year bibliography (hanging indent) whose last entry breaks at the foot of a page's last column,
    its last two lines alone at the top of the next page: a column whose lines share one left edge. Returns the PDF
    and the count."""
    w = _introduced("An Entry Across the Page", 2, 14)
    w.heading("References")
    line = 9 * 1.25
    entries = 0
    while not (w.column == w.columns - 1 and w.y + 4 * line > HEIGHT - w.margin - 20):
        _hanging_entries(w, 1, start=entries)
        entries += 1
    first, *rest = w.wrap(_bib_text(entries) + " In Proceedings of the Conference on Long Entries Across Pages, "
                          "pages 101-110, New York, NY, USA. ACM Press, second edition, 2011.", 9, REGULAR, w.col_width)
    w.line(first, size=9)
    for text in w.wrap(" ".join(rest), 9, REGULAR, w.col_width - 12):
        w.line(text, size=9, x_offset=12)
    assert w.page_number == 2 and w.y <= w.margin + 3 * line, "the entry's tail is alone on the next page"
    return w.bytes(), entries + 1


def indented_bibliography(entries: int) -> tuple[bytes, int]:
    """An author-year bibliography whose entries indent their first line, as paragraphs do, their further lines
    flush with the column (Word templates and older proceedings), running across columns and onto the next page;
    returns the PDF and the count."""
    w = _introduced("Entries Set as Paragraphs", 2, 14)
    w.heading("References")
    for n in range(entries):
        head, *rest = w.wrap(_bib_text(n), 9, REGULAR, w.col_width - 12)
        w.line(head, size=9, x_offset=12)
        for line in w.wrap(" ".join(rest), 9, REGULAR, w.col_width) if rest else []:
            w.line(line, size=9)
    return w.bytes(), entries


def small_block_bibliography(entries: int) -> tuple[bytes, int, str]:
    """A journal's small text block printed on a larger sheet (ACM's format on A4): wide margins, the running head
    on the block's first row, well below the top of the page, over a bibliography that turns the page. Returns
    the PDF, the count and the running head."""
    head = "ACM Journal of Tests, Vol. 3, No. 2"
    w = Writer(columns=1, margin=140)
    w.line("A Paper in a Small Format", size=14, font=BOLD, center=True)
    w.space(8)
    w.heading("1 Introduction")
    w.paragraph(prose(10))
    w.heading("References")
    _hanging_entries(w, entries)
    for page in w.doc:  # in the list's own type, on the block's first row
        page.insert_text((w.margin, w.margin - 10), head, fontname=REGULAR, fontsize=9)
    return w.bytes(), entries, head


def small_caps_bibliography(entries: int) -> tuple[bytes, int]:
    """A numbered bibliography whose authors are set in small capitals (USENIX and ACM proceedings): each surname's
    first letter at the list's 9 pt, the rest as capitals at 7.2 pt, so that most of an entry's first line is the
    smaller type, while the entry's further lines are in the list's own. Returns the PDF and the count."""
    w = _introduced("Authors in Small Capitals", 2, 6)
    w.heading("References")
    for n in range(entries):
        names = [SURNAMES[(n + k) % len(SURNAMES)] for k in range(4 if n % 2 else 2)]
        w._advance(9 * 1.25)
        x, y = w.x(), w.y + 9
        for text, size in [(f"[{n + 1}] ", 9.0)] + [part for name in names for part in
                                                     ((name[0], 9.0), (name[1:].upper() + ", A., ", 7.2))]:
            w.page.insert_text((x, y), text, fontname=REGULAR, fontsize=size)
            x += pymupdf.get_text_length(text, fontname=REGULAR, fontsize=size)
        w.y += 9 * 1.25
        w.line(f"{' '.join(TITLE_WORDS[n % 5:n % 5 + 4]).capitalize()}. In Proceedings of the", size=9, x_offset=12)
        w.line(f"Conference on Tests {n} ({2000 + n}), pp. {n}-{n + 9}.", size=9, x_offset=12)
    return w.bytes(), entries


def bare_number_bibliography(entries: int, supplement: int = 0) -> tuple[bytes, int]:
    """A bibliography numbered by bare numbers, "7 McCoy, A. and Smith, B. (2007) Title...", each number in a
    narrow band left of its entry's lines (Portland Press and some Elsevier journals); with `supplement`,
    supplementary material follows on a new page, closing with a short list of its own of that many entries.
    Returns the PDF and the main list's count."""
    def listed(count: int) -> None:
        for n in range(count):
            first, *rest = w.wrap(_bib_text(n).replace("Smith", "McCoy"), 9, REGULAR, w.col_width - 14)
            w._advance(9 * 1.25)
            w.page.insert_text((w.x(), w.y + 9), str(n + 1), fontname=REGULAR, fontsize=9)
            w.line(first, size=9, x_offset=14)
            for line in w.wrap(" ".join(rest), 9, REGULAR, w.col_width - 14) if rest else []:
                w.line(line, size=9, x_offset=14)

    w = _introduced("Numbers Without Brackets", 2, 8)
    w.heading("References")
    listed(entries)
    if supplement:
        w.new_page()
        w.line("SUPPLEMENTARY ONLINE DATA", size=12, font=BOLD)
        w.heading("Materials and Methods")
        w.paragraph(prose(6, offset=2))
        w.heading("References")
        listed(supplement)
    return w.bytes(), entries


def styled_entry_bibliography(style: str, entries: int) -> tuple[bytes, int]:
    """A numbered bibliography whose entries' parts are set in other fonts, as journals set them: `bold-authors`,
    "1. Novak, A., B. Smith, and C. Chen." in bold before the rest of the entry in the list's roman (American
    Society for Microbiology), or `bold-line`, alone on the entry's first line; `journal-line`, Vancouver entries whose journal, year and pages close the entry on a
    line of their own in italics, "J Test Med. 2003;33:455-9." (the journal's abbreviation opening like a lettered
    heading). Returns the PDF and the count."""
    w = Writer(columns=2)  # unnumbered headings, as these journals set them
    w.line("Entries in Their Own Fonts", size=16, font=BOLD, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    w.heading("INTRODUCTION")
    w.paragraph(prose(12))
    w.heading("REFERENCES")
    for n in range(entries):
        names = [SURNAMES[(n + k) % len(SURNAMES)] for k in range(2)]
        title = f"{' '.join(TITLE_WORDS[n % 5:n % 5 + 3]).capitalize()} in tests."
        w._advance(9 * 1.25)
        x, y = w.x(), w.y + 9
        if style == "bold-line":  # the authors alone on the entry's first line, all bold: no run-in heading
            w.page.insert_text((x, y), f"{n + 1}. {names[0]}, A., and B. {names[1]}.", fontname=BOLD, fontsize=9)
            w.y += 9 * 1.25
            w.line(f"{2000 + n}. {title} Test Microbiol. {n + 3}:{100 + n}-{110 + n}.", size=9, x_offset=12)
        elif style == "bold-authors":
            lead = f"{n + 1}. {names[0]}, A., and B. {names[1]}. "
            w.page.insert_text((x, y), lead, fontname=BOLD, fontsize=9)
            x += pymupdf.get_text_length(lead, fontname=BOLD, fontsize=9)
            w.page.insert_text((x, y), f"{2000 + n}. {title}", fontname=REGULAR, fontsize=9)
            w.y += 9 * 1.25
            w.line(f"Test Microbiol. {n + 3}:{100 + n}-{110 + n}.", size=9, x_offset=12)
        else:
            w.page.insert_text((x, y), f"{n + 1}. {names[0]} A, {names[1]} B. {title}", fontname=REGULAR, fontsize=9)
            w.y += 9 * 1.25
            w.space(4)  # the journal line set apart, as a heading would be
            w.line(f"J Test Med. {2000 + n};{n + 3}:{100 + n}-{9 + n % 10}.", size=9, font=ITALIC, x_offset=12)
            w.space(4)
    return w.bytes(), entries


def spaced_bibliography(entries: int, outlier: bool = False) -> tuple[bytes, int]:
    """An author-year list in one column whose entries, two lines each, are set apart by space, without indents;
    with `outlier`, one entry's first line starts a little left of the others (a protruding glyph): the only line
    not flush with the list. Returns the PDF and the count."""
    w = _introduced("A Flush List", 1, 8)
    w.heading("References")
    for n in range(entries):
        text = (f"{SURNAMES[n % len(SURNAMES)]}, A. B. and {SURNAMES[(n + 3) % len(SURNAMES)]}, C. {1990 + n}. "
                + " ".join(TITLE_WORDS[(n + k) % len(TITLE_WORDS)] for k in range(14))
                + f". Journal of Tests {n}, {100 + n}-{120 + n}.")
        for k, line in enumerate(w.wrap(text, 10, REGULAR, w.col_width)):
            w.line(line, size=10, x_offset=-6 if outlier and n == entries // 2 and k == 0 else 0)
        w.space(5)
    return w.bytes(), entries


def appendix_after_bibliography() -> tuple[bytes, list[tuple[str, str]]]:
    """A paper whose appendix follows its numbered bibliography, with run-in numbered subsections ('A.1 Proof of
    Lemma 1.') and a subsection titled like a name ('A.3 Kalman Filter, Details'). Returns the PDF and the
    (number, title) of every section."""
    w = Writer(columns=1)
    w.line("Appendices After the Bibliography", size=14, font=BOLD, full_width=True, center=True)
    w.space(8)
    for number, title in (("1", "Introduction"), ("2", "Method")):
        w.heading(f"{number} {title}")
        w.paragraph(prose(5))
    w.heading("References")
    for n in range(8):
        w.line(f"[{n + 1}] {SURNAMES[n]}, A. Title of work {n}. Journal {n}, 2000.", size=9)
    w.heading("A Proofs")
    w.paragraph(prose(4))
    w.paragraph(prose(4, offset=2), run_in="A.1 Proof of Lemma 1.")
    w.paragraph(prose(4, offset=2), run_in="A.2 Proof of Theorem 2.")
    w.heading("A.3 Kalman Filter, Details", size=10)
    w.paragraph(prose(4, offset=1))
    return w.bytes(), [("1", "Introduction"), ("2", "Method"), (None, "References"), ("A", "Proofs"),
                       ("A.1", "Proof of Lemma 1"), ("A.2", "Proof of Theorem 2"), ("A.3", "Kalman Filter, Details")]


def one_line_entries_bibliography(entries: int) -> tuple[bytes, int]:
    """An author-year list in one column whose entries are mostly one line long, the few longer ones hanging
    their further lines (preprints of the 1990s); some entries open without initials ('Kerber et al. 2000') and
    some end without a full stop, so the text alone cannot tell where each starts. Returns the PDF and the count."""
    w = _introduced("Short Entries", 1, 10)
    w.heading("References")
    for n in range(entries):
        name = SURNAMES[n % len(SURNAMES)]
        text = (f"{name} et al. {1990 + n % 10}, these proceedings" if n % 6 == 3 else
                f"{name}, A. B. {1990 + n % 10}, ApJ, {100 + n}, {200 + 3 * n}")
        text += "." if n % 7 != 5 else ""
        if n % 5 == 0:
            text = text.rstrip(".") + ", in " + " ".join(TITLE_WORDS[(n + k) % len(TITLE_WORDS)] for k in range(12))
        head, *rest = w.wrap(text, 10, REGULAR, w.col_width)
        w.line(head, size=10)
        for line in w.wrap(" ".join(rest), 10, REGULAR, w.col_width - 24) if rest else []:
            w.line(line, size=10, x_offset=24)
    return w.bytes(), entries


def _bib_text(n: int) -> str:
    first, second = SURNAMES[n % len(SURNAMES)], SURNAMES[(3 * n + 5) % len(SURNAMES)]
    words = [TITLE_WORDS[(n + k) % len(TITLE_WORDS)] for k in range(2 + 5 * (n % 4 == 0) + 9 * (n % 7 == 0))]
    return f"{first}, A. and {second}, B. {2000 + n % 24}. {' '.join(words).capitalize()}. Proc. Conf. {n}."


def banded_bibliography(entries: int, appendix: bool = False) -> tuple[bytes, int, list[str]]:
    """A paper closing as PLoS journals set it: its last subsection and back matter in the two columns of the last
    page's upper band, then the References heading in the left column of a band below, the numbered list running
    in both columns of that band, its right column level with the list's first line. With `appendix`, the right
    column holds an appendix instead, its prose going on level with the list's first line after a gap beside the
    heading: the list is the left column's alone, read before it. Returns the PDF, the count and the section titles
    in reading order."""
    w = _introduced("A Bibliography in a Band of Its Own", 2, 6)
    w.new_page()
    w.heading("2 Methods")
    w.paragraph(prose(6, offset=1))
    left_end = w.y
    w.column, w.y = 1, w.top
    if appendix:
        w.heading("A Proofs", size=10)
        w.paragraph(prose(3, offset=2))
    else:
        w.heading("2.1 Measuring Velocities", size=10)
        w.paragraph(prose(3, offset=2))
        w.heading("Author Contributions", size=10)
        w.paragraph("Conceived the experiments: AS. Wrote the paper: AS BJ.", size=9)
    band = max(left_end, w.y) + 12
    w.column, w.y = 0, band
    w.heading("References", size=10)
    first = w.y
    count = (entries + 1) // 2 if appendix else entries
    for n in range(count):
        if n == (entries + 1) // 2:
            w.column, w.y = 1, first
        head, *rest = w.wrap(f"{n + 1}. {_bib_text(n)}", 9, REGULAR, w.col_width)
        w.line(head, size=9)
        for line in w.wrap(" ".join(rest), 9, REGULAR, w.col_width - 12) if rest else []:
            w.line(line, size=9, x_offset=12)
    if appendix:
        w.column, w.y = 1, first
        w.paragraph(prose(4, offset=3))
    assert w.page_number == 2, "the list ends on the page it starts on"
    titles = ["References", "Proofs"] if appendix else ["Measuring Velocities", "Author Contributions", "References"]
    return w.bytes(), count, ["Introduction", "Methods", *titles]


def headingless_list_paper(methods: bool) -> tuple[bytes, int]:
    """A paper set as some letters journals set theirs: a title, prose without any heading and a numbered list of
    references in small type closing the text, without a heading, then its figure, as preprints put figures last.
    With `methods`, as Nature sets it, a Methods section with the figure follows the list, one of its lines opening
    with a number as an entry would ('1 Gyr after ...'). Returns the PDF and the count."""
    w = Writer(columns=1)
    w.line("Light Bosons in the Early Universe", size=16, font=BOLD, center=True)
    w.space(8)
    for n in range(4):
        w.paragraph(prose(5, offset=n))
    entries = 10
    for n in range(entries):
        w.line(f"{n + 1}. {SURNAMES[n]}, A. & {SURNAMES[n + 3]}, B. Title of work {n}. Phys. Rev. D {40 + n}, "
               f"{100 + n} ({2000 + n}).", size=8)
    if methods:
        w.heading("Methods")
        w.paragraph(prose(4, offset=1))
        w.line("1 Gyr after the start of the run the bar has slowed to half of its first speed.")
        w.paragraph(prose(2, offset=2))
    _figure(w, "Figure 1:", "The spectrum of the bosons in the model.")
    return w.bytes(), entries


def part_numbered_paper(part: str, printed: bool = True) -> tuple[bytes, str, str]:
    """A paper with Figure 1 in the main text and `part` Figure 1 ("Extended Data", as Nature sets it after the
    Methods; "Appendix", a journal's bound web appendix) after it unless not `printed` (a supplement, printed apart),
    each cited in the text ("Fig. 1", "<part> Fig. 1"). Returns the PDF and the two citing sentences."""
    w = Writer(columns=1)
    w.line("Bars Slowed by Gas in Galaxies", size=16, font=BOLD, center=True)
    w.heading("1 Results")
    main, apart = "The bar slows down as Fig. 1 shows.", f"The rotation curve is in {part} Fig. 1 below."
    w.paragraph(prose(3) + " " + main)
    _figure(w, "Figure 1 |", "Projected surface densities of the simulated galaxies.")
    w.heading("2 Methods")
    w.paragraph(prose(3, offset=1) + " " + apart)
    if printed:
        _figure(w, f"{part} Figure 1 |", "The circular velocity curve of the initial conditions.")
    w.paragraph(prose(2, offset=2))
    return w.bytes(), main, apart


def marker_line_bibliography(entries: int) -> tuple[bytes, int]:
    """A bibliography whose markers ("1.") stand alone on their line, each entry's text on the lines below it
    (BMC's layout and many Word templates); returns the PDF and the count."""
    w = _introduced("Markers on Their Own Lines", 2, 6)
    w.heading("References")
    for n in range(entries):
        w.line(f"{n + 1}.", size=9)
        for line in w.wrap(_bib_text(n), 9, REGULAR, w.col_width - 12):
            w.line(line, size=9, x_offset=12)
    return w.bytes(), entries


def plain_word_bibliography(entries: int, appendix: bool = False) -> tuple[bytes, int]:
    """A bibliography under the word "References" set in the list's own small type, below the body size (as
    ACM journals and magazines set it), which no heading style of the paper matches; with `appendix`, an
    appendix on the next page follows it. Returns the PDF and the count."""
    w = _introduced("A Plain References Line", 2, 8)
    w.heading("2 Results")
    w.paragraph(prose(8, offset=3))
    w.space(8)
    w.line("References", size=9)
    _hanging_entries(w, entries)
    if appendix:
        w.new_page()
        w.heading("A Proofs")
        w.paragraph(prose(6, offset=1))
    return w.bytes(), entries


# --- where a paper prints its publication year ----------------------------------------------------


@dataclass
class DatedPage:
    """Statements of a paper's date, each printed where such statements are printed on page 1; empty = absent."""

    head: list[str] = field(default_factory=list)  # journal or proceedings lines above the title, page 1 only
    running_head: str = ""  # a journal line at the head of every page
    stamp: str = ""  # an arXiv stamp, set vertically in the left margin
    under_title: str = ""  # a line in body type under the authors ("Published 5 June 2017")
    footnote: list[str] = field(default_factory=list)  # small type at the foot of the first column


def dated_paper(dates: DatedPage, columns: int = 2) -> bytes:
    """A two-page paper printing `dates`, whose prose cites later years ("(Lee et al., 2024)", "the SemEval
    2023 task") and whose references and PDF creation date are later still, so the year can only be right when
    it is read from the statements."""
    w = Writer(columns=columns, running_head=dates.running_head)
    for n, text in enumerate(dates.head):
        w.page.insert_text((w.margin, 40 + 10 * n), text, fontname=REGULAR, fontsize=8)
    if dates.stamp:
        w.page.insert_text((30, 560), dates.stamp, fontname=REGULAR, fontsize=14, rotate=90)
    w.line("Publication Years Are Printed on the First Page", size=18, font=BOLD, full_width=True, center=True)
    w.space(8)
    w.line("Alice Smith and Bob Jones", size=11, full_width=True, center=True)
    w.line("University of Testing, Example City", size=10, full_width=True, center=True)
    if dates.under_title:
        w.line(dates.under_title, size=10, full_width=True, center=True)
    w.space(12)
    w.line("Abstract", size=12, font=BOLD, full_width=columns == 1, center=columns == 2)
    w.paragraph(prose(3) + " We build on the SemEval 2023 task and on Lee et al. (2024).", full_width=True)
    w.start_columns()
    for n, text in enumerate(reversed(dates.footnote)):
        w.page.insert_text((w.margin, HEIGHT - w.margin - 4 - 9 * n), text, fontname=REGULAR, fontsize=7)
    w.heading("1 Introduction")
    w.paragraph(prose(6) + " Earlier systems (Lee et al., 2024; Kim, 2025) read the year from the PDF.")
    for n in range(6):
        w.paragraph(prose(12, offset=n))
    w.heading("References")
    for n in range(1, 4):
        w.paragraph(f"[{n}] A. Author. A cited paper number {n}. Journal of Tests, 20{22 + n}.", size=9)
    return w.bytes({"creationDate": "D:20260101120000Z", "modDate": "D:20260101120000Z"})


BYLINE = ("Alice Smith and Bob Jones", "University of Testing, Example City")


def entities_paper(title: str, paragraphs: list[str], references: tuple[str, ...] = (),
                   byline: tuple[str, str] = BYLINE) -> bytes:
    """A one-column paper whose Introduction, Experiments and Conclusion hold the given paragraphs (the
    entities a test needs named), so the semantic extractor has text that names them; `references` are the
    entries of its References section (one cited paper when none are given), `byline` its author and
    affiliation lines."""
    w = Writer(columns=1)
    w.line(title, size=18, font=BOLD, full_width=True, center=True)
    w.space(8)
    w.line(byline[0], size=11, full_width=True, center=True)
    w.line(byline[1], size=10, full_width=True, center=True)
    w.space(12)
    w.line("Abstract", size=12, font=BOLD, full_width=True)
    w.paragraph(" ".join([paragraphs[0], prose(2)]), full_width=True)
    for number, heading in enumerate(("Introduction", "Experiments", "Conclusion"), start=1):
        w.heading(f"{number} {heading}")
        w.paragraph(" ".join([*paragraphs, prose(3, offset=number)]))
    w.heading("References")
    for entry in references or ("[1] A. Author. A cited paper. Journal of Tests, 2011.",):
        w.paragraph(entry, size=9)
    return w.bytes()


# --- papers that share a dataset (cross-paper questions) ------------------------------------------


def experiments_paper(title: str, experiments: str, related: str) -> bytes:
    """A one-column paper titled `title` whose Experiments section says `experiments` and whose Related Work
    section says `related`: what cross-paper questions tell apart (a paper's own use of a name or a mention)."""
    w = Writer(columns=1)
    w.line(title, size=18, font=BOLD, full_width=True, center=True)
    w.space(8)
    w.line("Carol White and Dan Green", size=11, full_width=True, center=True)
    w.space(12)
    w.line("Abstract", size=12, font=BOLD, full_width=True)
    w.paragraph(prose(3), size=10, full_width=True)
    w.start_columns()
    for heading, text in (("1 Introduction", prose(4)), ("2 Related Work", related),
                          ("3 Experiments", experiments), ("4 Conclusion", prose(3, offset=1))):
        w.heading(heading)
        w.paragraph(text)
    w.heading("References")
    w.paragraph("[1] M. Marcus, B. Santorini and M. Marcinkiewicz. Building a large annotated corpus of English. "
                "Computational Linguistics, 1993.", size=9)
    return w.bytes({"title": title})


# --- heading conventions other than numbered bold lines (issue 26's failure classes) -------------------------


def journal_paper(columns: int = 2, abstract_label: bool = True, boxed_summary: bool = False
                  ) -> tuple[bytes, Truth]:
    """A journal layout: a small upper-case ABSTRACT label (or none) over a structured abstract (Background:,
    Methods:, Conclusions:), upper-case bold level-1 headings and unnumbered bold body-size sub-headings, one of them set
    directly under its section's heading with no space between ("MATERIALS AND METHODS" / "Cell Culture").
    `boxed_summary` adds two summary boxes, each a title ("Key messages", bold, larger than the section headings)
    over bulleted points, after the results and after the discussion."""
    parts = [("Background:", prose(2)), ("Methods:", prose(2, offset=2)), ("Conclusions:", prose(2, offset=4))]
    truth = Truth(title="Stress Responses of Cultured Cells Under Heat", authors=["Alice Smith", "Bob Jones"],
                  abstract=" ".join(f"{label} {text}" for label, text in parts))
    w = Writer(columns=columns)
    w.line(truth.title, size=16, font=BOLD, full_width=True)
    w.space(6)
    w.line("Alice Smith and Bob Jones", size=11, full_width=True)
    w.line("Department of Testing, University of Examples", size=8, font=ITALIC, full_width=True)
    w.space(10)
    if abstract_label:
        w.line("ABSTRACT", size=8, full_width=True)
    w.space(4)
    for label, text in parts:
        w.paragraph(f"{label} {text}", size=9, full_width=True)
    w.start_columns()
    outline = [("INTRODUCTION", 1, 3), ("MATERIALS AND METHODS", 1, 0), ("Cell Culture", 2, 4),
               ("Statistical Analysis", 2, 3), ("RESULTS", 1, 2), ("Primary Outcome", 2, 4), ("DISCUSSION", 1, 3),
               ("REFERENCES", 1, 0)]
    for title, level, paragraphs in outline:
        if level == 1:
            truth.sections.append((None, title, 1, w.heading(title, size=10)))
        elif truth.sections[-1][1] == "MATERIALS AND METHODS":  # directly under it, no space between
            w.line(title, 10, BOLD)
            w.space(3)
            truth.sections.append((None, title, 2, w.page_number))
        else:
            truth.sections.append((None, title, 2, w.heading(title, size=10)))
        for n in range(paragraphs):
            w.paragraph(prose(5, offset=n + level))
        if boxed_summary and title in ("Primary Outcome", "DISCUSSION"):
            box = "Key messages" if title == "Primary Outcome" else "Open questions"
            truth.sections.append((None, box, 2, w.heading(box, size=11)))
            for n in range(3):
                w.paragraph(f"- {SENTENCES[n]} {SENTENCES[n + 1]}")
    for n in range(1, 4):
        w.paragraph(f"{n}. A. Author. A cited paper number {n}. Journal of Tests, 20{10 + n}.", size=9)
    truth.pages = w.page_number
    return w.bytes(), truth


def run_in_paper() -> tuple[bytes, Truth]:
    """A mathematics-journal layout: a printed table of contents (entries with their page number flush right),
    level-1 headings on their own line and numbered level-2 headings set run-in, a bold title ending in a
    period followed by the paragraph on the same line ("2.1. First Measure. The ..."), and an unnumbered bold
    lead ("Remark.") that is no heading. The PDF outline names the headings too, so the contents page's entries
    match it as well as the headings do."""
    truth = Truth(title="Measures of Influence with Run-In Headings", authors=["Alice Smith"], abstract=prose(3))
    outline = [("1", "Introduction", 1), ("2", "Structural Measures", 1), ("2.1", "First Measure", 2),
               ("2.2", "Second Measure", 2), ("3", "Results", 1), ("3.1", "Spread of Influence", 2)]
    w = Writer(columns=1)
    w.line(truth.title, size=14, font=BOLD, full_width=True, center=True)
    w.line("Alice Smith", size=10, full_width=True, center=True)
    w.space(8)
    w.paragraph(f"Abstract. {truth.abstract}", size=9)
    w.line("Contents", size=10, center=True)
    for n, (number, title, _) in enumerate(outline):
        page_number = str(2 + n // 2)
        right = w.margin + w.col_width - 24 - pymupdf.get_text_length(page_number, fontname=REGULAR, fontsize=10)
        w.page.insert_text((right, w.y + 10), page_number, fontname=REGULAR, fontsize=10)
        w.line(f"{number}. {title}", x_offset=12)
    w.new_page()
    for number, title, level in outline:
        if level == 1:
            truth.sections.append((number, title, 1, w.heading(f"{number}. {title}", size=10)))
            w.paragraph(prose(6, offset=1))
            continue
        w.space(8)
        w.paragraph(prose(6, offset=2), run_in=f"{number}. {title}.")
        truth.sections.append((number, title, 2, w.page_number))
        w.space(8)
        w.paragraph(prose(4, offset=3), run_in="Remark.")
    truth.pages = w.page_number
    w.doc.set_toc([[level, f"{number}. {title}", 2] for number, title, level in outline])  # as hyperref writes it
    return w.bytes(), truth


def letter_paper(references: int = 12, superscripts: bool = False) -> tuple[bytes, Truth, list[str]]:
    """A physics-letter layout (REVTeX): an abstract set smaller than the body under the byline with no heading,
    and a bibliography with no heading: on the last page the left column ends in body text and the right one
    holds numbered entries in small type, "[1]", or with `superscripts` a raised small "1" before the authors'
    names. Returns the PDF, the truth and the entries' texts (marker first)."""
    truth = Truth(title="Ultra Light Particles and the Microwave Background", authors=["Alice Smith", "Bob Jones"],
                  abstract=prose(5, offset=1))
    w = Writer(columns=2)
    w.line(truth.title, size=14, font=BOLD, full_width=True, center=True)
    w.space(4)
    w.line("Alice Smith and Bob Jones", size=10, full_width=True, center=True)
    w.line("Department of Physics, University of Examples", size=8, font=ITALIC, full_width=True, center=True)
    w.space(8)
    w.paragraph(truth.abstract, size=9, full_width=True)
    w.start_columns()
    for number, title in (("I", "INTRODUCTION"), ("II", "THE MODEL"), ("III", "CONCLUSIONS")):
        truth.sections.append((number, title, 1, w.heading(f"{number}. {title}", size=10)))
        for n in range(3):
            w.paragraph(prose(6, offset=n))
    w.new_page()
    filler = w.wrap(prose(60), 10, REGULAR, w.col_width)
    while w.y + 12.5 <= HEIGHT - w.margin - 20:  # the left column ends in body text ...
        w.line(filler.pop(0))
    w.column, w.y = 1, w.top  # ... and the right one holds only the list, in smaller type
    entries = [f"{n if superscripts else f'[{n}]'} A. Author and B. Writer, Phys. Rev. D {40 + n}, {100 * n} "
               f"(20{10 + n})." for n in range(1, references + 1)]
    for entry in entries:
        if superscripts:
            number, text = entry.split(" ", 1)
            w._advance(8 * 1.25)  # the page or column the entry's line will be on
            w.page.insert_text((w.x(), w.y + 8 - 3), number, fontname=REGULAR, fontsize=5.5)  # 3 pt above its base
            w.line(text, size=8, x_offset=8)
        else:
            w.line(entry, size=8)
    truth.pages = w.page_number
    return w.bytes(), truth, entries


def printed_twice(data: bytes) -> bytes:
    """The same PDF with every page's content drawn a second time over the first (a second text layer, or a
    producer that overprints text to make it look bolder): what a reader sees does not change."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    copy = pymupdf.open(stream=data, filetype="pdf")
    for page in doc:
        page.show_pdf_page(page.rect, copy, page.number)
    return doc.tobytes()


def with_dangling_object(data: bytes) -> bytes:
    """The same PDF saved with object streams, one spare object's entry left pointing into a stream that does not
    hold it: a cross-reference slip some producers make, which viewers pass over (the object is never used)."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    spare = doc.get_new_xref()
    doc.update_object(spare, "<< /Note (spare) >>")
    saved = doc.tobytes(use_objstms=1, deflate=0)
    header = re.search(rb"/Type/ObjStm[^>]*>>\s*stream\s*([\d ]+)", saved)
    numbers = header.group(1).split()
    assert numbers[-2] == str(spare).encode(), "the spare object is the stream's last"
    renamed = b" ".join([*numbers[:-2], numbers[0], numbers[-1]])  # its place now claims another object's number
    return saved[:header.start(1)] + renamed.ljust(len(header.group(1))) + saved[header.end(1):]


def stored_rotated(data: bytes, rotation: int) -> bytes:
    """The same PDF as a producer may store it: each page's content drawn turned by `rotation` degrees on a page
    whose /Rotate turns it back, so that it shows exactly as the original (scanned and landscape pages often are)."""
    src = pymupdf.open(stream=data, filetype="pdf")
    doc = pymupdf.open()
    for original in src:
        width, height = original.rect.width, original.rect.height
        page = doc.new_page(width=height if rotation in (90, 270) else width,
                            height=width if rotation in (90, 270) else height)
        page.show_pdf_page(page.rect, src, original.number, rotate=rotation)
        page.set_rotation(rotation)
    return doc.tobytes()


# --- result tables (issue 27: result tuples read by header structure) ---------------------------------------


def _experiments_section() -> Writer:
    """A one-column paper titled 'Measuring Things Carefully', open at the heading of its first section,
    '1 Experiments': where the generated result-table papers set their tables."""
    w = Writer(columns=1)
    w.line("Measuring Things Carefully", size=18, font=BOLD, full_width=True, center=True)
    w.space(12)
    w.heading("1 Experiments")
    return w


def results_paper(tables: list[tuple[str, str, list[list[str]]]]) -> bytes:
    """A one-column paper whose Experiments section holds the given tables (label, caption, rows; cells as
    _table writes them), each after a paragraph."""
    w = _experiments_section()
    for label, caption, rows in tables:
        w.paragraph(prose(2))
        _table(w, label, caption, rows)
    w.heading("2 Conclusion")
    w.paragraph(prose(2, offset=1))
    return w.bytes({"title": "Measuring Things Carefully"})



def side_by_side_tables_paper(tables: list[tuple[str, list[list[str]]]]) -> bytes:
    """A one-column paper with two captioned tables set side by side on one row, each caption over its own grid
    in its half of the text width (`tables`: caption with its label, rows), their rows on the same baselines."""
    w = _experiments_section()
    w.paragraph(prose(2))
    w.space(6)
    half = w.col_width / 2
    top = w.y
    for n, (caption, rows) in enumerate(tables):
        x = w.margin + n * (half + 12)
        w.page.insert_text((x, top + 9), caption, fontname=REGULAR, fontsize=9)
        cell, x = (half - 24) / len(rows[0]), x + 12  # the grid indented under its caption, as _table sets it
        w.page.draw_line((x, top + 14), (x + cell * len(rows[0]), top + 14))
        w.y = top + 16  # both grids from the same top: their rows share baselines
        _ruled_rows(w, x, cell, rows)
    w.y = top + 30 + 14 * max(len(rows) for _, rows in tables)
    w.paragraph(prose(2, offset=1))
    w.heading("2 Conclusion")
    w.paragraph(prose(2, offset=2))
    return w.bytes({"title": "Measuring Things Carefully"})


def midrule_table_paper(header: list[list[str]], body: list[list[str]], caption: str) -> bytes:
    """A one-column paper with one table set as booktabs sets one without its top rule: the header rows, a rule,
    the body rows and a bottom rule, the caption below; right above the table a section heading whose number
    stands an em and more apart from its title, as LaTeX sets it ('2' and 'Results': two cells of one line)."""
    w = _experiments_section()
    w.paragraph(prose(2))
    w.space(6)
    w.page.insert_text((w.x(), w.y + 12), "2", fontname=BOLD, fontsize=12)
    w.page.insert_text((w.x() + 20, w.y + 12), "Results", fontname=BOLD, fontsize=12)
    w.y += 16
    x, cell = w.x() + 10, (w.col_width - 20) / len(header[0])
    _ruled_rows(w, x, cell, header)
    _ruled_rows(w, x, cell, body)
    w.y += 4
    w.line(caption, size=9)
    w.space(10)
    w.paragraph(prose(2, offset=1))
    return w.bytes({"title": "Measuring Things Carefully"})


def two_level_header_paper(rows: list[tuple[str, list[str]]]) -> bytes:
    """A one-column paper with one results table whose header has two levels, as papers set a benchmark of
    several tasks: task names over metric names, each task name centred over its metrics and narrower than
    they are, the tasks spanning unequal numbers of columns (Classification: F1; Cite and Co-Cite: MAP and
    nDCG). The value columns are set close together, little more than an em apart; `rows` are (model, five
    values)."""
    w = _experiments_section()
    w.paragraph(prose(2))
    w.line("Table 1: Results on the benchmark tasks.", size=9)
    w.space(4)
    x0, pitch, size = w.x(), 35.0, 9
    columns = [200.0, *(250.0 + pitch * j for j in range(4))]  # the F1 column as wide as its task's name
    put = lambda x, y, text: w.page.insert_text((x, y), text, fontname=REGULAR, fontsize=size)
    width = lambda text: pymupdf.get_text_length(text, fontname=REGULAR, fontsize=size)
    w.page.draw_line((x0, w.y), (columns[-1] + pitch, w.y))
    for task, first, last in (("Classification", 0, 0), ("Cite", 1, 2), ("Co-Cite", 3, 4)):
        middle = (columns[first] + columns[last] + width("00.0")) / 2
        put(middle - width(task) / 2, w.y + 10, task)
    w.y += 12
    put(x0, w.y + 10, "Model")
    for x, metric in zip(columns, ("F1", "MAP", "nDCG", "MAP", "nDCG")):
        put(x, w.y + 10, metric)
    w.y += 14
    w.page.draw_line((x0, w.y + 1), (columns[-1] + pitch, w.y + 1))
    for model, values in rows:
        put(x0, w.y + 10, model)
        for x, value in zip(columns, values):
            put(x + width("00.0") - width(value), w.y + 10, value)  # right-aligned figures
        w.y += 12
    w.page.draw_line((x0, w.y + 3), (columns[-1] + pitch, w.y + 3))
    w.space(16)
    w.heading("2 Conclusion")
    w.paragraph(prose(2, offset=1))
    return w.bytes({"title": "Measuring Things Carefully"})

# --- bitmap Type3 fonts (issue 26: old TeX papers converted by dvips) -----------------------------------------

_DPI = 300.0  # the device resolution dvips draws its bitmap fonts for: one glyph unit is one pixel
_GLYPH_NAMES = {**{c: c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"},
                **dict(zip("0123456789", ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                          "nine"))),
                ".": "period", ",": "comma", "-": "hyphen", ":": "colon", "(": "parenleft", ")": "parenright",
                "[": "bracketleft", "]": "bracketright"}


@dataclass
class BitmapTruth:
    """What a reader sees in a paper set in bitmap fonts: its title, numbered headings (number, title), and every
    printed line with its page and the box its glyphs cover (upright page coordinates)."""

    title: str
    headings: list[tuple[str, str]] = field(default_factory=list)
    lines: list[tuple[str, int, tuple[float, float, float, float]]] = field(default_factory=list)
    pages: int = 0


class _BitmapFont:
    """A Type3 font as dvips writes one for a TeX font at one size: FontMatrix [1 0 0 -1 0 0] and a FontBBox of
    a whole 1000-pixel cell, widths in pixels, each glyph a filled box (its bitmap)."""

    def __init__(self, doc: pymupdf.Document, size: float, base: str):
        self.size, self.em_px = size, size * _DPI / 72
        shape = pymupdf.Font(base)
        self.widths = {c: round(shape.glyph_advance(ord(c)) * self.em_px) for c in _GLYPH_NAMES}
        codes = {c: 33 + n for n, c in enumerate(_GLYPH_NAMES)}
        self.codes = codes
        procs = []
        for c, name in _GLYPH_NAMES.items():
            xref = doc.get_new_xref()
            doc.update_object(xref, "<<>>")
            w, top = self.widths[c], round((0.7 if c.isupper() or c.isdigit() else 0.5) * self.em_px)
            doc.update_stream(xref, f"{w} 0 0 0 {w} {top} d1 0 0 {max(w - 1, 1)} {top} re f".encode())
            procs.append(f"/{name} {xref} 0 R")
        differences = " ".join(f"{codes[c]} /{name}" for c, name in _GLYPH_NAMES.items())
        widths = " ".join(str(self.widths[c]) for c in codes)  # in code order
        self.xref = doc.get_new_xref()
        doc.update_object(self.xref, f"<< /Type /Font /Subtype /Type3 /FontMatrix [1 0 0 -1 0 0] "
                                     f"/FontBBox [0 0 1000 1000] /Resources << >> "
                                     f"/CharProcs << {' '.join(procs)} >> /Encoding << /Type /Encoding "
                                     f"/Differences [{differences}] >> /FirstChar 33 "
                                     f"/LastChar {32 + len(codes)} /Widths [{widths}] >>")

    def advance(self, text: str) -> float:
        """Points the text advances (no kerning)."""
        return sum(self.widths[c] for c in text) * 72 / _DPI

    def show(self, name: str, text: str, x: float, y: float) -> str:
        """Content drawing `text` from the baseline point (x, y) in points, top-left origin, as dvips does: the
        word's glyphs in one string at a position of their own, in the page's pixel space."""
        codes = "".join(f"\\{self.codes[c]:03o}" for c in text)
        return f"BT /{name} 1 Tf 1 0 0 1 {x * _DPI / 72:.2f} {y * _DPI / 72:.2f} Tm ({codes}) Tj ET\n"


def bitmap_font_paper(columns: int = 1, email: str = "") -> tuple[bytes, BitmapTruth]:
    """A paper set entirely in bitmap Type3 fonts the way dvips writes pre-2000 TeX papers: the page scales pixel
    space by 72/300 (so PDF readers see a font size of 0.24), every word is drawn on its own with no space glyphs,
    and the last letter of every sixth word is drawn apart, a pixel to the left (a kern: "Accelerato" "r").
    Title in a 17 pt font, numbered headings in a 12 pt one, prose in a 10 pt one with a line holding a 7 pt
    subscript; `columns` of prose. An `email`
    is set under the authors in 10 pt Courier between parentheses drawn from the bitmap font, on one baseline."""
    doc = pymupdf.open()
    fonts = {"F1": _BitmapFont(doc, 10, "tiro"), "F2": _BitmapFont(doc, 12, "tibo"), "F3": _BitmapFont(doc, 17, "tibo"),
             "F4": _BitmapFont(doc, 7, "tiro")}
    truth = BitmapTruth(title="Bound States of Heavy Quarks in a Relativistic Model")
    margin, gutter = 72.0, 24.0
    width = (WIDTH - 2 * margin - (columns - 1) * gutter) / columns
    pages: list[list[str]] = []
    state = {"y": 0.0, "column": 0, "words": 0}

    def new_page() -> None:
        pages.append([])
        state["y"], state["column"] = margin, 0

    def set_line(words: list[str], font: str, left: float) -> None:
        f = fonts[font]
        if state["y"] + f.size * 1.2 > HEIGHT - margin:
            if state["column"] + 1 < columns:
                state["column"] += 1
                state["y"] = top
            else:
                new_page()
        x0 = x = left + state["column"] * (width + gutter)
        y = state["y"] + f.size
        for word in words:
            state["words"] += 1
            if state["words"] % 6 == 0 and len(word) > 3:  # drawn in two pieces, the second a pixel back
                pages[-1].append(f.show(font, word[:-1], x, y))
                pages[-1].append(f.show(font, word[-1], x + f.advance(word[:-1]) - 72 / _DPI, y))
            else:
                pages[-1].append(f.show(font, word, x, y))
            x += f.advance(word) + f.size / 3  # TeX's interword space
        text = " ".join(words)
        truth.lines.append((text, len(pages), (x0, y - 0.7 * f.size, x - f.size / 3, y)))
        state["y"] += f.size * 1.2

    def paragraph(text: str, font: str = "F1", full: bool = False) -> None:
        f, line = fonts[font], []
        room = WIDTH - 2 * margin if full else width
        for word in text.split():
            if line and f.advance("".join(line + [word])) + f.size / 3 * len(line) > room:
                set_line(line, font, margin)
                line = []
            line.append(word)
        set_line(line, font, margin)
        state["y"] += 4

    new_page()
    set_line(truth.title.split(), "F3", margin)
    state["y"] += 6
    set_line("J. Zeng and W. Roberts".split(), "F1", margin)
    f, y = fonts["F1"], state["y"] + 10  # a line with a subscript: "mass mQ of", the Q 7 pt and 2 pt lower
    x = margin
    for word in ("The", "mass", "m"):
        pages[-1].append(f.show("F1", word, x, y))
        x += f.advance(word) + (f.size / 3 if word != "m" else 0)
    pages[-1].append(fonts["F4"].show("F4", "Q", x, y + 2))
    x += fonts["F4"].advance("Q") + f.size / 3
    for word in ("of", "the", "quark"):
        pages[-1].append(f.show("F1", word, x, y))
        x += f.advance(word) + f.size / 3
    truth.lines.append(("The mass mQ of the quark", 1, (margin, y - 7, x - f.size / 3, y + 2)))
    state["y"] += 14
    if email:
        f, y = fonts["F1"], state["y"] + 10
        pages[-1].append(f.show("F1", "(", margin, y))  # drawn in order, as a producer draws a line
        pages[-1].append(f"BT /C0 {10 * _DPI / 72:.2f} Tf 1 0 0 -1 {(margin + f.advance('(')) * _DPI / 72:.2f} "
                         f"{y * _DPI / 72:.2f} Tm ({email}) Tj ET\n")
        pages[-1].append(f.show("F1", ")", margin + f.advance("(") + 6 * len(email), y))
        truth.lines.append((f"({email})", 1, (margin, y - 7, margin + f.advance("()") + 6 * len(email), y)))
        state["y"] += 12
    state["y"] += 10
    paragraph(prose(3), full=True)
    top = state["y"]
    for n, title in enumerate(("Introduction", "The Model", "Solution of the Equations", "Results",
                               "Conclusion"), start=1):
        state["y"] += 8
        set_line([str(n), *title.split()], "F2", margin)
        truth.headings.append((str(n), title))
        for k in range(3):
            paragraph(prose(5, offset=n + k))
    courier = "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"
    for content in pages:
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        resources = " ".join(f"/{name} {f.xref} 0 R" for name, f in fonts.items()) + " /C0 " + courier
        doc.xref_set_key(page.xref, "Resources", f"<< /Font << {resources} >> >>")
        xref = doc.get_new_xref()
        doc.update_object(xref, "<<>>")
        # pixel space, top-left origin, y down: dvips' device; FontMatrix [1 0 0 -1 0 0] turns the glyphs upright
        doc.update_stream(xref, f"q {72 / _DPI} 0 0 {-72 / _DPI} 0 {HEIGHT} cm\n{''.join(content)}Q\n".encode())
        doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    truth.pages = len(pages)
    return doc.tobytes(), truth


# --- headings and equation labels the rules are unsure of (issue 26: escalation to the layout model) ----------


def own_style_headings_paper() -> tuple[bytes, list[str]]:
    """A magazine-like article over four pages: title, byline and a standfirst paragraph, then unnumbered headings
    with names no convention knows, set only larger than the body (13 pt roman over 10 pt), and no References
    heading, so the rules find no heading to learn the paper's heading style from. Returns the PDF and the
    headings."""
    w = Writer(columns=1)
    w.line("Adapting Extraction to New Domains", size=18, font=BOLD, center=True, full_width=True)
    w.line("A. Writer and B. Editor", size=11, font=BOLD, center=True, full_width=True)
    w.space(12)
    w.paragraph(prose(4))
    headings = ["Why Domains Differ", "Learning From Few Examples", "What the Readers Found", "Where This Leaves Us"]
    for n, heading in enumerate(headings):
        w.space(10)
        w._advance(60)
        w.line(heading, 13, REGULAR)
        w.space(3)
        for k in range(7):
            w.paragraph(prose(6, offset=n + k))
    return w.bytes(), headings


def plain_subheadings_paper() -> tuple[bytes, list[str]]:
    """Bold numbered section headings, each with two numbered sub-headings ("1.1 Related Work") set in the body's
    size and weight, only in another typeface (Helvetica among Times), standing alone above their paragraphs.
    Returns the PDF and the sub-headings' numbers."""
    w = Writer(columns=1)
    w.line("Placing Data on Parallel Disks", size=17, font=BOLD, center=True, full_width=True)
    w.space(12)
    numbers = []
    for n, title in enumerate(["Introduction", "Analysis", "Experiments"], start=1):
        w.heading(f"{n} {title}")
        w.paragraph(prose(4, offset=n))
        for k, sub in enumerate(["Related Work", "Our Results"], start=1):
            w.space(8)
            w._advance(40)
            w.line(f"{n}.{k} {sub}", 10, "helv")
            w.space(2)
            numbers.append(f"{n}.{k}")
            w.paragraph(prose(7, offset=n + k))
    w.heading("References")
    w.paragraph("[1] A. Author. A paper on disks. 2001.")
    return w.bytes(), numbers


def tab_stop_equations_paper() -> tuple[bytes, EquationTruth]:
    """Six displays, each numbered at a tab stop a little right of the formula rather than at the column's right
    edge (word processors' equation layouts), the formula set in Symbol and italic type."""
    truth = EquationTruth()
    w = Writer(columns=1)
    w.line("Bound States in a Relativistic Model", size=17, font=BOLD, center=True, full_width=True)
    w.heading("1 Introduction")
    pieces = [("L", ITALIC), ("(", REGULAR), ("q", "symb"), (")", REGULAR), (" = ", REGULAR), ("S", "symb"),
              (" log ", REGULAR), ("p", ITALIC), ("(", REGULAR), ("x", ITALIC), (" | ", REGULAR), ("q", "symb"),
              (") + ", REGULAR), ("l", "symb"), ("||", REGULAR), ("q", "symb"), ("||", REGULAR)]
    width = sum(pymupdf.get_text_length(text, fontname=font, fontsize=10) for text, font in pieces)
    for n in range(1, 7):
        w.paragraph(prose(4, offset=n))
        w.space(8)
        w._advance(24)
        x = w.x() + (w.col_width - width) / 2 - 30
        for text, font in pieces:
            w.page.insert_text((x, w.y + 12), text, fontname=font, fontsize=10)
            x += pymupdf.get_text_length(text, fontname=font, fontsize=10)
        w.page.insert_text((x + 40, w.y + 12), f"({n})", fontname=REGULAR, fontsize=10)
        truth.numbered.append((str(n), w.page_number, "L(q) = S log p(x | q) + l||q||"))
        w.y += 24
    w.paragraph(prose(6))
    return w.bytes(), truth


# --- glyphs without characters (issue 26: digits a font gives no Unicode for) ------------------------------------


def unmapped_digits_paper(sentences: int = 2) -> bytes:
    """A one-page paper in Helvetica whose digits are drawn from a Type3 font without a Unicode map: glyph names
    no reader knows, codes 16-25, so MuPDF reports control characters where '1', '(2)' and '[12]' are printed
    (old TeX papers' re-encoded bitmap fonts do this). Section numbers, two numbered displays, a figure with its
    caption, a citation, a reference and the first author's raised affiliation mark carry digits; `sentences` of
    digit-free prose per section set how small their share of the characters is."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    helvetica, bold = ("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                       "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    procs = []
    for digit in range(10):
        xref = doc.get_new_xref()
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, f"556 0 d0 BT /H 1000 Tf 0 0 Td ({digit}) Tj ET".encode())
        procs.append(f"/glyph{'abcdefghij'[digit]} {xref} 0 R")
    digits = doc.get_new_xref()
    doc.update_object(digits, "<< /Type /Font /Subtype /Type3 /FontMatrix [0.001 0 0 0.001 0 0] "
                              f"/FontBBox [0 0 556 1000] /Resources << /Font << /H {helvetica} >> >> "
                              f"/CharProcs << {' '.join(procs)} >> /Encoding << /Type /Encoding /Differences "
                              f"[16 {' '.join(p.split()[0] for p in procs)}] >> /FirstChar 16 /LastChar 25 "
                              f"/Widths [{' '.join(['556'] * 10)}] >>")
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /H {helvetica} /B {bold} /D {digits} 0 R >> >>")
    content: list[str] = []
    state = {"y": 72.0}

    def show(text: str, x: float, size: float = 10, font: str = "H") -> None:
        """`text` at x on the current line, its digits from the font without a map."""
        runs = re.findall(r"\d+|\D+", text)
        strings = []
        for run in runs:
            if run.isdigit():
                strings.append(f"/D {size} Tf (" + "".join(f"\\{16 + int(d):03o}" for d in run) + ") Tj")
            else:
                escaped = run.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                strings.append(f"/{font} {size} Tf ({escaped}) Tj")
        content.append(f"BT 1 0 0 1 {x:.2f} {HEIGHT - state['y']:.2f} Tm {' '.join(strings)} ET\n")

    def line(text: str, size: float = 10, font: str = "H", after: float = 13) -> None:
        state["y"] += size
        show(text, 72, size, font)
        state["y"] += after - size

    def paragraph(text: str) -> None:
        words, current = text.split(), ""
        for word in words:
            trial = f"{current} {word}".strip()
            if pymupdf.get_text_length(trial, fontname="helv", fontsize=10) > WIDTH - 144:
                line(current)
                current = word
            else:
                current = trial
        line(current, after=19)

    def display(formula: str, number: str) -> None:
        state["y"] += 16
        show(formula, 250)
        show(f"({number})", WIDTH - 72 - pymupdf.get_text_length(f"({number})", fontname="helv", fontsize=10))
        state["y"] += 14

    line("Bound States of Heavy Quarks", size=16, font="B", after=22)
    state["y"] += 10  # the byline, its first author's affiliation mark raised and smaller
    base, mark_at = HEIGHT - state["y"], 72 + pymupdf.get_text_length("A. Author", fontname="helv", fontsize=10)
    content.append(f"BT 1 0 0 1 72 {base:.2f} Tm /H 10 Tf (A. Author) Tj ET BT 1 0 0 1 {mark_at:.2f} {base + 4:.2f} "
                   f"Tm /D 6 Tf (\\021) Tj ET BT 1 0 0 1 {mark_at + 3.5:.2f} {base:.2f} Tm /H 10 Tf ( and B. Author) "
                   "Tj ET\n")
    state["y"] += 14
    line("1 Introduction", size=12, font="B", after=18)
    paragraph(prose(sentences) + " As Figure 1 shows, the model of [12] fits the energies of Table 2 within 30 MeV.")
    display("E = m + k", "1")
    paragraph(prose(sentences, offset=2))
    display("F = a b", "2")
    line("2 Results", size=12, font="B", after=18)
    paragraph(prose(sentences, offset=3))
    top = state["y"]
    content.append(f"0.5 w 150 {HEIGHT - top - 90:.2f} 300 90 re S 160 {HEIGHT - top - 80:.2f} m "
                   f"440 {HEIGHT - top - 10:.2f} l S\n")
    state["y"] += 100
    line("Figure 1: Energy levels of the model for 30 states.", after=24)
    line("References", size=12, font="B", after=18)
    line("[12] A. Smith. Energy levels of heavy mesons. Journal of Physics 45, 2019.")
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, "".join(content).encode())
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    return doc.tobytes()


def opaque_font_subheadings_paper(heavy: bool = True) -> tuple[bytes, list[str]]:
    """A journal-style paper whose section headings are bold capitals and whose unnumbered sub-headings ('Search
    strategy') stand alone in the body's size, set in a font with an opaque name ('Fk', as some typesetting systems
    name their fonts) that says nothing of its weight: printed heavy (filled and stroked) when `heavy`, in the
    body's weight otherwise. Returns the PDF and the sub-headings."""
    w = Writer(columns=1)
    w.line("Iron Deficiency and Infection: a Meta-analysis", size=17, font=BOLD, center=True, full_width=True)
    w.space(12)
    w.paragraph(prose(4))
    subheadings = []
    for n, (title, subs) in enumerate([("METHODS", ["Search strategy", "Inclusion criteria", "Data extraction"]),
                                       ("RESULTS", ["Study characteristics", "Summary estimates"])]):
        w.heading(title)
        w.paragraph(prose(3, offset=n))
        for k, sub in enumerate(subs):
            w.space(6)
            w._advance(40)
            w.page.insert_text((w.x(), w.y + 10), sub, fontname="cour", fontsize=10,
                               render_mode=2 if heavy else 0, border_width=0.05)
            w.y += 12.5
            subheadings.append(sub)
            w.paragraph(prose(6, offset=n + k))
    w.heading("REFERENCES")
    w.paragraph("[1] A. Author. A study of iron. 2001.")
    doc = pymupdf.open("pdf", w.bytes())
    for xref in range(1, doc.xref_length()):  # Courier renamed: an opaque name, printed in the viewer's serif face
        if doc.xref_get_key(xref, "BaseFont") == ("name", "/Courier"):
            doc.xref_set_key(xref, "BaseFont", "/Fk")
    return doc.tobytes(), subheadings


def margin_speck_paper() -> tuple[bytes, list[str]]:
    """Unnumbered bold headings, one of them ('Methods') with a speck in the margin left of it that reaches to just
    above its top (a mark a scan's OCR reads as a letter). Returns the PDF and the headings."""
    w = Writer(columns=1)
    w.line("Reading Scanned Pages", size=17, font=BOLD, center=True, full_width=True)
    w.space(12)
    headings = ["Introduction", "Methods", "Results", "Discussion", "References"]
    for n, heading in enumerate(headings):
        page = w.heading(heading)
        if heading == "Methods":
            top = w.y - 12 * 1.25 - 12 * 0.3  # the heading line's top: Writer.heading advanced past it
            w.doc[page - 1].insert_text((w.margin - 30, top + 1), "L", fontname=REGULAR, fontsize=9)
        w.paragraph(prose(5, offset=n))
    return w.bytes(), headings


def spaced_numbers_paper() -> tuple[bytes, list[tuple[str, str]]]:
    """Headings numbered 'I.', 'II.' ... set one and three quarter ems before their titles in capitals (an IEEE
    conference's centred headings), over running text. Returns the PDF and the (number, title) of each heading."""
    w = Writer(columns=1)
    w.line("Zone Routing for Mobile Sensor Networks", size=17, font=BOLD, center=True, full_width=True)
    w.space(12)
    headings = [("I", "INTRODUCTION"), ("II", "RELATED WORK"), ("III", "NETWORK SETUP"), ("IV", "CONCLUSION")]
    for n, (number, title) in enumerate(headings):
        w.space(10)
        w._advance(60)
        x = w.x() + 150
        w.page.insert_text((x, w.y + 10), f"{number}.", fontname=REGULAR, fontsize=10)
        gap = pymupdf.get_text_length(f"{number}.", fontname=REGULAR, fontsize=10) + 1.75 * 10
        w.page.insert_text((x + gap, w.y + 10), title, fontname=REGULAR, fontsize=10)
        w.y += 12.5
        w.space(3)
        for k in range(3):
            w.paragraph(prose(5, offset=n + k))
    w.heading("REFERENCES", size=10)
    w.paragraph("[1] A. Author. Routing in sensor networks. 2001.")
    return w.bytes(), headings


def small_capitals_headings_paper(entries: int) -> tuple[bytes, list[str], int]:
    """A paper set as AAS journals (emulateapj) set theirs: section headings numbered and in capitals two points
    below the body type, centred in their column ('1. INTRODUCTION'), and REFERENCES in that type centred over
    both columns at the top of a page, the author-year list running in the columns under it. Returns the PDF, the
    section titles and the number of entries."""
    w = Writer(columns=2)
    w.line("Companions of Nearby Stars", size=14, full_width=True, center=True)
    w.space(10)
    w.start_columns()
    titles = ["INTRODUCTION", "OBSERVATIONS AND DATA REDUCTION", "RESULTS", "DISCUSSION"]
    for n, title in enumerate(titles, start=1):
        w.space(8)
        w._advance(40)
        w.line(f"{n}. {title}", size=8, center=True)
        w.space(3)
        w.paragraph(prose(9, offset=n))
        w.paragraph(prose(7, offset=n + 1))
    w.new_page()
    w.line("REFERENCES", size=8, full_width=True, center=True)
    w.space(4)
    w.start_columns()
    _hanging_entries(w, entries)
    return w.bytes(), [*titles, "REFERENCES"], entries


def barred_running_head_paper(pages: int) -> tuple[bytes, str]:
    """A journal's running head as Annals of Internal Medicine sets it: a rule across the page over it and a thick
    bar parting its label ('Review') from its title, on every page, with a framed figure under the head's middle:
    half a page below it on odd pages, on even pages right under the figure's caption at the top of the text.
    Returns the PDF and the head's title."""
    title = "Surveillance Systems for Outbreak Detection"
    w = Writer(columns=1)
    for n in range(pages):
        if n:
            w.new_page()
        page = w.page
        page.draw_line((72, 20), (540, 20), width=0.5)
        page.draw_line((120, 32), (120.5, 32), width=24)
        page.insert_text((72, 44), "Review", fontname=REGULAR, fontsize=16)
        page.insert_text((126, 42), title, fontname=REGULAR, fontsize=9)
        if n % 2:
            w.line(f"Figure {n}. Systems by the syndromes they watch.", size=9)
            page.draw_rect(pymupdf.Rect(90, w.y + 6, 520, w.y + 200), width=1)
            w.y += 210
            w.paragraph(prose(6, offset=n))
        else:
            w.paragraph(prose(6, offset=n))
            page.draw_rect(pymupdf.Rect(90, 400, 520, 600), width=1)
    return w.bytes(), title


def parenthesized_bibliography(entries: int) -> tuple[bytes, int]:
    """A bibliography as ACS journals (achemso) number it: "(1)", "(2)", ... set flush right in the width of the
    widest marker, so "(9)" starts further right than "(10)", each entry's text starting at one edge after them and
    its further lines under that edge. Returns the PDF and the count."""
    w = _introduced("Entries Numbered in Parentheses", 1, 12)
    w.heading("References")
    box = pymupdf.get_text_length(f"({entries}) ", fontname=REGULAR, fontsize=10)
    for n in range(1, entries + 1):
        marker = f"({n})"
        head, *rest = w.wrap(_bib_text(n).replace(" and ", "; "), 10, REGULAR, w.col_width - box)
        w.line(head, x_offset=box)
        w.page.insert_text((w.x() + box - 3 - pymupdf.get_text_length(marker, fontname=REGULAR, fontsize=10),
                            w.y - 2.5), marker, fontname=REGULAR, fontsize=10)
        for line in w.wrap(" ".join(rest), 10, REGULAR, w.col_width - box) if rest else []:
            w.line(line, x_offset=box)
    return w.bytes(), entries

"""Escalation to PyMuPDF's layout model on the pages where the rules are unsure.

The rules read headings and numbered equations from typography and numbering; on most papers that is all there
is to find, and the layout model bundled with PyMuPDF 2 (a graph network over the page's text boxes and a
rendering of it) would cost tenths of a second a page to confirm it. So the model is asked only where the rules'
own output says they found too little, by conventions that hold for any paper:

- SPARSE_HEADINGS: several pages of body text and fewer headings than one per few pages. A paper that sets its
  headings in a way the rules do not recognise (a report's or magazine's own heading style) loses its whole
  outline. The model reads the first body pages; a line it calls a section header becomes a heading when it
  passes the rules' own checks (sections.find_headings, `hinted`), and headings of the same style on the pages
  the model did not read follow by the rules' style matching.
- UNSURE_NUMBERED: lines numbered as sub-headings of headings the rules found ("3.1" after "3"), standing alone,
  but set in the body's weight, so the rules cannot tell them from numbered paragraphs. Where the model calls
  them section headers they are headings, and so are the others in the same typeface and size.
- UNSURE_LABEL: an equation label "(n)" set apart from any text before it that the rules did not take: away
  from the column's right edge (a tab stop inside the margin, or column edges misread), or with no formula the
  text layer shows as one beside it (glyphs the text layer does not carry, a formula in plain type). The rules
  cannot tell that from a label that numbers nothing; a formula region the model finds on the label's row makes
  it a numbered equation. The label itself must be printed in the text layer: the model vouches for the display,
  never for the number.

The model runs at most once per page and on at most MAX_PAGES pages of a paper, so its cost stays bounded
whatever the paper; every page it read is recorded in the audit with the reasons.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable

from extractors.equations import column_edges, unsure_labels
from extractors.floats import body_size, inside, union
from extractors.model import BBox, Equation, Escalation, EscalationReason, Float, Line, PageLayout, element_id
from extractors.mupdf import LayoutModelError, layout_boxes, pymupdf
from extractors.sections import Heading, unsure_numbered
from extractors.text import EQUATION_LABEL

SPARSE_HEADINGS: EscalationReason = "sparse headings"
UNSURE_NUMBERED: EscalationReason = "numbered lines in body type"
UNSURE_LABEL: EscalationReason = "equation label the rules did not take"
MAX_PAGES = 6  # pages per paper the model may read
_PAGES_PER_HEADING = 4  # fewer headings than one per this many body pages is too few for any paper's outline
_MIN_BODY_PAGES = 3  # a letter of a page or two may have no headings at all
_BODY_CHARS = 1500  # a page with this much text is a page of body text, not a title page or a full-page figure

Boxes = list[tuple[BBox, str]]


class Escalator:
    """The layout model's regions per page, each page read once, and why each page was read."""

    def __init__(self, doc: pymupdf.Document, read: Callable[[pymupdf.Page], Boxes] = layout_boxes):
        self._doc, self._read = doc, read
        self._boxes: dict[int, Boxes] = {}
        self._reasons: dict[int, list[EscalationReason]] = defaultdict(list)
        self._added: dict[int, int] = defaultdict(int)
        self.unavailable = ""  # why the model could not be loaded or run, once it could not

    def regions(self, page: int, reason: EscalationReason, kind: str) -> list[BBox] | None:
        """The boxes of class `kind` the model finds on `page` (1-based), or None when the paper has used up its
        pages or the model is unavailable (then the rules' output stands, and the parse's warnings say so)."""
        if page not in self._boxes:
            if self._doc[page - 1].rotation:
                return []  # the model reads it as one block of text (layout_boxes): nothing to ask it
            if len(self._boxes) >= MAX_PAGES or self.unavailable:
                return None
            try:
                self._boxes[page] = self._read(self._doc[page - 1])
            except LayoutModelError as exc:  # it needs a few hundred MB more than the rules: the rules' output stands
                self.unavailable = str(exc)
                return None
        if reason not in self._reasons[page]:
            self._reasons[page].append(reason)
        return [box for box, k in self._boxes[page] if k == kind]

    def added(self, page: int, n: int = 1) -> None:
        self._added[page] += n

    def audit(self) -> list[Escalation]:
        return [Escalation(page=page, reasons=self._reasons[page], added=self._added[page])
                for page in sorted(self._boxes)]


def _covered(line: Line, box: BBox) -> bool:
    """The line lies in the box: most of its width, and its middle inside the box's height (the model's boxes
    hug the glyphs, a line's box spans the font's whole ascent and descent)."""
    width = min(line.bbox[2], box[2]) - max(line.bbox[0], box[0])
    slack = 0.25 * (line.bbox[3] - line.bbox[1])
    middle = (line.bbox[1] + line.bbox[3]) / 2
    return width >= 0.6 * (line.bbox[2] - line.bbox[0]) and box[1] - slack <= middle <= box[3] + slack


def heading_hints(pages: list[PageLayout], lines: list[Line], heads: list[Heading], in_floats: set[int],
                  escalator: Escalator) -> set[int]:
    """Indices of `lines` the model calls section headers, on the pages where the rules found too few headings
    (SPARSE_HEADINGS) or left numbered sub-headings undecided (UNSURE_NUMBERED); empty, without running the
    model, where neither holds. An undecided numbered line on a page the model did not read is hinted too when it
    is set in the typeface and size of one the model confirmed: the document's own sub-heading style."""
    by_page: dict[int, list[int]] = defaultdict(list)
    for i, line in enumerate(lines):
        by_page[line.page].append(i)
    asked: list[tuple[int, EscalationReason]] = []
    body = [page.page for page in pages if sum(len(line.text) for line in page.lines) >= _BODY_CHARS]
    if len(body) >= _MIN_BODY_PAGES and sum(not h.front for h in heads) * _PAGES_PER_HEADING < len(body):
        asked += [(page, SPARSE_HEADINGS) for page in body]
    unsure = unsure_numbered(lines, heads, in_floats)
    asked += [(page, UNSURE_NUMBERED) for page in dict.fromkeys(lines[i].page for i in unsure)]
    hinted: set[int] = set()
    for page, reason in asked:
        boxes = escalator.regions(page, reason, "section-header")
        if boxes is None:
            break
        hinted.update(i for i in by_page[page] for box in boxes if _covered(lines[i], box))
    confirmed = {_face(lines[i]) for i in unsure if i in hinted}
    return hinted | {i for i in unsure if _face(lines[i]) in confirmed}


def _face(line: Line) -> tuple[str, float]:
    return line.font, round(line.size, 1)


def _on_row(box: BBox, label: Line) -> bool:
    """A formula region on the label's row, reaching well to the left of the label's end: the display the label
    numbers (the region may hold the label itself)."""
    middle = (label.bbox[1] + label.bbox[3]) / 2
    return box[1] - label.size <= middle <= box[3] + label.size and box[0] < label.bbox[2] - 3 * label.size


def _row_of(line: Line, equations: list[Equation]) -> Equation | None:
    """The equation whose region holds the line's row."""
    middle = (line.bbox[1] + line.bbox[3]) / 2
    return next((e for e in equations if e.page == line.page and e.bbox[1] <= middle <= e.bbox[3]), None)


def model_equations(pages: list[PageLayout], sha256: str, equations: list[Equation], floats: list[Float],
                    escalator: Escalator) -> list[Equation]:
    """`equations` with the labels the rules did not take (UNSURE_LABEL) numbering a display where the model finds
    a formula on the label's row: an unnumbered display the rules found there takes the label, else the formula
    region becomes a numbered equation. A label already numbering an equation is a reference to it, not a
    second display, and a label on a numbered display's row is not that display's. In page order, as the rules
    list them."""
    size = body_size(pages)
    used = {e.label for e in equations if e.label}
    out = list(equations)
    for page in pages:
        if not any(EQUATION_LABEL.search(line.text) for line in page.lines):
            continue  # no label on the page: spare it the column edges
        floating = [f.bbox for f in floats if f.page == page.page]
        unsure = [(line, label) for line, label in unsure_labels(page, column_edges(page, size))
                  if label not in used and not inside(line.bbox, floating)
                  and ((row := _row_of(line, out)) is None or row.label is None)]
        if not unsure:
            continue
        formulas = escalator.regions(page.page, UNSURE_LABEL, "formula")
        if formulas is None:
            break
        for line, label in unsure:
            box = next((b for b in formulas if _on_row(b, line)), None)
            if box is None or label in used:
                continue
            row = _row_of(line, out)
            if row is not None:  # the display took its label line as part of the formula: the label comes out
                printed = re.compile(r"\(\s*" + re.escape(label) + r"\s*\)")
                out[out.index(row)] = row.model_copy(
                    update={"label": label, "text": " ".join(printed.sub(" ", row.text, count=1).split())})
            else:
                members = [l for l in page.lines if l is line or _covered(l, box)]
                text = " ".join(t for t in (EQUATION_LABEL.sub("", l.text).strip() if l is line else l.text.strip()
                                            for l in members) if t)
                bbox = union([box, line.bbox])
                out.append(Equation(id=element_id("equation", sha256, page.page, *(round(v, 1) for v in bbox)),
                                    label=label, text=text, page=page.page, bbox=bbox))
            used.add(label)
            escalator.added(page.page)
    return sorted(out, key=lambda e: e.page)  # an added equation among its page's, as the rules list them

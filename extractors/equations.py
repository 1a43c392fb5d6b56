"""Display equations: numbered ones by their "(N)" label at the column's right edge (or alone at its left edge,
beside the formula), unnumbered ones as indented runs of math-set lines.

A label is only a label when it is set apart: alone on its line, or after a wide gap from the
formula. Prose that ends in "(2019)" or "see eqs. (1)" has ordinary word spacing before the
parenthesis and is rejected, as are years and anything not at the right edge of the text column.
"""

from __future__ import annotations

import re

from extractors.floats import body_size, inside, is_body_line, union
from extractors.model import BBox, Equation, Float, Line, PageLayout, element_id
from extractors.text import EQUATION_LABEL, MATH_FONT, MATH_RELATION, is_mathy

WORD_RE = re.compile(r"[A-Za-z]{4,}")


def column_edges(page: PageLayout, size: float) -> dict[int, tuple[float, float]]:
    """Left and right edge of the running text in each column, from its paragraph lines (or from all
    its lines when it has no running text)."""
    edges: dict[int, tuple[float, float]] = {}
    span = (0, page.width / page.columns)
    for line in page.lines:
        if is_body_line(line, span, size):
            x0, x1 = edges.get(line.column, (line.bbox[0], line.bbox[2]))
            edges[line.column] = (min(x0, line.bbox[0]), max(x1, line.bbox[2]))
    body_columns = set(edges)
    for line in page.lines:  # a column without running text (formulas only): its lines' extremes
        if line.column not in body_columns:
            x0, x1 = edges.get(line.column, (line.bbox[0], line.bbox[2]))
            edges[line.column] = (min(x0, line.bbox[0]), max(x1, line.bbox[2]))
    return edges


def label_gap(line: Line, label_start: int) -> float:
    """Horizontal gap in points between the label and the text before it, from the spans; 0 when a
    span runs from that text into the label (ordinary word spacing). A span that opens with the space before
    the label (OCR text layers set a wide gap as one space) holds the gap: its width less the label's, the
    label's taken at half an em per character (digits and parentheses are narrower: the gap is not overstated)."""
    consumed, prev_end = 0, None
    for span in line.spans:
        text = span.text.strip()
        start = line.text.find(text, consumed) if text else -1
        if start < 0:
            continue
        if start >= label_start:
            if prev_end is None:
                return line.size * 10
            if span.text[:1].isspace():
                return span.bbox[2] - 0.5 * span.size * len(text) - prev_end
            return span.bbox[0] - prev_end
        if start + len(text) > label_start:
            return 0.0
        consumed, prev_end = start + len(text), span.bbox[2]
    return 0.0


def _formula_end(line: Line) -> bool:
    """The text before a label is the end of a formula, not prose: the line is mathy (a span in a math font, or
    math symbols) and its text in the label's size holds no word of three letters or more but the names of functions
    and operators ('cos', 'exp', 'max'). A formula that fills the measure leaves its number no gap ('π0) .(8)'), while
    a line of prose that cites '(8)' holds words. Words set as indices ('Ω_new', 'a_{na} y') are no prose."""
    size = next((s.size for s in reversed(line.spans) if any(map(str.isdigit, s.text))), line.size)  # the label's
    full_size = " ".join(s.text for s in line.spans if s.size >= 0.85 * size)
    return is_mathy(line) and all(w.lower() in _OPERATORS for w in re.findall(r"[A-Za-z]{3,}", full_size))


# the names formulas set functions and operators by (TeX's \cos, \exp, \max, ..., and the statistician's var, cov,
# erf); not 'sec' or 'deg', which prose abbreviates ('Sec. 3')
_OPERATORS = frozenset("sin cos tan cot csc sinh cosh tanh coth arcsin arccos arctan exp log max min sup inf lim "
                       "limsup liminf argmax argmin det dim ker arg gcd hom mod var cov erf".split())


def left_label(page: PageLayout, line: Line, left: float) -> bool:
    """A label set alone at the column's left edge with a formula to its right on its row: equations numbered
    on the left (amsmath's `leqno`, common in mathematics and physics journals)."""
    if EQUATION_LABEL.fullmatch(line.text.strip()) is None or abs(line.bbox[0] - left) > line.size:
        return False
    return any(o is not line and o.column == line.column and o.bbox[0] > line.bbox[2] + line.size
               and o.bbox[1] < line.bbox[3] and o.bbox[3] > line.bbox[1] and is_mathy(o) for o in page.lines)


def numbered_labels(page: PageLayout, edges: dict[int, tuple[float, float]]) -> list[tuple[Line, str]]:
    """The labels the rules number displays by: set apart at a column's edge with a formula beside them."""
    return [(line, label) for line, label, taken in label_candidates(page, edges) if taken]


def unsure_labels(page: PageLayout, edges: dict[int, tuple[float, float]]) -> list[tuple[Line, str]]:
    """Labels set apart from any text before them (alone on their line, or after a wide gap) that the rules did
    not take: away from the column's right edge (a tab stop inside the margin, or column edges misread), or with
    no formula the text layer shows as one (glyphs it does not carry, formulas in plain type). The rules cannot
    tell these from a label that numbers nothing; extractors/escalation.py asks the layout model."""
    return [(line, label) for line, label, taken in label_candidates(page, edges) if not taken]


def label_candidates(page: PageLayout, edges: dict[int, tuple[float, float]]) -> list[tuple[Line, str, bool]]:
    """Lines ending in a label set apart from the text before it, each with whether the rules take it as a
    display's number: at the column's edge and with a formula beside it."""
    found = []
    for line in page.lines:
        m = EQUATION_LABEL.search(line.text)
        if not m or m["label"] == "0" or line.vertical or line.column not in edges:
            continue  # displays are numbered from 1: '(0)' ends a formula's argument, 'f (0)'
        left, right = edges[line.column]
        if left_label(page, line, left):
            found.append((line, m["label"], True))
            continue
        before = line.text[:m.start()].strip(" ,.;")
        if before and label_gap(line, m.start()) < 0.6 * line.size and not _formula_end(line):
            continue  # ordinary word spacing: a reference in prose, "see eqs. (1)"
        at_edge = right - 1.5 * line.size <= line.bbox[2] <= right + 2 * line.size
        # not at the column's right edge, nor flush with several text lines (a missed gutter)
        edge = at_edge or sum(abs(o.bbox[2] - line.bbox[2]) < 2 and len(o.text) > 25 for o in page.lines) >= 3
        beside = lambda b: b[2] < line.bbox[0] and b[1] < line.bbox[3] + line.size and b[3] > line.bbox[1] - line.size
        # a label after a wide gap on its formula's line needs that line to look like math; a lone "(3)" needs a
        # formula beside it (text, or a formula set as pictures), or right over it: a formula that fills the
        # measure leaves its number no room, and TeX sets the number flush right on the line below
        over = lambda o: (o.bbox[2] >= line.bbox[0] and line.bbox[1] - line.size <= o.bbox[3] <= line.bbox[1] + 0.3
                          * line.size and is_mathy(o))
        formula = is_mathy(line) if before else (
            any(o is not line and in_display_column(page, o, line) and (beside(o.bbox) or over(o))
                for o in page.lines)
            or any(beside(b) and b[3] - b[1] < 6 * line.size and b[2] > right - 0.8 * (right - left)
                   for b in page.images + page.drawings))
        found.append((line, m["label"], edge and formula))
    return found


def in_display_column(page: PageLayout, line: Line, anchor: Line) -> bool:
    """Whether `line` may belong to the display of `anchor`: in its column, or set across the gutter of a
    two-column page (a display as wide as the page, numbered at the page's right edge)."""
    mid = page.width / 2
    return line.column == anchor.column or (page.columns > 1 and line.bbox[0] < mid < line.bbox[2])


def row_of(page: PageLayout, label_line: Line) -> list[Line]:
    """The lines on a label's printed row in its display column: the row of an equation array that the label
    numbers, which the display of a neighbouring label must not take."""
    return [l for l in page.lines if in_display_column(page, l, label_line) and l.bbox[1] < label_line.bbox[3]
            and l.bbox[3] > label_line.bbox[1]]


def display_lines(page: PageLayout, anchor: Line, size: float, taken: set[int]) -> list[Line]:
    """The formula lines around an anchor: same column (or across the gutter), next to it and not running text."""
    near = [l for l in page.lines if in_display_column(page, l, anchor) and id(l) not in taken and l is not anchor
            and abs(l.bbox[1] - anchor.bbox[1]) < 12 * size]
    span = (0, page.width / page.columns)
    out = [anchor, *(l for l in near if l.bbox[1] < anchor.bbox[3] and l.bbox[3] > anchor.bbox[1])]
    chosen = {id(l) for l in out}
    rest = [l for l in near if id(l) not in chosen and not is_body_line(l, span, size) and is_mathy(l)]
    grew = True
    while grew:
        grew = False
        top, bottom = min(l.bbox[1] for l in out), max(l.bbox[3] for l in out)
        for l in rest:
            if -0.5 * size < top - l.bbox[3] < 0.6 * size or -0.5 * size < l.bbox[1] - bottom < 0.6 * size:
                out.append(l)
                rest.remove(l)
                grew = True
                break
    return sorted(out, key=lambda l: (l.bbox[1], l.bbox[0]))


def unnumbered_anchors(page: PageLayout, edges: dict[int, tuple[float, float]], size: float) -> list[Line]:
    """Math lines whose whole printed row is indented from both column edges: a display, not a
    formula fragment inside a paragraph line."""
    out = []
    for line in page.lines:
        if line.column not in edges or line.vertical or len(line.text.strip()) < 3:
            continue
        left, right = edges[line.column]
        if line.bbox[0] <= left + 2 * size or line.bbox[2] >= right - 2 * size or not is_mathy(line):
            continue
        if not MATH_RELATION.search(line.text) and not any(MATH_FONT.match(s.font) and s.size > 0.8 * size
                                                         for s in line.spans):
            continue  # no relation, big operator or text-size math: ids in superscripts, dates, code
        if len(WORD_RE.findall(line.text)) > 3:
            continue  # prose set in a math font (names with ORCID ids), not a formula
        row = [l for l in page.lines if l.column == line.column and l.bbox[1] < line.bbox[3] - 1
               and l.bbox[3] > line.bbox[1] + 1]
        x0, x1 = min(l.bbox[0] for l in row), max(l.bbox[2] for l in row)
        if x0 > left + 2 * size and x1 < right - 2 * size:
            out.append(line)
    return out


def find_equations(pages: list[PageLayout], sha256: str, floats: list[Float] = ()) -> list[Equation]:
    """Numbered display equations (label as printed, without parentheses), then unnumbered ones.

    Text inside the given figure/table regions (axis labels, cell formulas) is not an equation."""
    size = body_size(pages)
    out = []
    for page in pages:
        regions = [f.bbox for f in floats if f.page == page.page]
        taken = {id(l) for l in page.lines if inside(l.bbox, regions)}
        edges = column_edges(page, size)
        labels = [(line, label) for line, label in numbered_labels(page, edges) if not inside(line.bbox, regions)]
        for label_line, label in labels:
            rows = {id(l) for other, _ in labels if other is not label_line for l in row_of(page, other)}
            lines = display_lines(page, label_line, size, taken | rows)  # an array's rows: one equation each
            taken.update(id(l) for l in lines)
            text = " ".join(t for t in (EQUATION_LABEL.sub("", l.text).strip() if l is label_line else l.text.strip()
                                        for l in lines) if t)  # a label alone on its line adds no word
            box = union(l.bbox for l in lines)
            out.append(Equation(id=element_id("equation", sha256, page.page, *(round(v, 1) for v in box)),
                                label=label, text=text.strip(), page=page.page, bbox=box))
        for anchor in unnumbered_anchors(page, edges, size):
            if id(anchor) in taken:  # already part of a display
                continue
            lines = display_lines(page, anchor, size, taken)
            taken.update(id(l) for l in lines)
            box = union(l.bbox for l in lines)
            out.append(Equation(id=element_id("equation", sha256, page.page, *(round(v, 1) for v in box)),
                                label=None, text=" ".join(l.text.strip() for l in lines), page=page.page, bbox=box))
    return out

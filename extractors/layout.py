"""Page layout: text lines in reading order, with page furniture (running heads, page and line
numbers, margin stamps) removed, plus the boxes of images and vector graphics.

Everything downstream (metadata, sections, floats, chunks) reads these lines, so this module
only describes the page; it does not decide what a line means.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter, defaultdict
from dataclasses import replace
from functools import lru_cache

from extractors.bitmap_fonts import has_type3, split_blocks
from extractors.disjoint import DisjointSets
from extractors.font_weight import weigh_fonts
from extractors.model import BBox, Line, PageLayout, Span
from extractors.mupdf import pymupdf, read_content
from extractors.text import (EQUATION_LABEL, FLOAT_LABEL, MATH_FONT, MATH_RELATION, REFERENCES, UNKNOWN, UNMAPPED,
                             is_plain, mark_unmapped, plain_text)

_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP  # no images, ligatures expanded
_BOLD, _ITALIC = 16, 2
# Font names that say bold or italic when the flags do not ("AdvTTaf7f9f4f.B", "Arial,BoldItalic", "CMBX10")
_BOLD_NAME = re.compile(r"bold|black|heavy|demi|[.\-_,+]b$|[.\-_,]bd\b|[.\-_,]bi$|^cmbx|^cmb\d", re.I)
_ITALIC_NAME = re.compile(r"italic|oblique|[.\-_,]i$|[.\-_,]bi$|^cmti|^cmmi", re.I)
_PAGE_NUMBER = re.compile(r"^(page\s+)?([0-9]{1,4}|[ivxlc]{1,6})(\s*(of|/)\s*[0-9]{1,4})?$", re.I)
_DIGITS = re.compile(r"\d+")
_SECTION_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+")  # '7 ', '7.', 'VII. ' before a heading's words
_EDGE_MIN_LINES = 8  # a page with fewer lines is not read for running heads outside its bands
_BAND = 0.13  # top/bottom share of the page where running heads and page numbers live
_MAX_GRAPHICS = 4000  # beyond this many vector paths a page is a plot; its boxes are merged coarsely
_SWEEP = 50  # the regions made last that merge_touching's sweep compares a box with
# a section number, alone: '3', '3.1.', 'IV.', or a letter with its stop ('B.', IEEE's sub-sections)
SECTION_NUMBER = re.compile(r"(?:\d{1,2}(?:\.\d{1,2}){0,3}|[IVX]{1,4})\.?|[A-Z]\.")
NUMBER_GAP_EMS = 2.0  # the most a section number stands apart from its title (a quad or two)


def read_layout(doc: pymupdf.Document) -> list[PageLayout]:
    """Lines of every page in reading order, furniture removed, fonts weighed (extractors/font_weight.py)."""
    return finish_layout(weigh_fonts(doc, [read_page(page) for page in doc]))


def finish_layout(pages: list[PageLayout]) -> list[PageLayout]:
    """Pages as read by read_page (their text layer or OCR) in reading order, furniture removed: the furniture
    is what repeats across pages, so this needs all of them at once."""
    pages = [_unfilled_as_unknown(layout) for layout in pages]
    furniture = _repeated_keys(pages)
    body = _body_size(pages)
    return _without_head_rules([_finish_page(layout, furniture, body) for layout in pages])


def _unfilled_as_unknown(layout: PageLayout) -> PageLayout:
    """The page with the marks of glyphs neither their font nor OCR named (text.UNMAPPED) as U+FFFD, Unicode's
    character for one whose value is unknown: something is printed there ('13.7***' with its stars unnamed is not
    the number 13.7)."""
    if not any(UNMAPPED in line.text for line in layout.lines):
        return layout
    return replace(layout, lines=[replace(line, text=line.text.replace(UNMAPPED, UNKNOWN),
                                          spans=[replace(s, text=s.text.replace(UNMAPPED, UNKNOWN))
                                                 for s in line.spans]) if UNMAPPED in line.text else line
                                  for line in layout.lines])


def _body_size(pages: list[PageLayout]) -> float:
    """The document's body font size: the size carrying most characters."""
    sizes: dict[int, int] = defaultdict(int)
    for page in pages:
        for line in page.lines:
            sizes[round(line.size)] += len(line.text)
    return float(max(sizes, key=sizes.get)) if sizes else 10.0


# --- reading one page -------------------------------------------------------------------------


def read_page(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> PageLayout:
    """One page's lines as laid out, from its text layer or from `textpage` (an OCR of the page as shown, whose
    boxes are already upright)."""
    number = page.number + 1
    turn = page.rotation_matrix if page.rotation else None
    ocr = textpage is not None
    layer, graphics = read_content(page, _TEXT_FLAGS, text=not ocr)
    if not ocr and has_type3(page):  # glyph by glyph, to set bitmap fonts' text again (bitmap_fonts.py)
        blocks, rebuilt = split_blocks(page.get_text("rawdict", textpage=layer)["blocks"], turn)
    else:
        blocks, rebuilt = page.get_text("dict", textpage=textpage if ocr else layer)["blocks"], []
    lines: list[Line] = []
    for block_no, block in enumerate(blocks):
        for raw in block.get("lines", ()):
            line = _line(_upright(raw, turn) if turn and not ocr else raw, number, block_no)
            if line is not None:
                lines.append(line)
    lines += [line for block_no, raw in rebuilt if (line := _line(raw, number, block_no)) is not None]
    images, drawings = _graphics(graphics, page.rect, turn)
    return PageLayout(page=number, width=page.rect.width, height=page.rect.height,
                      lines=_merge_same_baseline(_without_repeats(lines)), images=images, drawings=drawings)


def _upright(raw: dict, turn: pymupdf.Matrix) -> dict:
    """A line of a rotated page (/Rotate) as the page is shown: MuPDF reports a text layer where the page
    draws it before the rotation, so a landscape page's text would read as vertical lines and every box would be
    off the page as rendered (where evidence crops and highlights are drawn)."""
    direction = pymupdf.Point(raw["dir"]) * pymupdf.Matrix(turn.a, turn.b, turn.c, turn.d, 0, 0)
    spans = [{**s, "bbox": tuple(pymupdf.Rect(s["bbox"]) * turn)} for s in raw["spans"]]
    return {**raw, "dir": (direction.x, direction.y), "spans": spans}


def _without_repeats(lines: list[Line]) -> list[Line]:
    """The page's lines, each printed once: a second text layer, or content the producer drew twice (overprinted
    for a bolder look), repeats a line's text at its place, and read twice it would double every heading."""
    seen: set[tuple[str, int, int]] = set()
    out = []
    for line in lines:
        key = (line.text, round(line.bbox[0]), round(line.bbox[1]))
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out


def _line(raw: dict, page: int, block: int) -> Line | None:
    """One line of the text layer as a Line; the hot loop of parsing (every span of every page passes here), so
    plain printable text skips the normalisers, which would return it unchanged."""
    spans: list[Span] = []
    weight: dict[tuple[float, str, bool, bool], int] = defaultdict(int)
    for s in raw["spans"]:
        text = s["text"]
        if not text.strip(" "):  # the spaces a text layer keeps between words (most spans of a page)
            continue
        if not is_plain(text):
            text = plain_text(mark_unmapped(text))
            if not text.strip():
                continue
        font = s["font"]
        bold, italic = _style(font, s["flags"])
        span = Span(text=text, bbox=tuple(s["bbox"]), size=round(s["size"], 2), font=font, bold=bold, italic=italic)
        spans.append(span)
        weight[(span.size, font, bold, italic)] += len(text.strip())
    if not spans:
        return None
    size, font, bold, italic = max(weight, key=weight.get)
    direction = (raw["dir"][0], raw["dir"][1])
    shown = spans
    if any(s.size <= _MARK_SHARE * size for s in spans):  # only a smaller span can be a footnote mark
        shown = [s for n, s in enumerate(spans) if not _footnote_mark(spans, n, size)] or spans
    text = join_spans(shown, direction)
    return Line(text=text, page=page, bbox=_union([s.bbox for s in spans]), size=size, font=font, bold=bold,
                italic=italic, block=block, column=0, vertical=abs(raw["dir"][1]) > 0.2, rising=raw["dir"][1] < -0.2,
                spans=spans)


@lru_cache(maxsize=1024)
def _style(font: str, flags: int) -> tuple[bool, bool]:
    """Whether a span is bold, italic: by its flags or, when they do not say, its font's name; cached, since a
    paper prints many spans in a few fonts."""
    return (bool(flags & _BOLD) or bool(_BOLD_NAME.search(font)),
            bool(flags & _ITALIC) or bool(_ITALIC_NAME.search(font)))


_MARK_SHARE = 0.8  # a footnote mark is set at most this share of its line's size
_MARK = re.compile(rf"^[\d,*∗†‡§¶⋆{UNMAPPED}]+$")  # a mark in a font without a Unicode map is a mark too
# a word (tried from its first letter only: a later start ends where it does) or punctuation ending the text
_AFTER_WORD = re.compile(r"(?:(?<![^\W\d_])[^\W\d_]{2,}+|[.,;:)\]])$")


# Amino acids' three-letter codes: a raised number after one is the residue's place in the chain (biochemistry sets
# 'Tyr369' as Tyr with 369 raised), not a footnote mark.
_RESIDUE = re.compile(r"(?<![^\W\d_])(?:Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|Tyr|Val)$")


def _footnote_mark(spans: list[Span], n: int, size: float) -> bool:
    """A raised small number or dagger right after a word or punctuation ("corpus,1", "Topology∗")
    is a footnote or affiliation mark, not text; after a single letter or digit it is math (x2), after an amino
    acid's code a residue number (Tyr369)."""
    span = spans[n]
    if n == 0 or span.size > _MARK_SHARE * size or not _MARK.match(span.text.strip()):
        return False
    prev = spans[n - 1]
    if span.text.strip().replace(UNMAPPED, "0").isdigit() and _RESIDUE.search(prev.text.rstrip()):
        return False
    raised = span.bbox[3] < prev.bbox[3] - 0.15 * size
    return raised and bool(_AFTER_WORD.search(prev.text.rstrip())) and prev.bbox[2] >= span.bbox[0] - 1


def _advance_gap(prev: Span, cur: Span, direction: tuple[float, float]) -> float:
    """The gap between two spans along the writing direction: rightwards for upright text, up or down the
    page for rotated text (a sideways table's caption), where the horizontal gap says nothing."""
    dx, dy = direction
    if abs(dy) <= 0.2:
        return cur.bbox[0] - prev.bbox[2] if dx >= 0 else prev.bbox[0] - cur.bbox[2]
    return prev.bbox[1] - cur.bbox[3] if dy < 0 else cur.bbox[1] - prev.bbox[3]


def join_spans(spans: list[Span], direction: tuple[float, float] = (1.0, 0.0)) -> str:
    """Concatenate spans, adding a space where the gap between them is a visible word gap;
    accents printed as separate glyphs are put back on their letters."""
    out = spans[0].text
    for prev, cur in zip(spans, spans[1:]):
        gap = _advance_gap(prev, cur, direction)
        if gap > 0.15 * min(prev.size, cur.size) and not out.endswith(" ") and not cur.text.startswith(" "):
            out += " "
        out += cur.text
    return " ".join((out if out.isascii() else plain_text(out)).split())


def _union(boxes: list[BBox]) -> BBox:
    x0, y0, x1, y1 = zip(*boxes)
    return min(x0), min(y0), max(x1), max(y1)


def _merge_same_baseline(lines: list[Line]) -> list[Line]:
    """PyMuPDF splits a visual line at wide gaps ("1" + "Introduction"); join pieces of one block
    on one baseline when the gap is at most about a word gap plus an em, or two ems after a section number
    (IEEE sets 'I.' a quad and more before its title)."""
    out: list[Line] = []
    for line in lines:
        prev = out[-1] if out else None
        if (prev is not None and prev.block == line.block and not line.vertical
                and abs(prev.bbox[3] - line.bbox[3]) < 0.3 * line.size
                and -1 <= line.bbox[0] - prev.bbox[2] < _joining_gap(prev, line) * max(prev.size, line.size)):
            spans = prev.spans + line.spans
            main = prev if len(prev.text) >= len(line.text) else line
            out[-1] = replace(main, text=join_spans(spans), spans=spans, bbox=_union([prev.bbox, line.bbox]))
        else:
            out.append(line)
    return out


def _joining_gap(prev: Line, line: Line) -> float:
    """In ems, the widest gap between `prev` and `line` that still runs on within one line: wider between a section
    number and a title starting with a capital."""
    return NUMBER_GAP_EMS if SECTION_NUMBER.fullmatch(prev.text.strip()) and line.text[:1].isupper() else 1.5


def _graphics(drawn: list[tuple[str, BBox]], area: pymupdf.Rect,
              turn: pymupdf.Matrix | None) -> tuple[list[BBox], list[BBox]]:
    """Image and vector-path boxes from what the page draws (extractors/mupdf.read_content: get_drawings is too
    slow on plots), as the page is shown (`area`: its rectangle; `turn`: its rotation, see _upright)."""
    images: list[BBox] = []
    paths: list[BBox] = []
    for kind, box in drawn:
        if turn:
            box = tuple(pymupdf.Rect(box) * turn)
        x0, y0, x1, y1 = max(box[0], area.x0), max(box[1], area.y0), min(box[2], area.x1), min(box[3], area.y1)
        if x1 <= x0 and y1 <= y0:
            continue
        if kind == "fill-image" or kind == "fill-imgmask":
            images.append((x0, y0, x1, y1))
        elif kind in ("fill-path", "stroke-path"):
            if (x1 - x0) > 0.95 * area.width and (y1 - y0) > 0.95 * area.height:
                continue  # page background
            paths.append((x0, y0, x1, y1))
    return images, merge_touching(paths, grid=12.0 if len(paths) > _MAX_GRAPHICS else 3.0)


def merge_touching(boxes: list[BBox], grid: float) -> list[BBox]:
    """Merge boxes that touch (within `grid` points) into connected regions. A sort-and-sweep first compares each box
    with the last few regions made (back to one ending far above it); regions it did not reach, and regions that grew
    into each other, are then joined through a grid of buckets until none touch. The cost grows about linearly with
    the boxes, also on an untrusted page of many thousands of separate strokes."""
    merged: list[list[float]] = []
    for b in sorted(boxes, key=lambda b: (b[1], b[0])):
        recent = itertools.takewhile(lambda m: b[1] <= m[3] + grid * 40, merged[:-_SWEEP - 1:-1])
        m = next((m for m in recent if _touch(b, m, grid)), None)
        if m is None:
            merged.append(list(b))
        else:
            m[0], m[1], m[2], m[3] = min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3])
    regions = [tuple(m) for m in merged]
    while True:
        joined = _join_touching(regions, grid)
        if len(joined) == len(regions):
            return joined
        regions = joined


def _touch(a, b, grid: float) -> bool:
    return a[0] <= b[2] + grid and a[2] >= b[0] - grid and a[1] <= b[3] + grid and a[3] >= b[1] - grid


def _join_touching(boxes: list[BBox], grid: float) -> list[BBox]:
    """The bounding boxes of the groups of boxes that touch one another, in the order of each group's first box.
    Each box is compared only with those sharing a bucket of the page with it (buckets a few dozen points wide)."""
    side = max(64.0, 8 * grid)
    sets = DisjointSets(len(boxes))
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, box in enumerate(boxes):
        for bx in range(int((box[0] - grid) // side), int((box[2] + grid) // side) + 1):
            for by in range(int((box[1] - grid) // side), int((box[3] + grid) // side) + 1):
                bucket = buckets[(bx, by)]
                for j in bucket:
                    if sets.find(i) != sets.find(j) and _touch(box, boxes[j], grid):
                        sets.join(i, j)
                bucket.append(i)
    groups: dict[int, list[BBox]] = {}
    for i, box in enumerate(boxes):
        groups.setdefault(sets.find(i), []).append(box)
    return [(min(b[0] for b in g), min(b[1] for b in g), max(b[2] for b in g), max(b[3] for b in g))
            for g in groups.values()]


# --- page furniture -----------------------------------------------------------------------------


def _in_band(line: Line, height: float) -> bool:
    mid = (line.bbox[1] + line.bbox[3]) / 2
    return not _BAND * height < mid < (1 - _BAND) * height


def _edge_rows(lines: list[Line]) -> set[int]:
    """Ids of the lines on a page's first and last printed row. A journal's small text block printed on a larger
    sheet (ACM's format on A4) sets its running heads there, well inside the page's bands. A page of a few lines
    has no rows set apart from its text: none."""
    upright = [line for line in lines if not line.vertical]
    if len(upright) < _EDGE_MIN_LINES:
        return set()
    top = min(upright, key=lambda line: line.bbox[1])
    bottom = max(upright, key=lambda line: line.bbox[3])
    return {id(line) for line in upright for edge in (top, bottom)
            if edge.bbox[1] <= (line.bbox[1] + line.bbox[3]) / 2 <= edge.bbox[3]}


def _furniture_key(line: Line, height: float, edge: bool = False) -> tuple[str, int] | None:
    """Text (digits blanked) and position of a line in the top or bottom band or on the page's first or last
    row (`edge`), else None."""
    if not (edge or _in_band(line, height)):
        return None
    return _DIGITS.sub("#", line.text.lower()), round(line.bbox[1] / 4)


def _repeated_keys(pages: list[PageLayout]) -> set[tuple[str, int]]:
    """Band or edge-row lines that recur at the same place on at least two pages: running heads and feet."""
    seen: dict[tuple[str, int], set[int]] = defaultdict(set)
    for layout in pages:
        edges = _edge_rows(layout.lines)
        for line in layout.lines:
            key = _furniture_key(line, layout.height, id(line) in edges)
            if key is not None:
                for near in (-1, 0, 1):
                    seen[(key[0], key[1] + near)].add(layout.page)
    return {key for key, on in seen.items() if len(on) >= 2}


def _ruled_in(line: Line, page: PageLayout) -> bool:
    """Vector graphics over and under the line, each within the band's height of it (a rule on each side, or a box
    around it): the line is a table cell. A running head has at most a rule under it, so tables of one design printed
    at the top of two pages ('CS', 'Bio' over their columns) are not taken for one. Graphics further off, or past a
    caption under the line, are a figure's, and a rule with a bar beside the head (Annals') stops short of the
    head's foot."""
    x0, y0, x1, y1 = line.bbox
    cx, reach = (x0 + x1) / 2, _BAND * page.height
    under = [d for d in page.drawings if d[0] <= cx <= d[2]]
    captions = [o.bbox[1] for o in page.lines
                if o.bbox[1] >= y1 and o.bbox[0] <= cx <= o.bbox[2] and FLOAT_LABEL.match(o.text.strip())]
    return (any(d[1] <= y0 + 1 and d[3] >= y0 - reach for d in under)
            and any(d[3] >= y1 - 1 and d[1] <= min([y1 + reach, *captions]) for d in under))


def _is_furniture(line: Line, page: PageLayout, repeated: set[tuple[str, int]], edge: bool = False) -> bool:
    """A repeated band or edge-row line that no ruling encloses (that would be a table cell) and that opens with no
    float label (tables captioned at the top of two pages, 'Table 2' and 'Table 5', repeat as a running head
    does), or a page number in a band."""
    key = _furniture_key(line, page.height, edge)
    if key is None:
        return False
    if key in repeated and not (_ruled_in(line, page) or FLOAT_LABEL.match(line.text.strip())):
        return True
    return _in_band(line, page.height) and bool(_PAGE_NUMBER.match(line.text.strip()))


def _text_extent(lines: list[Line]) -> tuple[float, float]:
    """Left and right edge of the body text: the extremes of lines with real prose on them."""
    prose = [line for line in lines if len(line.text) >= 15 and not line.vertical]
    if not prose:
        return 0.0, float("inf")
    return min(line.bbox[0] for line in prose), max(line.bbox[2] for line in prose)


def _is_margin_mark(line: Line, left: float, right: float, sideways: bool) -> bool:
    """Review line numbers (upright) and side stamps (arXiv id) live outside the text column. On a page set
    sideways (a rotated table or figure) the rotated lines are the content, numbers too ('8700' in a cell), and
    their extent is not the upright text's."""
    outside = line.bbox[2] <= left + 1 or line.bbox[0] >= right - 1
    return outside and (not sideways if line.vertical else line.text.strip().isdigit())


def _is_sideways(lines: list[Line], left: float, right: float) -> bool:
    """The page carries content set rotated: most of its characters run vertically, or more rotated lines than a
    side stamp or a margin note takes stand outside the upright text (a landscape table set across one column of
    an upright page; a plot's rotated tick labels inside the text do not count)."""
    chars = sum(len(line.text) for line in lines)
    outside = [line for line in lines if line.vertical and (line.bbox[2] <= left + 1 or line.bbox[0] >= right - 1)]
    return chars > 0 and (sum(len(line.text) for line in lines if line.vertical) > 0.5 * chars
                          or len(outside) >= _ROTATED_LINES)


_ROTATED_LINES = 8  # rotated lines from which a page holds rotated content, not only a stamp (one line or two)


def _numbers_a_formula(line: Line, content: list[Line]) -> bool:
    """The line is an equation number ('(15)') at the end of a formula's row, the formula being content (`content`:
    the page's lines that are no furniture): a display equation set high or low on the page, whose number stands
    where another page's equation number stood, repeats as a running head or foot would. The formula shows by a
    relation or by its math fonts: a row of a longer display may hold neither '=' nor a big operator ('× (1 − s)'),
    and a font may map its arrow or '≡' to no character the text layer can show."""
    if not EQUATION_LABEL.fullmatch(line.text.strip()):
        return False
    top, bottom = line.bbox[1], line.bbox[3]
    return any(not other.vertical and other.bbox[1] < bottom and other.bbox[3] > top and
               other.bbox[2] <= line.bbox[0] + 1 and
               (MATH_RELATION.search(other.text) or any(MATH_FONT.match(s.font) for s in other.spans))
               for other in content)


def _finish_page(layout: PageLayout, repeated: set[tuple[str, int]], body: float) -> PageLayout:
    edges = _edge_rows(layout.lines)
    furniture = {id(line) for line in layout.lines
                 if _is_furniture(line, layout, repeated, id(line) in edges)}
    content = [line for line in layout.lines if id(line) not in furniture]
    lines = [line for line in layout.lines if id(line) not in furniture or _numbers_a_formula(line, content)]
    left, right = _text_extent(lines)
    sideways = _is_sideways(lines, left, right)
    lines = [line for line in lines if not _is_margin_mark(line, left, right, sideways)]
    ordered, columns = _reading_order(lines, layout.width, body)
    kept = {id(line) for line in lines}
    return replace(layout, lines=ordered, columns=columns,
                   furniture=[line for line in layout.lines if id(line) not in kept])


def _without_head_rules(pages: list[PageLayout]) -> list[PageLayout]:
    """The pages without the rules set against their running head or foot (within the head's own height, under or
    over it, across it) at the same place on two pages or more: furniture like the head itself, which a float next
    to it would otherwise take for its own graphics and stretch across the page. A table's top rule right under a
    running head is at that place on one page only."""
    def against(rule: BBox, head: Line) -> bool:
        gap = max(rule[1] - head.bbox[3], head.bbox[1] - rule[3])
        return gap <= head.size and rule[0] <= head.bbox[2] and head.bbox[0] <= rule[2]

    # the same place within a point or two: a scanned page's rule, read from its ink, moves a little page to page;
    # rules are looked up in buckets 2 points square, so a page of many short strokes costs no more than they do
    same = lambda a, b: abs(a[1] - b[1]) <= 2 and abs(a[0] - b[0]) <= 2 and abs(a[2] - b[2]) <= 2
    candidates = [[d for d in page.drawings if d[3] - d[1] <= 2 and any(against(d, h) for h in page.furniture)]
                  for page in pages]
    buckets: dict[tuple[int, int], list[tuple[int, BBox]]] = defaultdict(list)
    for number, rules in enumerate(candidates):
        for d in rules:
            buckets[(int(d[1] // 2), int(d[0] // 2))].append((number, d))
    near = lambda d: (o for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                      for o in buckets.get((int(d[1] // 2) + dy, int(d[0] // 2) + dx), ()))
    repeated = [[d for d in rules if len({number for number, o in near(d) if same(d, o)}) >= 2]
                for rules in candidates]
    return [replace(page, drawings=[d for d in page.drawings if d not in drop]) if drop else page
            for page, drop in zip(pages, repeated)]


# --- reading order ------------------------------------------------------------------------------


def _gutter(lines: list[Line], width: float, *sizes: float, start: float = 0.0, wide_share: float = 0.22
            ) -> float | None:
    """x of the gap between two columns of the span [start, start + width], or None for a span of one column.

    Coverage of each x by lines of the text `sizes` is counted with a difference array; the gutter is the
    least covered x in the middle of the span, provided wide lines (`wide_share` of the span) sit on both sides
    of it side by side.
    """
    lines = [line for line in _in_sizes(lines, sizes)
             if start <= (line.bbox[0] + line.bbox[2]) / 2 <= start + width]
    w = int(width) + 2
    cover = [0] * (w + 1)
    for line in lines:
        cover[min(w, max(0, int(line.bbox[0] - start) + 1))] += 1
        cover[max(0, min(w, int(line.bbox[2] - start)))] -= 1
    running, best, best_x = 0, None, None
    lo, hi = int(0.3 * width), int(0.7 * width)
    for x in range(w):
        running += cover[x]
        if lo <= x <= hi and (best is None or running < best or (running == best and abs(x - width / 2) < abs(best_x - width / 2))):
            best, best_x = running, x
    if best_x is None:
        return None
    best_x += start
    wide = wide_share * width
    left = [line for line in lines if line.bbox[2] <= best_x + 1 and line.bbox[2] - line.bbox[0] >= wide]
    right = [line for line in lines if line.bbox[0] >= best_x - 1 and line.bbox[2] - line.bbox[0] >= wide]
    if len(left) < 3 or len(right) < 3:
        return None
    if min(line.bbox[1] for line in right) > max(line.bbox[3] for line in left) or \
            min(line.bbox[1] for line in left) > max(line.bbox[3] for line in right):
        return None  # the "columns" are stacked, not side by side
    # lines across the gap deny it, but not a title or abstract set across the page above both columns when the
    # columns hold more lines (a first page): the page is read in bands. Body text above two short runs of lines
    # side by side (a borderless table, two sub-captions) is one column. Lines reaching out of the span (an
    # abstract over three columns, when the gap between the last two is sought) are not the span's to count.
    first = min(line.bbox[1] for line in left + right)
    crossing = [line for line in lines if _crosses(line, best_x)
                and line.bbox[0] >= start - 1 and line.bbox[2] <= start + width + 1]
    above = sum(line.bbox[3] <= first and line.bbox[2] - line.bbox[0] >= wide for line in crossing)
    side_by_side = len(left) + len(right)
    if above >= side_by_side or len(crossing) - above > 0.5 * side_by_side:
        return None
    return float(best_x)


def _in_sizes(lines: list[Line], sizes: tuple[float, ...]) -> list[Line]:
    """The lines set in one of the text `sizes` (figure labels and footnotes aside)."""
    return [line for line in lines if any(abs(line.size - size) <= 1.2 for size in sizes)]


def _crosses(line: Line, x: float, margin: float = 1.0) -> bool:
    """Whether the line runs across x, reaching more than `margin` past it on both sides."""
    return line.bbox[0] < x - margin and line.bbox[2] > x + margin


def _widths_beside(text: list[Line], gutter: float) -> tuple[float, float]:
    """How far the text reaches left and right of a gutter."""
    return (gutter - min((line.bbox[0] for line in text), default=gutter),
            max((line.bbox[2] for line in text), default=gutter) - gutter)


def _four_columns(lines: list[Line], width: float, *sizes: float) -> list[float]:
    """The three gutters of a page set in four narrow columns (some journals set their reference lists so), whose
    lines are too short for the two-column search: a middle gutter between lines of at least a seventh of the page,
    with little text across it and none beside or below the columns, and a gutter of its own in each half; none
    when either half is one column (a last column too short to show its gutter reads the page as one)."""
    middle = _gutter(lines, width, *sizes, wide_share=0.14)
    if middle is None:
        return []
    text = _in_sizes(lines, sizes)
    sides = [line for line in text if line.bbox[2] <= middle + 1 or line.bbox[0] >= middle - 1]
    top = min(line.bbox[1] for line in sides)
    crossing = [line for line in text if _crosses(line, middle)]
    # the columns are the page: no text across them beside or below (a table of four columns in body text has
    # some), and above them no more than a heading or two
    if any(line.bbox[3] > top for line in crossing) or len(crossing) > 0.1 * len(sides):
        return []
    left, right = _widths_beside(text, middle)
    inner = [_gutter(lines, left, *sizes, start=middle - left), _gutter(lines, right, *sizes, start=middle)]
    return sorted([middle, *inner]) if None not in inner else []


def _four_columns_at_foot(lines: list[Line], width: float, body: float) -> tuple[list[Line], list[Line]] | None:
    """A page of two columns whose foot, below the last line of column width, is set in four narrow columns (a
    journal's reference list starting under the body text, its heading at the top of the first): the lines above
    and the lines of the foot, which are read as pages of their own; None for any other page."""
    foot = max((line.bbox[3] for line in lines if line.bbox[2] - line.bbox[0] >= 0.3 * width), default=None)
    if foot is None:
        return None
    below = [line for line in lines if line.bbox[1] >= foot]
    if len(below) < 12 or not _four_columns(below, width, body, *_text_sizes(below)):
        return None
    return [line for line in lines if line.bbox[1] < foot], below


def _gutters(lines: list[Line], width: float, gutter: float, *sizes: float) -> list[float]:
    """The page's gutters, given the one found: a second one when that gutter parts the text unevenly (one side
    half as wide again as the other) and the wider side holds a gutter of its own (three columns, as magazines
    set them). Two columns part the text evenly, and their gutter is the only one."""
    text = _in_sizes(lines, sizes)
    left, right = _widths_beside(text, gutter)
    if max(left, right) < 1.5 * min(left, right):
        return [gutter]
    start, span = (gutter, right) if right > left else (gutter - left, left)
    second = _gutter(lines, span, *sizes, start=start)
    return sorted([gutter, second]) if second is not None else [gutter]


def _text_sizes(lines: list[Line]) -> list[float]:
    """The sizes carrying at least a fifth of a page's characters: its running text, whatever the type."""
    chars: dict[int, int] = defaultdict(int)
    for line in lines:
        chars[round(line.size)] += len(line.text)
    total = sum(chars.values())
    return [float(size) for size, n in chars.items() if n >= 0.2 * total]


def _rows(lines: list[Line]) -> list[Line]:
    """Top-to-bottom, and left-to-right among lines sharing a baseline."""
    out: list[Line] = []
    row: list[Line] = []
    for line in sorted(lines, key=lambda l: (l.bbox[1], l.bbox[0])):
        if row:
            ref = row[0]
            overlap = min(ref.bbox[3], line.bbox[3]) - max(ref.bbox[1], line.bbox[1])
            if overlap < 0.5 * min(ref.bbox[3] - ref.bbox[1], line.bbox[3] - line.bbox[1]):
                out.extend(sorted(row, key=lambda l: l.bbox[0]))
                row = []
        row.append(line)
    out.extend(sorted(row, key=lambda l: l.bbox[0]))
    return out


def _reading_order(lines: list[Line], width: float, body: float) -> tuple[list[Line], int]:
    """One column: top to bottom. Two (or three) columns: bands separated by full-width lines (title,
    abstract, wide floats) or opened by a bibliography's heading set below the last sections
    (_opens_bibliography_band), each band read column by column, left to right."""
    sizes: tuple[float, ...] = (body,)
    gutter = _gutter(lines, width, *sizes)
    if gutter is None:  # a page set mostly in another size than the document (a long table, references), or
        # one column in each (the body ends on the left, the references start on the right in their smaller type)
        sizes = (body, *_text_sizes(lines))
        gutter = _gutter(lines, width, *sizes)
    gutters = _gutters(lines, width, gutter, *sizes) if gutter is not None else _four_columns(lines, width, *sizes)
    if not gutters:
        return [_in_column(line, 0) for line in _rows(lines)], 1
    if len(gutters) == 1 and (foot := _four_columns_at_foot(lines, width, body)):
        above, below = _reading_order(foot[0], width, body), _reading_order(foot[1], width, body)
        return above[0] + below[0], max(above[1], below[1])
    if any(_crosses(line, g) for line in lines for g in gutters):
        starts = _column_starts(lines, gutters)
        lines = [part for line in lines for part in _parted(line, gutters, starts, width)]
    tol = 0.05 * width
    out: list[Line] = []
    band: list[Line] = []

    def flush() -> None:
        columns: list[list[Line]] = [[] for _ in range(len(gutters) + 1)]
        for l in band:
            across = any(_crosses(l, g, tol) for g in gutters)
            columns[bisect.bisect(gutters, l.bbox[0] if across else (l.bbox[0] + l.bbox[2]) / 2)].append(l)
        for k, column in enumerate(columns):
            out.extend(_in_column(l, k) for l in _rows(column))
        band.clear()

    rows = _rows(lines)
    across = [all(_crosses(line, g, tol) for g in gutters) or _centred_over(line, gutters) for line in rows]
    i, by_rows_until = 0, 0
    while i < len(rows):
        if not across[i]:  # in a column, or across some of three (read with the column it starts in)
            if band and _opens_bibliography_band(rows, i, gutters):
                flush()
            band.append(rows[i])
            i += 1
            continue
        block, left, right, end = _across_block(rows, across, i, tol) if i >= by_rows_until else ([], [], [], i)
        if not (left or right):  # a line across the page between bands; or a table's row, read row by row
            by_rows_until = max(by_rows_until, end)
            flush()
            out.append(_in_column(rows[i], 0))
            i += 1
            continue
        _take_headings(band, block, left, right, tol)
        flush()
        out.extend(_in_column(line, 0) for line in _rows(left) + _rows(block) + _rows(right))
        i = end
    flush()
    return out, len(gutters) + 1


def _centred_over(line: Line, gutters: list[float]) -> bool:
    """Whether a short line is centred over the gutter of two columns, reaching well into both: a heading set across
    the page above the columns (AAS journals centre REFERENCES so), too short to cross the gutter by a column's
    share. Text of one column stops at the gutter, so it never reaches two of its sizes past it."""
    if len(gutters) != 1:
        return False
    x0, _, x1, _ = line.bbox
    return abs((x0 + x1) / 2 - gutters[0]) <= line.size and _crosses(line, gutters[0], 2 * line.size)


def _opens_bibliography_band(rows: list[Line], i: int, gutters: list[float]) -> bool:
    """Whether row `i` is a bibliography's heading that opens a band of its own: in the first column, nothing
    beside it in the others, and each of them going on level with the first line under it in that line's type.
    Journals (PLoS's) close a paper with its last sections and back matter in the columns above and the references
    in columns below them, read after the band above. A heading further right, or a column going on in another
    type (the body of a section after the list), leaves the page read column by column."""
    head = rows[i]
    if not REFERENCES.match(_SECTION_NUMBER.sub("", head.text.strip())):
        return False
    column = lambda line: bisect.bisect(gutters, (line.bbox[0] + line.bbox[2]) / 2)
    if column(head) != 0:
        return False
    under = next((line for line in rows[i + 1:] if column(line) == 0), None)
    if under is None:
        return False
    top, level = head.bbox[1] - 0.5 * head.size, under.bbox[1]
    for other in range(1, len(gutters) + 1):
        lines = [line for line in rows if column(line) == other]
        if any(line.bbox[3] > top and line.bbox[1] < level - 1 for line in lines) or \
                not any(abs(line.bbox[1] - level) <= 0.5 * under.size and abs(line.size - under.size) < 0.6
                        for line in lines):
            return False
    return True


def _parted(line: Line, gutters: list[float], starts: list[float | None], width: float) -> list[Line]:
    """A line read across a gutter that is two columns' lines: apart by more than a word gap where the gutter is,
    each piece starting at its column's left edge and most of a column wide (a narrow gutter, as scanned journals
    set it, leaves PyMuPDF one block of both columns' lines, and their pieces joined as one line). A caption or
    title across the page has no piece starting at the edge of the column right of the gutter; a table's row no
    piece this wide starting at a column's edge."""
    def at_edge(spans: list[Span]) -> bool:
        edge = starts[bisect.bisect(gutters, spans[0].bbox[0])]
        return edge is not None and abs(spans[0].bbox[0] - edge) <= 0.5 * line.size

    if not any(_crosses(line, g) for g in gutters):
        return [line]
    spans = line.spans
    for n in range(1, len(spans)):
        end, start = spans[n - 1].bbox[2], spans[n].bbox[0]
        if (start - end >= 0.5 * line.size and any(end <= g + 1 and start >= g - 1 for g in gutters)
                and min(end - spans[0].bbox[0], spans[-1].bbox[2] - start) >= 0.25 * width
                and at_edge(spans[:n]) and at_edge(spans[n:])):
            return [_piece(line, spans[:n]), *_parted(_piece(line, spans[n:]), gutters, starts, width)]
    return [line]


def _column_starts(lines: list[Line], gutters: list[float]) -> list[float | None]:
    """The left edge of each column: where most of the lines wholly in it start (None for a column without)."""
    edges: list[Counter[int]] = [Counter() for _ in range(len(gutters) + 1)]
    for line in lines:
        if not any(_crosses(line, g) for g in gutters):
            edges[bisect.bisect(gutters, line.bbox[0])][round(line.bbox[0])] += 1
    return [float(edge.most_common(1)[0][0]) if edge else None for edge in edges]


def _piece(line: Line, spans: list[Span]) -> Line:
    return replace(line, text=join_spans(spans), spans=spans, bbox=_union([s.bbox for s in spans]))


def _across_block(rows: list[Line], across: list[bool], start: int, gap: float
                  ) -> tuple[list[Line], list[Line], list[Line], int]:
    """The lines across the page from rows[start] on, the lines set beside them, left and right, more than `gap`
    away (a journal's article-info box beside its abstract), which are read as blocks of their own, not
    interleaved line by line with the lines across; and the index of the first row after them. Lines beside the
    block after its last line across are left to the rows that follow. When most lines beside sit on the rows of
    lines across, they are a table's cells: nothing is beside, and the rows up to the index are read row by row."""
    block, left, right = [rows[start]], [], []
    x0, x1 = rows[start].bbox[0], rows[start].bbox[2]
    end = start + 1
    for i in range(start + 1, len(rows)):
        line = rows[i]
        if across[i]:
            block.append(line)
            x0, x1 = min(x0, line.bbox[0]), max(x1, line.bbox[2])
            end = i + 1
        elif line.bbox[2] < x0 - gap:
            left.append((i, line))
        elif line.bbox[0] > x1 + gap:
            right.append((i, line))
        else:
            break
    left_lines, right_lines = [l for i, l in left if i < end], [l for i, l in right if i < end]
    tops = [line.bbox[1] for line in block]  # rows come top to bottom
    shared = sum(_on_a_row_of(line, block, tops) for line in left_lines + right_lines)
    if shared > (len(left_lines) + len(right_lines)) / 2:
        return block, [], [], end
    return block, left_lines, right_lines, end


def _on_a_row_of(line: Line, lines: list[Line], tops: list[float]) -> bool:
    """Whether `line` sits on the row of one of `lines` (whose tops, in order, are `tops`) as a table's cells do:
    their bottoms level within a point. A box set beside a block in its own type and leading drifts off its rows."""
    height = line.bbox[3] - line.bbox[1]
    near = lines[bisect.bisect_left(tops, line.bbox[1] - 2 * height):bisect.bisect_right(tops, line.bbox[3])]
    return any(abs(line.bbox[3] - other.bbox[3]) <= 1.0 for other in near)


def _take_headings(band: list[Line], block: list[Line], left: list[Line], right: list[Line], gap: float) -> None:
    """Move the lines just above blocks set side by side (within three of their sizes of the blocks' top) from the
    end of `band` to the block each sits over ('article info' over its box, 'abstract' over the abstract); the
    first line that sits over none of them (a line of the columns above) ends the headings."""
    x0, x1 = min(line.bbox[0] for line in block), max(line.bbox[2] for line in block)
    top = min(line.bbox[1] for line in block + left + right)
    while band and band[-1].bbox[3] >= top - 3 * band[-1].size:
        head = band[-1]
        if head.bbox[2] < x0 - gap:
            left.insert(0, band.pop())
        elif head.bbox[0] > x1 + gap:
            right.insert(0, band.pop())
        elif head.bbox[0] >= x0 - gap and head.bbox[2] <= x1 + gap:
            block.insert(0, band.pop())
        else:
            break


def _in_column(line: Line, column: int) -> Line:
    """The line in `column`: most lines already are (read as column 0), so only the others are copied."""
    return line if line.column == column else replace(line, column=column)

"""Text set in bitmap Type3 fonts (old TeX papers converted by dvips), set again from its glyph origins.

dvips draws each glyph of a bitmap font as an image in device pixels and declares the font with a FontMatrix of
[1 0 0 -1 0 0] and a FontBBox of the whole bitmap cell: one glyph unit is one pixel, not the thousandth of an em
of an outline font, and the page scales the text down with a tiny font size (0.24 at 300 dpi). MuPDF takes that
size for the em, so every span reports a size of a quarter point, every glyph box is as tall as the cell (240 pt),
and since any glyph that does not start exactly where the previous one ended is "far" at that size, it breaks a
line at every word and at most kerns: "Accelerato" "r". The origins and the advances it reports are right (the
advances come from the font's Widths), so the text is set again here from them:

- a span is such a bitmap span when its size is below 1 pt (no printed text is that small: the smallest legible
  type is about 4 pt) and its glyph boxes reach across the writing direction more than 4 times its widest
  advance (a real glyph box is about one em tall, and an em is never 4 times a glyph's advance);
- the em of each such font on a page is estimated from its advances: lower-case letters and digits advance about
  half an em in running text (Computer Modern's a, e, n, o, u and digits 0.44-0.56 em, Times alike), capitals
  about 0.7 em; the median over the page's glyphs of that font evens out the narrow and wide ones;
- each glyph's box runs from its origin over its advance, and from the font's ascender above its baseline to its
  descender below, in ems;
- glyphs are regrouped by shared baseline into rows, a row is cut where a gap is wider than an em (a column
  gutter or a wide space between an equation and its number), and a gap wider than 0.15 em is a word space: it
  lies between the widest kern or pixel rounding inside a word (under 0.1 em) and TeX's most shrunk
  interword space (2/9 em);
- a piece of a row in a smaller font (or shorter, in the same font) whose baseline is within 0.6 em of a piece of
  another row, beside it within an em, is a sub- or superscript set on that row;
- a bitmap span on a line with spans of other fonts (a brace from a bitmap font in a line of Courier) was placed
  by those, so it keeps its line, and only its size and box are repaired;
- lines are grouped into blocks (paragraphs) when one sits right under the other, in the same font size, their
  extents overlapping, as MuPDF groups the lines of other fonts.

Everything is in upright page coordinates (the page's /Rotate applied), as layout reads every line; text whose
writing direction is not left to right once upright is left as MuPDF reports it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass
from statistics import median

from extractors.mupdf import pymupdf

_MAX_SIZE = 1.0  # points: below any printed text size
_CELL_RATIO = 4.0  # glyph box across the line over the widest advance: more is a bitmap cell, not a glyph
_SPACE_EM = 0.15  # a wider gap between glyphs is a word space
_CUT_EM = 1.0  # a wider gap cuts a row into separate lines (column gutter, equation number)
_SCRIPT_EM = 0.6  # a smaller piece whose baseline is nearer another row's is set on that row (a script)
_LEADING_EM = 1.6  # baseline to baseline within a paragraph: TeX's leading is 1.2 em, display math adds some
_SHARE_LOWER, _SHARE_UPPER = 0.5, 0.7  # advance in ems of a lower-case letter or digit, of a capital


@dataclass(slots=True)
class _Glyph:
    c: str
    x: float  # origin on the baseline, upright page coordinates
    y: float
    advance: float
    font: str
    ascender: float  # in ems, from the span
    descender: float  # in ems, positive below the baseline


@dataclass(slots=True)
class _Piece:
    """Glyphs of one line: those on its baseline `y` and its sub- and superscripts."""

    glyphs: list[_Glyph]
    y: float
    em: float

    @property
    def x0(self) -> float:
        return self.glyphs[0].x

    @property
    def x1(self) -> float:
        return max(g.x + g.advance for g in self.glyphs)


def has_type3(page: pymupdf.Page) -> bool:
    """Whether the page uses a Type3 font at all: only then is the costlier per-glyph reading worth doing."""
    return any(font[2] == "Type3" for font in page.get_fonts())


def is_bitmap_span(span: dict, direction: tuple[float, float]) -> bool:
    """A span (of MuPDF's rawdict, on a line written in `direction`) set in a bitmap Type3 font whose size and
    boxes are degenerate: the rule of the module's docstring."""
    chars = span.get("chars") or ()
    if span["size"] >= _MAX_SIZE or not chars:
        return False
    dx, dy = abs(direction[0]), abs(direction[1])
    widths = [(c["bbox"][2] - c["bbox"][0], c["bbox"][3] - c["bbox"][1]) for c in chars]
    advance = max(w * dx + h * dy for w, h in widths)
    across = max(h * dx + w * dy for w, h in widths)
    return across > _CELL_RATIO * max(advance, 1e-6)


def split_blocks(blocks: list[dict], turn: pymupdf.Matrix | None) -> tuple[list[dict], list[tuple[int, dict]]]:
    """MuPDF's rawdict blocks of a page as (the blocks in dict form, each span's text joined from its glyphs,
    without the lines made only of bitmap spans; those lines set again, as (block number, upright line in dict
    form)). A bitmap span on a line with spans of other fonts (a brace drawn from a bitmap font in a line of
    Courier) was placed by those, so it stays on its line, with its size and box repaired."""
    kept: list[dict] = []
    loose: list[_Glyph] = []  # glyphs of lines made only of bitmap spans: regrouped
    placed: list[tuple[dict, list[_Glyph]]] = []  # bitmap spans on lines with other fonts: repaired in place
    for block in blocks:
        lines = []
        for raw in block.get("lines", ()):
            bitmap = [is_bitmap_span(span, raw["dir"]) and _upright_glyphs(span, turn) for span in raw["spans"]]
            alone = all(bitmap)
            spans = []
            for span, glyphs in zip(raw["spans"], bitmap):
                if glyphs and alone:
                    loose += glyphs
                    continue
                spans.append({**span, "text": "".join(c["c"] for c in span.get("chars", ()))})
                if glyphs:
                    placed.append((spans[-1], glyphs))
            if spans:
                lines.append({**raw, "spans": spans})
        kept.append({**block, "lines": lines})
    ems = _ems(loose + [g for _, glyphs in placed for g in glyphs])
    back = ~turn if turn is not None else None
    for span, glyphs in placed:
        box = pymupdf.Rect(_box(glyphs, ems))
        span.update(size=round(ems[glyphs[0].font], 1), bbox=tuple(box * back if back is not None else box))
    return kept, [(len(kept) + n, line) for n, line in _set_lines(loose, ems)]


def _upright_glyphs(span: dict, turn: pymupdf.Matrix | None) -> list[_Glyph]:
    """The span's glyphs in upright coordinates; none when the span does not read left to right once upright
    (rotated text, kept as MuPDF reports it)."""
    out = []
    for c in span["chars"]:
        origin, box = pymupdf.Point(c["origin"]), pymupdf.Rect(c["bbox"])
        if turn is not None:
            origin, box = origin * turn, box * turn
        out.append((c["c"], origin, box))
    origins = [o for _, o, _ in out]
    if len(out) > 1 and (origins[-1].x <= origins[0].x or abs(origins[-1].y - origins[0].y) > 0.01):
        return []
    if len(out) == 1 and abs(out[0][2].x0 - out[0][1].x) > 0.01:  # one glyph: its box starts at its origin
        return []
    return [_Glyph(ch, o.x, o.y, box.width, span["font"], span.get("ascender", 0.8), -span.get("descender", -0.2))
            for ch, o, box in out]


def _box(glyphs: list[_Glyph], ems: dict[str, float]) -> tuple[float, float, float, float]:
    """The box of glyphs: from the first origin over the last advance, from ascender to descender."""
    return (min(g.x for g in glyphs), min(g.y - g.ascender * ems[g.font] for g in glyphs),
            max(g.x + g.advance for g in glyphs), max(g.y + g.descender * ems[g.font] for g in glyphs))


def _ems(glyphs: list[_Glyph]) -> dict[str, float]:
    """Each font's em on the page, from its glyphs' advances (module docstring)."""
    by_font: dict[str, list[float]] = defaultdict(list)
    every: dict[str, list[float]] = defaultdict(list)
    for g in glyphs:
        every[g.font].append(g.advance / _SHARE_LOWER)
        if g.c.isdigit() or g.c.islower():
            by_font[g.font].append(g.advance / _SHARE_LOWER)
        elif g.c.isupper():
            by_font[g.font].append(g.advance / _SHARE_UPPER)
    return {font: median(by_font.get(font) or every[font]) for font in every}


def _baselines(glyphs: list[_Glyph], ems: dict[str, float]) -> list[list[_Glyph]]:
    """Glyphs grouped by shared baseline (within a tenth of an em), top to bottom."""
    rows: list[list[_Glyph]] = []
    for g in sorted(glyphs, key=lambda g: (g.y, g.x)):
        if rows and abs(g.y - rows[-1][0].y) <= 0.1 * ems[g.font]:
            rows[-1].append(g)
        else:
            rows.append([g])
    return rows


def _cut(row: list[_Glyph], y: float, ems: dict[str, float]) -> list[_Piece]:
    """A row's glyphs cut where a gap is wider than an em."""
    row = sorted(row, key=lambda g: g.x)
    pieces: list[list[_Glyph]] = [[row[0]]]
    for prev, g in zip(row, row[1:]):
        if g.x - (prev.x + prev.advance) > _CUT_EM * ems[prev.font]:
            pieces.append([])
        pieces[-1].append(g)
    return [_Piece(p, y, max(ems[g.font] for g in p)) for p in pieces]


def _pieces(glyphs: list[_Glyph], ems: dict[str, float]) -> list[_Piece]:
    """The glyphs as lines, in top-to-bottom order: rows cut at wide gaps, each sub- or superscript moved to the
    row it is set on (the row of a piece in a larger font, or longer in the same font, that it lies beside with
    a baseline within _SCRIPT_EM), then cut again, since the script filled the gap it sat in."""
    rows = _baselines(glyphs, ems)
    baselines = [row[0].y for row in rows]
    pieces = [(r, p) for r, row in enumerate(rows) for p in _cut(row, baselines[r], ems)]  # in baseline order
    starts = [p.y for _, p in pieces]
    reach = _SCRIPT_EM * max(ems.values())
    moved: set[int] = set()
    carried: dict[int, list[_Glyph]] = defaultdict(list)  # a piece's own glyphs and the scripts moved to it
    for n, (r, piece) in sorted(enumerate(pieces), key=lambda item: (item[1][1].em, len(item[1][1].glyphs))):
        near = range(bisect_left(starts, piece.y - reach), bisect_right(starts, piece.y + reach))  # not every piece
        hosts = [(len(q.glyphs), h) for h in near for r2, q in (pieces[h],)
                 if r2 != r and h not in moved and abs(q.y - piece.y) < _SCRIPT_EM * q.em
                 and (q.em, len(q.glyphs)) > (piece.em, len(piece.glyphs))
                 and piece.x0 <= q.x1 + _CUT_EM * q.em and piece.x1 >= q.x0 - _CUT_EM * q.em]
        if hosts:
            host = max(hosts)[1]
            going = piece.glyphs + carried.pop(n, [])
            rows[pieces[host][0]] += going
            carried[host] += going
            ids = {id(g) for g in going}
            rows[r] = [g for g in rows[r] if id(g) not in ids]
            moved.add(n)
    out = [p for r, row in enumerate(rows) if row for p in _cut(row, baselines[r], ems)]
    return sorted(out, key=lambda p: (p.y, p.x0))


def _spans(piece: _Piece, ems: dict[str, float]) -> list[dict]:
    """The piece's runs of one font as spans in dict form, a space wherever a gap is a word space."""
    runs: list[tuple[str, list[_Glyph]]] = []
    prev: _Glyph | None = None
    for g in piece.glyphs:
        spaced = prev is not None and g.x - (prev.x + prev.advance) > _SPACE_EM * min(ems[g.font], ems[prev.font])
        if prev is None or g.font != prev.font:
            runs.append(("", []))
        text, glyphs = runs[-1]
        runs[-1] = (text + (" " if spaced else "") + g.c, glyphs + [g])
        prev = g
    return [{"text": text, "font": glyphs[0].font, "size": round(ems[glyphs[0].font], 1), "flags": 0,
             "bbox": _box(glyphs, ems)} for text, glyphs in runs]


def _set_lines(glyphs: list[_Glyph], ems: dict[str, float]) -> list[tuple[int, dict]]:
    """(block, line in dict form) for the glyphs, in top-to-bottom order; blocks numbered from 0."""
    if not glyphs:
        return []
    out: list[tuple[int, dict]] = []
    open_blocks: list[tuple[int, _Piece]] = []  # the last line of each block a later line may still continue
    reach = _LEADING_EM * max(ems.values())
    blocks = 0
    for piece in _pieces(glyphs, ems):
        open_blocks = [(b, above) for b, above in open_blocks if piece.y - above.y <= reach]  # lines come top down
        at = next((n for n in range(len(open_blocks) - 1, -1, -1) for above in (open_blocks[n][1],)
                   if 0 < piece.y - above.y <= _LEADING_EM * above.em and abs(piece.em - above.em) < 0.1 * above.em
                   and piece.x0 < above.x1 and above.x0 < piece.x1), None)
        if at is None:
            block, blocks = blocks, blocks + 1
            open_blocks.append((block, piece))
        else:
            block = open_blocks[at][0]
            open_blocks[at] = (block, piece)
        out.append((block, {"dir": (1.0, 0.0), "spans": _spans(piece, ems)}))
    return out

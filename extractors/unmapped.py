"""Glyphs a text layer prints but cannot name, read from the printed page.

A font without a Unicode map for some of its glyphs gives MuPDF only the font's own codes (old TeX papers whose
bitmap fonts dvips re-encoded print the digits of a small font as codes 1, 2, 3). Dropped, they turn 'Fig. 1',
'(2)' and '[12]' into 'Fig. .', '()' and '[]', so no figure, equation or citation keeps its number. Layout keeps a
mark where each such glyph is (text.UNMAPPED). When the marks are a noticeable share of the document's characters
(MIN_SHARE: a few unmapped math symbols are left alone, OCR would not read them better), each page holding them is
read by OCR, and each line's marks take the characters OCR reads at their place: the line's own text is aligned with
the OCR words printed inside the line's box, and only the marks change, since the text layer's other characters
are exact where OCR's are a guess.
"""

from __future__ import annotations

from dataclasses import replace
from difflib import SequenceMatcher

from extractors.model import Line, PageLayout
from extractors.mupdf import pymupdf
from extractors.text import UNMAPPED

# One character in a hundred: the corpus's papers that are fine hold at most 0.2% unmapped glyphs (a math symbol
# here and there); a text layer whose digits are unmapped holds several percent.
MIN_SHARE = 0.01
_MAX_GROWTH = 3  # a run of marks takes at most this many characters per mark: more is a misalignment


def unmapped_share(pages: list[PageLayout]) -> float:
    """The share of the document's characters that are glyphs without a character."""
    text = "".join(line.text for page in pages for line in page.lines)
    return text.count(UNMAPPED) / len(text) if text else 0.0


def has_unmapped(layout: PageLayout) -> bool:
    return any(UNMAPPED in line.text for line in layout.lines)


def fill_unmapped(layout: PageLayout, textpage: pymupdf.TextPage) -> PageLayout:
    """The page's lines with their marks replaced by what `textpage` (an OCR of the page as shown, its boxes
    upright as the lines' are) reads there."""
    words = [(pymupdf.Rect(w[:4]), w[4]) for w in textpage.extractWORDS()]
    return replace(layout, lines=[_filled(line, words) if UNMAPPED in line.text else line for line in layout.lines])


def _filled(line: Line, words: list[tuple[pymupdf.Rect, str]]) -> Line:
    x0, y0, x1, y1 = line.bbox
    inside = sorted((rect.x0, text) for rect, text in words
                    if x0 - 1 <= (rect.x0 + rect.x1) / 2 <= x1 + 1 and y0 - 1 <= (rect.y0 + rect.y1) / 2 <= y1 + 1)
    fills = mark_fills(line.text, " ".join(text for _, text in inside))
    spans = line.spans  # unchanged when a span the line's text leaves out holds a mark: no match mark for mark
    if sum(s.text.count(UNMAPPED) for s in spans) == len(fills):
        marks = iter(fills)
        spans = [replace(s, text=_put(s.text, marks)) for s in spans]
    return replace(line, text=" ".join(_put(line.text, iter(fills)).split()), spans=spans)


def _put(text: str, fills) -> str:
    return "".join(next(fills) if c == UNMAPPED else c for c in text)


def mark_fills(text: str, read: str) -> list[str]:
    """For each mark in `text`, in order, what `read` (OCR's reading of the same line) prints there: the two are
    aligned character by character; a run of marks facing as many characters takes them one by one, facing
    another number of characters takes them all on its first mark; a mark facing nothing stays a mark (layout
    makes it text.UNKNOWN)."""
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, text, read, autojunk=False).get_opcodes():
        piece = text[i1:i2]
        marks = piece.count(UNMAPPED)
        if not marks:
            continue
        facing = read[j1:j2] if tag == "replace" else ""
        if len(facing) == len(piece):
            out += [facing[k] for k, c in enumerate(piece) if c == UNMAPPED]
        elif facing.strip() and piece.strip(UNMAPPED) == "" and len(facing) <= _MAX_GROWTH * marks:
            out += [facing.strip()] + [""] * (marks - 1)
        else:
            out += [UNMAPPED] * marks
    return out

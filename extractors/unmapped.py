"""Glyphs a text layer prints but cannot name, read from the printed page.

A font without a Unicode map for some of its glyphs gives MuPDF only the font's own codes (old TeX papers whose
bitmap fonts dvips re-encoded print the digits of a small font as codes 1, 2, 3). Dropped, they turn 'Fig. 1',
'(2)' and '[12]' into 'Fig. .', '()' and '[]', so no figure, equation or citation keeps its number. Layout keeps a
mark where each such glyph is (text.UNMAPPED). When the marks are a noticeable share of the document's characters
(MIN_SHARE: unmapped math symbols are left alone, OCR would not read them better), each page holding them is
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

# Two characters in a hundred: a text layer whose digits are unmapped holds several percent (7% in the corpus's one
# such paper); papers whose fonts leave only math letters or symbols unmapped hold up to 1.3%, and OCR reads
# math no better than the text layer names it, while each page costs seconds.
MIN_SHARE = 0.02
_MAX_GROWTH = 3  # a run of marks takes at most this many characters per mark: more is a misalignment
_MAX_LINE = 1_000  # characters of a line aligned with OCR at most (SequenceMatcher's time grows with the square)


def unmapped_share(pages: list[PageLayout]) -> float:
    """The share of the document's characters that are glyphs without a character."""
    text = "".join(line.text for page in pages for line in page.lines)
    return text.count(UNMAPPED) / len(text) if text else 0.0


def unmapped_count(layout: PageLayout) -> int:
    """How many glyphs without a character the page's lines hold."""
    return sum(line.text.count(UNMAPPED) for line in layout.lines)


def fill_unmapped(layout: PageLayout, textpage: pymupdf.TextPage) -> PageLayout:
    """The page's lines with their marks replaced by what `textpage` (an OCR of the page as shown, its boxes
    upright as the lines' are) reads there."""
    words = [(pymupdf.Rect(w[:4]), w[4]) for w in textpage.extractWORDS()]
    return replace(layout, lines=[_filled(line, words) if UNMAPPED in line.text else line for line in layout.lines])


def _filled(line: Line, words: list[tuple[pymupdf.Rect, str]]) -> Line:
    """The line with its marks filled from the OCR words printed on it: a word's middle within the line's extent
    across, and the word reaching over the middle of the line's height (Tesseract gives a word the height of its
    whole line, which a brace or a tall bracket beside it stretches). A line too long to align in good time (the
    layout caps allow 10,000 characters), or facing far more OCR text than it holds, is left as it is."""
    x0, y0, x1, y1 = line.bbox
    middle = (y0 + y1) / 2
    inside = sorted((rect.x0, text) for rect, text in words
                    if x0 - 1 <= (rect.x0 + rect.x1) / 2 <= x1 + 1 and rect.y0 <= middle <= rect.y1)
    read = " ".join(text for _, text in inside)
    if len(line.text) > _MAX_LINE or len(read) > 2 * len(line.text) + 20:
        return line
    fills = mark_fills(line.text, read)
    spans = line.spans  # unchanged when a footnote mark the line's text leaves out holds marks
    if sum(s.text.count(UNMAPPED) for s in spans) == len(fills):
        marks = iter(fills)
        spans = [replace(s, text=_put(s.text, marks)) for s in spans]
    return replace(line, text=" ".join(_put(line.text, iter(fills)).split()), spans=spans)


def _put(text: str, fills) -> str:
    return "".join(next(fills) if c == UNMAPPED else c for c in text)


def mark_fills(text: str, read: str) -> list[str]:
    """For each mark in `text`, in order, what `read` (OCR's reading of the same line) prints there: the two are
    aligned character by character with white space left out of both (OCR spaces a formula its own way: 'a=3+b'
    for 'a = 3 + b'); a run of marks facing as many characters takes them one by one, facing more (at most
    _MAX_GROWTH per mark: a ligature's 'ff') takes them all on its first mark; a run facing fewer characters or none
    stays marks (layout makes them text.UNKNOWN): '0.123' read as '0.12' is no reading of its last digit."""
    bare, read = "".join(text.split()), "".join(read.split())
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, bare, read, autojunk=False).get_opcodes():
        piece = bare[i1:i2]
        marks = piece.count(UNMAPPED)
        if not marks:
            continue
        facing = read[j1:j2] if tag == "replace" else ""
        if len(facing) == len(piece):
            out += [facing[k] for k, c in enumerate(piece) if c == UNMAPPED]
        elif marks == len(piece) and marks < len(facing) <= _MAX_GROWTH * marks:
            out += [facing] + [""] * (marks - 1)
        else:
            out += [UNMAPPED] * marks
    return out

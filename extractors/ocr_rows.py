"""Rows Tesseract read as one, read again row by row.

Tesseract finds a page's lines by the blank rows between them. A heading set directly over another line, with
no more leading than the body's ('METHODS' over 'Search strategy and identification of studies', both bold), can
leave it none it recognizes: it then reads the two rows as one line of a few misread words ('Sere') twice their
height, with pieces of the lower row read again beside it ('d identificati'), and the heading is lost. Such a line
shows itself by its box, which holds two rows of ink with blank pixel rows between them. The rows its box and
the lines beside it cover are cut apart at those blank rows and each is read alone; when every row reads as
words, the rows' readings replace the lines. Nothing else changes.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from extractors.model import BBox, Line, Span
from extractors.ocr_graphics import ink_within
from extractors.ocr_labels import PROSE_CHARS, runs

_TALL = 1.3  # of the page's prose line height: a box this tall may hold two rows
_ROW_HEIGHT = (0.5, 1.5)  # of the prose line height: a row's ink, from x band to ascenders and descenders
_REACH = 1.0  # of the prose line height: a line this near those on the rows is read with them (a gutter is wider)
_GAP = 1.2  # of the prose line height: a blank this wide inside a row parts two columns, or a formula and its number
_PAD = 0.2  # of the prose line height: blank kept around a row when it is cut out for reading
_MAX_READS = 40  # rows read again per page, at most: a page of garbled rows cannot cost more
_WORD_LETTERS = 2  # a row whose reading holds no word of this many letters is not taken
_EDGE_MARKS = "|[]"  # what a neighbour's stroke at the cut-out's edge reads as


def rows_read_again(lines: list[Line], ink: np.ndarray, scale: float, read: Callable[[BBox], list[tuple[str, BBox]]]
                    ) -> list[Line]:
    """`lines` with each line whose box holds two rows of ink, and the lines read beside it on those rows, read
    again a row at a time. `ink`: the page's pixels (True where ink) at `scale` pixels per point; `read(box)`: the
    words (text, box on the page) of the page's box (points) read alone."""
    prose = [line.bbox[3] - line.bbox[1] for line in lines if len(line.text) >= PROSE_CHARS and not line.vertical]
    if not prose:
        return lines
    height = statistics.median(prose)
    reads = 0
    tried: set[int] = set()  # lines of the groups looked at: each group's rows are read once
    for tall in [line for line in lines if not line.vertical and line.bbox[3] - line.bbox[1] >= _TALL * height]:
        if id(tall) in tried:
            continue
        if reads >= _MAX_READS - 1:
            break
        group = _beside(tall, lines, height)
        tried.update(id(line) for line in group)
        box = (min(b.bbox[0] for b in group), min(b.bbox[1] for b in group), max(b.bbox[2] for b in group),
               max(b.bbox[3] for b in group))
        bands = _rows(ink, box, scale, height)
        if len(bands) < 2 or reads + len(bands) > _MAX_READS:
            continue
        reads += len(bands)
        pad = _PAD * height
        words = [_trimmed(read((x0 - pad, y0 - pad, x1 + pad, y1 + pad))) for x0, y0, x1, y1 in bands]
        if not all(any(sum(c.isalpha() for c in text) >= _WORD_LETTERS for text, _ in row) for row in words):
            continue
        again = [replace(tall, text=" ".join(text for text, _ in row), bbox=band, size=band[3] - band[1],
                         spans=[Span(text, word, band[3] - band[1], tall.font) for text, word in row])
                 for row, band in zip(words, bands)]
        lines = [line for line in lines if not any(line is b for b in group)] + again
    return lines


def _trimmed(words: list[tuple[str, BBox]]) -> list[tuple[str, BBox]]:
    """The words without the bars read at the cut-out's edges (the edge of a neighbour's letter read as '|')."""
    while words and not words[-1][0].strip(_EDGE_MARKS):
        words = words[:-1]
    while words and not words[0][0].strip(_EDGE_MARKS):
        words = words[1:]
    return words


def _beside(tall: Line, lines: list[Line], height: float) -> list[Line]:
    """The tall line and the lines on its rows that reach into its width or come within _REACH of the ones
    that do, left or right: what Tesseract read of those rows."""
    y0, y1 = tall.bbox[1], tall.bbox[3]
    on_rows = [line for line in lines if not line.vertical and line.bbox[1] < y1 and line.bbox[3] > y0
               and line.bbox[3] - line.bbox[1] <= y1 - y0]
    group, x0, x1 = [tall], tall.bbox[0], tall.bbox[2]
    taken = {id(tall)}
    reach = _REACH * height
    grown = True
    while grown:
        grown = False
        for line in on_rows:
            if id(line) not in taken and line.bbox[0] < x1 + reach and line.bbox[2] > x0 - reach:
                group.append(line)
                taken.add(id(line))
                x0, x1 = min(x0, line.bbox[0]), max(x1, line.bbox[2])
                grown = True
    return group


def _rows(ink: np.ndarray, box: BBox, scale: float, height: float) -> list[BBox]:
    """Boxes (points) of the rows of ink in `box` parted by blank pixel rows, each a text row's height (lower
    bands at its top and bottom edges are the tips of the rows above and below); none when some band of ink there
    is no such row (a formula, a figure, a large title) or is parted by a wide blank."""
    part, left, top = ink_within(ink, box, scale)
    bands = runs(part.any(axis=1), gap=0)
    low, high = _ROW_HEIGHT[0] * height * scale, _ROW_HEIGHT[1] * height * scale
    while bands and bands[0][1] - bands[0][0] < low:
        bands = bands[1:]
    while bands and bands[-1][1] - bands[-1][0] < low:
        bands = bands[:-1]
    if not all(low <= bottom - start <= high for start, bottom in bands):
        return []
    out = []
    for start, bottom in bands:
        columns = np.flatnonzero(part[start:bottom].any(axis=0))
        if columns.size > 1 and np.diff(columns).max() > _GAP * height * scale:
            return []  # two columns' rows side by side, or a formula and its number: each read apart already
        out.append((float(left + columns[0]) / scale, (top + start) / scale, float(left + columns[-1] + 1) / scale,
                    (top + bottom) / scale))
    return out

"""The graphics of a page read by OCR: the ink that is not a word.

A scan is one picture, so its page has no drawings: the float detector (extractors/floats.py), which grows a figure's
or table's region from its caption over the graphics and labels beside it, would find only the labels Tesseract
read, and a figure of curves without words came out as its caption alone. Here the scan's ink minus the words
Tesseract read is gathered into regions, which the page gets as its drawings, as a vector page's strokes are: a
figure's curves and boxes, a table's rules, a formula's fraction bars and the symbols Tesseract could not read.
"""

from __future__ import annotations

import numpy as np

from extractors.layout import merge_touching
from extractors.model import BBox, Line, Span

_CELL = 2.0  # points: the ink is looked at in cells this wide and high, then cells are joined into regions
_CELL_INK = 3  # pixels of ink a cell needs (fewer is a speck of scanner noise)
_WORD_PAD = 1.0  # points around a word's box that are the word's too (an italic letter's overhang, an accent)
# a character is at most this many times as wide as its line is high (an em dash, a W); a reading wider than its
# characters allow is a rule read as letters
_WIDEST_CHAR = 1.5
_MIN_EXTENT = 10.0  # points: a region neither this wide nor this high is a speck, or a letter Tesseract left unread


def drawn_regions(ink: np.ndarray, lines: list[Line], scale: float) -> list[BBox]:
    """The regions of `ink` (the page's pixels, `scale` per point, True where dark) that no word of `lines` covers,
    in points."""
    rest = ink.copy()
    pad = _WORD_PAD * scale
    for line in lines:
        for span in line.spans:
            if _is_word(span):
                x0, y0, x1, y1 = span.bbox
                rest[max(0, int(y0 * scale - pad)):int(y1 * scale + pad) + 1,
                     max(0, int(x0 * scale - pad)):int(x1 * scale + pad) + 1] = False
    step = max(1, round(_CELL * scale))
    rows, cols = rest.shape[0] // step, rest.shape[1] // step
    cells = rest[:rows * step, :cols * step].reshape(rows, step, cols, step).sum(axis=(1, 3)) >= _CELL_INK
    size = step / scale  # a cell's side in points
    runs: list[BBox] = []
    for row in np.flatnonzero(cells.any(axis=1)):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], cells[row].view(np.int8), [0]))))
        runs += [(float(start * size), float(row * size), float(end * size), float((row + 1) * size))
                 for start, end in zip(edges[::2], edges[1::2])]
    width, height = cols * size, rows * size
    return [_tight(rest, box, scale) for box in merge_touching(runs, grid=size)
            if max(box[2] - box[0], box[3] - box[1]) >= _MIN_EXTENT
            and box[0] > size and box[1] > size and box[2] < width - size and box[3] < height - size]


def _tight(ink: np.ndarray, box: BBox, scale: float) -> BBox:
    """The box shrunk to the ink inside it: cells are whole points wide, and a rule half a point thick must come
    out as thin as it is printed (a rule under a running head is furniture by its thinness, extractors/layout.py)."""
    x0, y0 = int(box[0] * scale), int(box[1] * scale)
    part = ink[y0:int(np.ceil(box[3] * scale)), x0:int(np.ceil(box[2] * scale))]
    rows, cols = np.flatnonzero(part.any(axis=1)), np.flatnonzero(part.any(axis=0))
    return ((x0 + cols[0]) / scale, (y0 + rows[0]) / scale, (x0 + cols[-1] + 1) / scale, (y0 + rows[-1] + 1) / scale)


def _is_word(span: Span) -> bool:
    """Whether Tesseract's reading is a word: it holds a letter or digit, and it is no wider than its characters
    can be. Bare marks ('——_>', '|') are a picture's own lines read as text, and a table's rule is often read as
    a couple of letters as wide as the table ('TT')."""
    text = span.text.strip()
    height = span.bbox[3] - span.bbox[1]
    return any(c.isalnum() for c in text) and span.bbox[2] - span.bbox[0] <= _WIDEST_CHAR * height * len(text)

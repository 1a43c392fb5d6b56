"""The graphics of a page read by OCR: the ink that is not a word.

A scan is one picture, so its page has no drawings: the float detector (extractors/floats.py), which grows a figure's
or table's region from its caption over the graphics and labels beside it, would find only the labels Tesseract
read, and a figure of curves without words came out as its caption alone. Here the scan's ink minus the words
Tesseract read is gathered into regions, which the page gets as its drawings, as a vector page's strokes are: a
figure's curves and boxes, a table's rules, a formula's fraction bars and the symbols Tesseract could not read.
"""

from __future__ import annotations

import numpy as np

from extractors.disjoint import DisjointSets
from extractors.layout import merge_touching
from extractors.model import BBox, Line, Span
from extractors.ocr_labels import runs

_CELL = 2.0  # points: the ink is looked at in cells this wide and high, then cells are joined into regions
_CELL_INK = 3 / 64  # share of a cell's pixels that must be ink (3 of a cell's 64 at 300 dpi; fewer is a speck)
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
    cells = rest[:rows * step, :cols * step].reshape(rows, step, cols, step).sum(axis=(1, 3))
    cells = cells >= max(1, round(_CELL_INK * step * step))
    size = step / scale  # a cell's side in points
    width, height = cols * size, rows * size
    pieces = [(x0 * size, y0 * size, x1 * size, y1 * size) for x0, y0, x1, y1 in _components(cells)]
    pieces = [box for box in pieces if max(box[2] - box[0], box[3] - box[1]) >= _MIN_EXTENT
              and box[0] > size and box[1] > size and box[2] < width - size and box[3] < height - size]
    return [_tight(rest, box, scale) for box in merge_touching(pieces, grid=size)]


def _components(cells: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The boxes (in cells, end exclusive) of the groups of inked cells that touch or stand one blank cell apart:
    each row's runs of cells (a blank cell inside a run does not end it) joined to the runs of the two rows above
    that they reach, in one pass over the runs, so a page of scattered specks costs no more than its runs."""
    sets = DisjointSets()
    boxes: list[list[int]] = []
    previous: list[list[tuple[int, int, int]]] = [[], []]  # (start, end, run id) of the two rows above
    for row in range(cells.shape[0]):
        here: list[tuple[int, int, int]] = []
        for start, end in runs(cells[row], 1):  # one blank cell apart: the same run
            boxes.append([start, row, end, row + 1])
            here.append((start, end, sets.add()))
        for above in previous:
            k = 0
            for start, end, run in here:
                while k < len(above) and above[k][1] + 1 < start:
                    k += 1
                j = k
                while j < len(above) and above[j][0] <= end + 1:
                    sets.join(run, above[j][2])
                    j += 1
        previous = [previous[1], here]
    groups: dict[int, list[int]] = {}
    for i, box in enumerate(boxes):
        group = groups.setdefault(sets.find(i), [box[0], box[1], box[2], box[3]])
        group[0], group[1], group[2], group[3] = (min(group[0], box[0]), min(group[1], box[1]),
                                                  max(group[2], box[2]), max(group[3], box[3]))
    return [tuple(group) for group in groups.values()]


def _tight(ink: np.ndarray, box: BBox, scale: float) -> BBox:
    """The box shrunk to the ink inside it: cells are whole points wide, and a rule half a point thick must come
    out as thin as it is printed (a rule under a running head is furniture by its thinness, extractors/layout.py)."""
    x0, y0 = int(box[0] * scale), int(box[1] * scale)
    top, left, bottom, right = ink_extent(ink[y0:int(np.ceil(box[3] * scale)), x0:int(np.ceil(box[2] * scale))])
    return (x0 + left) / scale, (y0 + top) / scale, (x0 + right) / scale, (y0 + bottom) / scale


def ink_within(ink: np.ndarray, box: BBox, scale: float) -> tuple[np.ndarray, int, int]:
    """The pixels of `ink` under `box` (in points, `scale` pixels per point) with the pixel column and row it starts
    at, clipped to the page: a box reaching off the page holds the page's pixels under it, one off it none."""
    x0, y0 = min(max(round(box[0] * scale), 0), ink.shape[1]), min(max(round(box[1] * scale), 0), ink.shape[0])
    x1, y1 = max(round(box[2] * scale) + 1, x0), max(round(box[3] * scale) + 1, y0)
    return ink[y0:y1, x0:x1], x0, y0


def ink_extent(part: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, left, bottom + 1, right + 1) of the True pixels of `part`, None when it has none."""
    rows, cols = np.flatnonzero(part.any(axis=1)), np.flatnonzero(part.any(axis=0))
    if not len(rows):
        return None
    return int(rows[0]), int(cols[0]), int(rows[-1]) + 1, int(cols[-1]) + 1


def _is_word(span: Span) -> bool:
    """Whether Tesseract's reading is a word: it holds a letter or digit, and it is no wider than its characters
    can be. Bare marks ('——_>', '|') are a picture's own lines read as text, and a table's rule is often read as
    a couple of letters as wide as the table ('TT')."""
    text = span.text.strip()
    height = span.bbox[3] - span.bbox[1]
    return any(c.isalnum() for c in text) and span.bbox[2] - span.bbox[0] <= _WIDEST_CHAR * height * len(text)

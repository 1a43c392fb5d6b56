"""Equation numbers on OCR'd pages, read a second time on their own.

Tesseract reads a page as blocks of text. An equation's number, set apart at the right edge of the running text
beside a formula of tall brackets, sub- and superscripts, is often read with the formula's block and misread ("(1)"
as "”", "(2)" as "@)" over a lone "2") or dropped with the formula as a picture; cut out and read alone it reads
right. So on an OCR'd page, at each right edge of the running text, the ink that no line of prose or already-read
number covers is cut into bands; a band whose ink ends at the edge and stands apart from the ink to its left, as a
number does, is read again, and when that reading is an equation number it replaces the short misread lines it
overlaps. Nothing else changes: what is not read as a number keeps Tesseract's first reading.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from extractors.model import Line, Span
from extractors.text import EQUATION_LABEL

PROSE_CHARS = 20  # lines at least this long are running text: they set the size, stroke and right edges
_EDGE_LINES = 3  # a right edge is where at least this many prose lines end (within half an em)
_STRIP_EMS = 5.0  # how far left of a right edge a number may start
_BEYOND_EMS = 2.0  # how far right of it one may end (Tesseract's boxes of ragged or justified lines end short)
_APART_EMS = 0.8  # the blank a number has to its left, at least
_BAND_EMS = (0.5, 2.5)  # a number's height, from a low digit's to a tall bracket's
_PAD_EMS = 0.3  # blank kept around a band when it is cut out for reading
# what a speck of dirt or a stray stroke beside a number reads as
_SPECKS = "|'\"‘’“”.,:;`"
_MAX_COLUMNS = 3  # right edges looked at per page
_MAX_READS = 40  # bands read again per page, at most: a page of plots at the edge cannot cost more


def relabel(lines: list[Line], ink: np.ndarray, scale: float, read: Callable[[tuple[float, float, float, float]], str]
            ) -> list[Line]:
    """`lines` with the equation numbers at the running text's right edges read again. `ink`: the page's pixels
    (True where ink) at `scale` pixels per point; `read(box)`: the text of the page's box (points) read alone."""
    prose = [line for line in lines if len(line.text) >= PROSE_CHARS and not line.vertical]
    if not prose:
        return lines
    size = statistics.median(line.size for line in prose)
    reads = 0
    for edge in _right_edges(prose, size):
        end = min([edge + _BEYOND_EMS * size] + [line.bbox[0] for line in prose if line.bbox[0] > edge])
        for box in _bands(lines, ink, scale, edge, end, size):
            if reads == _MAX_READS:
                return lines
            reads += 1
            text = "".join(read(box).split()).strip(_SPECKS)
            if EQUATION_LABEL.fullmatch(text) and text.startswith("("):
                lines = _put(lines, text, box, size)
    return lines


def _right_edges(prose: list[Line], size: float) -> list[float]:
    """Where prose lines end, as often as a column's justified right edge makes them: the edges of the most
    lines, one per column at most."""
    ends = sorted(line.bbox[2] for line in prose)
    edges, group = [], [ends[0]]
    for x in ends[1:] + [float("inf")]:
        if x - group[-1] <= size / 2:
            group.append(x)
            continue
        if len(group) >= _EDGE_LINES:
            edges.append((len(group), group[-1]))
        group = [x]
    return sorted(edge for _, edge in sorted(edges, reverse=True)[:_MAX_COLUMNS])


def _bands(lines: list[Line], ink: np.ndarray, scale: float, edge: float, end: float, size: float
           ) -> list[tuple[float, ...]]:
    """Boxes (points) of the ink at `edge` (up to `end`, short of the next column's text) that nothing read
    covers and that stands apart as a number does."""
    left = edge - _STRIP_EMS * size
    px0, px1 = max(0, round(left * scale)), min(ink.shape[1], round(end * scale))
    if px1 <= px0:
        return []
    covered = np.zeros(ink.shape[0], dtype=bool)
    for line in lines:
        x0, y0, x1, y1 = line.bbox
        if x1 > left and x0 < end and (x0 < left or EQUATION_LABEL.fullmatch(line.text.strip())):
            covered[max(0, round(y0 * scale)):max(0, round(y1 * scale) + 1)] = True
    rows = ink[:, px0:px1].any(axis=1) & ~covered
    apart, low, high = round(_APART_EMS * size * scale), _BAND_EMS[0] * size * scale, _BAND_EMS[1] * size * scale
    out = []
    for top, bottom in runs(rows, gap=round(0.15 * size * scale)):
        if not low <= bottom - top <= high:
            continue
        columns = ink[top:bottom].any(axis=0)
        right = int(np.flatnonzero(columns[:px1]).max()) + 1 if columns[:px1].any() else 0
        if columns[right:right + apart].any():
            continue  # the ink runs on to the right: a line of the next column, not a number ending its row
        start = right
        while start > 0 and columns[max(0, start - apart):start].any():  # back over the number's own ink
            start = int(np.flatnonzero(columns[max(0, start - apart):start]).min()) + max(0, start - apart)
        if right / scale < edge - size or (right - start) / scale > 4 * size:
            continue  # not at the edge, or its ink runs on to the left: part of a formula or a figure
        pad = _PAD_EMS * size
        out.append((start / scale - pad, top / scale - pad, right / scale + pad, bottom / scale + pad))
    return out


def runs(rows: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """(first, last + 1) of the runs of True values, runs at most `gap` False values apart joined."""
    marked = np.flatnonzero(rows)
    if marked.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(marked) > gap + 1)
    starts = np.concatenate(([marked[0]], marked[breaks + 1]))
    ends = np.concatenate((marked[breaks], [marked[-1]])) + 1
    return list(zip(starts.tolist(), ends.tolist()))


def _put(lines: list[Line], text: str, box: tuple[float, ...], size: float) -> list[Line]:
    """The lines with the number in `box`, in place of the short lines it overlaps (Tesseract's misreadings)."""
    pad = _PAD_EMS * size
    bbox = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
    hit = [line for line in lines if _overlaps(line.bbox, bbox)]
    if any(len(line.text.strip()) > 4 for line in hit):
        return lines  # it overlaps words: not a number on its own
    like = hit[0] if hit else min(lines, key=lambda line: abs(line.bbox[1] - bbox[1]))
    number = replace(like, text=text, bbox=bbox, size=size, bold=False, italic=False, vertical=False,
                     spans=[Span(text, bbox, size, like.font)])
    return [line for line in lines if line not in hit] + [number]


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

"""Lines of an OCR'd page put back together as they are printed: cut at the gutter between columns, and a
heading's number joined to its title.

Tesseract finds a page's columns by the blank between them. When the gutter is narrow (two-column proceedings set
it at a quarter of an inch), it often reads a row of the left column and the row of the right column beside it as
one line ("...highly likely that the 3 Multiple Instance Learning"), sometimes with the gutter itself read as a
"|". Such lines lose the page's headings, which start a line of their own column, and the reading order. The
gutter is still there in the words' boxes: an upright strip in the middle of the page that no word, or almost none,
covers, between text on both sides. A line whose words leave a gap over that strip is cut there into two lines;
what Tesseract read in the strip itself (the "|") is dropped. A line with a word over the strip (a title or a
caption set across both columns) stays whole.

The other way round, a section number set a quad apart from its title ("5   Two Types of Bias") often comes back as
a line of its own beside the title's; sections are found by their numbers, so the number is joined to the title
it stands before on the same row.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from extractors.model import Line, Span

_MIDDLE = (0.3, 0.7)  # where on the page's width a gutter is looked for
_MIN_GUTTER = 6.0  # points: the narrowest gutter (word spacing is 2-4 points)
_FEW = 0.05  # share of the page's lines whose words may cross the gutter (titles, wide captions, misreads)
_MIN_SIDE_LINES = 5  # lines on each side of the gutter for it to be one
_SPECK_CHARS = 3  # a second reading of a few characters of ink...
_INSIDE = 0.6  # ...lying this much inside another line's box
_NUMBER = re.compile(r"(?:\d{1,2}(?:\.\d{1,2}){0,3}|[IVX]{1,4})\.?")
_STRAY = set("|!Il1[]_—-'\"‘’“”.,:;")  # what the blank of a gutter reads as


def as_printed(lines: list[Line], width: float) -> list[Line]:
    """The page's lines (OCR'd, a span per word) with those that run across its gutter cut in two and lone
    section numbers joined to their titles."""
    gutter = _gutter(lines, width)
    if gutter is not None:
        lines = [part for line in lines for part in _cut(line, gutter)]
    return _numbers_joined(_without_specks(lines))


def _without_specks(lines: list[Line]) -> list[Line]:
    """The lines but the few characters Tesseract reads a second time inside another line's box ('.' or 'ee' in a
    bold heading's ink): beside a heading, such a line would make its row no heading's."""
    def speck(line: Line) -> bool:
        chars = len(line.text.strip())
        return chars <= _SPECK_CHARS and any(
            o is not line and len(o.text.strip()) >= max(5, 2 * chars) and _inside(line.bbox, o.bbox) for o in lines)
    return [line for line in lines if not speck(line)]


def _inside(small: tuple[float, ...], big: tuple[float, ...]) -> bool:
    """Whether most of `small`'s area lies in `big`."""
    w = min(small[2], big[2]) - max(small[0], big[0])
    h = min(small[3], big[3]) - max(small[1], big[1])
    area = (small[2] - small[0]) * (small[3] - small[1])
    return w > 0 and h > 0 and w * h >= _INSIDE * area if area > 0 else False


def _numbers_joined(lines: list[Line]) -> list[Line]:
    """Each line that is only a section number ("5", "5.1", "IV.") joined to the line beginning with a capital
    right of it on its row, within three of its ems."""
    out, used = [], set()
    for line in lines:
        if id(line) in used or not _NUMBER.fullmatch(line.text.strip()):
            continue
        title = min((o for o in lines if o is not line and id(o) not in used and _same_row(line, o)
                     and 0 <= o.bbox[0] - line.bbox[2] <= 3 * max(line.size, o.size) and o.text[:1].isupper()),
                    key=lambda o: o.bbox[0], default=None)
        if title is not None:
            used.update((id(line), id(title)))
            box = tuple(f(a, b) for f, a, b in zip((min, min, max, max), line.bbox, title.bbox))
            out.append(replace(title, text=f"{line.text.strip()} {title.text}", bbox=box,
                               spans=[*line.spans, *title.spans]))
    return [line for line in lines if id(line) not in used] + out


def _same_row(a: Line, b: Line) -> bool:
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return overlap >= 0.5 * min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1])


def _gutter(lines: list[Line], width: float) -> tuple[float, float] | None:
    """The widest upright strip in the page's middle that the words of nearly no line cover, with lines on both
    sides; None on a page of one column."""
    lo, hi = round(width * _MIDDLE[0]), round(width * _MIDDLE[1])
    if not lines or hi <= lo:
        return None
    covered = np.zeros(hi - lo, dtype=int)
    for line in lines:
        seen = np.zeros(hi - lo, dtype=bool)
        for span in line.spans:
            if span.text.strip() and not set(span.text.strip()) <= _STRAY:
                seen[max(0, int(span.bbox[0]) - lo):max(0, int(np.ceil(span.bbox[2])) - lo)] = True
        covered += seen
    free = covered <= _FEW * len(lines)
    best = None
    start = None
    for x, is_free in enumerate(np.append(free, False)):
        if is_free and start is None:
            start = x
        elif not is_free and start is not None:
            if x - start >= _MIN_GUTTER and (best is None or x - start > best[1] - best[0]):
                best = (start + lo, x + lo)
            start = None
    if best is None:
        return None
    left = sum(line.bbox[2] <= best[0] + 1 for line in lines)
    right = sum(line.bbox[0] >= best[1] - 1 for line in lines)
    return best if left >= _MIN_SIDE_LINES and right >= _MIN_SIDE_LINES else None


def _cut(line: Line, gutter: tuple[float, float]) -> list[Line]:
    """The line as one, or as its words left of the gutter and its words right of it."""
    g0, g1 = gutter
    if not (line.bbox[0] < g0 and line.bbox[2] > g1):
        return [line]
    words = [s for s in line.spans if s.text.strip()]
    left = [s for s in words if s.bbox[2] <= g0 + 1]
    right = [s for s in words if s.bbox[0] >= g1 - 1]
    inside = [s for s in words if s not in left and s not in right]
    if not left or not right or any(not set(s.text.strip()) <= _STRAY for s in inside):
        return [line]  # a word over the gutter: a line set across both columns
    starts, at = [], 0
    for span in words:  # where each word is in the line's text (spans carry no spaces between words)
        at = line.text.find(span.text.strip(), at)
        starts.append(at)
        at += len(span.text.strip())
    if -1 in starts:
        return [line]
    end_left = starts[len(left) - 1] + len(left[-1].text.strip())
    return [_line(line, left, line.text[:end_left]), _line(line, right, line.text[starts[-len(right)]:])]


def _line(line: Line, spans: list[Span], text: str) -> Line:
    spans = [replace(spans[0], text=spans[0].text.lstrip()), *spans[1:]]
    box = (min(s.bbox[0] for s in spans), min(s.bbox[1] for s in spans), max(s.bbox[2] for s in spans),
           max(s.bbox[3] for s in spans))
    return replace(line, text=text.strip(), bbox=box, spans=spans)

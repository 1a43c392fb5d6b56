"""Lines of an OCR'd page put back together as they are printed: cut at the gutter between columns, a heading's
number joined to its title, boxes set to their ink, second readings dropped and lost dots of numbers restored.

Tesseract finds a page's columns by the blank between them. When the gutter is narrow (two-column proceedings set
it at a quarter of an inch), it often reads a row of the left column and the row of the right column beside it as
one line ("...highly likely that the 3 Multiple Instance Learning"), sometimes with the gutter itself read as a
"|". Such lines lose the page's headings, which start a line of their own column, and the reading order. The
gutter is still there in the words' boxes: an upright strip in the middle of the page that no word, or almost none,
covers, between text on both sides. A line whose words leave a gap over that strip is cut there into two lines;
what Tesseract read in the strip itself (the "|", or "__" glued to the words beside it) is dropped. A line with a
word over the strip (a title or a caption set across both columns) stays whole.

The other way round, a section number set a quad apart from its title ("5   Two Types of Bias") often comes back as
a line of its own beside the title's; sections are found by their numbers, so the number is joined to the title
it stands before on the same row.

Tesseract's line boxes are a rough guess at the type's height (the same body type comes back anywhere from 7 to 14
points high), so the white space above a heading, by which it is told from a numbered paragraph
(extractors/sections.py), disappears between them. Each line's top and bottom are set where its ink is.

Tesseract sometimes reads the same ink twice, the second time as a few broken words over the first reading ('3.
Imi . L' over '3. Imitation Learning in Matrix Games'); beside a heading, such a line makes the heading's row look
like a table's. The words a shorter line reads over a longer one, alike, are dropped.

A dot between two digits is what OCR loses most often ('1.1 Privacy Definition' read as '11 Privacy
Definition'), and sections are found by their numbers in sequence; a two-digit number before a title is read as the
sub-section number its siblings printed elsewhere in the paper say it is.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from rapidfuzz import fuzz

from extractors.floats import union
from extractors.layout import NUMBER_GAP_EMS, SECTION_NUMBER, join_spans
from extractors.model import Line, PageLayout, Span
from extractors.ocr_labels import runs

_MIDDLE = (0.2, 0.8)  # where on the page's width gutters are looked for
_MIN_GUTTER = 6.0  # points: the narrowest gutter (word spacing is 2-4 points)
_FEW = 0.05  # share of the page's lines whose words may cross a gutter (titles, wide captions)...
_FEW_AT_MOST = 0.15  # ...besides those of a table or figure set across the page, which cross it all the way
_MIN_SIDE_WORDS = 20  # words ending left of a gutter, and as many starting right of it, for it to be one
_OVERREACH = 3.0  # points: how far a word's box may reach into a gutter and still be its side's
_BAR_CHARS = 2  # what the blank of a gutter reads as ('|', '_', '—'): a mark of no letter or digit, this short...
_BAR_EMS = 0.8  # ...and no wider than this
_GLUED = re.compile(r"(.*[^\W_])[_|—–]+([^\W_].*)")  # two words with the gutter's blank read between them as marks
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.?\s+[A-Z]")  # a sub-section number at a line's start, before its title
_DOT_LOST = re.compile(r"(\d)(\d)\s+(?=[A-Z])")  # the same with its dot lost ('11 Privacy Definition')
_TITLE_WORDS = 10  # the most words of a sub-section title whose number may have lost its dot
_MIN_INK_HEIGHT = 0.5  # of the line's size: the least height of a line's ink (a run of lower-case letters)
_CLAIM_HIGH = 1.5  # of a band's height: the tallest box of another line that is that band's
_ROW_INK = 2  # pixels of ink a pixel row of a line needs to be part of it (a lone pixel is scanner noise)
_SPECK_CHARS = 3  # a second reading of a few characters of ink...
_INSIDE = 0.6  # ...lying this much inside another line's box
_WORD = re.compile(r"[^\W\d_]{3,}[.,;:]?")  # a word of letters, which holds no digit's ink
_ROW = 20.0  # points: the height of the buckets lines are found by row in
_SHARED_ROW = 0.5  # of the taller box's height: how much of it two readings of one row's ink share
_ROWS_HIGH = 2.0  # of the page's median line height: a box this tall holds more than one row
_CROWDED = 64  # lines in one row bucket past which its lines are not compared (a page holds a few per column)
_SAME_READING = 70  # rapidfuzz partial ratio at which two readings of the same place are one misread twice


def as_printed(lines: list[Line], width: float, ink: np.ndarray | None = None, scale: float = 1.0) -> list[Line]:
    """The page's lines (OCR'd, a span per word) with those that run across a gutter cut at it, their tops and
    bottoms set where their ink is (`ink`: the page's pixels, `scale` per point; left as read without it), specks
    read inside other words and words read a second time dropped, and lone section numbers joined to their titles."""
    gutters = _gutters(lines, width)
    for gutter in gutters:
        lines = [part for line in lines for part in _cut(line, gutter)]
    if ink is not None:
        lines = fitted_to_ink(lines, ink, scale)
    return _numbers_joined(_without_second_readings(_without_specks(lines)), gutters)


def with_dots(pages: list[PageLayout], read: list[int]) -> list[PageLayout]:
    """`pages` with an OCR'd line (of the 1-based pages `read`) that begins with two digits before a short title
    ('11 Privacy Definition') read with a dot between them when the paper holds that sub-section's siblings as
    short titles, one before it or the next after it ('1.2 Calibrating Noise'), but not that number; once per
    number. A line that reads on as a sentence (ending in a stop, or holding a digit after its number: a reference
    entry, a date) is left as read."""
    lines = [line for page in pages if page.page in read for line in page.lines]
    at: dict[tuple[int, int], list[int]] = defaultdict(list)
    for k, line in enumerate(lines):
        if (m := _DOTTED.match(line.text.strip())) and _short_title(line.text[m.end(2):]):
            at[(int(m[1]), int(m[2]))].append(k)
    changed: dict[int, Line] = {}
    for k, line in enumerate(lines):
        m = _DOT_LOST.match(line.text)
        if m is None or not line.spans or not line.spans[0].text.startswith(m[0].rstrip()) \
                or not _short_title(line.text[m.end():]):
            continue
        number = (int(m[1]), int(m[2]))
        before, after = at.get((number[0], number[1] - 1), []), at.get((number[0], number[1] + 1), [])
        if number[1] == 0 or number in at or not (any(j < k for j in before) or any(j > k for j in after)):
            continue
        at[number].append(k)
        first, dotted = line.spans[0], f"{m[1]}.{m[2]}"
        changed[id(line)] = replace(line, text=dotted + line.text[2:],
                                    spans=[replace(first, text=dotted + first.text[2:]), *line.spans[1:]])
    if not changed:
        return pages
    return [replace(page, lines=[changed.get(id(line), line) for line in page.lines]) if page.page in read
            else page for page in pages]


def _short_title(text: str) -> bool:
    text = text.strip()
    return 0 < len(text.split()) <= _TITLE_WORDS and not text.endswith((".", ",", ";")) \
        and not any(c.isdigit() for c in text)


def _gutters(lines: list[Line], width: float) -> list[tuple[float, float]]:
    """The upright strips in the page's middle that the words of nearly no line cover (but those of a table or
    figure set across the page, which cover the whole strip), each with many words ending left of it and starting
    right of it: one on a page of two columns, two on a page of three. Marks without a letter or digit cover
    nothing: Tesseract reads a gutter's blank as '__' on some rows, reaching over half of it."""
    lo, hi = round(width * _MIDDLE[0]), round(width * _MIDDLE[1])
    if not lines or hi <= lo:
        return []
    covered = np.zeros(hi - lo, dtype=int)
    words = [span for line in lines for span in line.spans if any(c.isalnum() for c in span.text)]
    for line in lines:
        seen = np.zeros(hi - lo, dtype=bool)
        for span in line.spans:
            if any(c.isalnum() for c in span.text):
                seen[min(hi - lo, max(0, int(span.bbox[0]) - lo)):max(0, int(np.ceil(span.bbox[2])) - lo)] = True
        covered += seen
    if out := _free_strips(covered <= _FEW * len(lines), lo, words):
        return out
    # no gutter: a table or figure set across the page may cover it, with as many lines as cover the page's emptiest
    # strip a gutter wide
    floor = np.lib.stride_tricks.sliding_window_view(covered, min(len(covered), int(_MIN_GUTTER))).max(axis=1).min()
    return [] if floor > _FEW_AT_MOST * len(lines) else _free_strips(covered <= floor + _FEW * len(lines), lo, words)


def _free_strips(free: np.ndarray, lo: int, words: list[Span]) -> list[tuple[float, float]]:
    """The runs of `free` (from x = `lo`) at least a gutter wide with many words ending left and starting right."""
    free = np.append(free, False)
    out, start = [], None
    for x, is_free in enumerate(free):
        if is_free and start is None:
            start = x
        elif not is_free and start is not None:
            g0, g1 = start + lo, x + lo
            left = sum(abs(w.bbox[2] - g0) < 0.25 * (g1 - g0) + 30 and w.bbox[2] <= g0 + 1 for w in words)
            right = sum(abs(w.bbox[0] - g1) < 0.25 * (g1 - g0) + 30 and w.bbox[0] >= g1 - 1 for w in words)
            if x - start >= _MIN_GUTTER and left >= _MIN_SIDE_WORDS and right >= _MIN_SIDE_WORDS:
                out.append((g0, g1))
            start = None
    return out


def _bar(span: Span) -> bool:
    text = span.text.strip()
    return 0 < len(text) <= _BAR_CHARS and not any(c.isalnum() for c in text) and \
        span.bbox[2] - span.bbox[0] <= _BAR_EMS * max(span.size, 1.0)


def _cut(line: Line, gutter: tuple[float, float]) -> list[Line]:
    """The line as one, or as its words left of the gutter and its words right of it (marks read in the gutter
    dropped, and bars at the pieces' inner ends)."""
    g0, g1 = gutter
    if not (line.bbox[0] < g0 and line.bbox[2] > g1):
        return [line]
    words = [piece for s in line.spans if s.text.strip() for piece in _parted(s, gutter)]
    sides = [_side(s, gutter) for s in words]
    if any(side is None and not (_bar(s) or _gutter_mark(s, gutter)) for s, side in zip(words, sides)):
        return [line]  # a word over the gutter: a line set across both columns
    left = [s for s, side in zip(words, sides) if side == 0 and not _gutter_mark(s, gutter)]
    right = [s for s, side in zip(words, sides) if side == 1 and not _gutter_mark(s, gutter)]
    while left and _bar(left[-1]):
        left.pop()
    while right and _bar(right[0]):
        right.pop(0)
    if not left or not right:
        return [line]
    return [_piece(line, left), _piece(line, right)]


def _gutter_mark(span: Span, gutter: tuple[float, float]) -> bool:
    """What Tesseract read in the gutter's blank: no letter or digit, within the gutter (give or take a word's
    overreach), however wide ('—_' over a gutter of 13 points)."""
    g0, g1 = gutter
    return not any(c.isalnum() for c in span.text) and \
        g0 - _OVERREACH <= span.bbox[0] and span.bbox[2] <= g1 + _OVERREACH


def _parted(word: Span, gutter: tuple[float, float]) -> list[Span]:
    """The word, or the two words a mark read in the gutter glued together ('a__route'): a word reaching across the
    gutter whose marks lie in it (placed by their share of the word's letters; the dash of 'Navier–Stokes' in a
    title across both columns does not), each side's part given the box from the word's end to the gutter's edge."""
    (x0, y0, x1, y1), (g0, g1) = word.bbox, gutter
    text = word.text.strip()
    parts = _GLUED.fullmatch(text) if x0 < g0 and x1 > g1 else None
    if parts is None:
        return [word]
    per_char = (x1 - x0) / len(text)
    middle = x0 + per_char * (len(parts[1]) + (len(text) - len(parts[1]) - len(parts[2])) / 2)
    if not g0 - _OVERREACH <= middle <= g1 + _OVERREACH:
        return [word]
    return [replace(word, text=parts[1], bbox=(x0, y0, g0, y1)), replace(word, text=parts[2], bbox=(g1, y0, x1, y1))]


def _side(word: Span, gutter: tuple[float, float]) -> int | None:
    """0 for a word left of the gutter, 1 for one right of it, None for one over it. A word box reaching a few
    points into the gutter (no more than a quarter of it, so that a narrow gutter is not bridged by a word space)
    is the word's own side's: Tesseract starts a word's box where the mark it read in the gutter ends ('_', then
    ' tences')."""
    g0, g1 = gutter
    x0, x1 = word.bbox[0], word.bbox[2]
    if min(x1, g1) - max(x0, g0) <= min(_OVERREACH, 0.25 * (g1 - g0)):
        return 0 if x0 + x1 < g0 + g1 else 1
    return None


def _piece(line: Line, spans: list[Span]) -> Line:
    spans = [replace(spans[0], text=spans[0].text.lstrip()), *spans[1:]]
    return replace(line, text=join_spans(spans), bbox=union(s.bbox for s in spans), spans=spans,
                   size=statistics.median(s.size for s in spans))


def _rows(lines: list[Line]) -> dict[int, list[Line]]:
    """Lines by the row buckets their boxes reach into, so neighbours on a row are found without comparing every
    pair of a page's lines."""
    buckets: dict[int, list[Line]] = defaultdict(list)
    for line in lines:
        for k in range(int(line.bbox[1] // _ROW), int(line.bbox[3] // _ROW) + 1):
            buckets[k].append(line)
    return buckets


def _near(line: Line, buckets: dict[int, list[Line]]) -> list[Line]:
    """The other lines in the row buckets `line` reaches into; none in a row more crowded than any page's (a
    hostile page's), which is left as read rather than compared line by line."""
    keys = range(int(line.bbox[1] // _ROW), int(line.bbox[3] // _ROW) + 1)
    if any(len(buckets.get(k, ())) > _CROWDED for k in keys):
        return []
    seen: dict[int, Line] = {}
    for k in keys:
        for other in buckets.get(k, ()):
            if other is not line:
                seen[id(other)] = other
    return list(seen.values())


def _without_specks(lines: list[Line]) -> list[Line]:
    """The lines but the few characters Tesseract reads a second time inside a word of another line ('.' or 'ee'
    in a bold heading's ink: within the line's box and across no more than one of its words): beside a heading,
    such a line would make its row no heading's. A mark without letters or digits may stand up out of the top of
    the line's box (the dot of an 'i', read on its own). Parentheses are never specks (an
    equation's label), nor are digits but over a word of letters or the space between two ('8' from the tail of
    the 'g' in 'Learning Framework'), where no number is printed."""
    buckets = _rows(lines)

    def speck(line: Line) -> bool:
        text = line.text.strip()
        if len(text) > _SPECK_CHARS or any(c in "()" for c in text):
            return False
        digits = any(c.isdigit() for c in text)
        mark = not any(c.isalnum() for c in text)
        return any(len(o.text.strip()) >= max(5, 2 * len(text))
                   and (_inside(line.bbox, o.bbox) or mark and line.bbox[1] < o.bbox[1] < line.bbox[3] <= o.bbox[3])
                   and (_over_letters(line, o) if digits else
                        any(s.bbox[0] <= line.bbox[0] and line.bbox[2] <= s.bbox[2] for s in o.spans))
                   for o in _near(line, buckets))
    return [line for line in lines if not speck(line)]


def _over_letters(speck: Line, line: Line) -> bool:
    """Whether `speck` lies over a word of letters of `line`, or in the space between two such words, as high as
    half the line and down to its foot (a raised citation mark between two words is a number printed there)."""
    x0, x1 = speck.bbox[0], speck.bbox[2]
    high = line.bbox[3] - line.bbox[1]
    if speck.bbox[3] - speck.bbox[1] < 0.5 * high or speck.bbox[3] < line.bbox[3] - 0.25 * high:
        return False
    letters = [bool(_WORD.fullmatch(s.text.strip())) for s in line.spans]
    for i, span in enumerate(line.spans):
        if span.bbox[0] <= x0 and x1 <= span.bbox[2]:
            return letters[i]
        if i and line.spans[i - 1].bbox[2] <= x0 and x1 <= span.bbox[0]:
            return letters[i - 1] and letters[i]
    return False


def _without_second_readings(lines: list[Line]) -> list[Line]:
    """The lines without the words Tesseract read a second time: a line sharing its row with a longer one whose box
    covers half its width or more is a second, garbled reading of the same ink ('3. Imi . L' over '3. Imitation
    Learning in Matrix Games', 'feren' over 'References'). Its words over the longer line are dropped, and what it
    read beyond (the '3.' before the title) is kept; as a line of its own beside a heading, it would make that
    heading's row none, or take its number. Longer means more letters and digits, so that a reading broken into
    pieces does not win. A reading of three letters or fewer over another (a speck: 'oe' in a bold word's ink) is a
    second one whatever it reads. Numbers and equation labels are always kept, and so is a box over two rows or
    more (one its ink did not settle): two such boxes of consecutive lines overlap, and their words may read alike."""
    if not lines:
        return lines
    tallest = _ROWS_HIGH * statistics.median(line.bbox[3] - line.bbox[1] for line in lines)
    buckets = _rows([line for line in lines if line.bbox[3] - line.bbox[1] <= tallest])
    out = []
    for line in lines:
        over = [] if line.bbox[3] - line.bbox[1] > tallest else \
            [o for o in _near(line, buckets) if len(_letters(o.text)) > len(_letters(line.text))
             and _read_over(line, o) and _same_reading(line, o)]
        spans = [s for s in line.spans if _number(s.text)
                 or not any(o.bbox[0] <= (s.bbox[0] + s.bbox[2]) / 2 <= o.bbox[2] for o in over)]
        if spans == line.spans:
            out.append(line)
        elif any(s.text.strip() for s in spans):
            out.append(_piece(line, spans))
    return out


def _letters(text: str) -> str:
    """The letters and digits of `text`, in lower case: what two readings are compared by, and how long a reading
    is (one broken into pieces, 'Re fe ren ces .', is no longer for its spaces)."""
    return "".join(c for c in text.lower() if c.isalnum())


def _number(text: str) -> bool:
    """Whether `text` is a number or a label ('12', '3.', '(4)', '(A.1)'), which is never dropped as a second
    reading."""
    text = text.strip()
    return any(c.isdigit() for c in text) and (re.fullmatch(r"\([\w.]{1,6}\)", text) is not None
                                               or not any(c.isalpha() for c in text))


def _read_over(line: Line, other: Line) -> bool:
    """Whether `other` was read over `line`'s ink: the two boxes share most of the taller one's height (a box
    stretched down over the next row shares little of it) and `other` reaches over half of `line`'s width."""
    (x0, y0, x1, y1), (a0, b0, a1, b1) = line.bbox, other.bbox
    shared = min(y1, b1) - max(y0, b0)
    return shared >= _SHARED_ROW * max(y1 - y0, b1 - b0) and min(x1, a1) - max(x0, a0) >= 0.5 * (x1 - x0)


def _same_reading(line: Line, other: Line) -> bool:
    """Whether `line`'s words over `other` read much as `other`'s words under them do ('Imi' under 'Imitation'), or
    are a few letters only, so that two lines Tesseract boxed over each other, both read right, are both kept."""
    x0, x1 = other.bbox[0], other.bbox[2]
    mine = [s for s in line.spans if x0 <= (s.bbox[0] + s.bbox[2]) / 2 <= x1]
    if len(read := "".join(_letters(s.text) for s in mine)) <= _SPECK_CHARS:
        return True  # a speck's few letters ('oe' in a bold word's ink) are no reading to compare
    left, right = min(s.bbox[0] for s in mine), max(s.bbox[2] for s in mine)
    under = "".join(_letters(s.text) for s in other.spans if s.bbox[0] < right and s.bbox[2] > left)
    return fuzz.partial_ratio(read, under) >= _SAME_READING


def _inside(small: tuple[float, ...], big: tuple[float, ...]) -> bool:
    """Whether most of `small`'s area lies in `big`."""
    w = min(small[2], big[2]) - max(small[0], big[0])
    h = min(small[3], big[3]) - max(small[1], big[1])
    area = (small[2] - small[0]) * (small[3] - small[1])
    return w > 0 and h > 0 and area > 0 and w * h >= _INSIDE * area


def _numbers_joined(lines: list[Line], gutters: list[tuple[float, float]]) -> list[Line]:
    """Each line that is only a section number ("5", "5.1", "IV.") joined to the nearest line right of it on its
    row that begins with a capital, within two of its ems and on its side of every gutter."""
    buckets = _rows(lines)
    out, used = [], set()
    for line in lines:
        if id(line) in used or not SECTION_NUMBER.fullmatch(line.text.strip()):
            continue
        title = min((o for o in _near(line, buckets) if id(o) not in used and _same_row(line, o)
                     and 0 <= o.bbox[0] - line.bbox[2] <= NUMBER_GAP_EMS * max(line.size, o.size)
                     and o.text[:1].isupper() and not any(line.bbox[2] <= g0 and o.bbox[0] >= g1 for g0, g1 in gutters)),
                    key=lambda o: o.bbox[0], default=None)
        if title is not None:
            used.update((id(line), id(title)))
            out.append(replace(title, text=f"{line.text.strip()} {title.text}", bbox=union((line.bbox, title.bbox)),
                               spans=[*line.spans, *title.spans]))
    return [line for line in lines if id(line) not in used] + out


def _same_row(a: Line, b: Line) -> bool:
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return overlap >= 0.5 * min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1])


def fitted_to_ink(lines: list[Line], ink: np.ndarray, scale: float) -> list[Line]:
    """The lines with their tops and bottoms where their ink is (`ink`: the page's pixels, `scale` per point): the
    band of inked pixel rows, under the line's width and between blank rows, that holds most of the ink in its box
    of the bands no other line claims (a band is another line's when that line's box is about as high as the band
    and lies on it, unless that line is a second reading of this one's ink, as `_without_second_readings` drops
    it). Tesseract sometimes stretches a box over the next or the last row: the box goes to its own
    row, not to the neighbour's that already has a box of its own. A box whose bands hold its ink about alike, whose
    band runs on to the end of the rows looked at (ink that joins the next line's), or that holds no band as high as
    its type, keeps its place as read; so does a line set upright (a side stamp), whose words are side by side down
    the page."""
    buckets = _rows(lines)
    out = []
    for line in lines:
        if line.vertical:
            out.append(line)
            continue
        x0, y0, x1, y1 = line.bbox
        height = y1 - y0
        lo = min(max(0, int((y0 - 0.3 * height) * scale)), ink.shape[0])
        hi = max(lo, min(ink.shape[0], int((y1 + 0.4 * height) * scale)))  # off the page: no rows, not the far edge's
        left = min(max(0, int(x0 * scale)), ink.shape[1])
        right = max(left, int(x1 * scale) + 1)
        others = [o.bbox for o in _near(line, buckets) if not o.vertical and o.bbox[0] < x1 and o.bbox[2] > x0
                  and not (len(_letters(o.text)) < len(_letters(line.text)) and _same_reading(o, line))]
        band = _own_band(ink[lo:hi, left:right].sum(axis=1), y0 * scale - lo, y1 * scale - lo,
                         lambda start, end: _claimed((lo + start) / scale, (lo + end) / scale, others))
        if band is None or band[1] - band[0] < _MIN_INK_HEIGHT * line.size * scale:
            out.append(line)
            continue
        new_y0, new_y1 = (lo + band[0]) / scale, (lo + band[1]) / scale
        out.append(replace(line, bbox=(x0, new_y0, x1, new_y1),
                           spans=[replace(s, bbox=(s.bbox[0], new_y0, s.bbox[2], new_y1)) for s in line.spans]))
    return out


def _claimed(top: float, bottom: float, boxes: list[tuple[float, ...]]) -> bool:
    """Whether one of `boxes` (other lines') is the band's from `top` to `bottom`: no more than half as high again
    as the band, and over half of it."""
    high = bottom - top
    return any(box[3] - box[1] <= _CLAIM_HIGH * high and min(box[3], bottom) - max(box[1], top) > 0.5 * high
               for box in boxes)


def _own_band(row_ink: np.ndarray, top: float, bottom: float,
              claimed: Callable[[int, int], bool]) -> tuple[int, int] | None:
    """Of the runs of inked rows (`row_ink`: the inked pixels of each row of a window round the box) that are not
    `claimed` by another line, the one holding at least twice as much ink within the box's rows (`top` to `bottom`)
    as any other, as (first row, row after the last); None when there is none, or when a run reaches the window's
    edge (where it ends is not known)."""
    first, last = max(0, int(top)), int(bottom) + 1
    overlaps = sorted(((int(row_ink[max(start, first):min(end, last)].sum()), (start, end))
                       for start, end in runs(row_ink >= _ROW_INK, 0) if not claimed(start, end)), reverse=True)
    if not overlaps or overlaps[0][0] <= 0 or len(overlaps) > 1 and overlaps[1][0] * 2 > overlaps[0][0]:
        return None
    start, end = overlaps[0][1]
    return None if start == 0 or end == len(row_ink) else (start, end)

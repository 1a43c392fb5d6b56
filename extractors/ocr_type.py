"""The type of the lines OCR reads (size, weight, slant), measured from the page's ink: OCR names no font, and the
sizes Tesseract gives are rough (one paper's 8.5 pt body text came back as anything from 8.3 to 11 pt), while
headings are told from body text by their type (extractors/sections.py).

`ink` is the page's picture as a boolean array (True where a pixel is ink), `scale` pixels per point.
"""

from __future__ import annotations

import bisect
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from extractors.font_weight import BOLD_STROKE, stroke_width
from extractors.model import Line, PageLayout
from extractors.ocr_graphics import ink_within
from extractors.ocr_labels import PROSE_CHARS

# How much of the em a lower-case 'x' and a capital (or a digit) stand (Times 0.45 and 0.66, Computer Modern 0.43
# and 0.68, Helvetica 0.52 and 0.72): sizes measured from them are in points up to the typeface's proportions, the
# same for every line set in one face, which is what telling a heading from body text needs.
_X_HEIGHT, _CAP_HEIGHT = 0.46, 0.70
# The rows of a line's letters hold at least this share of the ink of its densest row (the rows above and below
# hold only accents, specks and the tails of the line's neighbours)...
_BAND = 0.3
# ...and its x band's rows are denser again than those holding only ascenders' stems and descenders' tails: by
# this factor at least on average, and over at least _TIGHT of the rows of the letters.
_LEVELS, _TIGHT = 1.6, 0.6
_LOWER_SHARE = 0.75  # a word of letters this much in lower case shows the x band ('Introduction', 'the')
# Sizes measured within this share of each other, or a pixel of the x band, are one size: a measure in whole pixels
# moves 10 pt type's x band of 19 pixels at 300 dpi by 5.3 %, 8 pt type's of 15 pixels by 6.7 %.
_SAME_SIZE = 0.05
# A measure is kept when it is within these shares of Tesseract's size (which ran from 0.8 to 1.3 times the printed
# size): beyond, the box holds other ink, such as a shaded background or a figure.
_AGREES = (0.5, 2.0)
_TALLEST = 4.0  # a box taller than this many times Tesseract's size holds three lines or more: not measured
_MIN_LETTERS = 5  # fewer letters in such words: the line is measured as capitals, or keeps the size OCR gave
_PUNCTUATION = ".,;:!?()[]'\"‘’“”-–—"  # stripped from a word's ends before its case is told
# A paper's ratio of capitals to x band is taken from this many lines at least, each within these bounds (Helvetica
# 1.37, Times 1.47, Computer Modern 1.58; an acronym set in small capitals gives less)
_CALIBRATION_LINES = 10
_CAPITALS_RATIO = (1.3, 1.7)

# The lean of an italic, horizontal points per vertical point (tan 6, 8.5 and 11 degrees; a steeper lean gathers
# its stems best past 11 degrees, but more than it spreads them at -11)...
_ITALIC_SHEARS = (0.1, 0.15, 0.2)
# ...and how much sharper its columns stack sheared back than sheared the other way (upright lines of 14 papers'
# scans reach 1.2 in one line in a thousand, their italic lines in seven of eight)
_ITALIC_GAIN = 1.2


def typeset(lines: list[Line], ink: np.ndarray, scale: float) -> list[Line]:
    """The lines with their size, `bold` and `italic` measured from the ink, on every span alike (OCR's spans are
    its words, and a word's own size estimate is rougher still)."""
    return _faces([_sized(line, ink, scale) for line in lines], ink, scale)


def common_sizes(pages: list[PageLayout], read: list[int], scale: float) -> list[PageLayout]:
    """`pages` with the size of each line OCR read (on the 1-based pages `read`, measured at `scale` pixels per
    point) replaced by the nearest of the sizes that most text of those pages is set in, when it is one size with
    it (within _SAME_SIZE or a pixel). One style's lines measure a little apart (one heading style came back as 8.6
    and 8.9 pt), which tell two styles apart (extractors/sections.py). Measured to a fraction of a pixel, hardly
    two lines share a size: a size leads by the text measured within half that distance of it, so the middle of a
    group leads it, and a stray size between body text and headings, with little text near it, does not join them."""
    text: Counter[float] = Counter()
    for page in pages:
        if page.page in read:
            for line in page.lines:
                text[line.size] += len(line.text)
    pixel = 1 / (scale * _X_HEIGHT)
    sizes = np.array(sorted(text), dtype=float)
    held = np.concatenate(([0], np.cumsum([text[size] for size in sizes])))
    reach = np.maximum(_SAME_SIZE * sizes, pixel) / 2
    near = held[np.searchsorted(sizes, sizes + reach + 1e-6, side="right")] \
        - held[np.searchsorted(sizes, sizes - reach - 1e-6)]
    peaks: list[float] = []
    for k in sorted(range(len(sizes)), key=lambda k: (-near[k], sizes[k])):
        size = float(sizes[k])
        at = bisect.bisect(peaks, size)
        if not any(_same(size, peak, pixel) for peak in peaks[max(at - 1, 0):at + 1]):
            peaks.insert(at, size)

    def common(size: float) -> float:
        at = bisect.bisect(peaks, size)
        close = [peak for peak in peaks[max(at - 1, 0):at + 1] if _same(size, peak, pixel)]
        return min(close, key=lambda peak: abs(peak - size), default=size)
    return [replace(page, lines=[_with_size(line, common(line.size)) for line in page.lines])
            if page.page in read else page for page in pages]


def _same(size: float, peak: float, pixel: float) -> bool:
    return abs(size - peak) <= max(_SAME_SIZE * peak, pixel) + 1e-6


def _sized(line: Line, ink: np.ndarray, scale: float) -> Line:
    size = _size(line, ink, scale)
    return line if size is None else _with_size(line, size)


def _with_size(line: Line, size: float) -> Line:
    return replace(line, size=size, spans=[replace(s, size=size) for s in line.spans])


def _size(line: Line, ink: np.ndarray, scale: float) -> float | None:
    """The line's font size from its ink: the height of the band its lower-case letters fill (the x-height), over
    the words set mostly in lower case, since capitals and digits stand above that band; for a line of capitals
    and digits, their height from the foot of its dense rows (the baseline) to the top of the tallest (a small
    capital stands lower than its word's initial). None when the line has neither to measure, runs up or down the
    page, or its box holds ink that is no line of type (a box taller than _TALLEST sizes of OCR's, or a measure
    outside _AGREES of OCR's size)."""
    if (measured := _box(line, ink, scale)) is None:
        return None
    box, left = measured
    columns, letters = _columns(line, box, left, scale, _lower_case_word)
    if letters >= _MIN_LETTERS and (band := _x_band(box[:, columns].sum(axis=1))) is not None:
        size = float(band) / scale / _X_HEIGHT
    elif not _in_capitals(line) or (height := _capitals_height(box.sum(axis=1))) is None:
        return None
    else:
        size = height / scale / _CAP_HEIGHT
    return size if _AGREES[0] <= size / line.size <= _AGREES[1] else None


def capitals_ratios(lines: list[Line], ink: np.ndarray, scale: float) -> list[float]:
    """How many times its x band a capital stands, in each line holding both words in lower case and a word in
    capitals (an acronym): the typeface's own proportion, which lines set in capitals are measured by
    (calibrated_capitals)."""
    out = []
    for line in lines:
        if (measured := _box(line, ink, scale)) is None:
            continue
        box, left = measured
        lower, letters = _columns(line, box, left, scale, _lower_case_word)
        upper, capitals = _columns(line, box, left, scale, _capitals_word)
        if letters >= _MIN_LETTERS and capitals and (band := _x_band(box[:, lower].sum(axis=1))) \
                and (height := _capitals_height(box[:, upper].sum(axis=1))):
            out.append(float(height / band))
    return out


def calibrated_capitals(pages: list[PageLayout], read: list[int], ratios: list[float]) -> list[PageLayout]:
    """`pages` with the size of each line set in capitals (on the 1-based pages `read`) measured by the paper's
    own ratio of capitals to x band (`ratios`, from capitals_ratios) instead of the usual one, when at least
    _CALIBRATION_LINES lines gave it. Times' capitals stand 1.47 times its x band, not the usual 1.52, so one
    paper's headings in small capitals measured 1.15 pt below its body text where they are 1 pt below, and were
    taken for small print (extractors/sections.py). Lines whose ratio is no typeface's (an acronym or an author's
    name set in small capitals, a misread word) are left out. A line in capitals whose measure failed keeps OCR's
    size and is scaled alike: that size is as rough either way."""
    typical = [ratio for ratio in ratios if _CAPITALS_RATIO[0] <= ratio <= _CAPITALS_RATIO[1]]
    if len(typical) < _CALIBRATION_LINES:
        return pages
    factor = _CAP_HEIGHT / _X_HEIGHT / statistics.median(typical)
    return [replace(page, lines=[_with_size(line, line.size * factor) if _measured_by_capitals(line) else line
                                 for line in page.lines]) if page.page in read else page for page in pages]


def _box(line: Line, ink: np.ndarray, scale: float) -> tuple[np.ndarray, int] | None:
    """The ink of the line's box and the pixel column it starts at, None when the line runs up or down the page or
    its box is empty or taller than _TALLEST sizes of OCR's (three lines or more)."""
    box, left, _ = ink_within(ink, line.bbox, scale)
    return None if line.vertical or not 0 < box.shape[0] <= _TALLEST * line.size * scale else (box, left)


def _columns(line: Line, box: np.ndarray, left: int, scale: float,
             word_of: Callable[[str], str]) -> tuple[np.ndarray, int]:
    """The columns of the line's ink `box` (from page column `left`) under the words `word_of` finds in its spans,
    and how many letters those words hold."""
    columns = np.zeros(box.shape[1], dtype=bool)
    letters = 0
    for span in line.spans:
        if word := word_of(span.text):
            start, end = (min(max(round(x * scale) - left, 0), box.shape[1]) for x in (span.bbox[0], span.bbox[2]))
            if start < end:  # a word wholly outside the line's box on the page is no part of it
                columns[start:end + 1] = True
                letters += len(word)
    return columns, letters


def _capitals_height(rows: np.ndarray) -> int | None:
    """The height in rows of capitals and digits: from the foot of their dense rows (the baseline) up through the
    ink over them, since small capitals stand below their word's initial."""
    if (band := _dense_run(rows)) is None:
        return None
    return band[1] - _around(rows > 0, band[0])[0] + 1


def _in_capitals(line: Line) -> bool:
    signs = [c for c in line.text if c.isalnum()]
    return len(signs) >= 2 and sum(c.isupper() or c.isdigit() for c in signs) >= _LOWER_SHARE * len(signs)


def _measured_by_capitals(line: Line) -> bool:
    """Whether _size measured the line by its capitals (or kept OCR's size, which is as rough either way)."""
    return _in_capitals(line) and sum(len(_lower_case_word(span.text)) for span in line.spans) < _MIN_LETTERS


def _lower_case_word(text: str) -> str:
    """The word `text` holds (punctuation stripped) when it is set mostly in lower case, else ''."""
    word = text.strip(_PUNCTUATION)
    return word if len(word) >= 2 and word.isalpha() and sum(map(str.islower, word)) >= _LOWER_SHARE * len(word) \
        else ""


def _capitals_word(text: str) -> str:
    """The word `text` holds (punctuation stripped) when it is set in capitals ('CMB', 'BERT'), else ''."""
    word = text.strip(_PUNCTUATION)
    return word if len(word) >= 2 and word.isalpha() and word.isupper() else ""


def _x_band(rows: np.ndarray) -> float | None:
    """The height in pixels of the x band, from the ink in each row. The band's rows are denser than those holding
    only ascenders and descenders: Otsu's threshold between the two levels finds it, unless it takes less than
    _TIGHT of the band of all rows near the densest (a line without ascenders has one level, and the split falls
    inside the band: its rows are counted). Each edge of the band is where the ink crosses the level midway between
    the two, to a fraction of a row: an edge falling inside a row (a scan magnified to be read, whose pixels span a
    row and a half) measured in whole rows moved one paper's body text by two rows either way, two sizes to tell."""
    loose = _dense_run(rows)
    if loose is None or (split := _otsu(values := rows[rows > 0])) is None:
        return None if loose is None else float(loose[1] - loose[0] + 1)
    top, bottom = _around(rows >= split, int(rows.argmax()))
    if bottom - top + 1 < _TIGHT * (loose[1] - loose[0] + 1):
        return float(loose[1] - loose[0] + 1)
    level = (values[values < split].mean() + values[values >= split].mean()) / 2
    return float(_crossing(rows, bottom, bottom + 1, level) - _crossing(rows, top, top - 1, level))


def _crossing(rows: np.ndarray, inside: int, outside: int, level: float) -> float:
    """Where the ink crosses `level` between the band's edge row `inside` and the row `outside` it, its rows' ink
    taken as linear between their middles (at one of the two when `level` lies beyond both); half a row out when
    the band reaches the box's edge."""
    if not 0 <= outside < len(rows):
        return inside + (outside - inside) / 2
    denser, sparser = float(rows[inside]), float(rows[outside])
    return inside + (outside - inside) * min(max((denser - level) / (denser - sparser), 0.0), 1.0)


def _dense_run(rows: np.ndarray) -> tuple[int, int] | None:
    """The first and last row of the run of rows around the densest that hold at least _BAND of its ink."""
    if rows.size == 0 or (peak := rows.max()) == 0:
        return None
    return _around(rows >= _BAND * peak, int(rows.argmax()))


def _around(dense: np.ndarray, row: int) -> tuple[int, int]:
    top = bottom = row
    while top > 0 and dense[top - 1]:
        top -= 1
    while bottom < len(dense) - 1 and dense[bottom + 1]:
        bottom += 1
    return top, bottom


def _otsu(values: np.ndarray) -> float | None:
    """Otsu's threshold splitting `values` into a sparse and a dense level (the split with the largest variance
    between them), or None when the dense level is not _LEVELS times the sparse one."""
    values = np.sort(values).astype(float)
    thresholds = np.unique(values)[1:]
    if thresholds.size == 0:
        return None
    low = np.searchsorted(values, thresholds)  # how many values lie below each threshold
    sums = np.cumsum(values)
    low_mean = sums[low - 1] / low
    high_mean = (sums[-1] - sums[low - 1]) / (len(values) - low)
    best = int(np.argmax(low * (len(values) - low) * (high_mean - low_mean) ** 2))
    return float(thresholds[best]) if high_mean[best] >= _LEVELS * low_mean[best] else None


def _faces(lines: list[Line], ink: np.ndarray, scale: float) -> list[Line]:
    """The lines with `bold` and `italic` measured from the ink: headings are found by their weight and slant too."""
    if not lines:
        return lines
    strokes = [_stroke(ink, line, scale) for line in lines]
    prose = [s for s, line in zip(strokes, lines) if len(line.text) >= PROSE_CHARS and s > 0]
    regular = statistics.median(prose) if prose else None
    out = []
    for stroke, line in zip(strokes, lines):
        bold = line.bold if regular is None else stroke >= BOLD_STROKE * regular
        italic = _leans(ink, line, scale)
        out.append(replace(line, bold=bold, italic=italic,
                           spans=[replace(s, bold=bold, italic=italic) for s in line.spans]))
    return out


def _leans(ink: np.ndarray, line: Line, scale: float) -> bool:
    """Whether the line is set in italic: its ink, sheared back by an italic's slant, stacks into sharper columns
    (the sum of the squared column counts grows) than sheared as far the other way. An upright letter's stems
    spread alike either way, whatever its shape, while the shear that undoes an italic's lean gathers each stem
    into one column and the opposite shear spreads it twice as far (a lean steeper than the steepest shear tried
    is gathered in part, and still spread more the other way). Compared with the line as
    it stands instead, the gathering of a slight lean (7 degrees, in one journal's italic sub-headings) did not
    outweigh what its round letters lost."""
    rows, cols = np.nonzero(ink_within(ink, line.bbox, scale)[0])
    if len(rows) == 0:
        return False
    height = rows.max()

    def sharpness(shear: float) -> float:
        moved = cols - np.round(shear * (height - rows)).astype(int)
        return float((np.bincount(moved - moved.min()).astype(float) ** 2).sum())
    return any(sharpness(shear) >= _ITALIC_GAIN * sharpness(-shear) for shear in _ITALIC_SHEARS)


def _stroke(ink: np.ndarray, line: Line, scale: float) -> float:
    """The mean width of the line's horizontal ink runs (its strokes), relative to its font size."""
    return stroke_width(ink_within(ink, line.bbox, scale)[0]) / (line.size * scale) if line.size > 0 else 0.0

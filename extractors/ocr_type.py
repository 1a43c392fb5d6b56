"""The type of the lines OCR reads (size, weight, slant), measured from the page's ink: OCR names no font, and the
sizes Tesseract gives are rough (one paper's 8.5 pt body text came back as anything from 8.3 to 11 pt), while
headings are told from body text by their type (extractors/sections.py).

`ink` is the page's picture as a boolean array (True where a pixel is ink), `scale` pixels per point.
"""

from __future__ import annotations

import statistics
from dataclasses import replace

import numpy as np

from extractors.model import Line, PageLayout
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
# Sizes measured within this share of each other are one size: a measure in whole pixels moves an x band of 19
# pixels (10 pt type at 300 dpi) by 5 %.
_SAME_SIZE = 0.05
_MIN_LETTERS = 5  # fewer letters in such words: the line is measured as capitals, or keeps the size OCR gave

# A bold face's strokes are about half as thick again as its regular face's at the same size; a line whose strokes
# are this much thicker than the page's prose (stroke width over font size) is taken as bold.
_BOLD_STROKE = 1.35
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


def common_sizes(pages: list[PageLayout], read: list[int]) -> list[PageLayout]:
    """`pages` with the size of each line OCR read (on the 1-based pages `read`) replaced by the size the most text
    of the paper is set in within _SAME_SIZE of it. Measuring rounds a line's height to whole pixels, so one
    heading style came back as 8.6 and 8.9 pt, which tell two styles apart (extractors/sections.py); the size the
    most text near it has is what the style measures, as a text layer would say."""
    lines = [line for page in pages if page.page in read for line in page.lines]
    if not lines:
        return pages
    sizes = np.array([line.size for line in lines])
    weights = np.array([len(line.text) for line in lines], dtype=float)
    order = np.argsort(sizes)
    sizes, weights = sizes[order], np.cumsum(weights[order])

    def text_within(share: float) -> np.ndarray:
        low = np.searchsorted(sizes, sizes * (1 - share), side="left")
        high = np.searchsorted(sizes, sizes * (1 + share), side="right")
        return weights[high - 1] - np.where(low > 0, weights[low - 1], 0.0)
    peaks: list[float] = []
    for k in np.lexsort((-text_within(0.0), -text_within(_SAME_SIZE))):  # between equals, the size more text has
        if not any(abs(sizes[k] - peak) <= _SAME_SIZE * peak for peak in peaks):
            peaks.append(float(sizes[k]))

    def common(size: float) -> float:
        return next((peak for peak in peaks if abs(size - peak) <= _SAME_SIZE * peak), size)
    return [replace(page, lines=[replace(line, size=(size := common(line.size)),
                                         spans=[replace(s, size=size) for s in line.spans]) for line in page.lines])
            if page.page in read else page for page in pages]


def _sized(line: Line, ink: np.ndarray, scale: float) -> Line:
    size = _size(line, ink, scale)
    if size is None:
        return line
    return replace(line, size=size, spans=[replace(s, size=size) for s in line.spans])


def _size(line: Line, ink: np.ndarray, scale: float) -> float | None:
    """The line's font size from its ink: the height of the band its lower-case letters fill (the x-height), over
    the words set mostly in lower case, since capitals and digits stand above that band; for a line of capitals
    and digits, their height from the baseline to the top of the tallest (a small capital stands lower than its
    word's initial). None when the line has neither to measure."""
    x0, y0, x1, y1 = (round(v * scale) for v in line.bbox)
    box = ink[max(y0, 0):y1 + 1, max(x0, 0):x1 + 1]
    if box.size == 0:
        return None
    columns = np.zeros(box.shape[1], dtype=bool)
    letters = 0
    for span in line.spans:
        if _lower_case_word(span.text):
            columns[max(round(span.bbox[0] * scale) - x0, 0):round(span.bbox[2] * scale) - x0 + 1] = True
            letters += len(span.text)
    if letters >= _MIN_LETTERS and (band := _x_band(box[:, columns].sum(axis=1))) is not None:
        return (band[1] - band[0] + 1) / scale / _X_HEIGHT
    signs = [c for c in line.text if c.isalnum()]
    if len(signs) < 2 or sum(c.isupper() or c.isdigit() for c in signs) < _LOWER_SHARE * len(signs):
        return None
    rows = box.sum(axis=1)
    if (band := _dense_run(rows)) is None:
        return None
    top = _around(rows > 0, band[0])[0]  # up through the ink over the band: small capitals stand below initials
    return (band[1] - top + 1) / scale / _CAP_HEIGHT


def _lower_case_word(text: str) -> bool:
    word = text.strip(".,;:!?()[]'\"‘’“”-–—")
    return len(word) >= 2 and word.isalpha() and sum(c.islower() for c in word) >= _LOWER_SHARE * len(word)


def _x_band(rows: np.ndarray) -> tuple[int, int] | None:
    """The first and last row of the x band, from the ink in each row. The band's rows are denser than those
    holding only ascenders and descenders: Otsu's threshold between the two levels finds it, unless it takes less
    than _TIGHT of the band of all rows near the densest (a line without ascenders has one level, and the split
    falls inside the band)."""
    loose = _dense_run(rows)
    if loose is None or (split := _otsu(rows[rows > 0])) is None:
        return loose
    tight = _around(rows >= split, int(rows.argmax()))
    return tight if tight[1] - tight[0] + 1 >= _TIGHT * (loose[1] - loose[0] + 1) else loose


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
    best, split = 0.0, None
    for threshold in np.unique(values)[1:]:
        low, high = values[values < threshold], values[values >= threshold]
        between = len(low) * len(high) * (high.mean() - low.mean()) ** 2
        if between > best:
            best, split = between, threshold
    if split is None or values[values >= split].mean() < _LEVELS * values[values < split].mean():
        return None
    return float(split)


def _faces(lines: list[Line], ink: np.ndarray, scale: float) -> list[Line]:
    """The lines with `bold` and `italic` measured from the ink: headings are found by their weight and slant too."""
    if not lines:
        return lines
    strokes = [_stroke(ink, line, scale) for line in lines]
    prose = [s for s, line in zip(strokes, lines) if len(line.text) >= PROSE_CHARS and s > 0]
    regular = statistics.median(prose) if prose else None
    out = []
    for stroke, line in zip(strokes, lines):
        bold = line.bold if regular is None else stroke >= _BOLD_STROKE * regular
        italic = _leans(ink, line, scale)
        out.append(replace(line, bold=bold, italic=italic,
                           spans=[replace(s, bold=bold, italic=italic) for s in line.spans]))
    return out


def _leans(ink: np.ndarray, line: Line, scale: float) -> bool:
    """Whether the line is set in italic: its ink, sheared back by an italic's slant, stacks into sharper columns
    (the sum of the squared column counts grows) than sheared as far the other way. An upright letter's stems
    spread alike either way, whatever its shape, while the shear that undoes an italic's lean (6 to 17 degrees)
    gathers each stem into one column and the opposite shear spreads it twice as far. Compared with the line as
    it stands instead, the gathering of a slight lean (7 degrees, in one journal's italic sub-headings) did not
    outweigh what its round letters lost."""
    x0, y0, x1, y1 = (round(v * scale) for v in line.bbox)
    rows, cols = np.nonzero(ink[max(y0, 0):y1 + 1, max(x0, 0):x1 + 1])
    if len(rows) == 0:
        return False
    height = rows.max()

    def sharpness(shear: float) -> float:
        moved = cols - np.round(shear * (height - rows)).astype(int)
        return float((np.bincount(moved - moved.min()).astype(float) ** 2).sum())
    return any(sharpness(shear) >= _ITALIC_GAIN * sharpness(-shear) for shear in _ITALIC_SHEARS)


def _stroke(ink: np.ndarray, line: Line, scale: float) -> float:
    """The mean width of the line's horizontal ink runs (its strokes), relative to its font size."""
    x0, y0, x1, y1 = (round(v * scale) for v in line.bbox)
    box = ink[max(y0, 0):y1 + 1, max(x0, 0):x1 + 1]
    if box.size == 0:
        return 0.0
    starts = int((box[:, 1:] & ~box[:, :-1]).sum() + box[:, 0].sum())
    return float(box.sum()) / starts / (line.size * scale) if starts and line.size > 0 else 0.0

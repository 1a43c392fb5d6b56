"""Table cells from laid-out lines: lines sharing a baseline band form a row, left to right.

PyMuPDF already splits a table row into one line per cell wherever the horizontal gap is wide, so
grouping lines by vertical overlap recovers rows cheaply (no `page.find_tables()`, which costs tens of
milliseconds a page).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from extractors.layout import join_spans
from extractors.model import BBox, Line, turned_box


def cells_of(line: Line) -> list[Line]:
    """The cells a laid-out line holds: PyMuPDF joins cells set close together into one line ('MAG MeSH',
    '82.7 77.2'); a gap between two runs of text wider than an em parts them (a word space is about a third
    of one, the spaces of a letter-spaced header two thirds: 'WHO REMAINED'). A line without such a gap is one
    cell."""
    cuts = [i for i in range(1, len(line.spans))
            if line.spans[i].bbox[0] - line.spans[i - 1].bbox[2] > line.size]
    if not cuts or line.vertical:
        return [line]
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(line.spans)]):
        spans = line.spans[a:b]
        text = join_spans(spans)
        if text:
            box = (spans[0].bbox[0], line.bbox[1], spans[-1].bbox[2], line.bbox[3])
            out.append(replace(line, text=text, bbox=box, spans=spans))
    return out


def turned_line(line: Line, runs_up: bool) -> Line:
    """A rotated line as it reads with the page turned to set it upright (extractors.model.turned_box), its runs
    too, so that the rows of a table printed sideways are read as an upright table's are."""
    return replace(line, bbox=turned_box(line.bbox, runs_up), vertical=False,
                   spans=[replace(span, bbox=turned_box(span.bbox, runs_up)) for span in line.spans])


def table_rows(lines: list[Line]) -> list[list[Line]]:
    """Rows of cells (one laid-out line or part of one each, keeping its text and box: cells_of), top to
    bottom, left to right; a cell joins a row when it overlaps the row's band by half."""
    return bands([cell for line in lines for cell in cells_of(line)], lambda line: line.bbox)


T = TypeVar("T")


def bands(items: list[T], box: Callable[[T], BBox]) -> list[list[T]]:
    """Items (each printed in `box(item)`) in rows, top to bottom, each left to right: an item joins a row when it
    overlaps the row's band by half."""
    rows: list[tuple[float, float, list[T]]] = []
    for item in sorted(items, key=lambda it: (box(it)[1], box(it)[0])):
        y0, y1 = box(item)[1], box(item)[3]
        if rows:
            r0, r1, members = rows[-1]
            if min(y1, r1) - max(y0, r0) > 0.5 * min(y1 - y0, r1 - r0):
                rows[-1] = (min(r0, y0), max(r1, y1), [*members, item])
                continue
        rows.append((y0, y1, [item]))
    return [sorted(members, key=lambda it: box(it)[0]) for _, _, members in rows]


_VALUE = re.compile(r"^[-+−]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:%|[KMB])?[*†‡]*$")
_PLUS_MINUS = ("±", "+-", "+/-")


def _cut(words: list[str]) -> int:
    """Where a cell's trailing numbers begin."""
    cut = len(words)
    while cut > 0 and (_VALUE.match(words[cut - 1]) or words[cut - 1] in _PLUS_MINUS):
        cut -= 1
    return cut


def _attached(cells: list[str]) -> int:
    """How many numbers end the row's last label cell, printed in it ('GeForce GTX 680'); 0 when none."""
    for cell in cells:
        words = cell.split()
        cut = _cut(words)
        if cut < len(words):
            return len(words) - cut if cut else 0
    return 0


def split_values(cells: list[str]) -> tuple[list[str], list[str]]:
    """(label cells, value cells) of a row: numbers at the end of a cell are values of their own (PyMuPDF
    often prints several cells as one line: 'GrobidCRF 40.6 38.3'); '90.41 ± 0.06' stays one value."""
    labels, values = [], []
    for cell in cells:
        words = cell.split()
        cut = _cut(words)
        if words[:cut]:
            if values:  # text after a value: a label column right of the numbers; keep the row's order
                values.append(" ".join(words[:cut]))
            else:
                labels.append(" ".join(words[:cut]))
        for word in words[cut:]:
            if values and (word in _PLUS_MINUS or values[-1].endswith(_PLUS_MINUS)):
                values[-1] += f" {word}"
            else:
                values.append(word)
    return labels, values


def _names(header: list[str], labels: int, values: int) -> tuple[list[str], list[str]]:
    """Column names of the label and value columns from the header row: its cells when they cover every
    column, else its words for the values (right-aligned, the numbers' columns come last) and the remaining
    words as one name for the label column. Without a label column the count must match exactly: extra header
    cells then belong to columns the row lost, and naming from the right would mislabel every value."""
    if len(header) >= labels + values and (labels or len(header) == values):
        return header[len(header) - labels - values:len(header) - values], header[len(header) - values:]
    words = " ".join(header).split()
    if labels > 1 and len(words) == labels + values:  # one word per column: 'Method GPU MDE/s1 FPS2 Error3'
        return words[:labels], words[labels:]
    if len(words) >= values and (labels or len(words) == values):
        rest = " ".join(words[:len(words) - values])
        return ([rest] if labels == 1 and rest else [""] * labels), words[len(words) - values:]
    return [""] * labels, []


def _spans(above: list[list[str]], values: int) -> list[str]:
    """Names of groups of value columns from other header rows ('Full', 'Grobid Subset' over 'P R F1 P R F1'):
    a row of k cells spans k equal groups when the values divide evenly."""
    prefix = [""] * values
    for row in above:
        k = len(row)
        if 1 < k < values and values % k == 0:
            size = values // k
            prefix = [f"{p} {row[i // size]}".strip() for i, p in enumerate(prefix)]
    return prefix


def _rejoin(cells: list[str], clean: set[tuple[int, int]]) -> tuple[list[str], list[str]]:
    """(labels, values) of a row; a label cell ending in numbers keeps them ('GeForce GTX 680') when the row
    then has the shape (label and value counts) of a row whose cells hold numbers alone, i.e. when the numbers
    would otherwise be one value too many."""
    labels, values = split_values(cells)
    extra = _attached(cells)
    if not extra or (len(labels), len(values) - extra) not in clean:
        return labels, values
    return [*labels[:-1], " ".join([labels[-1], *values[:extra]])], values[extra:]


_ARROW = re.compile(r"(?<=\S)\s+([↑↓])(?=\s|$)")  # after its name, standing alone ('↑BLEU' is left as it is)


def with_arrows(name: str) -> str:
    """A header's text with each '↑' or '↓' (which way is better: 'F1 ↑', 'DDI ↓') joined to the name before it,
    so that a row of such names has one word per column."""
    return _ARROW.sub(r"\1", name)


def _words(cell: str, box: BBox) -> list[tuple[str, float, float]]:
    """A cell's words with the x-extent each covers, shared out by character count: a line holding several
    columns ('82.7 77.2') is set in one font, so its characters are near enough equally wide."""
    x0, x1 = box[0], box[2]
    per = (x1 - x0) / max(len(cell), 1)
    return [(m.group(), x0 + per * m.start(), x0 + per * m.end()) for m in re.finditer(r"\S+", cell)]


def _centres(rows: list[list[str]], boxes: list[list[BBox]], width: int) -> list[float] | None:
    """The x-centre of each of the `width` value columns: the median over the rows with a value in every
    column of where their numbers are printed; None without such a row."""
    found: list[list[float]] = []
    for row, row_boxes in zip(rows, boxes):
        words = [w for cell, box in zip(row, row_boxes) for w in _words(cell, box)]
        values = [(a + b) / 2 for text, a, b in words if _VALUE.match(text)]
        if len(values) == width and len(split_values(row)[1]) == width:
            found.append(values)
    if not found:
        return None
    return [sorted(col)[len(col) // 2] for col in zip(*found)]


def aligned_names(header: list[list[str]], header_boxes: list[list[BBox]],
                  centres: list[float]) -> tuple[str, list[str]]:
    """Names of the value columns from header rows of several levels ('Citation prediction' over 'Cite' over
    'MAP'), each level's name printed over the column: per header row, the name nearest the column's centre, if
    it is nearer than half the gap to the next column (a spanning name is centred over the columns it spans,
    and may be narrower than they are); marks without a letter or digit (a stray accent) name nothing. Also the
    name of the label column: what the lowest header row holding any prints left of every value column."""
    edge = min(centres) - (min(b - a for a, b in zip(centres, centres[1:])) / 2 if len(centres) > 1 else 0)
    names: list[list[str]] = [[] for _ in centres]
    label = ""
    reaches = [min((abs(c - o) for o in centres if o != c), default=float("inf")) / 2 for c in centres]
    for row, row_boxes in zip(header, header_boxes):
        label = " ".join(cell for cell, box in zip(row, row_boxes) if (box[0] + box[2]) / 2 < edge) or label
        pieces = [piece for cell, box in zip(row, row_boxes)
                  if (box[0] + box[2]) / 2 >= edge and any(ch.isalnum() for ch in cell)
                  for piece in _column_words(cell, box, centres, reaches)]
        nearest = [min(((max(a - c, c - b, 0.0), k) for k, (_, a, b) in enumerate(pieces)), default=(float("inf"), -1))
                   for c in centres]
        counts = Counter(k for _, k in nearest)
        # a row of group names, each nearest to two columns or more ('MIMIC-III | MIMIC-IV' over 'P R F1 P R F1'),
        # reaches further: a narrow name centred over wide columns leaves the outer ones a little beyond the reach
        groups = 1 < len(pieces) < len(centres) and all(counts[k] > 1 for k in range(len(pieces)))
        for i, (gap, k) in enumerate(nearest):
            if k >= 0 and gap <= reaches[i] * (1.5 if groups else 1):
                names[i].append(pieces[k][0])
    return label, [" ".join(n) for n in names]


def _column_words(cell: str, box: BBox, centres: list[float], reaches: list[float]) -> list[tuple[str, float, float]]:
    """A header cell as the pieces that name columns: its words, each with its own extent, when it spans several
    value columns with one word printed over each ('Jaccard ↑ DDI ↓ PRAUC ↑ F1 ↑', names set too close for the
    text layer to part them), three or more; else the whole cell (a group's name centred over its columns, 'Citation
    prediction' over two)."""
    under = [(c, r) for c, r in zip(centres, reaches) if box[0] <= c <= box[2]]
    words = _words(with_arrows(cell), box)
    if len(under) > 2 and len(words) == len(under) and all(
            abs((a + b) / 2 - c) <= r for (_, a, b), (c, r) in zip(words, under)):
        return words
    return [(cell, box[0], box[2])]


def _text_after_value(cells: list[str]) -> bool:
    """A row with a cell of text after a cell holding a number alone."""
    seen = False
    for cell in cells:
        value = bool(_VALUE.match(cell.strip()))
        if seen and not value and any(ch.isalpha() for ch in cell):
            return True
        seen = seen or value
    return False


def named_by_place(cells: list[str], cell_boxes: list[BBox], header: list[list[str]],
                   header_boxes: list[list[BBox]]) -> list[str]:
    """A row's cells, each named by what the header rows print over it (per header row, the cell overlapping it
    most, top down: 'Mean' over 'annual' over 'rainfall' over '(mm)'); a cell nothing is printed over keeps its
    text alone. For rows that do not split into labels and values by counting (text columns among the numbers:
    'Redhill | 195 | P. radiata | 78 | W')."""
    out = []
    for cell, box in zip(cells, cell_boxes):
        parts = []
        for row, row_boxes in zip(header, header_boxes):
            overlap, text = max(((min(box[2], b[2]) - max(box[0], b[0]), text) for text, b in zip(row, row_boxes)),
                                default=(0.0, ""))
            if overlap > 0 and any(ch.isalnum() for ch in text):
                parts.append(text)
        out.append(f"{' '.join(parts)}: {cell}" if parts else cell)
    return out


def row_texts(name: str, rows: list[list[str]], boxes: list[list[BBox]] | None = None) -> list[str]:
    """One self-contained line per table row, each cell named by its column header, so a row read alone
    still says what its numbers are: 'Table 2 | Model: X | F1: 0.81'. Rows before the first row with a
    number are the header (the widest one names the columns, the other header rows name groups of them); a row
    whose cells cannot be named (fewer values than the table has value columns, or a header that does not
    split into the columns) repeats the header's text instead of guessing. A label alone between two
    rows with numbers is a cell spanning both ('FinTabNet' beside its 'OTSL' and 'HTML' rows) and labels both.
    With the cells' `boxes`, a header of several rows over the value columns names each column by what is
    printed over it at every level (aligned_names), not by counting cells; in a table with text columns among
    the numbers, each cell is named by what is printed over it (named_by_place)."""
    split = [split_values(row) for row in rows]
    first = next((i for i, (_, values) in enumerate(split) if values), None)
    if first is None:
        return [" | ".join([name, *row]) for row in rows if row]
    header = rows[:first]
    head = max(header, key=len, default=[])
    clean = {(len(labels), len(values)) for row, (labels, values) in zip(rows[first:], split[first:])
             if values and not _attached(row)}
    body = [_rejoin(row, clean) for row in rows[first:]]
    width = max(len(values) for _, values in body)
    label_width = max(len(labels) for labels, _ in body)
    centres = _centres(rows[first:], boxes[first:], width) if boxes and first > 1 else None
    if centres:
        label, value_names = aligned_names(header, boxes[:first], centres)
        label_names, groups = [*[""] * (label_width - 1), label][-label_width:], [""] * width
    else:
        label_names, value_names = _names(head, label_width, width)
        groups = _spans([row for row in header if row is not head], width)
    spanning = {i for i in range(1, len(body) - 1) if not body[i][1] and body[i - 1][1] and body[i + 1][1]}
    # text columns among the numbers ('Redhill | 195 | P. radiata | 78 | W'): labels and values do not split the
    # header by counting, so with the cells' boxes every cell is named by what is printed over it
    by_place = bool(boxes) and bool(header) and any(_text_after_value(row) for row in rows[first:])
    out = []
    for i, (labels, values) in enumerate(body):
        if i in spanning:
            continue
        around = [c for j in (i - 1, i + 1) if j in spanning for c in body[j][0]]
        cells = [f"{n}: {c}" if n else c for n, c in zip(label_names[len(label_names) - len(labels):], labels)]
        if by_place and len(boxes[first + i]) == len(rows[first + i]):
            cells = named_by_place(rows[first + i], boxes[first + i], header, boxes[:first])
        elif len(values) == width and value_names:
            cells += [f"{f'{g} {n}'.strip()}: {c}" for g, n, c in zip(groups, value_names, values)]
        else:
            cells = [*([" ".join(head)] if head and values else []), *labels, *values]
        out.append(" | ".join([name, *around, *cells]))
    return out

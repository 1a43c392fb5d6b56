"""Captioned figures and tables: find the caption lines, then the graphics region they belong to.

A caption is recognised by what starts its line ("Figure 3:", "Fig. 3.", "Table IV", a bare "Table 2"
line) and by where that line sits (it opens a block; it is not the continuation of a body sentence such
as "... shown in / Table 3. On average"). Each label is kept once per kind: the best-scoring candidate
wins, so in-text mentions, "(continued)" repeats and captions inside embedded screenshots lose to the
real caption. `Float.caption` holds the caption text after the label and its separator.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from extractors.model import BBox, Float, Line, PageLayout, element_id, page_box
from extractors.tables import bands, cells_of, table_rows, turned_line
from extractors.text import EQUATION_LABEL, FLOAT_PART, SENTENCE_END, is_mathy, part_label

Item = tuple[BBox, Line | None]  # a piece of a float's region: a graphic (no line) or a text line

# a label numbered in a part of its own ("Extended Data Fig. 2 | ...") takes that part's prefix (text.part_label)
CAPTION_RE = re.compile(
    rf"^{FLOAT_PART}(?P<word>(?i:fig(?:ure)?s?\.?|table|tab\.))\s*"
    r"(?P<label>(?:[A-Z]{1,2}\.?\d+|S?\d+|[IVXL]+)(?:[.\-]\d+)*[a-z]?)(?![\w.]\w)"
    r"\s*(?P<sep>[:.|\u2014\u2013-](?!\d)|\((?i:\.*\s*cont)[^)]*\)|$)?\s*(?P<rest>.*)$"
)
# Body sentences that open with a bare label go on with a verb or a function word in lower case
# ("Figure 3 shows"); after a separator ("Figure 3: a comparison ...") lower case is a caption's own.
BODY_FOLLOWER = re.compile(
    r"^(?:shows?|presents?|illustrates?|lists?|summari[sz]es|reports?|gives?|compares?|contains?|depicts?|"
    r"displays?|demonstrates?|plots?|provides?|describes?|is|are|was|were|has|have|and|or|in|of|on|to|for|"
    r"from|with|we|also|further|then|the|a|an|as|at|by|which|that|where|here|below|above)\b"
)
# Dot leaders at the end of a line ("Architecture ....... 45"). A run of leaders is tried only from its first dot
# (the lookbehinds) and nothing gives back (possessive), so a long line of dots costs one pass, not one per dot.
LEADER_RE = re.compile(r"(?<!\.)(?<!\.\s)(?:\.\s?){4,}+\s*+\d*+\s*+$")
MIN_SCORE = 3
MAX_CAPTION_LINES = 20


@dataclass(frozen=True)
class Caption:
    kind: str
    label: str
    page: int
    index: int  # position of the first caption line in the page's line list
    lines: tuple[Line, ...]
    text: str  # after the label
    score: float

    @property
    def bbox(self) -> BBox:
        return union(line.bbox for line in self.lines)


def union(boxes) -> BBox:
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def body_size(pages: list[PageLayout]) -> float:
    """The font size carrying most characters: the running text."""
    sizes = Counter()
    for page in pages:
        for line in page.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def opens_block(lines: list[Line], i: int) -> bool:
    """False only when line i continues the running sentence of a full-width line just above it."""
    line = lines[i]
    above = [l for l in lines[max(0, i - 3):i] if not same_row(l, line)]
    if not above:
        return True
    prev = above[-1]
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    width = max(line.bbox[2] - line.bbox[0], prev.bbox[2] - prev.bbox[0], 1.0)
    full = prev.bbox[0] < line.bbox[0] + 3 * line.size and prev.bbox[2] > line.bbox[2] - 0.1 * width
    continues = (prev.block == line.block and prev.column == line.column and abs(prev.size - line.size) < 0.3
                 and -height < line.bbox[1] - prev.bbox[3] < 0.8 * height and full
                 and not prev.text.rstrip().endswith((".", ":", "!", "?")))
    return not continues


def same_row(a: Line, b: Line) -> bool:
    """Two pieces of one printed row (a label and its text split by a wide gap)."""
    ha = max(a.bbox[3] - a.bbox[1], 1.0)
    return abs(a.bbox[1] - b.bbox[1]) < 0.4 * ha and abs(a.bbox[3] - b.bbox[3]) < 0.4 * ha


def line_text(line: Line) -> str:
    """The line's text, with a space after a label set in its own span ("Table 2" + "Sample ...")."""
    text = line.text.strip()
    if line.spans:
        head = line.spans[0].text.strip()
        if head and text.startswith(head) and text[len(head):len(head) + 1].isalnum() and CAPTION_RE.match(head):
            return f"{head} {text[len(head):]}"
    return text


def label_set_apart(line: Line) -> bool:
    """The label's first span is bold, or in another font than the caption text after it."""
    if not line.spans:
        return False
    head, rest = line.spans[0], line.spans[-1]
    return head.bold or (len(line.spans) > 1 and (head.font, head.bold) != (rest.font, rest.bold))


def against_graphics(line: Line, graphics: list[BBox]) -> bool:
    """The line is set right against a drawing or image above or below it, within a line's height, under or over
    part of it: where a caption sits and running text does not (it keeps a float's separation)."""
    x0, y0, x1, y1 = line.bbox
    reach = 1.5 * line.size
    return any(g[0] < x1 and g[2] > x0 and (-1 < y0 - g[3] < reach or -1 < g[1] - y1 < reach) for g in graphics)


def caption_score(match: re.Match, lines: list[Line], i: int, size: float, graphics: list[BBox]) -> float:
    line, sep, rest = lines[i], match["sep"], match["rest"]
    if sep is None:  # label followed by something else: ")", ",", a bare word
        if not rest or BODY_FOLLOWER.match(rest) or not (line.bold or rest[:1].isupper()):
            return -10
        score = 0.0
        if against_graphics(line, graphics):
            score += 1  # "Figure 4 Results ..." in the body's font and size, but set against its figure
    elif sep in ":|\u2014\u2013-":
        score = 3.0
    elif sep == ".":
        score = 2.0
    elif sep.startswith("("):
        score = -1.0  # "(continued)" repeats the caption of an earlier page
    else:  # end of line: a bare "Table 2" label line
        score = 2.0
    if LEADER_RE.search(rest):
        score -= 5  # an entry of a list of figures/tables: "Figure 3.2 Architecture ....... 45"
    score += 2 if opens_block(lines, i) else -3
    if line.bold or label_set_apart(line):
        score += 1
    if line.size < size - 0.4:
        score += 1
    if line.size < 0.6 * size:
        score -= 4  # text inside an embedded picture
    return score


def row_tail(lines: list[Line], head: Line, starts: set[int], reach: float = 2.0) -> list[Line]:
    """Pieces of the head's printed row to its right in its column, each within `reach` font sizes of
    the previous piece (a label set apart from its text; IEEE's "TABLE I.   TITLE" sets it far apart)."""
    tail, last = [], head
    right = (l for l in lines if l is not head and same_row(l, head) and l.bbox[0] >= head.bbox[2] - 1)
    for line in sorted(right, key=lambda l: l.bbox[0]):
        if id(line) in starts or line.column != head.column:
            break
        if 0 <= line.bbox[0] - last.bbox[2] + 1 < reach * head.size:
            tail.append(line)
            last = line
    return tail


def continues_caption(line: Line, prev: Line, extent: BBox, after_bare_label: bool) -> bool:
    """Whether `line`, the nearest line below `prev`, is more of the same caption paragraph: close
    below, and flush left with the caption or centred under it (table cells below are neither).

    After a bare label line ("TABLE II") the caption title follows in any style (often small caps).
    """
    gap = line.bbox[1] - prev.bbox[3]
    if after_bare_label:
        return -2 < gap < 1.2 * prev.size
    width = extent[2] - extent[0]
    flush = abs(line.bbox[0] - extent[0]) < 0.5 * line.size
    centred = (abs((line.bbox[0] + line.bbox[2]) - (extent[0] + extent[2])) < 2 * line.size
               and line.bbox[2] - line.bbox[0] > 0.25 * width)
    if not (flush or centred) or line.bbox[2] > extent[2] + 4 * line.size:
        return False
    if prev.block == line.block and prev.column == line.column:
        return -prev.size < gap < prev.size
    return -2 < gap < 0.7 * prev.size and abs(line.size - prev.size) < 0.4


def caption_lines(lines: list[Line], i: int, starts: set[int], bare: bool) -> list[Line]:
    """The caption's own lines, found by geometry (reading order may interleave columns or rows);
    `starts` holds the ids of all caption-opening lines of the page, where another caption begins."""
    head = lines[i]
    if head.vertical:  # a rotated caption's next line is not below it: find_floats reads it with the page turned
        return [head]
    out = [head, *row_tail(lines, head, starts, 6.0 if bare else 2.0)]
    bare = bare and len(out) == 1
    extent = union(l.bbox for l in out)
    while len(out) < MAX_CAPTION_LINES:
        prev = out[-1]
        below = [l for l in lines if l.bbox[1] > prev.bbox[1] + 0.5 * prev.size
                 and l.bbox[0] < extent[2] and l.bbox[2] > extent[0]]
        if not below:
            break
        line = min(below, key=lambda l: (l.bbox[1], l.bbox[0]))
        if id(line) in starts or not continues_caption(line, prev, extent, bare and len(out) == 1):
            break
        out += [line, *row_tail(lines, line, starts)]
        if len(out) == 2 and bare:
            extent = union(l.bbox for l in out)
    return out


def find_captions(pages: list[PageLayout], size: float) -> list[Caption]:
    """Caption candidates scoring at least MIN_SCORE; `size` is the body font size."""
    found = []
    for page in pages:
        lines = page.lines
        # lines opening with a caption's word or its part's; not 'Supplementary': a supplement is printed apart, and
        # a line opening 'Supplementary Fig. 3' cites it
        matches = {i: CAPTION_RE.match(line_text(line)) for i, line in enumerate(lines)
                   if line.text.lstrip()[:1] in "FfTtEeAa"}
        graphics = page.images + page.drawings
        scores = {i: caption_score(m, lines, i, size, graphics) for i, m in matches.items() if m}
        starts = sorted(i for i, s in scores.items() if s >= MIN_SCORE)
        start_ids = {id(lines[i]) for i in starts}
        for i in starts:
            m = matches[i]
            own = caption_lines(lines, i, start_ids, not m["rest"])
            text = " ".join([m["rest"], *(line.text.strip() for line in own[1:])]).strip()
            kind = "table" if m["word"].lower().startswith("tab") else "figure"
            label = part_label(m["part"], m["label"])
            found.append(Caption(kind, label, page.page, i, tuple(own), dehyphenate(text), scores[i]))
    return found


def dehyphenate(text: str) -> str:
    return re.sub(r"(\w)- (\w)", r"\1\2", re.sub(r"\s+", " ", text))


def best_per_label(captions: list[Caption]) -> list[Caption]:
    """One caption per (kind, label): highest score, then earliest."""
    best: dict[tuple[str, str], Caption] = {}
    for cap in captions:
        key = (cap.kind, cap.label)
        if key not in best or cap.score > best[key].score:
            best[key] = cap
    return sorted(best.values(), key=lambda c: (c.page, c.index))


def column_bands(page: PageLayout) -> list[tuple[float, float]]:
    """The columns of the page as equal bands, left to right, each 5 pt past its gutters."""
    step = page.width / page.columns
    return [(max(0.0, k * step - 5), min(page.width, (k + 1) * step + 5)) for k in range(page.columns)]


def column_span(page: PageLayout, box: BBox) -> tuple[float, float]:
    """Horizontal extent a float may occupy: the caption's column, or the page when it is full width or, on a
    page of two columns, centred on the page across the gutter (a short caption under a table as wide as the
    page; on a page of three, a caption centred on the page is the middle column's)."""
    mid = page.width / 2
    centred = box[0] < mid - 5 < mid + 5 < box[2] and abs((box[0] + box[2]) / 2 - mid) < 0.03 * page.width
    if page.columns < 2 or box[2] - box[0] > 0.6 * page.width or centred and page.columns == 2:
        return 0.0, page.width
    return column_bands(page)[min(int((box[0] + box[2]) / 2 / (page.width / page.columns)), page.columns - 1)]


def text_extent(page: PageLayout, span: tuple[float, float]) -> tuple[float, float]:
    """Left and right edge of the text set within a horizontal span (its column's text width)."""
    inside = [l.bbox for l in page.lines if span[0] - 1 <= l.bbox[0] and l.bbox[2] <= span[1] + 1 and len(l.text) > 20]
    return (min(b[0] for b in inside), max(b[2] for b in inside)) if inside else span


def is_body_line(line: Line, span: tuple[float, float], size: float) -> bool:
    """A line of running text: body size, most of the column wide, densely set (no cell gaps), wordy."""
    text = line.text
    width = line.bbox[2] - line.bbox[0]
    if abs(line.size - size) >= 0.6 or width <= 0.6 * (span[1] - span[0]) or len(text) <= 30:
        return False
    if len(text) * line.size <= 1.6 * width:
        return False
    letters = sum(map(str.isalpha, text))
    return letters > 0.65 * (len(text) - text.count(" "))


def paragraph_lines(lines: list[Line], span: tuple[float, float], size: float) -> list[Line]:
    """Body-like lines with a body-like neighbour: running paragraphs, not a lone wide table row; and the short
    last line of such a paragraph, set right under its line before at the same left edge, which a float beneath
    would otherwise take in ('... as predicted, / the error grows linearly.' over a plot)."""
    flags = [is_body_line(line, span, size) for line in lines]
    near = lambda i, j: 0 <= j < len(lines) and flags[j] and lines[j].column == lines[i].column
    kept = [flags[i] and (near(i, i - 1) or near(i, i + 1)) for i in range(len(lines))]
    return [line for i, line in enumerate(lines)
            if kept[i] or i > 0 and kept[i - 1] and _ends(lines[i - 1], line, lines)]


def _ends(before: Line, line: Line, lines: list[Line]) -> bool:
    """Whether `line` ends the paragraph whose line `before` is: the sentence runs on from `before`, and `line` is
    the next line down, at its left edge and size, no further below it than a paragraph's leading, alone on its
    row (a table's first cell set right under a paragraph shares its row with the other cells)."""
    gap = line.bbox[1] - before.bbox[3]
    return (line.column == before.column and abs(line.bbox[0] - before.bbox[0]) <= 1
            and abs(line.size - before.size) < 0.6 and -0.2 * before.size <= gap <= 0.5 * before.size
            and not before.text.rstrip().endswith(SENTENCE_END)
            and not any(other is not line and other.page == line.page and other.column == line.column
                        and same_row(other, line) for other in lines))


def grow(items: list[Item], edge: float, step: float, upward: bool) -> list[Item]:
    """Items reachable from `edge` (the caption's top or bottom) by hops of at most `step` points."""
    out = []
    order = sorted(items, key=lambda it: -it[0][3] if upward else it[0][1])
    for item in order:
        b = item[0]
        if (edge - b[3] if upward else b[1] - edge) > step:
            break
        out.append(item)
        edge = min(edge, b[1]) if upward else max(edge, b[3])
    return out


def within_graphics(side: list[Item], upward: bool, rows_beyond: bool = False) -> list[Item]:
    """When a side has graphics (plot, rules of a table), its text is what lies between the caption
    and the far end of those graphics, not a paragraph line beyond them. With `rows_beyond` (a table), rows of
    two cells or more set right beyond the far rule, one after the other, are the table's too: a header above a
    mid rule with no top rule over it ('System | WER | lat' then the rule, then the body)."""
    graphics = [b for b, line in side if line is None]
    if not graphics or max(b[3] for b in graphics) - min(b[1] for b in graphics) < 24:
        return side  # a lone rule bounds nothing
    if upward:
        far = min(b[1] for b in graphics)
        short_of_far = lambda b: b[1] >= far - 0.5 * (b[3] - b[1])
    else:
        far = max(b[3] for b in graphics)
        short_of_far = lambda b: b[3] <= far + 0.5 * (b[3] - b[1])
    kept = [(b, line) for b, line in side if line is None or short_of_far(b)]
    if rows_beyond:
        fullest = max(table_rows([line for _, line in kept if line is not None]), key=len, default=[])
        kept += _rows_beyond([(b, line) for b, line in side if line is not None and not short_of_far(b)], far, upward,
                             [cell.bbox for cell in fullest])
    return kept


def _rows_beyond(items: list[Item], edge: float, upward: bool, columns: list[BBox]) -> list[Item]:
    """The rows that follow one another from `edge` outward, each less than a row's height from the last, of two
    cells or more standing over two or more of the table's columns (`columns`: the cells of its fullest row): a
    header. A paragraph line (one cell) or a heading ('4 | Results', both over the first column) ends them."""
    out: list[Item] = []
    rows = bands(items, lambda item: item[0])
    for row in (reversed(rows) if upward else rows):
        top, bottom = min(b[1] for b, _ in row), max(b[3] for b, _ in row)
        cells = [cell.bbox for _, line in row for cell in cells_of(line)]
        over = {k for k, col in enumerate(columns) for b in cells if b[0] < col[2] and col[0] < b[2]}
        if len(cells) < 2 or len(over) < 2 or (edge - bottom if upward else top - edge) > bottom - top:
            break
        out += row
        edge = top if upward else bottom
    return out


def sides(page: PageLayout, cap: Caption, captions_on_page: list[Caption],
          size: float) -> tuple[list[Item], list[Item]]:
    """The graphics and non-body text next to the caption above it and below it, each up to the nearest
    paragraph or other caption."""
    cbox = cap.bbox
    others = {id(line) for c in captions_on_page for line in c.lines}
    if cap.lines[0].vertical:  # a caption set rotated: its float is the rotated content of its column (a landscape
        # table), each rotated line going to the rotated caption nearest it across the page
        turned = [c.bbox for c in captions_on_page if c.lines[0].vertical]
        middle = lambda b: (b[0] + b[2]) / 2
        nearest = lambda b: min(turned, key=lambda c: abs(middle(c) - middle(b)))
        lo, hi = column_span(page, cbox)
        rotated = [line for line in page.lines if line.vertical and id(line) not in others
                   and lo <= middle(line.bbox) <= hi and nearest(line.bbox) == cbox]
        x0, y0, x1, y1 = union([cbox, *(line.bbox for line in rotated)])
        graphics = [(b, None) for b in page.images + page.drawings
                    if x0 - 2 <= b[0] and b[2] <= x1 + 2 and y0 - 2 <= b[1] and b[3] <= y1 + 2]
        return [*((line.bbox, line) for line in rotated), *graphics], []
    aside = _float_aside(page, cap, captions_on_page, others, size)
    if aside is not None:
        return [], aside
    span = column_span(page, cbox)
    x0, x1 = beside(cap, captions_on_page, span)
    # beside another float, an item is on the side its middle is on; else any overlap with the span counts
    across = (lambda b: b[0] < x1 and b[2] > x0) if (x0, x1) == span else (lambda b: x0 <= (b[0] + b[2]) / 2 <= x1)
    in_span = lambda b: across(b) and (b[2] - b[0]) * (b[3] - b[1]) < 0.8 * page.width * page.height
    text = text_extent(page, (x0, x1))
    # a float as wide as a two-column page is bounded by either column's paragraphs
    columns = column_bands(page) if page.columns > 1 and x1 - x0 == page.width else [(x0, x1)]
    gridded = _in_ruled_grid(page, cbox, (x0, x1), size) if cap.kind == "table" else set()
    # a paragraph of the column beside may reach a few points into the span: it bounds nothing here
    reaches = lambda b: min(b[2], x1) - max(b[0], x0) > size
    walls = [line.bbox for col in columns for line in paragraph_lines(page.lines, text_extent(page, col), size)
             if in_span(line.bbox) and reaches(line.bbox) and id(line) not in others and id(line) not in gridded]
    walls += [c.bbox for c in captions_on_page if c is not cap and in_span(c.bbox)]
    if cap.kind == "figure":
        walls += [line.bbox for line in page.lines if in_span(line.bbox) and _numbers_a_display(line, page, text)]
    top = max([b[3] for b in walls if b[3] <= cbox[1] + 1], default=0.0)
    bottom = min([b[1] for b in walls if b[1] >= cbox[3] - 1], default=page.height)
    items = [(b, None) for b in page.images + page.drawings]
    items += [(line.bbox, line) for line in page.lines if id(line) not in others
              and (id(line) in gridded or not is_body_line(line, text, size))]
    # a line belongs to the column its middle is in (a label at the right edge of the column beside may reach a
    # few points into this column's band); a graphic counts where it overlaps
    middle_in = lambda b: x0 <= (b[0] + b[2]) / 2 <= x1
    items = [it for it in items if in_span(it[0]) and (it[1] is None or middle_in(it[0]))]
    step = 2.5 * size
    above = grow([it for it in items if it[0][1] >= top - 1 and it[0][3] <= cbox[1] + 1], cbox[1], step, True)
    below = grow([it for it in items if it[0][1] >= cbox[3] - 1 and it[0][3] <= bottom + 1], cbox[3], step, False)
    table = cap.kind == "table"
    return within_graphics(above, True, table), within_graphics(below, False, table)


def _numbers_a_display(line: Line, page: PageLayout, text: tuple[float, float]) -> bool:
    """A display equation's number: "(3)" alone on its line at the text's right edge, outside the page's graphics,
    with a formula on its row. A display is running text's, as a paragraph is: a figure set below one (its fraction
    bars drawn as rules, its rows too short for prose) does not reach over it. Compounds numbered in a scheme stand
    on its graphics."""
    label = EQUATION_LABEL.fullmatch(line.text.strip())
    return (label is not None and not label["label"].startswith("0")
            and abs(line.bbox[2] - text[1]) <= 1.5 * line.size and not inside(line.bbox, page.images + page.drawings)
            and any(o is not line and same_row(o, line) and o.bbox[2] < line.bbox[0] and is_mathy(o)
                    for o in page.lines))


def _float_aside(page: PageLayout, cap: Caption, captions_on_page: list[Caption], others: set[int],
                 size: float) -> list[Item] | None:
    """The float of a caption set beside it, in a narrow block at its column's left edge (the side captions some
    journals give tables and figures): three lines or more wrapped at under 0.6 of the column's width, with the
    float's cells or graphics starting to its right level with its top, and no running text beside it (the other
    column of an ordinary two-column page). The float is what lies right of the caption, from a little above its
    top down to the next paragraph or caption; None for a caption set above or below its float. `others`: the
    ids of the page's caption lines."""
    cbox = cap.bbox
    left, right = text_extent(page, column_span(page, cbox))
    if len(cap.lines) < 3 or cbox[2] - cbox[0] > 0.6 * (right - left) or cbox[0] > left + size:
        return None
    x0, x1 = cbox[2] + 1, max(line.bbox[2] for line in page.lines)
    step = 2.5 * size
    level = [line for line in page.lines if id(line) not in others and line.bbox[0] >= x0
             and line.bbox[1] < cbox[3] and line.bbox[3] > cbox[1] - step]
    graphics = [(b, None) for b in page.images + page.drawings if b[0] >= x0 - 1 and b[1] < cbox[3]
                and b[3] > cbox[1] - step]
    if not level or any(is_body_line(line, (x0, x1), size) for line in level) or not (
            min([line.bbox[1] for line in level] + [b[1] for b, _ in graphics]) <= cbox[1] + size):
        return None
    walls = [line.bbox[1] for line in paragraph_lines(page.lines, (x0, x1), size) if line.bbox[0] >= x0 - 1]
    walls += [c.bbox[1] for c in captions_on_page if c is not cap and c.bbox[0] >= x0 - 1]
    bottom = min([y for y in walls if y >= cbox[1]], default=page.height)
    items = graphics + [(line.bbox, line) for line in page.lines if id(line) not in others and line.bbox[0] >= x0 - 1
                        and not is_body_line(line, (x0, x1), size)]
    items = [it for it in items if it[0][1] >= cbox[1] - step and it[0][3] <= bottom + 1]
    return within_graphics(grow(items, cbox[1], step, False), False, cap.kind == "table")


def _in_ruled_grid(page: PageLayout, caption: BBox, span: tuple[float, float], size: float) -> set[int]:
    """The lines (by id) set inside a drawn region right against the caption, within its span, whose lines are
    mostly not running text: the rules of a fully ruled table enclose its cells, and a row of it that reads like
    prose (a header of a dozen short column names, a long method name wrapped in its cell) is still the table's,
    neither a paragraph that bounds the table nor text left out of it. A framed box of prose (a boxed abstract)
    holds mostly body lines, judged against the box's own width, so it keeps them; a frame round the page or a
    panel holding the caption itself is no table's grid."""
    out: set[int] = set()
    for region in page.drawings:
        if (region[0] < span[0] - 1 or region[2] > span[1] + 1 or inside(caption, [region])
                or distance(region, caption) > 2.5 * size):
            continue
        held = [line for line in page.lines if inside(line.bbox, [region])]
        width = (region[0], region[2])
        if sum(is_body_line(line, width, size) for line in held) * 2 < len(held):
            out.update(id(line) for line in held)
    return out


def inside(box: BBox, regions: list[BBox]) -> bool:
    """Whether the box lies within one of the regions (a point of slack: a glyph's box may overrun its rules)."""
    return any(box[0] >= r[0] - 1 and box[1] >= r[1] - 1 and box[2] <= r[2] + 1 and box[3] <= r[3] + 1 for r in regions)


def beside(cap: Caption, captions_on_page: list[Caption], span: tuple[float, float]) -> tuple[float, float]:
    """The span narrowed to the caption's side of each caption set beside it on the same row (two tables or
    figures side by side, each with its own caption): the line midway between their facing edges parts them."""
    x0, x1 = span
    c = cap.bbox
    for other in captions_on_page:
        o = other.bbox
        if other is cap or min(o[3], c[3]) <= max(o[1], c[1]) or not x0 <= (o[0] + o[2]) / 2 <= x1:
            continue  # not on the caption's row, or in another column
        if o[0] >= c[2]:
            x1 = min(x1, (c[2] + o[0]) / 2)
        elif o[2] <= c[0]:
            x0 = max(x0, (o[2] + c[0]) / 2)
    return x0, x1


def _has_graphics(side: list[Item]) -> bool:
    return any(line is None for _, line in side)


def table_side(sides_of_tables: list[tuple[list[Item], list[Item]]]) -> bool | None:
    """Whether the document sets its tables above their captions (True) or below (False), from the captions
    with graphics on one side only; None when they do not agree on a side. A journal places every table's
    caption the same way, so this settles a caption packed between two ruled tables."""
    votes = {_has_graphics(above) for above, below in sides_of_tables if _has_graphics(above) != _has_graphics(below)}
    return votes.pop() if len(votes) == 1 else None


def _rules_only(side: list[Item]) -> bool:
    """A side holding nothing but rules: lines of graphics two points thick at most (no picture, no drawing)."""
    return all(line is None and min(b[2] - b[0], b[3] - b[1]) <= 2 for b, line in side)


def pick_side(cap: Caption, above: list[Item], below: list[Item], tables_above: bool | None) -> list[Item]:
    """The side of the caption its float is on: a figure's graphics are above it unless only the side below
    has any; a table is on the side that prints text when the other holds rules alone; a ruled table beats a stray
    text line nearer the caption; between two ruled tables, the side the document's other tables are on
    (`table_side`), else the nearer one."""
    cbox = cap.bbox
    if cap.kind == "figure":
        return above if _has_graphics(above) or not _has_graphics(below) else below
    printed = [any(line is not None for _, line in side) for side in (above, below)]
    if printed[0] != printed[1] and _rules_only(below if printed[0] else above):  # a table prints text: rules
        return above if printed[0] else below  # alone (a separator under a caption) are not it
    if _has_graphics(above) != _has_graphics(below):
        return above if _has_graphics(above) else below
    if _has_graphics(above) and tables_above is not None:
        return above if tables_above else below
    gap_above = min((cbox[1] - b[3] for b, _ in above), default=1e9)
    gap_below = min((b[1] - cbox[3] for b, _ in below), default=1e9)
    return below if gap_below < gap_above else above


def distance(box: BBox, other: BBox) -> float:
    """Vertical gap between two boxes, 0 when they overlap."""
    return max(other[1] - box[3], box[1] - other[3], 0.0)


def _turned_rows(cap: Caption, lines: list[Line]) -> tuple[list[list[Line]], str, str]:
    """The rows of a table printed sideways (cells in turned boxes), which way its text runs (most of its lines:
    'up' or 'down') and its caption: a label set alone on its line ('Table 1') takes the line after it as its
    title, as an upright caption does ('Site characteristics ...'), and a caption that does not end a sentence
    takes the lines it runs on in (one cell of three words or more, no digits)."""
    runs_up = sum(line.rising for line in [*cap.lines, *lines]) * 2 > len(cap.lines) + len(lines)
    grid = table_rows([turned_line(line, runs_up) for line in lines])
    caption = cap.text
    while len(grid) > 1 and len(grid[0]) == 1 and not any(ch.isdigit() for ch in grid[0][0].text) and (
            not caption or not caption.endswith(".") and len(grid[0][0].text.split()) >= 3):
        caption, grid = f"{caption} {grid[0][0].text.strip()}".strip(), grid[1:]
    return grid, "up" if runs_up else "down", caption


def find_floats(pages: list[PageLayout], sha256: str) -> tuple[list[Float], list[Float]]:
    """Figures and tables, one per printed label, with caption, region and (tables) cell rows.

    An item two regions reach (a table right above a figure that sits below it) goes to the
    nearer caption."""
    size = body_size(pages)
    captions = best_per_label(find_captions(pages, size))
    by_page = {p.page: p for p in pages}
    around = [sides(by_page[c.page], c, [o for o in captions if o.page == c.page], size) for c in captions]
    tables_above = table_side([pair for c, pair in zip(captions, around)  # rotated tables have no side to vote
                               if c.kind == "table" and not c.lines[0].vertical])
    picks = [pick_side(c, above, below, tables_above) for c, (above, below) in zip(captions, around)]
    owner: dict[tuple[int, BBox], int] = {}
    for n, (cap, pick) in enumerate(zip(captions, picks)):
        for box, _ in pick:
            key = (cap.page, box)
            if key not in owner or distance(box, cap.bbox) < distance(box, captions[owner[key]].bbox):
                owner[key] = n
    figures, tables = [], []
    for n, (cap, pick) in enumerate(zip(captions, picks)):
        content = [(box, line) for box, line in pick if owner[(cap.page, box)] == n]
        lines = [line for _, line in content if line is not None]
        grid, turned, caption = [], "", cap.text
        if cap.kind == "table" and not cap.lines[0].vertical:
            grid = table_rows(lines)
        elif cap.kind == "table" and lines:  # a rotated table's rows, read with the page turned to set it upright
            grid, turned, caption = _turned_rows(cap, lines)
        item = Float(id=element_id(cap.kind, sha256, cap.page, *(round(v, 1) for v in cap.bbox)), kind=cap.kind,
                     label=cap.label, caption=caption, page=cap.page,
                     bbox=union([cap.bbox, *(box for box, _ in content)]), caption_bbox=cap.bbox,
                     rows=[[line.text.strip() for line in row] for row in grid],
                     cell_boxes=[[page_box(line.bbox, turned == "up") if turned else line.bbox for line in row]
                                 for row in grid], turned=turned)
        (tables if cap.kind == "table" else figures).append(item)
    return figures, tables

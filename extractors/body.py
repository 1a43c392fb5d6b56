"""Document.text: the body lines in reading order, joined into paragraphs, with each line's span.

Lines inside figure, table and equation regions are left out (they become their own chunks);
hyphenated line breaks are joined. Sections and chunks point into this text by character offsets.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from extractors.model import BBox, Line, PageLayout
from extractors.text import HYPHEN_END, SENTENCE_END, UNMAPPED

Region = tuple[int, BBox]  # page, box
_PUNCT = ".,;:()[]\"'"
MAX_FOOTNOTE_LINES = 12  # footnotes and footers of one page; a longer run of small print below the body is content


@dataclass(frozen=True)
class Placed:
    """A line placed in Document.text: [start, end) is its text there (hyphen dropped if joined)."""

    line: Line
    index: int  # position in the body line list
    start: int
    end: int
    paragraph: int  # running paragraph number; a heading is a paragraph of its own


def inside(line: Line, boxes: dict[int, list[BBox]], slack: float = 2.0) -> bool:
    """True when the line's centre lies in one of the boxes of its page (`boxes`: _by_page of the regions; each line
    looked through every region of the document, 1.7 million tests for the corpus)."""
    return any(_centred_in(line, box, slack) for box in boxes.get(line.page, ()))


def _centred_in(line: Line, box: BBox, slack: float = 2.0) -> bool:
    cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] - slack <= cx <= box[2] + slack and box[1] - slack <= cy <= box[3] + slack


def _by_page(regions: list[Region]) -> dict[int, list[BBox]]:
    boxes: dict[int, list[BBox]] = defaultdict(list)
    for page, box in regions:
        boxes[page].append(box)
    return boxes


def body_lines(pages: list[PageLayout], captions: list[Region]) -> list[Line]:
    """Every line in reading order without rotated text and float captions; footnotes and page
    footers (small print below the last body line of the page, or at the foot of a column under a sentence that
    runs on into the next) follow the sentence they interrupt instead of splitting it."""
    boxes = _by_page(captions)
    lines = [line for page in pages for line in page.lines if not line.vertical and not inside(line, boxes)]
    size = _body_size(lines)
    bottom: dict[int, float] = {}
    for line in lines:  # body text has words: a large bullet or page number in a running head is none
        if line.size >= size - 0.8 and sum(map(str.isalpha, line.text)) >= 2:
            bottom[line.page] = max(bottom.get(line.page, 0.0), line.bbox[3])
    below = lambda line: line.size < size - 0.8 and line.bbox[1] >= bottom.get(line.page, float("inf")) + 1.8 * size
    # small print set well apart below all other text (a list right under a heading is not), in a few lines: more
    # is a run of small type in its place (a bibliography set small under its small heading), not footnotes
    small = defaultdict(int)
    for line in lines:
        small[line.page] += below(line)
    at_foot = _column_footnotes(lines)
    out: list[Line] = []
    waiting: list[Line] = []
    until = (0, 0)  # the first (page, column) after the waiting lines' own, where the sentence they cut resumes
    for n, line in enumerate(lines):
        if n in at_foot or below(line) and small[line.page] <= MAX_FOOTNOTE_LINES:
            if not waiting:
                until = (line.page, line.column + 1) if n in at_foot else (line.page + 1, 0)
            waiting.append(line)
            continue
        out.append(line)
        if waiting and (line.page, line.column) >= until and line.text.rstrip().endswith(SENTENCE_END):
            out.extend(waiting)
            waiting = []
    return out + waiting


_FOOTNOTE_MARK = re.compile(rf"^(?:[*∗†‡§¶{UNMAPPED}]|\d{{1,2}}(?![\d.,)\]]))")


def _column_footnotes(lines: list[Line]) -> set[int]:
    """Indices of footnotes set at the foot of a column that is not the page's last (a first page's
    corresponding-author note under its left column): a few lines of print smaller than the page's running text,
    the first opening with a footnote mark, set apart below a line of running text that breaks off mid-sentence,
    and followed by the next column's top. They wait for the sentence they cut, as footnotes at the foot of the
    page do. The page's own running text decides what is small: a paper whose tables and references fill more
    pages in small type than its prose has a document-wide body size below its footnotes'."""
    sizes: dict[int, list[Line]] = defaultdict(list)
    for line in lines:
        sizes[line.page].append(line)
    page_size = {page: _body_size(page_lines) for page, page_lines in sizes.items()}
    found: set[int] = set()
    n = 0
    while n < len(lines):
        size = page_size[lines[n].page]
        end = n
        while end < len(lines) and lines[end].size < size - 0.8 and _same_column(lines[end], lines[n]):
            end += 1
        if end == n:
            n += 1
            continue
        before, after = lines[n - 1] if n else None, lines[end] if end < len(lines) else None
        if (before is not None and after is not None and end - n <= MAX_FOOTNOTE_LINES
                and _same_column(before, lines[n]) and before.size >= size - 0.8
                and not before.text.rstrip().endswith(SENTENCE_END)
                and lines[n].bbox[1] >= before.bbox[3] + size and _FOOTNOTE_MARK.match(lines[n].text)
                and after.page == lines[n].page and after.column > lines[n].column
                and after.bbox[1] < lines[n].bbox[1]):
            found.update(range(n, end))
        n = end
    return found


def _same_column(a: Line, b: Line) -> bool:
    return (a.page, a.column) == (b.page, b.column)


def in_regions(lines: list[Line], regions: list[Region]) -> set[int]:
    """Indices of lines inside figure/table/equation regions. A region holding several lines of
    running prose (long lines in the body font) has overgrown into the body, so it is ignored."""
    size = _body_size(lines)
    widths = sorted(line.bbox[2] - line.bbox[0] for line in lines if len(line.text) > 40)
    prose_width = 0.85 * widths[int(0.75 * len(widths))] if widths else 0.0

    prose = [line for line in lines
             if abs(line.size - size) < 0.6 and line.bbox[2] - line.bbox[0] >= prose_width and len(line.text) >= 40]
    trusted = _by_page([(page, box) for page, box in regions
                       if sum(1 for line in prose if line.page == page and _centred_in(line, box)) < 3])
    return {i for i, line in enumerate(lines) if inside(line, trusted)}


def _body_size(lines: list[Line]) -> float:
    sizes: dict[float, int] = {}
    for line in lines:
        key = round(line.size * 2) / 2
        sizes[key] = sizes.get(key, 0) + len(line.text)
    return max(sizes, key=sizes.get) if sizes else 10.0


def _breaks_paragraph(prev: Line, line: Line) -> bool:
    if prev.page != line.page or prev.column != line.column:
        return not prev.text.rstrip().endswith(("-", ",")) and prev.text.rstrip()[-1:] in ".:?!)"
    gap = line.bbox[1] - prev.bbox[3]
    if gap > 0.5 * max(prev.size, line.size) or gap < -0.5 * prev.size:
        return True
    if abs(prev.size - line.size) > 1.0:
        return True
    if line.bbox[0] > prev.bbox[0] + 0.8 * line.size and line.bbox[0] - prev.bbox[0] < 4 * line.size:
        return True  # first-line indent
    return False


def _vocabulary(lines: list[Line]) -> set[str]:
    """Words printed whole inside lines: decides whether "adjective-" + "noun" keeps its hyphen."""
    words: set[str] = set()
    for line in lines:
        words.update(t.strip(_PUNCT).lower() for t in line.text.split()[:-1])
    return words


def _keeps_hyphen(before: str, after: str, vocabulary: set[str]) -> bool:
    head = before.split()[-1].strip(_PUNCT).lower()  # "adjective-"
    tail = after.split()[0].strip(_PUNCT).lower()
    if head[:-1] + tail in vocabulary:
        return False
    return head + tail in vocabulary or len(tail) > 3 and tail in vocabulary and head[:-1] in vocabulary


def assemble(lines: list[Line], heading_lines: set[int]) -> tuple[str, list[Placed]]:
    """Join lines into paragraphs ("\\n\\n" between them); `heading_lines` are indices of lines
    that are section headings and so stand as paragraphs of their own."""
    vocabulary = _vocabulary(lines)
    parts: list[str] = []
    placed: list[Placed] = []
    length = 0
    paragraph = -1
    for i, line in enumerate(lines):
        text = line.text.strip()
        if not text:
            continue
        prev = placed[-1] if placed else None
        new_para = (prev is None or i in heading_lines or (i - 1) in heading_lines
                    or _breaks_paragraph(prev.line, line))
        if new_para:
            if prev is not None:
                parts.append("\n\n")
                length += 2
            paragraph += 1
        elif HYPHEN_END.search(prev.line.text.strip()):  # a word broken at the line end: no space
            if text[0].islower() and not _keeps_hyphen(prev.line.text, text, vocabulary):  # "extrac-" + "tion"
                parts[-1] = parts[-1][:-1]
                length -= 1
                placed[-1] = Placed(prev.line, prev.index, prev.start, prev.end - 1, prev.paragraph)
        else:
            parts.append(" ")
            length += 1
        parts.append(text)
        placed.append(Placed(line, i, length, length + len(text), paragraph))
        length += len(text)
    return "".join(parts), placed

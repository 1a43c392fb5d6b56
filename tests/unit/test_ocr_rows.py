"""Rows Tesseract read as one, read again row by row (extractors/ocr_rows.py). The page is a drawn array of ink (one
pixel per point) and the reader a stand-in answering by the row it is asked for, so each rule is checked apart from
Tesseract."""

from __future__ import annotations

import numpy as np
import pytest

from extractors.model import Line, Span
from extractors.ocr_rows import rows_read_again

LEFT, RIGHT = 72, 300


def _line(text: str, box: tuple[float, float, float, float]) -> Line:
    return Line(text, 1, box, 10, "GlyphLessFont", spans=[Span(text, box, 10, "GlyphLessFont")])


def _page() -> tuple[np.ndarray, list[Line]]:
    """Six prose lines of ten points' pitch (ink 8 high) from y 100; then, set tight from y 200, a heading's row
    (ink y 200-207, x 72-130) over a sub-heading's (ink y 210-218, x 72-250), and prose below from y 222."""
    ink = np.zeros((400, 612), dtype=bool)
    lines = []
    for y in [100 + 12 * n for n in range(6)] + [222, 234]:
        ink[y:y + 8, LEFT:RIGHT] = True
        lines.append(_line("running text of a paragraph set across the column", (LEFT, y, RIGHT, y + 8)))
    ink[200:207, 72:130] = True
    ink[210:218, 72:250] = True
    return ink, lines


class Reader:
    """Reads the text given for the row at `y` as words 40 points apart along the box, with a bar (the edge of a
    neighbour's letter) at its right end."""

    def __init__(self, rows: dict[int, str]):
        self.rows, self.boxes = rows, []

    def __call__(self, box):
        self.boxes.append(box)
        text = next((text for y, text in self.rows.items() if box[1] <= y <= box[3]), "")
        words = [(word, (box[0] + 40 * n, box[1], box[0] + 40 * n + 34, box[3])) for n, word in enumerate(text.split())]
        return words + [("|", (box[2] - 1, box[1], box[2], box[3]))] if words else []


def test_a_line_read_over_two_rows_and_its_pieces_beside_it_are_read_again_a_row_at_a_time():
    ink, lines = _page()
    tall = _line("Sere", (72, 200, 110, 218))  # the heading and the sub-heading's first letter read as one word
    rest = _line("earch strategy and selection", (76, 210, 250, 218))
    piece = _line("d selecti", (180, 200, 215, 218))  # a piece of the lower row read a second time
    out = rows_read_again(lines + [tall, rest, piece], ink, 1.0,
                          reader := Reader({203: "METHODS", 214: "Search strategy and selection"}))
    assert len(reader.boxes) == 2
    assert not any(line in out for line in (tall, rest, piece))
    again = sorted((line for line in out if line not in lines), key=lambda line: line.bbox[1])
    assert [line.text for line in again] == ["METHODS", "Search strategy and selection"]
    assert [[span.text for span in line.spans] for line in again] == [["METHODS"], ["Search", "strategy", "and",
                                                                                   "selection"]]
    assert again[1].spans[1].bbox[0] == reader.boxes[1][0] + 40
    assert [tuple(round(v) for v in line.bbox) for line in again] == [(72, 200, 130, 207), (72, 210, 250, 218)]
    assert [line for line in out if line in lines] == lines


def test_rows_are_left_as_read_when_one_reads_as_no_word():
    ink, lines = _page()
    tall = _line("Sere", (72, 200, 110, 218))
    out = rows_read_again(lines + [tall], ink, 1.0, Reader({203: "-25 0 2", 214: "Search strategy"}))
    assert out == lines + [tall]


@pytest.mark.parametrize("rows, text, box", [
    ((300, 318), "A Large Title", (72, 300, 200, 318)),  # a title in large type: one row, however tall
    ((300, 308), "a row of text", (72, 296, 200, 314)),  # a box Tesseract stretched past its row's ink
])
def test_a_tall_line_over_one_row_of_ink_is_not_read_again(rows, text, box):
    ink, lines = _page()
    ink[rows[0]:rows[1], 72:200] = True
    tall = _line(text, box)
    out = rows_read_again(lines + [tall], ink, 1.0, reader := Reader({}))
    assert reader.boxes == [] and out == lines + [tall]


def test_rows_that_do_not_read_as_words_are_read_once():
    ink, lines = _page()
    tall = _line("Sere", (72, 200, 110, 218))
    piece = _line("d selecti", (180, 200, 215, 218))  # a second tall line of the same rows
    rows_read_again(lines + [tall, piece], ink, 1.0, reader := Reader({203: "-25 0 2", 214: "Search strategy"}))
    assert len(reader.boxes) == 2


def test_rows_parted_by_a_wide_blank_are_left_as_read():
    """Two columns' rows side by side (or a formula and its number) were read apart already."""
    ink, lines = _page()
    ink[200:207, 200:240] = True  # the upper row's ink goes on 70 points right of the heading
    tall = _line("Sere", (72, 200, 110, 218))
    rest = _line("earch strategy and selection", (76, 210, 250, 218))
    out = rows_read_again(lines + [tall, rest], ink, 1.0, reader := Reader({203: "METHODS", 214: "Search"}))
    assert reader.boxes == [] and out == lines + [tall, rest]

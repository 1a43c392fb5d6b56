"""Equation numbers on OCR'd pages read again on their own (extractors/ocr_labels.py): which ink is cut out and
read, and what replaces Tesseract's first reading. The page is a drawn array of ink (one pixel per point), the
reader a stand-in that records the boxes it is asked for, so each rule is checked apart from Tesseract; the last
test reads a number with Tesseract itself."""

from __future__ import annotations

import numpy as np
import pymupdf

from bench.ocr import rasterized
from extractors import ocr
from extractors.model import Line, Span
from extractors.ocr_data import tessdata
from extractors.ocr_labels import relabel

LEFT, RIGHT, SIZE = 72, 540, 10


def _line(text: str, box: tuple[float, float, float, float]) -> Line:
    return Line(text, 1, box, SIZE, "GlyphLessFont", spans=[Span(text, box, SIZE, "GlyphLessFont")])


def _page(*blobs: tuple[int, int, int, int]) -> tuple[np.ndarray, list[Line]]:
    """A page of six prose lines ending at RIGHT, and ink in each (x0, y0, x1, y1) of `blobs`."""
    ink = np.zeros((792, 612), dtype=bool)
    lines = []
    for n in range(6):
        y = 100 + 14 * n
        ink[y + 2:y + 9, LEFT:RIGHT] = True
        lines.append(_line("running text of a paragraph set across the column", (LEFT, y, RIGHT, y + 10)))
    for x0, y0, x1, y1 in blobs:
        ink[y0:y1, x0:x1] = True
    return ink, lines


class Reader:
    def __init__(self, text: str = "(1)"):
        self.text, self.boxes = text, []

    def __call__(self, box):
        self.boxes.append(box)
        return self.text


FORMULA, NUMBER = (250, 300, 350, 330), (526, 310, 540, 320)


def test_a_misread_number_at_the_edge_beside_a_formula_is_read_again_and_replaces_the_misreading():
    ink, lines = _page(FORMULA, NUMBER)
    misread = _line("”", (524, 300, 541, 330))  # the number read with the formula's height, as a quote mark
    out = relabel(lines + [misread], ink, 1.0, reader := Reader())
    assert len(reader.boxes) == 1
    x0, y0, x1, y1 = reader.boxes[0]
    assert x0 < NUMBER[0] and x1 > NUMBER[2] and y0 < NUMBER[1] and y1 > NUMBER[3]
    assert misread not in out
    (number,) = [line for line in out if line.text == "(1)"]
    assert abs(number.bbox[0] - NUMBER[0]) <= 1 and abs(number.bbox[2] - NUMBER[2]) <= 1


def test_a_number_tesseract_dropped_with_its_formula_is_added():
    ink, lines = _page(FORMULA, NUMBER)
    out = relabel(lines, ink, 1.0, Reader("(12)"))
    assert [line.text for line in out if line not in lines] == ["(12)"]


def test_stray_strokes_around_a_reading_do_not_hide_the_number():
    ink, lines = _page(FORMULA, NUMBER)
    assert "(6)" in [line.text for line in relabel(lines, ink, 1.0, Reader("(6)|\n"))]


def test_ink_that_runs_on_from_the_formula_is_not_read():
    ink, lines = _page((250, 305, 530, 320))  # a formula reaching the edge: no blank before a number
    assert relabel(lines, ink, 1.0, reader := Reader()) == lines and reader.boxes == []


def test_ink_covered_by_a_line_of_prose_or_a_number_already_read_is_not_read_again():
    ink, lines = _page(FORMULA, NUMBER)
    read = _line("(1)", (526, 310, 540, 320))
    assert relabel(lines + [read], ink, 1.0, reader := Reader()) == lines + [read] and reader.boxes == []


def test_ink_that_goes_on_past_the_edge_is_the_next_columns_text_not_a_number():
    ink, lines = _page(FORMULA, (526, 310, 600, 320))
    assert relabel(lines, ink, 1.0, reader := Reader()) == lines and reader.boxes == []


def test_a_reading_that_is_not_an_equation_number_changes_nothing():
    ink, lines = _page(FORMULA, NUMBER)
    misread = _line("”", (524, 300, 541, 330))
    for text in ("12", "Notes", "(a)", ""):
        assert relabel(lines + [misread], ink, 1.0, Reader(text)) == lines + [misread]


def test_a_number_over_words_does_not_replace_them():
    ink, lines = _page(FORMULA, NUMBER)
    words = _line("a line of words", (500, 305, 541, 325))
    assert relabel(lines + [words], ink, 1.0, Reader()) == lines + [words]


def test_without_prose_there_is_no_edge_and_nothing_is_read():
    ink, _ = _page(FORMULA, NUMBER)
    short = [_line("a short line", (LEFT, 100 + 14 * n, RIGHT, 110 + 14 * n)) for n in range(6)]
    assert relabel(short, ink, 1.0, reader := Reader()) == short and reader.boxes == []


def test_a_left_column_number_is_read_though_the_next_columns_text_is_close():
    """On a page of two columns the strip ends short of the right column's text, whose ink would otherwise make
    the number look like part of a line running on."""
    ink, lines = _page(FORMULA, NUMBER)
    for n in range(6):  # a right column 16 points from the left one's edge, its rows level with the number's
        y = 300 + 14 * n
        ink[y + 2:y + 9, RIGHT + 16:600] = True
        lines.append(_line("running text of the right column beside it", (RIGHT + 16, y, 600, y + 10)))
    assert "(1)" in [line.text for line in relabel(lines, ink, 1.0, Reader())]


def test_tesseract_reads_a_number_cut_out_of_a_scanned_page(tmp_path):
    """The cut-out is read in colour and placed at the origin: MuPDF's OCR returns no text otherwise."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((200, 320), "f(x) = a + b", fontname="tiit", fontsize=10)
    page.insert_text((525, 320), "(17)", fontname="tiro", fontsize=10)
    scanned = pymupdf.open(stream=rasterized(doc.tobytes(), 200), filetype="pdf")
    text = ocr._read_alone(scanned[0], (520, 308, 548, 326), ocr.DPI, tessdata(), None)
    assert text.strip() == "(17)"

"""The graphics of a scanned page: the ink no word covers, gathered into regions (extractors/ocr_graphics.py)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.ocr import rasterized, regions_found
from extractors.model import Line, Span
from extractors.ocr_graphics import drawn_regions, ink_within
from extractors.pipeline import parse_pdf
from tests.pdf_factory import floats_paper, write

SIZE = 10


def _word_line(words: list[tuple[str, tuple[float, float, float, float]]]) -> Line:
    spans = [Span(text, box, SIZE, "GlyphLessFont") for text, box in words]
    box = (min(b[0] for _, b in words), min(b[1] for _, b in words), max(b[2] for _, b in words),
           max(b[3] for _, b in words))
    return Line(" ".join(text for text, _ in words), 1, box, SIZE, "GlyphLessFont", spans=spans)


def _page() -> tuple[np.ndarray, list[Line]]:
    """A page at one pixel per point: two lines of words, their ink inside their boxes."""
    ink = np.zeros((792, 612), dtype=bool)
    lines = []
    for y in (100, 114):
        words = [(f"word{n}", (72 + 60 * n, y, 122 + 60 * n, y + 10)) for n in range(7)]
        for _, (x0, y0, x1, y1) in words:
            ink[y0 + 2:y1 - 1, x0:x1] = True
        lines.append(_word_line(words))
    return ink, lines


def test_ink_outside_the_words_is_a_region_and_the_words_are_not():
    ink, lines = _page()
    ink[300:302, 100:300] = True  # a figure: a frame and a curve inside it
    ink[400:402, 100:300] = True
    ink[300:402, 100:102] = True
    ink[300:402, 298:300] = True
    ink[340:345, 120:280] = True
    regions = drawn_regions(ink, lines, 1.0)
    assert len(regions) == 1
    assert regions[0] == pytest.approx((100, 300, 300, 402), abs=3)


def test_a_label_read_inside_a_figure_does_not_split_it():
    ink, lines = _page()
    ink[300:400, 100:102] = True  # an axis, its label read as a word beside it, and the plot's line
    ink[398:400, 100:300] = True
    ink[350:358, 104:120] = True
    lines.append(_word_line([("x", (104, 349, 120, 359))]))
    ink[330:333, 110:290] = True
    assert drawn_regions(ink, lines, 1.0) == [pytest.approx((100, 300, 300, 400), abs=3)]


def test_marks_read_without_a_letter_or_digit_stay_graphics():
    """Tesseract reads an arrow as '——_>': its ink is the figure's, not a word's."""
    ink, lines = _page()
    ink[500:503, 200:260] = True
    lines.append(_word_line([("——_>", (200, 496, 260, 506))]))
    assert drawn_regions(ink, lines, 1.0) == [pytest.approx((200, 500, 260, 503), abs=3)]


def test_a_rule_read_as_letters_stays_a_rule():
    """Tesseract reads a table's bottom rule as 'TT' as wide as the table: no word is that wide for two letters."""
    ink, lines = _page()
    ink[600:602, 100:300] = True
    lines.append(_word_line([("TT", (100, 596, 300, 605))]))
    assert drawn_regions(ink, lines, 1.0) == [pytest.approx((100, 600, 300, 602), abs=3)]


def test_strokes_a_blank_cell_apart_are_one_region_and_farther_apart_two():
    ink, lines = _page()
    ink[300:302, 100:200] = True
    ink[305:307, 100:200] = True  # 3 points below: one blank cell between, the same drawing
    ink[400:402, 100:200] = True
    ink[400:402, 202:300] = True  # 2 points on: one blank cell
    ink[500:502, 100:200] = True
    ink[500:502, 210:300] = True  # 10 points on: two drawings
    regions = sorted(drawn_regions(ink, lines, 1.0))
    assert regions == [pytest.approx(b, abs=1) for b in
                       sorted([(100, 300, 200, 307), (100, 400, 300, 402), (100, 500, 200, 502), (210, 500, 300, 502)])]


def test_specks_and_the_scan_s_dark_edges_are_no_graphics():
    ink, lines = _page()
    ink[600:603, 300:303] = True  # a speck of scanner noise
    ink[650:658, 300:303] = True  # a digit Tesseract left unread
    ink[:, 0:5] = True  # the shadow along a scanned page's edge
    ink[700, 100:400:9] = True  # single pixels, a dotted trace of noise
    assert drawn_regions(ink, lines, 1.0) == []


def test_regions_are_measured_in_points_at_any_resolution():
    ink, lines = _page()
    ink[300:402, 100:300] = True
    finer = np.repeat(np.repeat(ink, 4, axis=0), 4, axis=1)  # 4 pixels per point; the words' boxes stay in points
    assert drawn_regions(finer, lines, 4.0) == [pytest.approx((100, 300, 300, 402), abs=3)]


def test_a_scanned_paper_s_figures_and_tables_keep_their_regions(tmp_path):
    """A figure of drawn boxes holds no word, so without its ink as graphics the scan's figure was its caption
    alone; the rasterized copy places every float where the original's text layer does."""
    data, truth = floats_paper(2)
    original = parse_pdf(write(tmp_path, "original.pdf", data))
    scanned = parse_pdf(write(tmp_path, "scanned.pdf", rasterized(data, 200)))
    floats = [(f.kind, f.label, f.page, f.bbox) for f in original.figures + original.tables]
    assert len(floats) == len(truth.figures) + len(truth.tables)
    assert regions_found([(f.kind, f.label, f.page, f.bbox) for f in scanned.figures + scanned.tables],
                         floats) == len(floats)


def test_a_box_reaching_off_the_page_is_clipped_to_it():
    """A box's pixels are cut from the page it lies on: a box partly off the page gets the pixels under it (and
    where they start), one wholly off any edge none, never those of the page's far edge (a negative slice end)."""
    ink = np.arange(100 * 200).reshape(100, 200) % 7 == 0
    part, x, y = ink_within(ink, (-10, -5, 20, 10), 2.0)
    assert (x, y) == (0, 0) and np.array_equal(part, ink[0:21, 0:41])
    for box in ((10, -40, 50, -10), (-60, 10, -20, 20), (150, 10, 200, 20), (10, 60, 50, 90)):
        assert ink_within(ink, box, 2.0)[0].size == 0

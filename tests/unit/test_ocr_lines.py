"""OCR'd lines put back together as printed (extractors/ocr_lines.py): a row Tesseract read across a narrow
gutter is cut into its two columns' lines, a section number read apart from its title is joined to it, specks and
second readings of a heading's ink are dropped, and a sub-section number that lost its dot gets it back. The lines are built as Tesseract's come back (a span per
word, no spaces in the spans); the last test checks the whole route on a scanned two-column page."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pymupdf

from bench.ocr import rasterized
from extractors.model import Line, PageLayout, Span
from extractors.ocr_lines import _gutters, as_printed, fitted_to_ink, with_dots
from extractors.pipeline import parse_pdf
from tests.pdf_factory import write

WIDTH = 612.0
LEFT_COLUMN, RIGHT_COLUMN = (72.0, 300.0), (312.0, 540.0)  # a 12-point gutter


def _line(words: list[tuple[str, float]], y: float, size: float = 10.0) -> Line:
    """A line of words, each (text, x0), a word's width 6 points per character."""
    spans = [Span(text, (x, y, x + 6 * len(text), y + size), size, "GlyphLessFont") for text, x in words]
    box = (spans[0].bbox[0], y, spans[-1].bbox[2], y + size)
    return Line(" ".join(text for text, _ in words), 1, box, size, "GlyphLessFont", spans=spans)


def _words(text: str, x: float) -> list[tuple[str, float]]:
    out = []
    for word in text.split():
        out.append((word, x))
        x += 6 * len(word) + 4
    return out


def _column_rows(n: int, y0: float = 100) -> list[Line]:
    """n rows of each column, justified: eight words spread from the column's left edge to its right edge."""
    rows = []
    for k in range(n):
        for x0, x1 in (LEFT_COLUMN, RIGHT_COLUMN):
            step = (x1 - x0 - 24) / 7
            rows.append(_line([("word", x0 + step * i) for i in range(8)], y0 + 14 * k))
    return rows


def test_a_row_read_across_the_gutter_is_cut_into_its_two_columns():
    merged = _line(_words("that the pair is", 200) + [("|", 304)] + _words("3 Multiple Instance Learning", 312), 300)
    out = as_printed(_column_rows(20) + [merged], WIDTH)
    assert merged not in out
    texts = [line.text for line in out if line.bbox[1] == 300]
    assert sorted(texts) == ["3 Multiple Instance Learning", "that the pair is"]
    right = next(line for line in out if line.text.startswith("3 "))
    assert right.bbox[0] == 312 and [s.text for s in right.spans][0] == "3"


def test_a_word_whose_box_starts_just_inside_the_gutter_is_its_side_s():
    """Tesseract starts the box of the right column's first word where the mark it read in the gutter ends; the
    row is still two columns' (else the whole line sets the left column's right edge, and every line of it looks
    short enough for a heading)."""
    merged = _line(_words("set of posi-", 230) + [("_", 303)] + [("tences", 310), ("with", 352)], 300)
    out = as_printed(_column_rows(20) + [merged], WIDTH)
    assert sorted(line.text for line in out if line.bbox[1] == 300) == ["set of posi-", "tences with"]


def test_a_title_whose_word_space_falls_in_a_narrow_gutter_stays_whole():
    """Between columns 9 points apart, a word space of a title set across both lies in the gutter with both its
    words reaching into it: those words are over the gutter, not beside it."""
    rows = []
    for k in range(20):
        for x0, x1 in ((72.0, 300.0), (309.0, 540.0)):
            rows.append(_line([("word", x0 + (x1 - x0 - 24) / 7 * i) for i in range(8)], 100 + 14 * k))
    assert _gutters(rows, WIDTH) == [(300, 309)]
    title = _line([("Figure", 248.75), ("3:", 288.75), ("the", 284.75), ("rest", 306.25), ("of", 334.25),
                   ("it", 350.25)], 60)
    assert title in as_printed(rows + [title], WIDTH)


def test_a_row_crowded_past_any_page_s_is_left_as_read():
    """A hostile page can put thousands of lines on one row; they are not compared with one another (the cost
    would grow with their square), so none is taken for another's second reading."""
    crowd = [line for k in range(40) for line in (_line([("References", 20 + 14 * k)], 300),
                                                  _line([("feren", 22 + 14 * k)], 300))]
    assert as_printed(crowd, WIDTH) == crowd


def test_a_line_with_a_word_over_the_gutter_stays_whole():
    title = _line(_words("A Title Set Across Both Columns Of The Page", 160), 60)
    assert title.bbox[0] < 300 and title.bbox[2] > 312
    rows = _column_rows(20)
    assert _gutters(rows + [title], WIDTH) == [(300, 312)]
    assert title in as_printed(rows + [title], WIDTH)


def test_a_digit_or_a_word_over_the_gutter_keeps_the_line_whole():
    rows = _column_rows(20)
    for words in (_words("Results of Table", 200) + [("1", 301)] + _words("and More", 312),
                  _words("Deep Learning", 220) + [("I", 302)] + _words("A Survey", 312)):
        line = _line(words, 60)
        assert line in as_printed(rows + [line], WIDTH)


def test_a_bar_at_a_pieces_inner_end_is_dropped():
    merged = _line(_words("that the pair is", 200) + [("|", 312)] + _words("3 Multiple Instance Learning", 318), 300)
    out = as_printed(_column_rows(20) + [merged], WIDTH)
    assert "3 Multiple Instance Learning" in [line.text for line in out]


def test_the_gutter_read_as_underscores_or_dashes_is_still_a_gutter():
    rows = _column_rows(20)
    for k in range(0, 20, 2):  # Tesseract reads the blank of every other row as a mark
        mark = "_" if k % 4 else "—"
        rows[2 * k] = _line([("word", 72 + (228 - 24) / 7 * i) for i in range(8)] + [(mark, 304)], 100 + 14 * k)
    assert _gutters(rows, WIDTH) == [(300, 312)]


def test_marks_read_over_half_the_gutter_on_many_rows_leave_it_whole():
    """Tesseract reads the blank of an 18-point gutter as '__' from its middle to the next column on a quarter of
    the rows: those marks cover no column, so the gutter keeps its width, and a row read across it is cut."""
    rows = []
    for k in range(20):
        for x0, x1 in ((72.0, 288.0), (306.0, 528.0)):
            words = [("word", x0 + (x1 - x0 - 24) / 7 * i) for i in range(8)]
            rows.append(_line(([("__", 296)] if x0 > 300 and k % 4 == 0 else []) + words, 100 + 14 * k))
    merged = _line(_words("the medicinally used", 172) + [("__", 296)] + _words("decade as well", 306), 400)
    assert _gutters(rows, WIDTH) == [(288, 306)]
    out = [line.text for line in as_printed(rows + [merged], WIDTH) if line.bbox[1] == 400]
    assert sorted(out) == ["decade as well", "the medicinally used"]


def test_a_mark_as_wide_as_the_gutter_or_glued_to_a_word_still_cuts_the_row():
    """Tesseract reads a gutter's blank as marks as wide as the gutter ('—_'), or glues them to the words on
    either side ('a__route'); the row is still two columns' rows. A dash in a word or set apart, not in the
    gutter, leaves a title across both columns whole."""
    rows = _column_rows(20)
    wide = _line(_words("the routes are static", 180) + [("—_", 301)] + _words("dealing with highly", 312), 300)
    glued = _line(_words("willing to be", 200) + [("a__route", 293)] + _words("for reliable data", 345), 320)
    hyphened = _line(_words("Solving Navier–Stokes Equations with Neural Operators", 200), 60)
    dashed = _line(_words("Scaling Laws", 200) + [("———", 290)] + _words("A Survey", 316), 80)
    out = [line.text for line in as_printed(rows + [wide, glued, hyphened, dashed], WIDTH)]
    assert {"the routes are static", "dealing with highly", "willing to be a", "route for reliable data"} <= set(out)
    assert hyphened.text in out and dashed.text in out


def test_a_page_with_a_table_set_across_both_columns_keeps_its_gutter():
    """A table or figure set across the page has words over the gutter on a tenth of the page's lines; the gutter is
    still there above and below it."""
    rows = _column_rows(20)
    table = [_line([("h-pos,", 72), ("d-pos,", 150), ("dir(h,d),", 290), ("g-f/l", 380)], 400 + 12 * k) for k in range(4)]
    assert _gutters(rows + table, WIDTH) == [(300, 312)]


def test_each_gutter_of_a_three_column_page_cuts():
    columns = [(50.0, 200.0), (212.0, 362.0), (374.0, 524.0)]
    rows = [_line([("word", x0 + (x1 - x0 - 24) / 5 * i) for i in range(6)], 100 + 14 * k)
            for k in range(20) for x0, x1 in columns]
    merged = _line(_words("one two", 150) + _words("three four", 212) + _words("five six", 374), 400)
    assert _gutters(rows, WIDTH) == [(200, 212), (362, 374)]
    assert sorted(line.text for line in as_printed(rows + [merged], WIDTH) if line.bbox[1] == 400) == \
        ["five six", "one two", "three four"]


def test_a_page_of_one_column_is_not_cut():
    rows = [_line(_words("running text of a single wide column that spans the whole measure", 72), 100 + 14 * k)
            for k in range(8)]
    gap = _line(_words("words", 72) + _words("apart", 400), 300)
    assert as_printed(rows + [gap], WIDTH) == rows + [gap]


def test_a_section_number_read_apart_from_its_title_is_joined_to_it():
    number = _line([("5", 72)], 197, size=14)
    title = _line(_words("Two Types of Bias", 90), 203)
    out = as_printed([number, title], WIDTH)
    assert [line.text for line in out] == ["5 Two Types of Bias"]
    assert out[0].bbox[0] == 72


def test_a_sub_section_s_letter_and_stop_read_apart_are_joined_to_its_title():
    """IEEE numbers sub-sections 'A.', 'B.'; a capital without its stop is a word ('A Second Look')."""
    lines = [_line([("B.", 72)], 200), _line(_words("Simulation Results", 90), 200),
             _line([("A", 72)], 260), _line(_words("Second Look", 90), 260)]
    assert [line.text for line in as_printed(lines, WIDTH)] == ["A", "Second Look", "B. Simulation Results"]


def test_a_number_far_from_the_text_or_before_lower_case_is_not_joined():
    far = [_line([("5", 72)], 200), _line(_words("Two Types of Bias", 200), 200)]
    assert [line.text for line in as_printed(far, WIDTH)] == ["5", "Two Types of Bias"]
    prose = [_line([("12", 72)], 200), _line(_words("items were kept", 90), 200)]
    assert [line.text for line in as_printed(prose, WIDTH)] == ["12", "items were kept"]


def test_a_number_is_not_joined_to_text_across_the_gutter():
    # on a row of its own: boxed over a row's word of letters, a digit is a second reading of that word's ink
    number = _line([("12", 284)], 400)
    text = _line(_words("The next row of the right column", 312), 400)
    out = as_printed(_column_rows(20) + [number, text], WIDTH)
    assert number in out and text in out


def test_a_speck_inside_a_headings_box_is_dropped_and_one_beside_it_is_kept():
    heading = _line(_words("1.3 Smooth Sensitivity", 55), 351, size=12)
    inside = _line([("ee", 100)], 352)
    beside = _line([(".", 300)], 352)
    label = _line([("(1)", 120)], 352)  # digits and parentheses are a number, never a speck
    out = as_printed([heading, inside, beside, label], WIDTH)
    assert inside not in out and heading in out and beside in out and label in out


def test_the_dot_of_an_i_read_on_its_own_over_a_heading_is_dropped():
    """Tesseract reads the dot of a bold heading's 'i' as a '.' of its own, boxed up out of the word's box; beside
    the heading, it would make its row none. A mark over the gap between two lines, beside a word, or hanging from
    a line into the next (a table's dash under its header) is kept."""
    heading = _line(_words("Materials and Methods", 312), 202, size=10)
    tittle = _line([(".", 350)], 197.5, size=7)  # reaches 2.5 points into the heading's box, over 'Materials'
    between = _line([(".", 350)], 180, size=7)  # over the heading, not into its box
    beside = _line([("*", 450)], 200, size=7)  # past the heading's last word
    header = _line(_words("Accuracy", 312), 300, size=10)
    dash = _line([("—", 320)], 308, size=10)  # the cell under the header, its box reaching up into the header's
    out = as_printed([heading, tittle, between, beside, header, dash], WIDTH)
    assert tittle not in out and heading in out and between in out and beside in out and dash in out


def test_a_digit_read_in_a_heading_s_word_space_is_dropped_and_one_beside_a_number_kept():
    """Tesseract reads the tail of a 'g' and the word space after it as an '8' on a line of its own; over a word of
    letters or the space between two no number is printed. A digit over another number, or raised between two words
    (a citation mark), is left as read."""
    heading = _line([("5", 72), ("Learning", 90), ("Framework", 150)], 170, size=12)
    tail = _line([("8", 141)], 173)
    equation = _line([("x=2y+1", 100), ("and", 150), ("more", 180)], 300)
    over_number = _line([("1", 110)], 301)
    prose = _line([("results", 72), ("by", 120), ("Smith", 156), ("and", 200), ("Jones", 226)], 400)
    citation = _line([("12", 187)], 399, size=5)  # raised between 'Smith' and 'and'
    out = as_printed([heading, tail, equation, over_number, prose, citation], WIDTH)
    assert tail not in out and heading in out and over_number in out and citation in out


def test_a_second_garbled_reading_of_a_heading_is_dropped_and_its_number_kept():
    """Tesseract sometimes reads a bold heading twice, as a few broken words over the whole reading; beside the
    heading, the broken reading would make its row none and take its number."""
    title = _line(_words("Imitation Learning in Matrix Games", 76), 286, size=11)
    broken = _line([("3.", 56), ("Imi", 71), ("L", 130)], 286, size=11)
    speck = _line([("oe", 200)], 287, size=10)
    out = as_printed([broken, title, speck], WIDTH)
    assert [line.text for line in out] == ["3. Imitation Learning in Matrix Games"]


def test_two_lines_boxed_over_two_rows_or_reading_differently_are_both_kept():
    """Boxes Tesseract did not fit to one row (taller than two of the page's lines) overlap their neighbours'
    and may read alike ('where p is the piezoresistive coefficient' over 'the piezoresistive coefficient of'):
    both are lines. So are two lines of one row's height boxed over each other that read differently."""
    tall = _line(_words("where p is the piezoresistive coefficient", 72), 100, size=26)
    below = _line(_words("the piezoresistive coefficient of the resistor", 72), 108, size=26)
    page = [_line(_words("text of the paper", 72), 200 + 12 * k, size=10) for k in range(9)]
    assert tall in as_printed([tall, below, *page], WIDTH)
    first = _line(_words("The results of the first", 72), 100)
    other = _line(_words("experiment are shown below here", 80), 101)
    assert first in as_printed([first, other], WIDTH)


def test_a_sub_section_number_that_lost_its_dot_is_read_by_its_siblings():
    page = PageLayout(1, WIDTH, 792, lines=[_line(_words("1 Introduction", 72), 100),
                                           _line(_words("11 Privacy Definition", 72), 200),
                                           _line(_words("1.2 Calibrating Noise", 72), 300),
                                           _line(_words("12 cats were seen", 72), 400)])
    assert [line.text for line in with_dots([page], [1])[0].lines] == \
        ["1 Introduction", "1.1 Privacy Definition", "1.2 Calibrating Noise", "12 cats were seen"]
    assert with_dots([page], [])[0] == page  # a page with a text layer is left as it is
    alone = replace(page, lines=page.lines[:2])  # no sibling: '11' may be section 11
    assert with_dots([alone], [1])[0] == alone
    printed = replace(page, lines=[*page.lines, _line(_words("1.1 Privacy", 72), 500)])
    assert with_dots([printed], [1])[0].lines[1].text == "11 Privacy Definition"


def test_only_a_short_title_between_its_siblings_gets_its_dot_back_and_once():
    texts = ["13 Early Remarks",  # its sibling 1.2 comes after it, and no 1.4: not a sub-section
             "1.2 Calibrating Noise", "19 May 2020 was the deadline", "21 Smith J, Jones K. A study. Nature, 2019.",
             "21 Data Sets", "21 Data Sets Again", "2.2 Results", "1.5 Million samples were drawn from the data."]
    page = PageLayout(1, WIDTH, 792, lines=[_line(_words(text, 72), 100 + 20 * k) for k, text in enumerate(texts)])
    out = [line.text for line in with_dots([page], [1])[0].lines]
    assert out == [*texts[:4], "2.1 Data Sets", *texts[5:]]


def scanned_two_columns() -> tuple[bytes, list[str]]:
    """A page of two justified columns 12 points apart, each with bold numbered headings, rasterized; and the
    headings' titles."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=792)
    prose = " ".join(["The method keeps every element with the page and the box it was printed in, so that "
                      "answers can be traced back to their place."] * 3)
    titles = {LEFT_COLUMN: ["1 Introduction", "2 Problem Description"],
              RIGHT_COLUMN: ["3 Multiple Instance Learning", "4 Relation Extraction Kernel"]}
    for (x0, x1), heads in titles.items():
        y = 80.0 if x0 == LEFT_COLUMN[0] else 140.0  # the right column's headings beside the left's prose
        for title in heads:
            page.insert_text((x0, y + 10), title, fontname="tibo", fontsize=11)
            y += 20
            rect = pymupdf.Rect(x0, y, x1, y + 150)
            page.insert_textbox(rect, prose, fontname="tiro", fontsize=10, align=pymupdf.TEXT_ALIGN_JUSTIFY)
            y += 160
    return rasterized(doc.tobytes(), 200), [t.split(" ", 1)[1] for heads in titles.values() for t in heads]


def test_a_scanned_two_column_page_with_a_narrow_gutter_keeps_its_headings(tmp_path):
    """Tesseract reads rows of both columns as one line across a narrow gutter; the headings come back as
    sections all the same."""
    data, titles = scanned_two_columns()
    found = [s.title for s in parse_pdf(write(tmp_path, "scan.pdf", data)).sections]
    assert all(title in found for title in titles), found


def _inked(rows: list[tuple[int, int, int]]) -> np.ndarray:
    """A page at one pixel per point with a line's ink in each (top, x-height top, bottom) of `rows`: ascenders
    here and there from the top, the x-height band solid, descenders here and there to the bottom."""
    ink = np.zeros((400, 612), dtype=bool)
    for top, middle, bottom in rows:
        ink[top:middle, 72:300:9] = True
        ink[middle:bottom - 2, 72:300] = True
        ink[bottom - 2:bottom, 80:300:15] = True
    return ink


def test_a_line_s_box_is_set_to_its_ink():
    """Tesseract's boxes come back too tall and shifted (here 6 points above the ink and short of the descenders):
    the white space above a heading must show between the boxes."""
    ink = _inked([(100, 103, 109), (125, 128, 134)])
    lines = [_line(_words("the running text of a paragraph set", 72), 94, size=14),
             _line(_words("2. A HEADING AFTER SPACE", 72), 119, size=14)]
    fitted = fitted_to_ink(lines, ink, 1.0)
    assert [line.bbox[1::2] for line in fitted] == [(100, 109), (125, 134)]
    assert all(span.bbox[1::2] == line.bbox[1::2] for line in fitted for span in line.spans)
    assert [line.bbox[0::2] for line in fitted] == [line.bbox[0::2] for line in lines]


def test_a_line_whose_ink_runs_into_its_neighbour_s_keeps_its_box():
    ink = _inked([(100, 103, 111)])
    ink[111:125, 72:300] = True  # no blank row down to the next line's ink: where one ends is not known
    line = _line(_words("the running text of a paragraph set", 72), 100, size=10)
    assert fitted_to_ink([line], ink, 1.0)[0].bbox == line.bbox
    assert fitted_to_ink([line], np.zeros((400, 612), dtype=bool), 1.0)[0].bbox == line.bbox


def test_a_box_stretched_over_two_rows_alike_keeps_its_place():
    """Tesseract sometimes stretches a line's box down to the next line's baseline: which row is the line's own is
    not known, and setting it to the next row's ink would leave its words' ink unclaimed."""
    ink = _inked([(100, 103, 109), (112, 115, 121)])
    line = _line(_words("the running text of a paragraph set", 72), 101, size=19)  # rows 101-120
    assert fitted_to_ink([line], ink, 1.0)[0].bbox == line.bbox
    sliver = _line(_words("the running text of a paragraph set", 72), 107, size=14)  # two rows of the one, 9 of this
    assert fitted_to_ink([sliver], ink, 1.0)[0].bbox[1::2] == (112, 121)


def test_a_box_stretched_up_over_a_short_line_is_set_to_the_heading_that_holds_most_of_its_ink():
    """A heading's box sometimes reaches up over the last, short line of the paragraph above ('of an appropriate
    value for C.' over '4. Duality and Efficient Optimization'): it holds about as many of that line's rows as of
    its own, but far less of its ink."""
    ink = np.zeros((400, 612), dtype=bool)
    ink[100:109, 72:160:2] = True  # the paragraph's last line: short, light
    ink[124:136, 72:290] = True  # the heading: a full row of bold type
    heading = replace(_line(_words("4. Duality and Efficient Optimization", 72), 100, size=44),  # rows 100-144
                      size=20)  # Tesseract's size for it
    assert fitted_to_ink([heading], ink, 1.0)[0].bbox[1::2] == (124, 136)
    speck = _line([("oe", 200)], 125, size=9)  # a second reading of a few of the heading's letters claims no row
    assert fitted_to_ink([heading, speck], ink, 1.0)[0].bbox[1::2] == (124, 136)


def test_a_short_line_s_box_stretched_down_over_a_heading_stays_on_its_own_row():
    """The other way round: the short line's box reaches down over the heading, which has a box of its own there.
    The heading's row is the heading's, so the short line keeps its own, lighter row."""
    ink = np.zeros((400, 612), dtype=bool)
    ink[100:109, 72:160:2] = True
    ink[124:136, 72:290] = True
    short = replace(_line(_words("value for C.", 72), 100, size=44), size=10)
    heading = _line(_words("4. Duality and Efficient Optimization", 72), 124, size=12)
    fitted = fitted_to_ink([short, heading], ink, 1.0)
    assert [line.bbox[1::2] for line in fitted] == [(100, 109), (124, 136)]


def test_a_band_too_thin_for_the_line_s_type_keeps_its_box():
    """The middle of a box set low falls on the descenders or on a rule under the line, not on its letters."""
    ink = np.zeros((400, 612), dtype=bool)
    ink[106:108, 72:300] = True  # a rule two points thick where the box's middle is
    line = _line(_words("the running text of a paragraph set", 72), 100, size=10)
    assert fitted_to_ink([line], ink, 1.0)[0].bbox == line.bbox

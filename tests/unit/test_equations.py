import pymupdf
import pytest

from extractors.equations import find_equations
from extractors.layout import read_layout
from extractors.model import Float, Line, PageLayout, Span
from tests.pdf_factory import (dashed_numbering_paper, equation_array_paper, equation_numbering_paper, equations_paper,
                               full_measure_equation_paper, low_equations_paper, wide_display_paper)

SHA = "0" * 64


@pytest.fixture(scope="module")
def paper():
    data, truth = equations_paper()
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    return pages, truth, find_equations(pages, SHA)


def test_numbered_displays_with_label_page_and_formula(paper):
    _, truth, equations = paper
    assert [(e.label, e.page, e.text) for e in equations if e.label] == truth.numbered


def test_unnumbered_display_without_label(paper):
    _, truth, equations = paper
    assert [(e.page, e.text) for e in equations if e.label is None] == truth.unnumbered


def test_prose_ending_in_eq_reference_or_year_is_not_an_equation(paper):
    _, _, equations = paper
    assert not any("Eq." in e.text or "2019" in e.text for e in equations)


def test_a_number_set_right_after_a_formula_that_fills_the_measure_is_its_label():
    """No gap before the label: a formula's end in math type and no word ('(1 + q) + ab.(1)') is numbered by it;
    prose in the same type that cites a number the same way ('as shown before in Eq.(2)') is not."""
    data, truth = full_measure_equation_paper()
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    assert [(e.label, e.page) for e in find_equations(pages, SHA) if e.label] == [(l, p) for l, p, _ in truth.numbered]


@pytest.mark.parametrize("symbols", [False, True], ids=["relation", "math font"])
def test_equation_numbers_low_on_two_pages_at_one_place_are_no_running_foot(symbols):
    data, truth = low_equations_paper(symbols)
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    assert all(p.lines[-1].bbox[1] > 0.87 * p.height for p in pages[:2])  # the display is in the bottom band
    assert [(e.label, e.page, e.text) for e in find_equations(pages, SHA) if e.label] == truth.numbered


def test_box_spans_formula_and_label(paper):
    pages, _, equations = paper
    first = next(e for e in equations if e.label == "1")
    label = next(l for l in pages[0].lines if l.text.strip().endswith("(1)") and "Eq." not in l.text)
    assert first.bbox[2] >= label.bbox[2] - 1 and first.bbox[0] < label.bbox[0] - 100


def span(text: str, x0: float, x1: float, y: float, font: str = "Times-Roman") -> Span:
    return Span(text=text, bbox=(x0, y, x1, y + 10), size=10, font=font)


def test_label_inside_a_figure_region_is_ignored():
    text = "Running text of the paper fills the column from one edge to the other, set in a plain roman font."
    body = [Line(text=text, page=1, bbox=(72, 100 + 12 * i, 540, 110 + 12 * i), size=10, font="Times-Roman")
            for i in range(3)]
    cell = Line(text="a = b (3)", page=1, bbox=(280, 300, 540, 310), size=10, font="CMMI10",
                spans=[span("a = b", 280, 310, 300, "CMMI10"), span("(3)", 525, 540, 300)])
    pages = [PageLayout(page=1, width=612, height=792, lines=[*body, cell])]
    assert [e.label for e in find_equations(pages, SHA)] == ["3"]
    figure = Float(id="f", kind="figure", label="1", caption="c", page=1, bbox=(150, 280, 545, 320),
                   caption_bbox=(150, 310, 545, 320))
    assert find_equations(pages, SHA, [figure]) == []


def test_a_label_whose_span_opens_with_the_wide_gap_before_it():
    """OCR text layers stretch the space before a word to the word's place: the label's span opens with the gap
    (" (2)" from 227 pt, its "(" at 237 pt). Ordinary word spacing in such a span is a reference in prose."""
    body = [Line(text="Running text of the paper fills the column from one edge to the other, set in roman type.",
                 page=1, bbox=(72, 100 + 12 * i, 254, 110 + 12 * i), size=10, font="Times-Roman") for i in range(3)]
    display = Line(text="v = S tanh [x + t], (2)", page=1, bbox=(119, 300, 254, 310), size=10, font="Times-Bold",
                   spans=[span("v = S tanh [x + t],", 119, 227, 300), span(" (2)", 227, 254, 300)])
    prose = Line(text="as the Ansatz of Eq. (3)", page=1, bbox=(140, 340, 254, 350), size=10, font="Times-Roman",
                 spans=[span("as the Ansatz of Eq.", 140, 236, 340), span(" (3)", 236, 254, 340)])
    pages = [PageLayout(page=1, width=300, height=792, lines=[*body, display, prose])]
    assert [e.label for e in find_equations(pages, SHA)] == ["2"]


def test_an_argument_zero_at_the_end_of_a_display_is_no_number():
    """Displays are numbered from 1: a formula ending in its argument '(0)' after a wide gap, at the column's edge,
    is no display numbered 0, while the same row ending in '(1)' is one."""
    body = [Line(text="Running text of the paper fills the column from one edge to the other, set in roman type.",
                 page=1, bbox=(72, 100 + 12 * i, 540, 110 + 12 * i), size=10, font="Times-Roman") for i in range(3)]

    def labels(tag: str) -> list[str | None]:
        display = Line(text=f"E[f(S)] = f {tag}", page=1, bbox=(280, 300, 540, 310), size=10, font="CMMI10",
                       spans=[span("E[f(S)] = f", 280, 330, 300, "CMMI10"), span(tag, 525, 540, 300)])
        return [e.label for e in find_equations([PageLayout(page=1, width=612, height=792, lines=[*body, display])],
                                                SHA)]
    assert labels("(1)") == ["1"]
    assert "0" not in labels("(0)")


@pytest.fixture(scope="module")
def numbering():
    data, truth = equation_numbering_paper()
    return truth, find_equations(read_layout(pymupdf.open(stream=data, filetype="pdf")), SHA)


def test_section_appendix_and_left_numbers_in_two_columns(numbering):
    truth, equations = numbering
    assert [(e.label, e.page, e.text) for e in equations if e.label] == truth.numbered


def test_a_list_label_at_the_left_edge_before_prose_is_no_equation(numbering):
    _, equations = numbering
    assert not any("item" in e.text for e in equations)


def test_a_display_as_wide_as_a_two_column_page_is_numbered_at_the_page_edge():
    data, truth = wide_display_paper()
    equations = find_equations(read_layout(pymupdf.open(stream=data, filetype="pdf")), SHA)
    assert [(e.label, e.page, e.text) for e in equations] == truth.numbered


def test_each_numbered_row_of_an_equation_array_is_its_own_equation():
    """Rows numbered one by one are as many equations, each with its own formula (a row's neighbours belong to
    their own numbers); a display numbered once on its last row keeps both its rows."""
    data, truth = equation_array_paper()
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    equations = find_equations(pages, SHA)
    assert [(e.label, e.page, e.text) for e in equations if e.label] == truth.numbered


def test_chapter_numbers_joined_by_a_hyphen_label_displays_and_prose_stays_prose():
    data, truth = dashed_numbering_paper()
    equations = find_equations(read_layout(pymupdf.open(stream=data, filetype="pdf")), SHA)
    assert [(e.label, e.page, e.text) for e in equations if e.label] == truth.numbered
    assert not any("pages" in e.text for e in equations)


def test_a_number_set_under_a_formula_that_fills_the_measure_numbers_it():
    """A display as wide as its column leaves its number no room: TeX sets the number flush right on the line
    below. It numbers the formula over it; a '(2)' under a line of prose stays prose's."""
    text = "Running text of the paper fills the column from one edge to the other, set in roman."
    body = [Line(text=text, page=1, bbox=(54, 100 + 12 * i, 300, 110 + 12 * i), size=10, font="Times-Roman")
            for i in range(3)]
    formula = Line(text="E = D ∪ P ∪ M, F = {E1, E2, . . . , En},", page=1, bbox=(56, 300, 298, 310), size=10,
                   font="CMSY10", spans=[span("E = D ∪ P ∪ M, F = {E1, E2, . . . , En},", 56, 298, 300, "CMSY10")])
    number = Line(text="(1)", page=1, bbox=(284, 312, 298, 322), size=10, font="Times-Roman",
                  spans=[span("(1)", 284, 298, 312)])
    after = Line(text=text, page=1, bbox=(54, 324, 300, 334), size=10, font="Times-Roman")
    pages = [PageLayout(page=1, width=612, height=792, lines=[*body, formula, number, after])]
    assert [e.label for e in find_equations(pages, SHA)] == ["1"]
    prose = Line(text=text, page=1, bbox=(54, 300, 300, 310), size=10, font="Times-Roman")
    pages = [PageLayout(page=1, width=612, height=792, lines=[*body, prose, number, after])]
    assert find_equations(pages, SHA) == []

from dataclasses import replace

import pymupdf
import pytest

from extractors.equations import find_equations
from extractors.floats import _in_ruled_grid, find_floats
from extractors.layout import read_layout
from extractors.model import Line, PageLayout, Span
from extractors.pipeline import parse_pdf
from tests.pdf_factory import (SIDEWAYS_ROWS, STACKED_HEAD, figure_under_display_paper, floats_paper, image_table_paper,
                               labels_atop_pages_paper, numbered_scheme_paper, part_numbered_paper, plain_caption_paper,
                               rotated_in_column_paper, rule_under_caption_paper, stacked_tables_paper,
                               table_conventions_paper, write)

SHA = "0" * 64


def layout(data: bytes) -> list[PageLayout]:
    return read_layout(pymupdf.open(stream=data, filetype="pdf"))


@pytest.fixture(scope="module", params=[1, 2], ids=["one-column", "two-column"])
def paper(request):
    data, truth = floats_paper(request.param)
    pages = layout(data)
    return pages, truth, find_floats(pages, SHA)


def test_each_captioned_float_found_once_with_label_page_and_full_caption(paper):
    _, truth, (figures, tables) = paper
    assert [(f.label, f.page, f.caption) for f in figures] == truth.figures
    assert [(t.label, t.page, t.caption) for t in tables] == [(l, p, c) for l, p, c, _ in truth.tables]


def test_table_cells_are_recovered_as_rows(paper):
    _, truth, (_, tables) = paper
    assert [t.rows for t in tables] == [rows for *_, rows in truth.tables]


def test_region_holds_the_graphics_and_the_caption(paper):
    pages, _, (figures, tables) = paper
    for item in figures + tables:
        x0, y0, x1, y1 = item.bbox
        c0, c1, c2, c3 = item.caption_bbox
        assert x0 <= c0 and y0 <= c1 and x1 >= c2 and y1 >= c3
        assert y1 - y0 > (c3 - c1) + 30  # more than the caption: the drawing, image or cells
        graphics = pages[item.page - 1].images + pages[item.page - 1].drawings
        assert item.kind == "table" or any(g[0] >= x0 - 1 and g[1] >= y0 - 1 and g[2] <= x1 + 1 and g[3] <= y1 + 1
                                           for g in graphics)


def test_body_lines_starting_with_a_label_are_not_captions(paper):
    pages, truth, (figures, tables) = paper
    captions = {f.caption for f in figures + tables}
    assert not any(text in caption for text in truth.mention_lines for caption in captions)


def test_ids_are_deterministic_and_distinct(paper):
    pages, _, (figures, tables) = paper
    again = find_floats(pages, SHA)
    assert [f.id for f in figures + tables] == [f.id for f in again[0] + again[1]]
    assert len({f.id for f in figures + tables}) == len(figures + tables)
    assert find_floats(pages, "1" * 64)[0][0].id != figures[0].id


def line(text: str, y: float, size: float = 10.0, block: int = 0, x0: float = 72.0, x1: float = 300.0) -> Line:
    return Line(text=text, page=1, bbox=(x0, y, x1, y + size), size=size, font="Times", block=block)


def test_best_candidate_wins_for_a_repeated_label():
    """A '(continued)' repeat and a tiny caption inside an embedded screenshot lose to the real one."""
    pages = [
        PageLayout(page=1, width=612, height=792, lines=[
            line("Body text of the paper that runs across the whole column width here.", 100, block=0),
            line("Figure 1. Revolt creates labels for unanimously labeled items.", 200, size=4.3, block=1),
            line("Figure 1: The real caption of the figure.", 300, size=9, block=2),
        ]),
        PageLayout(page=2, width=612, height=792, lines=[line("Figure 1 (continued)", 100, size=9, block=0)]),
    ]
    figures, tables = find_floats(pages, SHA)
    assert [(f.label, f.page, f.caption) for f in figures] == [("1", 1, "The real caption of the figure.")]
    assert tables == []


def test_caption_may_start_in_lower_case_after_its_separator():
    pages = [PageLayout(page=1, width=612, height=792, lines=[line("Fig. 3: an overview of the pipeline.", 100)])]
    figures, _ = find_floats(pages, SHA)
    assert [(f.label, f.caption) for f in figures] == [("3", "an overview of the pipeline.")]


def test_bare_label_line_takes_the_title_below_and_roman_labels_stay_as_printed():
    pages = [PageLayout(page=1, width=612, height=792, lines=[
        line("TABLE IV", 100, size=8, block=0, x0=280, x1=330),
        line("SYSTEM PARAMETERS", 110, size=6.4, block=1, x0=270, x1=340),
        line("Body text of the paper that runs across the whole column width here.", 300, block=2),
    ])]
    _, tables = find_floats(pages, SHA)
    assert [(t.label, t.caption) for t in tables] == [("IV", "SYSTEM PARAMETERS")]


def test_list_of_figures_entry_does_not_win_over_the_caption():
    pages = [
        PageLayout(page=1, width=612, height=792, lines=[line("Figure 1: Overview of the system . . . . . . . 7", 100)]),
        PageLayout(page=7, width=612, height=792, lines=[line("Figure 1: Overview of the system.", 300)]),
    ]
    figures, _ = find_floats(pages, SHA)
    assert [(f.label, f.page, f.caption) for f in figures] == [("1", 7, "Overview of the system.")]


def test_caption_under_the_last_row_of_its_table_in_the_same_block():
    """A right-aligned last cell above is no sentence that the caption line would continue."""
    cells = [line(t, 100, block=3, x0=x, x1=x + 15) for t, x in (("48.2", 420), ("4.5", 477), ("5.0", 529))]
    caption = Line(text="Table 2 Gain in using the index", page=1, bbox=(315, 112, 550, 122), size=10, font="Times",
                   block=3, spans=[Span(text="Table 2", bbox=(315, 112, 345, 122), size=10, font="Times-Bold", bold=True),
                                   Span(text="Gain in using the index", bbox=(348, 112, 550, 122), size=10,
                                        font="Times")])
    _, tables = find_floats([PageLayout(page=1, width=612, height=792, lines=[*cells, caption])], SHA)
    assert [(t.label, t.caption) for t in tables] == [("2", "Gain in using the index")]


@pytest.mark.parametrize("text", [
    "Figure 3 shows the results of the experiment.",
    "Table 2, the second one, lists the scores.",
    "Figure 4 presents the same experiments.",
    "Table 3). Other errors come from parsing.",
])
def test_sentences_that_open_with_a_label_are_not_captions(text):
    pages = [PageLayout(page=1, width=612, height=792, lines=[line(text, 100, block=0)])]
    assert find_floats(pages, SHA) == ([], [])


def test_a_ruled_table_below_its_caption_wins_over_a_short_paragraph_end_just_above():
    """The paragraph's last line sits 9 pt above the caption, the table's rules 13 pt below it."""
    body = "Body text of the paper that runs across the whole column width here, long enough."
    pages = [PageLayout(page=1, width=612, height=792, lines=[
        line(body, 100, block=0), line(body, 112, block=0), line("across implementations.", 124, block=0, x1=180),
        line("Table 2: Speed and accuracy of the methods.", 143, block=1),
        line("Method GPU FPS", 168, block=2), line("Ours GTX 680 90", 180, block=2), line("Other GTX 480 24", 192, block=2),
    ], drawings=[(72, 165, 300, 166), (72, 178, 300, 179), (72, 204, 300, 205)])]
    _, tables = find_floats(pages, SHA)
    assert [(t.label, t.bbox) for t in tables] == [("2", (72.0, 143.0, 300.0, 205.0))]
    assert ["Ours", "GTX", "680", "90"] == " ".join(map(" ".join, tables[0].rows)).split()[3:7]


def test_a_short_caption_centred_under_a_page_wide_table_takes_both_columns_and_stops_at_their_paragraphs():
    """Two-column page; the table spans the page, its caption is centred across the gutter. The cells of
    the left half belong to it, the paragraphs of both columns below the caption do not."""
    body = "Body text of the paper that runs across the whole column width here, long enough."
    cells = [line(text, y, block=1, x0=x, x1=x + 30) for y, row in ((60, ("Model", "Precision", "Recall")),
                                                                  (75, ("Alpha", "0.91", "0.88")),
                                                                  (87, ("Beta", "0.75", "0.70")))
             for text, x in zip(row, (80, 330, 450))]
    paragraphs = [replace(line(body, y, block=3 + c, x0=72 + 240 * c, x1=300 + 240 * c), column=c)
                  for c in (0, 1) for y in (140, 152, 164)]
    caption = line("Table 1: Scores.", 108, block=2, x0=276, x1=336)
    pages = [PageLayout(page=1, width=612, height=792, columns=2, lines=[*cells, caption, *paragraphs],
                        drawings=[(72, 55, 540, 56), (72, 100, 540, 101)])]
    _, tables = find_floats(pages, SHA)
    assert [(t.label, t.rows) for t in tables] == [("1", [["Model", "Precision", "Recall"], ["Alpha", "0.91", "0.88"],
                                                          ["Beta", "0.75", "0.70"]])]
    assert tables[0].bbox == (72.0, 55.0, 540.0, 118.0)


def _ruled_grid_page(framed: list[Line]) -> PageLayout:
    """A page of body text whose fully ruled table (one drawn region: its grid's rules touch) sits above its
    caption; `framed` are the lines of a framed box of prose drawn above the table at the top of the page, if any,
    else a paragraph line is there."""
    body = "Body text of the paper that runs across the whole column width here, long enough."
    cells = [line(text, y, x0=x, x1=x + 30) for y, row in ((96, ("Alpha", "0.91", "0.88")), (108, ("Beta", "0.75",
                                                                                                     "0.70")))
             for text, x in zip(row, (80, 190, 250))]
    header = line("Jaccard ↑ DDI ↓ PRAUC ↑ F1 ↑ Jaccard ↑ DDI ↓ PRAUC ↑ F1 ↑", 84, x0=78, x1=298)  # dense as prose
    groups = [line("MIMIC", 72, x0=150, x1=180), line("eICU", 72, x0=240, x1=265)]
    frame = [(70, framed[0].bbox[1] - 4, 302, framed[-1].bbox[3] + 4)] if framed else []
    return PageLayout(page=1, width=612, height=792, lines=[
        *(framed or [line(body, 40)]), *groups, header, *cells, line("Table 1: Results of the methods.", 130),
        line(body, 150), line(body, 162)], drawings=[(75, 70, 300, 120), *frame])


def test_a_row_set_as_densely_as_prose_inside_a_ruled_grid_is_the_tables():
    """A header of a dozen short column names reads like a line of prose by its type alone; inside the rules of
    a grid whose other lines are cells it is the table's row, not text the table leaves out."""
    _, tables = find_floats([_ruled_grid_page([])], SHA)
    assert [t.rows for t in tables] == [[["MIMIC", "eICU"], ["Jaccard ↑ DDI ↓ PRAUC ↑ F1 ↑ Jaccard ↑ DDI ↓ PRAUC ↑ F1 ↑"],
                                         ["Alpha", "0.91", "0.88"], ["Beta", "0.75", "0.70"]]]


def test_a_framed_box_of_prose_or_a_frame_round_the_page_is_no_tables_grid():
    """A frame round running text (a boxed summary) next to a caption holds mostly prose: its lines stay text. A
    frame round the whole page holds the caption itself: it is no table's grid, and the page's paragraphs stay
    paragraphs though the table's cells outnumber them. A ruled grid against the caption is one."""
    prose = "Framed prose of a boxed summary that runs across the column width, long enough."
    cells = [line(text, y, x0=x, x1=x + 30) for y in (96, 108, 120) for text, x in (("Alpha", 80), ("0.91", 190))]
    caption = line("Table 1: Results of the methods.", 60)
    boxed = PageLayout(page=1, width=612, height=792, lines=[line(prose, 20), line(prose, 32), caption, *cells],
                       drawings=[(70, 16, 302, 46), (75, 92, 300, 132)])
    assert _in_ruled_grid(boxed, caption.bbox, (0, 612), 10.0) == {id(c) for c in cells}
    framed = replace(boxed, drawings=[(50, 10, 562, 782)])
    assert _in_ruled_grid(framed, caption.bbox, (0, 612), 10.0) == set()


def test_a_paragraph_of_the_column_beside_reaching_into_the_span_does_not_bound_the_table():
    """A narrow gutter: the right column's lines start two points inside the left column's band; they are that
    column's paragraph, not a wall over the left column's table."""
    body = "Body text of the paper that runs across the whole column width here, long enough."
    rows = [line(text, y, x0=x, x1=x + 40) for y, row in ((306, ("Method", "MAE")), (318, ("Alpha", "16.6")),
                                                          (330, ("Beta", "14.9"))) for text, x in zip(row, (74, 242))]
    right = [replace(line(body, y, x0=309, x1=545), column=1) for y in range(300, 450, 12)]
    page = PageLayout(page=1, width=612, height=792, columns=2, lines=[
        *[line(body, y, x0=50, x1=286) for y in (270, 282)], *rows, line("Table 4. Errors of the methods.", 360, x0=50,
                                                                        x1=286), *right])
    _, tables = find_floats([page], SHA)
    assert [t.rows for t in tables] == [[["Method", "MAE"], ["Alpha", "16.6"], ["Beta", "14.9"]]]


def test_a_paragraphs_short_last_line_over_a_figure_stays_text():
    """'... as predicted, / the error grows.' set right over a plot: the last line is the paragraph's, not the
    figure's, though it is short as a plot's title is."""
    body = "Body text of the paper that runs across the whole column width here, long enough."
    runs_on = "Body text of the paper that runs across the whole column width here: as predicted,"
    page = PageLayout(page=1, width=612, height=792, lines=[
        line(body, 100), line(runs_on, 112), line("the error grows linearly.", 124, x1=190),
        line("Error versus rank", 140, x0=130, x1=220), line("Figure 1: Error of the estimate.", 260)],
        drawings=[(80, 150, 290, 250), (60, 123, 70, 250)])  # the plot, and an axis drawn up beside the text
    figures, _ = find_floats([page], SHA)
    assert len(figures) == 1 and figures[0].bbox[1] >= 134  # below the paragraph's last line


def _side_caption_page(beside_text: bool) -> PageLayout:
    """A two-column page whose table caption is set in a narrow block at the left column's edge, the table's
    cells to its right across both columns from its top (or, with `beside_text`, the other column's paragraph
    there and the table under the caption), the paragraphs of both columns below."""
    body = "Body text of the paper that runs across the column width here, long."
    caption = [line("Table 1: Scores of the", 60, x0=50, x1=160), line("systems on the test set", 72, x0=50, x1=160),
               line("for each measure", 84, x0=50, x1=150)]
    cells = [line(text, y, x0=x, x1=x + 40) for y, row in ((60, ("System", "Prec.", "Recall")),
                                                          (76, ("Rules", "0.91", "0.88")), (90, ("Baseline", "0.75", "0.70")))
             for text, x in zip(row, (180, 380, 480))]
    beside = [replace(line(body, y, x0=306, x1=545), column=1) for y in (60, 72, 84, 96, 108, 120)]
    under = [line(text, y, x0=x, x1=x + 40) for y, row in ((100, ("Model", "F1")), (112, ("Ours", "0.81")))
             for text, x in zip(row, (60, 200))]  # with the text beside: the table is under its caption
    below = [replace(line(body, y, x0=72 + 234 * c, x1=292 + 252 * c), column=c) for c in (0, 1) for y in (140, 152)]
    return PageLayout(page=1, width=612, height=792, columns=2,
                      lines=[*caption, *([*beside, *under] if beside_text else cells), *below])


def test_a_caption_set_beside_its_table_takes_the_table_to_its_right():
    """A side caption (three lines or more, wrapped narrow, at its column's left edge) heads the table set to its
    right from its top, not the paragraphs above or below it."""
    _, tables = find_floats([_side_caption_page(False)], SHA)
    assert [t.rows for t in tables] == [[["System", "Prec.", "Recall"], ["Rules", "0.91", "0.88"],
                                         ["Baseline", "0.75", "0.70"]]]


def test_a_narrow_caption_with_the_other_columns_text_beside_it_is_no_side_caption():
    """The other column's paragraph level with a narrow caption: an ordinary two-column page, whose table is
    under its caption."""
    _, tables = find_floats([_side_caption_page(True)], SHA)
    assert [t.rows for t in tables] == [[["Model", "F1"], ["Ours", "0.81"]]]


@pytest.fixture(scope="module")
def conventions():
    data, truth = table_conventions_paper()
    return truth, find_floats(layout(data), SHA)


def test_captions_below_small_caps_roman_labels_and_fig_abbreviation(conventions):
    truth, (figures, tables) = conventions
    assert [(f.label, f.page, f.caption) for f in figures] == truth.figures
    below = next(t for t in tables if t.label == "IV")
    assert (below.page, below.caption, below.rows) == next((p, c, r) for l, p, c, r in truth.tables if l == "IV")


def test_a_continued_table_is_one_table_on_its_first_page(conventions):
    _, (_, tables) = conventions
    assert [t.page for t in tables if t.label == "IV"] == [1]


def test_a_sideways_tables_rotated_caption_is_read(conventions):
    truth, (_, tables) = conventions
    assert [(t.label, t.page, t.caption) for t in tables] == [(l, p, c) for l, p, c, _ in truth.tables]


@pytest.fixture(scope="module")
def stacked():
    data, truth = stacked_tables_paper()
    pages = layout(data)
    return pages, truth, find_floats(pages, SHA)


def test_table_rows_in_the_top_band_repeated_across_pages_are_cells_not_running_heads(stacked):
    pages, _, _ = stacked
    for page in pages:
        top = [line.text for line in page.lines if line.bbox[1] < 100]
        assert top[:3] == ["CS", "Bio", "Baseline"], top
        assert STACKED_HEAD in [line.text for line in page.furniture]
        assert STACKED_HEAD not in [line.text for line in page.lines]


def test_a_caption_packed_between_two_ruled_tables_takes_the_side_the_documents_tables_are_on(stacked):
    _, truth, (_, tables) = stacked
    expected = [(label, page, [[c for c in row if c] for row in rows]) for label, page, _, rows in truth.tables]
    assert [(t.label, t.page, t.rows) for t in tables] == expected


@pytest.mark.parametrize("columns", [1, 2])
def test_a_plain_bare_label_caption_set_against_its_figure_is_a_caption(columns):
    """Body font and size, no separator, not bold: what marks the caption is that it touches its figure; the
    same words opening a line of running text are not a caption."""
    data, truth = plain_caption_paper(columns)
    figures, _ = find_floats(layout(data), SHA)
    assert [(f.label, f.page, f.caption) for f in figures] == truth.figures
    assert not any(mention in f.caption for mention in truth.mention_lines for f in figures)


def test_table_labels_at_the_same_place_on_two_pages_are_no_running_head():
    data, truth = labels_atop_pages_paper()
    _, tables = find_floats(layout(data), SHA)
    assert [(t.label, t.page, t.caption) for t in tables] == [(l, p, c) for l, p, c, _ in truth.tables]


def test_a_line_of_the_column_beside_reaching_into_this_ones_band_is_not_the_figures():
    """A two-column page whose left column runs a few points past the page's middle (a scanned page set off
    centre): an equation number at its right edge, on the row of a figure's axis labels in the right column,
    belongs to the left column, not to the figure."""
    body = "Body text of the paper that runs across the whole column width here, long enough."
    left = [replace(line(body, y, x0=30, x1=254), column=0) for y in (100, 112, 124, 400, 412)]
    right = [replace(line(body, y, x0=264, x1=484), column=1) for y in (100, 112, 124)]
    label = replace(line("(17)", 300, x0=236, x1=254), column=0)
    axis = [replace(line(text, 300, x0=x, x1=x + 20), column=1) for text, x in (("1000", 340), ("100", 374))]
    caption = replace(line("Fig. 2. A kink-typed wave.", 318, size=8, x0=264, x1=480), column=1)
    pages = [PageLayout(page=1, width=510, height=713, columns=2, lines=[*left, *right, label, *axis, caption],
                        drawings=[(280, 150, 470, 296)])]
    figures, _ = find_floats(pages, SHA)
    assert [(f.label, f.bbox[0]) for f in figures] == [("2", 264.0)]


def test_a_table_printed_as_a_picture_keeps_its_side_against_a_paragraphs_last_line():
    data, truth = image_table_paper()
    _, tables = find_floats(layout(data), SHA)
    assert [(t.label, t.rows) for t in tables] == [("1", [])]
    picture = [b for p in layout(data) for b in p.images]
    assert tables[0].bbox[3] >= picture[0][3] - 1  # the region reaches down over the picture


def test_a_lone_rule_under_a_caption_does_not_take_the_table_from_the_rows_above_it():
    data, truth = rule_under_caption_paper()
    _, tables = find_floats(layout(data), SHA)
    assert [(t.label, t.caption, t.rows) for t in tables] == [(l, c, rows) for l, _, c, rows in truth.tables]


@pytest.mark.parametrize("setting", [{}, {"label_apart": True}, {"caption_after": True}, {"wrapped": True}])
def test_a_sideways_tables_rows_are_read_with_the_page_turned(setting):
    """A rotated table's cells run up the page: read with the page turned a quarter (which way, the text's own
    direction says, wherever the caption is), its rows are the printed rows, numbers too (a rotated '1472' outside
    the upright text is no review line number), each cell's box on the page where the cell is printed; a label
    alone on its line takes the next line as its title, and a caption runs on to its next line."""
    data, truth, _ = rotated_in_column_paper(**setting)
    pages = layout(data)
    _, tables = find_floats(pages, SHA)
    assert [(t.label, t.caption) for t in tables] == [(l, c) for l, _, c, _ in truth.tables]
    assert tables[0].rows == SIDEWAYS_ROWS
    page = next(p for p in pages if p.page == tables[0].page)
    for row, boxes in zip(tables[0].rows, tables[0].cell_boxes):
        for cell, box in zip(row, boxes):
            printed = [line.bbox for line in page.lines if line.text.strip() == cell]
            assert any(abs(box[0] - b[0]) < 1 and abs(box[1] - b[1]) < 1 for b in printed), cell


def test_a_table_set_sideways_in_one_column_beside_upright_text_is_found_and_keeps_to_its_side():
    """Rotated lines beside upright text are no margin stamp: the table is found by its rotated caption, its
    region is the rotated content only, and the upright column's numbered equation stays an equation."""
    data, truth, equations = rotated_in_column_paper()
    pages = layout(data)
    figures, tables = find_floats(pages, SHA)
    assert [(t.label, t.page, t.caption) for t in tables] == [(l, p, c) for l, p, c, _ in truth.tables]
    assert tables[0].bbox[2] < 612 / 2
    assert [(e.label, e.page) for e in find_equations(pages, SHA, figures + tables)] == [
        (label, page) for label, page, _ in equations.numbered]


@pytest.mark.parametrize("part, prefix", [("Extended Data", "ED"), ("Appendix", "A")])
def test_figures_of_a_part_numbered_apart_are_labelled_and_cited_apart(tmp_path, part, prefix):
    """Nature's "Extended Data Figure 1 | ..." and a bound web appendix's "Appendix Figure 1" are figures of their
    own, labelled ED1 or A1 beside the paper's Figure 1, and "<part> Fig. 1" in the text points to them, not to
    Figure 1."""
    data, main, apart = part_numbered_paper(part)
    doc = parse_pdf(write(tmp_path, "parts.pdf", data))
    figures = {f.label: f for f in doc.figures}
    assert sorted(figures) == ["1", f"{prefix}1"]
    assert figures[f"{prefix}1"].caption.startswith("The circular velocity curve")
    cited = {doc.text[m.char_start:m.char_end]: m.target_id for m in doc.mentions if m.kind == "figure"}
    assert cited == {"Fig. 1": figures["1"].id, f"{part} Fig. 1": figures[f"{prefix}1"].id}


def test_a_figure_set_right_under_a_numbered_display_does_not_take_it(tmp_path):
    """A display's rows are short and its fraction bars are rules, so a figure set a line below it could grow over
    it up to the paragraph above; the display's number at the text's right edge bounds the figure as a paragraph
    does, and the number is the display's."""
    data, truth = figure_under_display_paper()
    doc = parse_pdf(write(tmp_path, "display-figure.pdf", data))
    assert [(e.label, e.page) for e in doc.equations if e.label] == [(l, p) for l, p, _ in truth.numbered]
    label = next(e for e in doc.equations if e.label)
    assert [f.label for f in doc.figures] == ["1"] and doc.figures[0].bbox[1] >= label.bbox[3]


def test_a_supplementary_figure_cited_is_not_the_papers_own(tmp_path):
    """A supplement is printed apart: "Supplementary Fig. 1" cites its figure S1, which the paper does not hold,
    not the paper's Figure 1."""
    data, main, apart = part_numbered_paper("Supplementary", printed=False)
    doc = parse_pdf(write(tmp_path, "supplement.pdf", data))
    assert [f.label for f in doc.figures] == ["1"]
    cited = {doc.text[m.char_start:m.char_end]: (m.target_label, m.target_id) for m in doc.mentions
             if m.kind == "figure"}
    assert cited == {"Fig. 1": ("1", doc.figures[0].id), "Supplementary Fig. 1": ("S1", None)}


def test_compounds_numbered_inside_a_scheme_do_not_cut_its_figure(tmp_path):
    """Numbers flush with the text's right edge inside a figure's frame ('(1)' beside a compound) are the figure's
    own: only a display's number outside the page's graphics bounds a figure."""
    data, top = numbered_scheme_paper()
    figures = parse_pdf(write(tmp_path, "scheme.pdf", data)).figures
    assert [f.label for f in figures] == ["1"] and figures[0].bbox[1] <= top + 1

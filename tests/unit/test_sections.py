from dataclasses import replace

import pymupdf
import pytest

from extractors.body import assemble, body_lines
from extractors.layout import read_layout
from extractors.model import Line, Span
from extractors.pipeline import parse_pdf
from extractors.section_kinds import assign_kinds, classify_title
from extractors.sections import build_sections, find_headings
from tests.pdf_factory import (BOLD, REGULAR, Writer, journal_paper, margin_speck_paper, one_column_paper,
                                printed_twice, prose, run_in_paper, spaced_numbers_paper, stored_rotated,
                                two_column_paper, write)


@pytest.mark.parametrize("builder", [one_column_paper, two_column_paper])
def test_section_tree_is_exactly_the_printed_headings(builder, tmp_path):
    data, truth = builder()
    doc = parse_pdf(write(tmp_path, "paper.pdf", data))
    assert [(s.number, s.title, s.level, s.page_start) for s in doc.sections] == truth.sections
    by_title = {s.title: s for s in doc.sections}
    assert by_title["Scope of This Study"].parent_id == by_title["Introduction"].id
    assert by_title["References"].parent_id is None
    assert "Training data" not in by_title  # run-in heading
    assert "Abstract" not in by_title


def test_body_text_belongs_to_its_section(tmp_path):
    data, _ = two_column_paper()
    doc = parse_pdf(write(tmp_path, "paper.pdf", data))
    setup = next(s for s in doc.sections if s.title == "Training Setup")
    body = doc.text[setup.char_start:setup.char_end]
    assert "\n\nTraining data. We evaluate the approach" in body
    assert "Experiments" not in body and body.strip().startswith("We evaluate the approach")
    refs = next(s for s in doc.sections if s.title == "References")
    assert doc.text[refs.char_start:refs.char_end].count("A. Author.") == 3


def _line(text, size=10.0, bold=False, y=100.0, page=1, x=72.0):
    box = (x, y, x + 5 * len(text), y + size)
    return Line(text=text, page=page, bbox=box, size=size, font="Times", bold=bold,
                spans=[Span(text=text, bbox=box, size=size, font="Times", bold=bold)])


def test_list_items_and_tables_rows_in_body_font_are_not_headings():
    lines = [_line("1 Introduction", 12, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", y=100 + 12 * i) for i in range(30)]
    lines += [_line("2 We list an item in body font here.", y=470), _line("3 Method", 12, True, 500)]
    heads = find_headings(lines)
    assert [(h.number, h.title) for h in heads] == [("1", "Introduction"), ("3", "Method")]


def test_a_numbered_paragraph_that_runs_on_in_lower_case_is_no_heading():
    """OCR's sizes are rough: a numbered paragraph's first line may come back larger than the text. It fills its
    column and runs on into the next line in lower case, as a heading never does; a long heading wraps in its own
    type (an italic sub-heading onto an italic line)."""
    body = [f"Body sentence {i:02d} of the paper goes on for a full line here." for i in range(30)]
    lines = [_line("1 Introduction", 12, True, 80)]
    lines += [_line(text, y=100 + 12 * i) for i, text in enumerate(body[:20])]
    lines += [_line("2. The coefficients are extracted by computing the fit of all", 11, y=345),
              _line("linear interpolations of the mobility over the whole range.", y=358)]
    lines += [_line(text, y=372 + 12 * i) for i, text in enumerate(body[20:])]
    lines += [_line("2 Measuring the Coefficients of Piezoresistive Sensors in", 12, y=500),
              _line("silicon wafers under strain", 12, y=513), _line(body[0], y=530)]
    italic = [_line("3.1 Effects of temperature on the measured coefficients in", y=560), _line("silicon", y=573)]
    lines += [replace(line, italic=True, spans=[replace(span, italic=True) for span in line.spans]) for line in italic]
    lines += [_line(body[2], y=590), _line("4 Results of the Measurements on all of the Sensor Wafers", 11, y=620),
              _line(f"The {body[1]}", y=633)]
    heads = find_headings(lines)
    assert [(h.number, h.title) for h in heads] == [
        ("1", "Introduction"), ("2", "Measuring the Coefficients of Piezoresistive Sensors in silicon wafers under strain"),
        ("3.1", "Effects of temperature on the measured coefficients in silicon"),
        ("4", "Results of the Measurements on all of the Sensor Wafers")]


def test_out_of_sequence_numbers_are_rejected():
    lines = [_line("1 Introduction", 12, True, 80), _line("Body text that runs for a while here.", y=100),
             _line("17 Bold Number Out Of Nowhere", 12, True, 130), _line("More body text after it, long.", y=150),
             _line("2 Method", 12, True, 180)]
    assert [h.number for h in find_headings(lines)] == ["1", "2"]


@pytest.mark.parametrize("title", ["Literature", "LITERATURE", "Literatures"])
def test_an_english_literature_section_is_no_bibliography(title):
    """A 'Literature' review section, common in the social sciences, is not the German 'Literatur' list."""
    assert (classify_title(title) or ("",))[0] != "References"
    assert classify_title("Literaturverzeichnis") == ("References", 1.0)


def test_kinds_from_titles_and_parents(tmp_path):
    assert classify_title("Related Work") == ("RelatedWork", 1.0)
    assert classify_title("CONCLUSIONS") == ("Conclusion", 1.0)
    assert classify_title("Experimental Setup")[0] == "Experiment"
    data, _ = one_column_paper()
    doc = parse_pdf(write(tmp_path, "paper.pdf", data))
    kinds = {s.title: (s.kind, s.core_kind) for s in doc.sections}
    assert kinds["Introduction"] == ("Introduction", "body")
    assert kinds["Scope of This Study"] == ("Introduction", "body")  # falls back to the parent
    assert kinds["References"] == ("References", "reference")
    assert kinds["Acknowledgments"] == ("Acknowledgments", "meta")


def test_float_region_lines_are_not_headings():
    data, _ = one_column_paper()
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    lines = body_lines(pages, [])
    method = next(i for i, l in enumerate(lines) if l.text == "2 Method")
    heads = find_headings(lines, {method + 1})  # a region over the following body line changes nothing
    assert "Method" in [h.title for h in heads]
    text, placed = assemble(lines, {i for h in heads for i in h.lines})
    sections = assign_kinds(build_sections(heads, placed, len(text), "0" * 64))
    assert [s.ordinal for s in sections] == list(range(len(sections)))


def test_pdf_outline_names_headings_a_style_alone_would_miss(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for text in ["Overview of the Field", *[f"Plain body sentence {i} in the regular font." for i in range(12)],
                 "Details That Matter", *[f"More body text {i} in the regular font here." for i in range(12)],
                 "Closing Remarks", "The end of the paper in the regular font."]:
        page.insert_text((72, y), text, fontsize=10)  # headings in the body font: only the outline tells
        y += 20 if text[0].isupper() and len(text) < 25 else 13
    doc.set_toc([[1, "Paper Title", 1], [2, "Overview of the Field", 1], [3, "Details That Matter", 1],
                 [2, "Closing Remarks", 1]])
    parsed = parse_pdf(write(tmp_path, "outline.pdf", doc.tobytes()))
    assert [(s.title, s.level) for s in parsed.sections] == [
        ("Overview of the Field", 1), ("Details That Matter", 2), ("Closing Remarks", 1)]


@pytest.mark.parametrize("columns", [1, 2])
def test_unnumbered_bold_sub_headings_under_upper_case_headings(columns, tmp_path):
    """Journal layouts: bold body-size sub-headings recur through the paper, each over a paragraph; one set right
    under its section's upper-case heading stays a heading of its own, a level below."""
    data, truth = journal_paper(columns)
    doc = parse_pdf(write(tmp_path, "journal.pdf", data))
    assert [(s.number, s.title, s.level, s.page_start) for s in doc.sections] == truth.sections
    by_title = {s.title: s for s in doc.sections}
    assert by_title["Cell Culture"].parent_id == by_title["MATERIALS AND METHODS"].id
    assert doc.text[by_title["Cell Culture"].char_start:].startswith(prose(1, offset=2))  # its first paragraph


def test_a_summary_box_title_set_larger_stays_below_the_headings_the_bibliography_shares(tmp_path):
    """An unnumbered paper's top level is the style its References heading shares with the section headings, not
    the more prominent style of a summary box's title."""
    data, truth = journal_paper(2, boxed_summary=True)
    doc = parse_pdf(write(tmp_path, "journal.pdf", data))
    assert [(s.number, s.title, s.level, s.page_start) for s in doc.sections] == truth.sections


def test_references_set_as_the_sub_headings_leave_the_larger_section_headings_on_top():
    lines, y = [], 80
    for title, size in [("Introduction", 12), ("Background", 10), ("Methods", 12), ("Data Sources", 10),
                        ("Results", 12), ("Discussion", 12), ("References", 10)]:
        lines.append(_line(title, size, True, y))
        lines += [_line(f"Body sentence number {k} of {title} goes on and on.", y=y + 20 + 12 * k) for k in range(5)]
        y += 100
    heads = find_headings(lines)
    assert [(h.title, h.level) for h in heads] == [("Introduction", 1), ("Background", 2), ("Methods", 1),
                                                   ("Data Sources", 2), ("Results", 1), ("Discussion", 1),
                                                   ("References", 1)]


def test_a_speck_in_the_margin_beside_a_heading_leaves_the_white_space_above_it(tmp_path):
    data, headings = margin_speck_paper()
    assert [s.title for s in parse_pdf(write(tmp_path, "speck.pdf", data)).sections] == headings


def test_a_section_number_set_a_quad_and_more_before_its_title_numbers_it(tmp_path):
    data, headings = spaced_numbers_paper()
    sections = parse_pdf(write(tmp_path, "spaced.pdf", data)).sections
    assert [(s.number, s.title) for s in sections] == [*headings, (None, "REFERENCES")]


def test_numbered_run_in_headings_and_a_printed_table_of_contents(tmp_path):
    """"2.1. First Measure. The ..." is a section whose body starts on its own line; the contents page's entries
    (and the bold lead "Remark.") are no headings, so every heading comes once, on the page it is printed on."""
    data, truth = run_in_paper()
    doc = parse_pdf(write(tmp_path, "run-in.pdf", data))
    assert [(s.number, s.title, s.level, s.page_start) for s in doc.sections] == truth.sections
    first = next(s for s in doc.sections if s.number == "2.1")
    body = doc.text[first.char_start:first.char_end]
    assert body.startswith(f"2.1. First Measure. {prose(1, offset=2)}") and "Remark. " in body
    assert "2.2. Second Measure" not in body


def test_content_printed_twice_gives_each_heading_and_line_once(tmp_path):
    data, truth = two_column_paper()
    doc = parse_pdf(write(tmp_path, "twice.pdf", printed_twice(data)))
    assert [(s.number, s.title, s.level, s.page_start) for s in doc.sections] == truth.sections
    assert doc.text == parse_pdf(write(tmp_path, "once.pdf", data)).text


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_pages_stored_rotated_read_as_they_are_shown(tmp_path, rotation):
    """MuPDF reports a /Rotate page's text where it is drawn before the turn: read so, a landscape page's lines
    run vertically and every box is off the page as shown, where evidence crops and highlights are drawn."""
    data, truth = two_column_paper()
    upright = parse_pdf(write(tmp_path, "upright.pdf", data))
    turned = parse_pdf(write(tmp_path, "turned.pdf", stored_rotated(data, rotation)))
    assert [(s.number, s.title, s.level, s.page_start) for s in turned.sections] == truth.sections
    assert turned.text == upright.text
    boxes = [(box.page, box.bbox) for chunk in turned.chunks for box in chunk.boxes]
    assert len(boxes) == sum(len(chunk.boxes) for chunk in upright.chunks)
    for (page, box), expected in zip(boxes, (box for chunk in upright.chunks for box in chunk.boxes)):
        assert page == expected.page and all(abs(p - q) < 1 for p, q in zip(box, expected.bbox)), (box, expected)


def test_a_heading_holding_a_name_in_regular_small_caps_is_one_heading(tmp_path):
    """Fonts rarely cut small caps in bold, so a system's name in a bold heading comes out regular ('2.2 Type
    Checking with HMM-T', the 'MM' smaller): the heading is still whole, not a bold lead followed by text."""
    w = Writer()
    for number, title in (("1", "Introduction"), ("2", "Method")):
        w.heading(f"{number} {title}")
        w.paragraph(prose(5))
    w.space(10)
    w._advance(40)
    x, y = w.x(), w.y + 11
    lead = "2.1 Type Checking with "
    w.page.insert_text((x, y), lead, fontname=BOLD, fontsize=11)
    x += pymupdf.get_text_length(lead, fontname=BOLD, fontsize=11)
    w.page.insert_text((x, y), "H", fontname=REGULAR, fontsize=11)
    w.page.insert_text((x + pymupdf.get_text_length("H", fontname=REGULAR, fontsize=11), y), "MM",
                       fontname=REGULAR, fontsize=8.8)
    w.y += 18
    w.paragraph(prose(5, offset=1))
    doc = parse_pdf(write(tmp_path, "small-caps.pdf", w.bytes()))
    assert [(s.number, s.title) for s in doc.sections] == \
        [("1", "Introduction"), ("2", "Method"), ("2.1", "Type Checking with HMM")]


def test_a_run_in_heading_in_bold_capitals_is_still_set_apart_from_its_paragraph(tmp_path):
    """Names in capitals are left out of a line's weight only when lighter than the line: a bold lead in capitals
    before regular text ('2.1. DATA SOURCES. We ...') is a run-in heading."""
    w = Writer()
    for number, title in (("1", "Introduction"), ("2", "Method")):
        w.heading(f"{number} {title}")
        w.paragraph(prose(5))
    for number, title in (("2.1", "DATA SOURCES"), ("2.2", "TRAINING SETUP")):
        w.space(8)
        w.paragraph(prose(6, offset=2), run_in=f"{number}. {title}.")
    w.heading("3 Results")
    w.paragraph(prose(4))
    doc = parse_pdf(write(tmp_path, "run-in-caps.pdf", w.bytes()))
    assert [(s.number, s.title) for s in doc.sections] == \
        [("1", "Introduction"), ("2", "Method"), ("2.1", "DATA SOURCES"), ("2.2", "TRAINING SETUP"), ("3", "Results")]


def test_a_numbered_address_above_the_abstract_is_no_section(tmp_path):
    """An author's street address set in the header's larger type ('1 University Station C0500') reads like a
    numbered heading; above the abstract it is front matter, and the paper's own section 1 keeps its number."""
    w = Writer()
    w.line("Learning Relations from Bags of Sentences", size=16, font=BOLD, full_width=True, center=True)
    w.space(6)
    for text in ("Ann Author", "University of Testing", "1 University Station C0500", "Austin, TX 78712"):
        w.line(text, size=12, full_width=True, center=True)
    w.space(12)
    w.line("Abstract", size=12, font=BOLD, full_width=True, center=True)
    w.paragraph(prose(4), full_width=True)
    for number, title in (("1", "Introduction"), ("2", "Method")):
        w.heading(f"{number} {title}")
        w.paragraph(prose(5))
    doc = parse_pdf(write(tmp_path, "address.pdf", w.bytes()))
    assert [(s.number, s.title) for s in doc.sections] == [("1", "Introduction"), ("2", "Method")]


@pytest.mark.parametrize("columns", [1, 2])
def test_a_heading_set_alike_right_under_a_short_one_is_its_own(columns, tmp_path):
    """A line breaks where its next word does not fit: a bold 'Introduction' with most of its column free, over
    a bold 'Data and Setting' in the same type, is two headings. A long heading's first line fills most of its
    column (ragged right) and wraps onto the next, and an appendix's label takes its title below it: each is one
    heading."""
    w = Writer(columns=columns)
    first, rest = (("Retrieval of Scalable Video Streams from Large Disk Arrays Using", "Hybrid Data Placement") if columns == 1
                   else ("Storage and Retrieval of Scalable", "Video Streams Using Hybrid Data Placement"))
    assert 0.6 * w.col_width < pymupdf.get_text_length(first, fontname=BOLD, fontsize=10) < 0.85 * w.col_width
    long = f"{first} {rest}"
    w.heading("Introduction", size=10)
    w.line("Data and Setting", 10, BOLD)
    w.space(3)
    w.paragraph(prose(5))
    w.heading("Method", size=10)
    w.paragraph(prose(4, offset=1))
    w.heading(first, size=10)
    w.line(rest, 10, BOLD)
    w.space(3)
    w.paragraph(prose(5, offset=2))
    w.heading("APPENDIX", size=10)
    w.line("MEAN ADMISSION DELAY", 10, BOLD)
    w.space(3)
    w.paragraph(prose(4, offset=3))
    doc = parse_pdf(write(tmp_path, "stacked.pdf", w.bytes()))
    assert [s.title for s in doc.sections] == ["Introduction", "Data and Setting", "Method", long,
                                               "APPENDIX MEAN ADMISSION DELAY"]


def test_a_numbered_entry_of_the_bibliography_of_an_unnumbered_paper_is_no_section(tmp_path):
    """A paper whose sections have no numbers does not start numbering them in its bibliography: a numbered entry
    set apart like a heading ('1. World Health Organization.', read from a scan in a heavier face) is an entry."""
    w = Writer()
    for title in ("Introduction", "Methods", "References"):
        w.heading(title)
        w.paragraph(prose(4))
    for n, source in enumerate(("World Health Organization", "National Institutes of Health"), start=1):
        w.space(6)
        w.line(f"{n}. {source}. Annual report on anaemia.", 10, BOLD)
    w.heading("A. Supplementary Proofs")  # an appendix's letter is no entry's number
    w.paragraph(prose(3, offset=1))
    doc = parse_pdf(write(tmp_path, "entries.pdf", w.bytes()))
    assert [(s.number, s.title) for s in doc.sections] == [(None, "Introduction"), (None, "Methods"),
                                                          (None, "References"), ("A", "Supplementary Proofs")]


def test_a_glyph_without_a_character_between_number_and_title_separates_them():
    """A font that draws its fixed space after a heading's number as a glyph it names no character for gives
    '1.1 \ufffdOur Contribution': the number is the section's, the title starts at its first letter. The mark
    glued to a number is no separator ('3\ufffdA' may be a formula)."""
    lines = [_line("1 \ufffdIntroduction", 12, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", y=100 + 12 * i) for i in range(30)]
    lines += [_line("1.1 \ufffdOur Contribution", 12, True, 470), _line("Body sentence that follows it.", y=490),
              _line("2 \ufffdMethod", 12, True, 520), _line("3\ufffdA Bold Formula", 12, True, 560)]
    heads = find_headings(lines)
    assert [(h.number, h.title) for h in heads if h.number] == [("1", "Introduction"), ("1.1", "Our Contribution"),
                                                                ("2", "Method")]


def test_an_outline_entry_names_one_heading_and_not_a_line_that_reads_as_it_later(tmp_path):
    """A PDF outline names each heading once: a paragraph's last line that reads as an entry's title further on
    ('catch trials).') is body text, while a title the outline names twice is two headings."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    body = [f"Plain body sentence {i} in the regular font." for i in range(8)]
    headings = ("Overview of the Field", "Results", "Closing Remarks")
    for text in ["Overview of the Field", *body, "Results", *body, "overview of the field).", *body, "Results",
                 *body, "Closing Remarks", "The end of the paper in the regular font."]:
        page.insert_text((72, y), text, fontsize=10)  # headings in the body font: only the outline tells
        y += 20 if text in headings else 13
    doc.set_toc([[1, "Paper Title", 1], [2, "Overview of the Field", 1], [3, "Results", 1], [3, "Results", 1],
                 [2, "Closing Remarks", 1]])
    parsed = parse_pdf(write(tmp_path, "outline.pdf", doc.tobytes()))
    assert [(s.title, s.level) for s in parsed.sections] == [
        ("Overview of the Field", 1), ("Results", 2), ("Results", 2), ("Closing Remarks", 1)]


def test_a_table_header_cell_that_reads_as_an_appendix_is_no_heading():
    """In a table's region the cells of a row stand far apart ('Group', 'A GI', 'A No GI'): one that reads as a
    lettered heading shares its row and is none. A lettered heading standing alone in a region is one."""
    lines = [_line("1 Introduction", 12, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", y=100 + 12 * i) for i in range(20)]
    table = [_line(text, 10, True, 400, x=x) for text, x in (("Group", 72), ("A GI", 200), ("A No GI", 320))]
    lines += table + [_line(f"Row {i} of the table, in the body font.", y=420 + 12 * i) for i in range(4)]
    lines += [_line("A Appendix Title", 12, True, 600), _line("Body sentence that follows it.", y=620)]
    heads = find_headings(lines, set(range(21, 29)))
    assert [(h.number, h.title) for h in heads] == [("1", "Introduction"), ("A", "Appendix Title")]


def test_headings_a_point_below_body_text_measured_by_ocr_are_headings():
    """OCR measures sizes to a fraction of a point: body text at 9.86 pt is grouped as 10 pt, but headings a point
    below it (8.71 pt, measured) are above the small-print cut, which lies 1.2 pt below the body's own measure.
    Small print 1.5 pt below it is still no heading."""
    lines = [_line("1 INTRODUCTION", 8.71, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", 9.86, y=100 + 12 * i) for i in range(30)]
    lines += [_line("2 METHOD", 8.71, True, 480), _line("Body sentence that follows it.", 9.86, y=500),
              _line("3 A FOOTNOTE IN SMALL PRINT", 8.3, True, 700)]
    assert [(h.number, h.title) for h in find_headings(lines)] == [("1", "INTRODUCTION"), ("2", "METHOD")]


def test_a_mark_read_beside_a_heading_does_not_make_its_row_a_table_s():
    """OCR reads a speck of a heading's ink as ';' or '.' standing beside it: a line of marks without a letter or
    digit is no table cell, while a word beside the heading is one."""
    lines = [_line("INTRODUCTION", 10, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", y=100 + 12 * i) for i in range(20)]
    lines += [_line("METHODS", 10, True, 350), _line(";", 2, False, 354, x=108),
              _line("Body sentence that follows it.", y=366),
              _line("RESULTS", 10, True, 420), _line("0.91", 10, False, 420, x=120),
              _line("Body sentence that follows it.", y=436)]
    assert [h.title for h in find_headings(lines)] == ["INTRODUCTION", "METHODS"]


def test_a_stop_boxed_tall_beside_a_heading_is_no_cell_of_its_row():
    """OCR may box a stop or a semicolon from the row above down to a heading's foot: taller than the heading, but
    a sliver wide, it is a speck and the heading's row no table's."""
    lines = [_line("INTRODUCTION", 10, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", y=100 + 12 * i) for i in range(20)]
    speck = _line(";", 14, False, 343, x=108)
    speck = replace(speck, bbox=(108, 343, 109, 360), spans=[replace(speck.spans[0], bbox=(108, 343, 109, 360))])
    lines += [_line("METHODS", 10, True, 350), speck, _line("Body sentence that follows it.", y=366)]
    assert [h.title for h in find_headings(lines)] == ["INTRODUCTION", "METHODS"]


def test_a_row_label_beside_ticks_in_a_table_is_no_heading():
    """A table's ticks and dashes are cells, though they hold no letter or digit: a row labelled 'Method' beside
    them is a row, not a section."""
    lines = [_line("1 Introduction", 12, True, 80)]
    lines += [_line(f"Body sentence number {i} goes on and on.", y=100 + 12 * i) for i in range(20)]
    lines += [_line(text, 10, True, 400, x=x) for text, x in (("Method", 72), ("\u2713", 160), ("\u2717", 220))]
    lines += [_line("Body sentence after the table.", y=440)]
    assert [h.title for h in find_headings(lines, {21, 22, 23})] == ["Introduction"]


def test_sub_headings_stand_out_though_a_figure_s_labels_reach_past_the_column():
    """A column's right edge is where its lines end, not its widest line's end: a figure's labels that no region
    covers (an OCR'd plot reaching past the column) made every body line look short, so the bold sub-headings'
    paragraphs no longer ran full and their style was no heading style."""
    def body(y: float) -> Line:
        return _line("Body text of the paper, running to its edge.", y=y)  # 44 characters: to x = 292
    lines, y = [_line("INTRODUCTION", 12, True, 60)], 80.0
    for title in ("Design", "Forces", "Catch trials"):
        lines += [body(y + 12 * i) for i in range(8)] + [_line(title, 10, True, y + 106)]
        y += 126
    lines += [body(y + 12 * i) for i in range(8)]
    lines += [Line(text=text, page=1, bbox=(200, 700 + 8 * k, 425, 706 + 8 * k), size=6, font="Times",
                   spans=[Span(text=text, bbox=(200, 700 + 8 * k, 425, 706 + 8 * k), size=6, font="Times")])
              for k, text in enumerate(["Velocity X-Direction [m/s]", "0.05 0.10 0.15 0.20", "Force [N]"])]
    assert [h.title for h in find_headings(lines)] == ["INTRODUCTION", "Design", "Forces", "Catch trials"]

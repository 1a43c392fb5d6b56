from dataclasses import replace

import pymupdf
import pytest

from extractors.layout import read_layout
from extractors.model import Line
from extractors.references import marker_number, numbered_starts, parse_references
from extractors.pipeline import parse_pdf
from cli.parse import prediction
from tests.pdf_factory import (SURNAMES, Writer, appendix_after_bibliography, author_year_bibliography,
                               banded_bibliography, bare_number_bibliography, bibliography_paper,
                               carried_over_bibliography, headingless_list_paper, indented_bibliography, letter_paper,
                               marker_line_bibliography, one_line_entries_bibliography, parenthesized_bibliography,
                               plain_word_bibliography, prose, small_block_bibliography, small_capitals_headings_paper,
                               small_caps_bibliography, spaced_bibliography, styled_entry_bibliography, write)

SHA = "0" * 64


def reference_lines(data: bytes) -> list[Line]:
    """The lines after the References heading."""
    lines = [l for p in read_layout(pymupdf.open(stream=data, filetype="pdf")) for l in p.lines]
    start = next(i for i, l in enumerate(lines) if l.text.strip() == "References")
    return lines[start + 1:]


@pytest.fixture(scope="module", params=["numbered", "author-year"])
def parsed(request):
    data, entries = bibliography_paper(request.param)
    lines = reference_lines(data)
    return lines, entries, parse_references(lines, SHA)


def test_one_entry_per_printed_reference_in_order(parsed):
    _, entries, refs = parsed
    assert [r.ordinal for r in refs] == [1, 2, 3]
    assert [r.marker for r in refs] == [e.marker for e in entries]


def test_fields(parsed):
    _, entries, refs = parsed
    assert [(r.authors, r.title, r.year, r.doi, r.arxiv_id) for r in refs] == \
        [(e.authors, e.title, e.year, e.doi, e.arxiv_id) for e in entries]
    assert all(r.venue and r.venue.startswith(e.venue) for r, e in zip(refs, entries))


def test_wrapped_entry_is_joined_and_boxed_from_its_first_line(parsed):
    lines, entries, refs = parsed
    long = refs[1]
    assert entries[1].title in long.raw
    first = next(l for l in lines if l.text.startswith(("[2]", "Carol")))
    assert long.page == 1 and long.bbox[:2] == first.bbox[:2] and long.bbox[3] > first.bbox[3] + 5


def line(text: str, y: float, x0: float = 72.0, page: int = 1) -> Line:
    return Line(text=text, page=page, bbox=(x0, y, 300, y + 9), size=9, font="Times")


def test_numbered_markers_must_run_in_sequence():
    """A wrapped line that happens to start with '561.' does not open an entry."""
    lines = [line("1. Chen, B., Peng, D.: Complex tables. In: Frontiers in Handwriting Recognition. pp. 545–", 0),
             line("561. Springer (2022)", 10, 84),
             line("2. Chi, Z., Huang, H.: Complicated table structure recognition. arXiv:1908.04729 (2019)", 20),
             line("3. Deng, Y., Mann, G.: Challenges in table recognition. In: ICDAR (2019)", 30)]
    refs = parse_references(lines, SHA)
    assert [r.marker for r in refs] == ["1.", "2.", "3."]
    assert refs[0].raw.endswith("561. Springer (2022)")
    assert refs[0].authors == ["B. Chen", "D. Peng"] and refs[1].arxiv_id == "1908.04729"
    assert refs[1].year == 2019 and refs[1].title == "Complicated table structure recognition"


def test_ieee_quoted_title_and_two_column_order():
    lines = [line("[2] D. Scharstein and R. Szeliski, “High-accuracy stereo depth maps using", 500, 330),
             line("structured light,” in CVPR, vol. 1, pp. 195–202, June 2003.", 510, 344),
             line("[1] D. Scharstein and R. Szeliski, “A taxonomy of dense", 100, 72),
             line("stereo algorithms,” IJCV, vol. 47, pp. 7–42, 2002.", 110, 86)]
    lines[0] = replace(lines[0], bbox=(330, 500, 560, 509))
    lines[1] = replace(lines[1], bbox=(344, 510, 560, 519))
    refs = parse_references(lines, SHA)
    assert [(r.marker, r.title, r.year) for r in refs] == [
        ("[1]", "A taxonomy of dense stereo algorithms", 2002),
        ("[2]", "High-accuracy stereo depth maps using structured light", 2003)]
    assert refs[0].authors == ["D. Scharstein", "R. Szeliski"]


def test_footnote_that_fell_into_the_section_is_dropped():
    lines = [line("Alice Smith. 2020. A title that is long enough to wrap", 0),
             line("onto a second line. In Venue.", 12, 84),
             line("Bob Jones. 2019. Another title that wraps onto", 24), line("the next line. In Venue.", 36, 84),
             Line(text="7 A footnote of the page.", page=1, bbox=(72, 700, 200, 706), size=7, font="Times")]
    assert [r.authors for r in parse_references(lines, SHA)] == [["Alice Smith"], ["Bob Jones"]]


def test_markers_set_apart_from_their_text_stay_with_it():
    """'[1]' in its own narrow band left of the entries is not a column of its own."""
    lines = []
    for n, y in ((1, 0), (2, 30)):
        lines += [Line(text=f"[{n}]", page=1, bbox=(72, y, 84, y + 9), size=9, font="Times"),
                  line(f"A. Author{n} and B. Other. Title number {n}. In Venue,", y, 92),
                  line(f"pages 1–10, 201{n}.", y + 10, 92)]
    refs = parse_references(lines, SHA)
    assert [(r.marker, r.year, r.title) for r in refs] == [("[1]", 2011, "Title number 1"),
                                                           ("[2]", 2012, "Title number 2")]


def test_keyed_entries_and_a_lost_number():
    keyed = [line("[Smi20] A. Smith. Rules for papers. In Venue, 2020.", 0),
             line("[ABC+19] A. Able, B. Baker and C. Cole. Tables. In Venue, 2019.", 12),
             line("[Lee18] C. Lee. Citations. Journal of Tests, 2018.", 24)]
    assert [(r.marker, r.year) for r in parse_references(keyed, SHA)] == [("[Smi20]", 2020), ("[ABC+19]", 2019),
                                                                         ("[Lee18]", 2018)]
    numbered = [line(f"[{n}] A. Author. Title {n}. Venue, 20{10 + n}.", 12 * n) for n in (1, 2, 4, 5)]
    assert [r.marker for r in parse_references(numbered, SHA)] == ["[1]", "[2]", "[4]", "[5]"]


def test_lines_handed_over_out_of_page_order_are_read_page_by_page():
    page2 = [line("3. C. Cole. Third. Venue, 2013.", 100, page=2), line("4. D. Dunn. Fourth. Venue, 2014.", 112, page=2)]
    page1 = [line("1. A. Able. First. Venue, 2011.", 600), line("2. B. Baker. Second. Venue, 2012.", 612)]
    assert [r.marker for r in parse_references(page2 + page1, SHA)] == ["1.", "2.", "3.", "4."]


@pytest.mark.parametrize("superscripts", [False, True], ids=["bracketed", "superscript"])
def test_a_numbered_list_closing_the_paper_without_heading_is_the_bibliography(tmp_path, superscripts):
    """REVTeX sets the bibliography without a heading: the [1], [2], ... entries closing the paper (in some of
    its styles a raised 1, 2, ... before the authors' names) are read as one entry each, and no body line is
    taken for one."""
    data, _, entries = letter_paper(superscripts=superscripts)
    doc = parse_pdf(write(tmp_path, "letter.pdf", data))
    assert [(r.marker, r.raw) for r in doc.references] == [tuple(e.split(" ", 1)) for e in entries]
    assert [r.page for r in doc.references] == [doc.page_count] * len(entries)


def test_a_bibliography_without_heading_is_a_references_section_no_heading_is_printed_for(tmp_path):
    """The list closing a REVTeX paper is a References section all the same, marked as having no printed heading:
    its text is the bibliography's (read as one, not as the last section's prose), the last section's text ends
    before it, and the gold's printed headings are what the prediction lists."""
    data, truth, entries = letter_paper()
    doc = parse_pdf(write(tmp_path, "letter.pdf", data))
    *printed, bibliography = doc.sections
    assert [(s.number, s.title, s.printed) for s in printed] == [(n, t, True) for n, t, _, _ in truth.sections]
    assert (bibliography.title, bibliography.printed, bibliography.core_kind) == ("References", False, "reference")
    assert bibliography.box.page == doc.page_count and bibliography.number is None
    text = doc.text[bibliography.char_start:bibliography.char_end]
    assert text.startswith(entries[0]) and entries[-1] in text
    assert not any(e in doc.text[printed[-1].char_start:printed[-1].char_end] for e in entries)
    assert [s["title"] for s in prediction(doc)["sections"]] == [t for _, t, _, _ in truth.sections]


def test_a_paper_whose_only_section_is_a_headingless_list_still_warns_that_it_has_no_headings(tmp_path):
    """The list is a section no heading opens: the paper still has no headings, and the figure printed after the
    list is no part of the bibliography."""
    data, count = headingless_list_paper(methods=False)
    doc = parse_pdf(write(tmp_path, "letter.pdf", data))
    assert len(doc.references) == count
    assert [(s.title, s.printed) for s in doc.sections] == [("References", False)]
    assert "no section headings found; all text is front matter" in doc.audit.warnings
    assert [(f.label, f.section_id) for f in doc.figures] == [("1", None)]


def test_sections_after_a_headingless_list_keep_their_kind_and_their_floats(tmp_path):
    """Nature sets its list before the Methods: a list no printed heading opens makes no appendix of what follows,
    and a figure of the Methods stays in the Methods. A line of the Methods opening with a number ('1 Gyr') does
    not hide the list before it."""
    data, count = headingless_list_paper(methods=True)
    doc = parse_pdf(write(tmp_path, "nature.pdf", data))
    assert len(doc.references) == count
    assert [(s.title, s.printed, s.kind, s.core_kind) for s in doc.sections] == \
        [("References", False, "References", "reference"), ("Methods", True, "Method", "body")]
    assert [f.section_id for f in doc.figures] == [doc.sections[1].id]


def test_numbered_steps_closing_a_report_are_no_bibliography(tmp_path):
    """A technical report may close with the numbered steps of a procedure and no bibliography: a list numbered
    otherwise than "[1]" is taken for one only when most of its entries print a year."""
    w = Writer()
    w.line("Access Control in a Database Server", size=14)
    w.heading("1 Setting up the controls", size=12)
    w.paragraph(prose(8))
    for n, step in enumerate(["Run the statements that are shown in the example above.",
                              "Look at the definition of the table in the navigation pane.",
                              "Compare the advised indexes with and without the controls.",
                              "Save the settings and close the window."], 1):
        w.line(f"{n}. {step}")
    assert parse_pdf(write(tmp_path, "steps.pdf", w.bytes())).references == []


def test_author_year_entries_of_one_line_each_set_flush_and_unspaced():
    """No marker, no hanging indent, no space between entries, every entry one line as long as the next: each
    line that follows an entry's final period and opens with an author and a year is an entry."""
    w = Writer(columns=1)
    w.heading("References")
    entries = [f"Author{chr(65 + n)}, B. and Writer, C. {2000 + n}. A cited paper number {n}. Journal of Tests, {n}:1-9."
               for n in range(12)]
    for entry in entries:
        w.line(entry, size=9)
    lines = read_layout(pymupdf.open(stream=w.bytes(), filetype="pdf"))[0].lines[1:]
    assert [r.raw for r in parse_references(lines, "0" * 64)] == entries


@pytest.mark.parametrize("entries,columns", [(90, 2), (25, 1)], ids=["two-column-three-pages", "one-column"])
def test_author_year_list_across_columns_and_pages_counts_every_entry(tmp_path, entries, columns):
    """Hanging indent, entries not spaced apart, most on one line: the count holds where the list turns a column
    or a page (an entry's continuation at a column's top is indented like any other)."""
    data, count = author_year_bibliography(entries, columns)
    doc = parse_pdf(write(tmp_path, "bib.pdf", data))
    assert doc.page_count == (3 if columns == 2 else 1)
    assert len(doc.references) == count
    assert doc.references[-1].raw.endswith(f"Proc. Conf. {count - 1}.")


def test_entries_indenting_their_first_line_like_paragraphs_are_counted(tmp_path):
    """No marker, no space between entries, the first line of each entry indented and the rest flush: the
    indented lines open the entries (the list's first line is one), across columns and pages."""
    data, count = indented_bibliography(60)
    doc = parse_pdf(write(tmp_path, "indented.pdf", data))
    assert doc.page_count == 2
    assert len(doc.references) == count
    assert doc.references[0].raw.startswith("Smith, A. and Novak, B. 2000.")
    assert doc.references[-1].raw.endswith(f"Proc. Conf. {count - 1}.")


def test_a_running_head_on_the_text_blocks_first_row_is_no_entry(tmp_path):
    """A running head set on the first row of a small text block, far inside the page's top band, recurs on every
    page at that place: it is page furniture, not an entry where the bibliography turns the page."""
    data, count, head = small_block_bibliography(40)
    doc = parse_pdf(write(tmp_path, "small.pdf", data))
    assert doc.page_count >= 2 and len({r.page for r in doc.references}) == 2
    assert len(doc.references) == count
    assert not any(head in r.raw for r in doc.references)


@pytest.mark.parametrize("heading", ["References and Notes", "Reference", "Works Cited", "Références",
                                     "Literaturverzeichnis", "Referencias", "Bibliografia"])
def test_a_bibliography_under_another_name_of_its_heading_is_read(tmp_path, heading):
    """Journals name the heading differently, and papers in other languages in theirs; an author-year list (no
    markers to find it by) is read under each."""
    data, count = author_year_bibliography(30, heading=heading)
    doc = parse_pdf(write(tmp_path, "named.pdf", data))
    assert len(doc.references) == count
    assert doc.references[0].raw.startswith("Smith, A. and Novak, B. 2000.")


def test_markers_alone_on_their_lines_open_the_entries_below_them(tmp_path):
    data, count = marker_line_bibliography(30)
    refs = parse_pdf(write(tmp_path, "markers.pdf", data)).references
    assert [r.marker for r in refs] == [f"{n}." for n in range(1, count + 1)]
    assert refs[0].raw.startswith("Smith, A. and Novak, B. 2000.")


@pytest.mark.parametrize("appendix", [False, True], ids=["list in both columns", "appendix beside the list"])
def test_a_bibliography_in_a_band_below_the_last_sections_is_read_after_them(tmp_path, appendix):
    """The References heading opens a band of its own when nothing stands beside it and the other column goes on
    level with the list's first line in the list's type: the band above (a subsection, the back matter) is read
    first, then the whole list, left column then right. An appendix's prose going on there in the body's type
    is no part of the list: the page is read column by column."""
    data, count, titles = banded_bibliography(24, appendix)
    doc = parse_pdf(write(tmp_path, "banded.pdf", data))
    assert [s.title for s in doc.sections] == titles
    assert [r.marker for r in doc.references] == [f"{n}." for n in range(1, count + 1)]


def test_an_entrys_tail_alone_on_the_next_page_stays_in_its_entry(tmp_path):
    data, count = carried_over_bibliography()
    refs = parse_pdf(write(tmp_path, "carried.pdf", data)).references
    assert len(refs) == count
    assert refs[-1].raw.endswith("ACM Press, second edition, 2011.") and refs[-1].page == 1


@pytest.mark.parametrize("line, number", [("42 McCoy, A. J. and Read, R. J.", 42), ("12 Öztürk, A. and Li, B.", 12),
                                          ("12 Łukasz, K.", 12), ("12 van der Berg, A.", 12), ("7", 7),
                                          ("45 (2019), 123-130.", None), ("123-130, 2019.", None)])
def test_a_bare_number_opens_an_entry_before_an_authors_name_in_any_script(line, number):
    assert marker_number(line) == number


def test_bare_numbers_before_the_entries_number_the_list(tmp_path):
    data, count = bare_number_bibliography(30)
    refs = parse_pdf(write(tmp_path, "bare.pdf", data)).references
    assert [r.marker for r in refs] == [str(n) for n in range(1, count + 1)]
    assert refs[0].raw.startswith("McCoy, A. and Novak, B. 2000.")


def test_of_two_reference_lists_the_papers_own_is_the_longer(tmp_path):
    """Supplementary material appended to a paper may close with a short list of its own after the paper's."""
    data, count = bare_number_bibliography(30, supplement=3)
    doc = parse_pdf(write(tmp_path, "supplement.pdf", data))
    assert [s.title for s in doc.sections].count("References") == 2
    assert len(doc.references) == count and doc.references[-1].raw.endswith("Proc. Conf. 29.")


def test_a_list_of_mostly_one_line_entries_is_read_by_its_hanging_indent(tmp_path):
    """Nearly every line is flush when most entries fit on one line; the few long entries hang their further lines,
    and that indent, not the text, says where each entry starts."""
    data, count = one_line_entries_bibliography(40)
    refs = parse_pdf(write(tmp_path, "one-line.pdf", data)).references
    assert len(refs) == count
    assert refs[3].raw.startswith("Chen et al. 1993") and refs[5].raw.startswith("Novak, A. B. 1995")


def test_an_appendix_after_the_bibliography_keeps_its_run_in_and_name_like_headings(tmp_path):
    """The entries' rules hold from the References heading to the next heading: an appendix after it keeps its
    run-in numbered subsections and a subsection titled like a name."""
    data, sections = appendix_after_bibliography()
    doc = parse_pdf(write(tmp_path, "appendix.pdf", data))
    assert [(s.number, s.title) for s in doc.sections] == sections
    assert len(doc.references) == 8


@pytest.mark.parametrize("style", ["bold-authors", "bold-line", "journal-line"])
def test_entries_in_fonts_of_their_own_are_no_headings(style, tmp_path):
    """A numbered entry opening with its authors in bold is no run-in heading, nor is an italic journal line 'J Test
    Med. 2003;...' a heading lettered J: inside a bibliography, neither starts a section that cuts the list."""
    data, count = styled_entry_bibliography(style, 30)
    doc = parse_pdf(write(tmp_path, "styled.pdf", data))
    assert [s.title for s in doc.sections] == ["INTRODUCTION", "REFERENCES"]
    assert [r.marker for r in doc.references] == [f"{n}." for n in range(1, count + 1)]


def test_authors_in_small_capitals_do_not_make_an_entry_footnote_sized(tmp_path):
    data, count = small_caps_bibliography(24)
    refs = parse_pdf(write(tmp_path, "small-caps.pdf", data)).references
    assert [r.marker for r in refs] == [f"[{n}]" for n in range(1, count + 1)]
    assert refs[1].raw.startswith("JONES, A., GARCIA, A., CHEN, A., OKAFOR, A.")


def test_a_bibliography_under_a_references_line_no_heading_style_matches(tmp_path):
    data, count = plain_word_bibliography(20)
    doc = parse_pdf(write(tmp_path, "plain.pdf", data))
    assert "References" not in [s.title for s in doc.sections]  # the case this covers: not taken for a heading
    assert len(doc.references) == count
    assert doc.references[0].raw.startswith("Smith, A. and Novak, B. 2000.")


@pytest.mark.parametrize("outlier", [False, True])
def test_one_line_off_the_edge_of_a_spaced_list_is_no_hanging_indent(outlier, tmp_path):
    """Entries set apart by space, none indented: one line starting left of the others (a protruding glyph) leaves
    the rest of the list not flush with the edge, and gives no hanging indent to read entries by."""
    data, count = spaced_bibliography(14, outlier)
    refs = parse_pdf(write(tmp_path, "spaced.pdf", data)).references
    assert len(refs) == count and all(r.raw.endswith(f"{100 + n}-{120 + n}.") for n, r in enumerate(refs))


def test_the_journals_statements_after_the_list_are_no_entries(tmp_path):
    """'Conflict of Interest Statement: ...', 'Received: ...', 'Copyright (c) ...' set on in the list's column end
    it; an entry never opens with such a label."""
    data, count = author_year_bibliography(30, back_matter=True)
    refs = parse_pdf(write(tmp_path, "back-matter.pdf", data)).references
    assert len(refs) == count and refs[-1].raw.endswith("Proc. Conf. 29.")


def test_a_small_type_bibliography_below_the_body_is_no_footnote_run(tmp_path):
    """Small print well below a page's body text is taken for footnotes and moved after the next sentence; a
    bibliography set small under its small heading is more lines than footnotes take, so it stays before the
    appendix that follows it."""
    data, count = plain_word_bibliography(14, appendix=True)
    doc = parse_pdf(write(tmp_path, "appendix.pdf", data))
    assert [s.title for s in doc.sections][-1] == "Proofs"
    assert [r.raw.rsplit("Conf. ", 1)[1] for r in doc.references] == [f"{n}." for n in range(count)]


def test_headings_in_small_capitals_and_a_list_under_a_heading_centred_over_the_columns(tmp_path):
    """AAS journals number their section headings in capitals two points below the body type and centre REFERENCES
    over both columns: each is a heading, and the list is read from the top of its first column on."""
    data, titles, count = small_capitals_headings_paper(40)
    doc = parse_pdf(write(tmp_path, "aas.pdf", data))
    assert [s.title for s in doc.sections] == titles
    assert len(doc.references) == count and doc.references[0].raw.startswith(f"{SURNAMES[0]}, A.")


def test_markers_in_parentheses_number_the_entries(tmp_path):
    """ACS journals number their entries "(1)", "(2)", ..., set flush right so that "(9)" starts right of "(10)":
    each marker opens an entry, whichever edge it starts at."""
    data, count = parenthesized_bibliography(14)
    refs = parse_pdf(write(tmp_path, "parenthesized.pdf", data)).references
    assert [r.marker for r in refs] == [f"({n})" for n in range(1, count + 1)]
    assert all(r.raw.startswith(f"{SURNAMES[n % len(SURNAMES)]}, A.;") for n, r in enumerate(refs, start=1))


def test_a_wrapped_line_opening_with_an_issue_number_opens_no_entry():
    """In a list numbered "[1]", a line that opens with an issue number in parentheses ('(3) 245-260 (2001).') is
    the end of the entry above, though "(3)" numbers entries in lists numbered so."""
    texts = ["[1] A. Smith. Rules for papers. J. Chem. Phys. 12", "(3) 245-260 (2001).",
             "[2] B. Jones. Tables in print. Science 7", "(4) 11-19 (2003).", "[3] C. Lee. Lists. Nature 5, 1 (2004).",
             "[4] D. Chen. Figures. Cell 9, 2 (2005)."]
    lines = [Line(text=t, page=1, bbox=(72, 100 + 12 * k, 300, 110 + 12 * k), size=9, font="Times")
             for k, t in enumerate(texts)]
    assert numbered_starts(lines) == [0, 2, 4, 5]

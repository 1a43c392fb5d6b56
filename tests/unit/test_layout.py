import pymupdf
import pytest

from extractors.layout import finish_layout, read_layout
from extractors.model import Line, PageLayout
from extractors.text import join_lines, plain_text
from tests.pdf_factory import (BOLD, HEIGHT, WIDTH, barred_running_head_paper, letter_paper, one_column_paper,
                               two_column_paper)


@pytest.fixture(scope="module")
def two_col():
    data, truth = two_column_paper()
    return read_layout(pymupdf.open(stream=data, filetype="pdf")), truth


def test_running_heads_and_page_numbers_are_removed(two_col):
    pages, truth = two_col
    texts = [line.text for page in pages for line in page.lines]
    assert truth.running_head not in texts
    assert not any(t.strip().isdigit() for t in texts)
    assert truth.footnote in texts  # a footnote is content, not furniture


def test_two_columns_read_left_then_right_below_full_width_front_matter(two_col):
    pages, truth = two_col
    first = pages[0]
    assert first.columns == 2
    texts = [line.text for line in first.lines]
    assert texts[0] == truth.title
    assert texts.index("1 Introduction") < texts.index("1.1 Scope of This Study") < texts.index("2 Method")
    left = [l for l in first.lines if l.column == 0 and l.bbox[0] < WIDTH / 2]
    right = [l for l in first.lines if l.column == 1]
    assert right and min(first.lines.index(l) for l in right) > max(first.lines.index(l) for l in left)


def test_one_column_page_is_top_to_bottom():
    data, truth = one_column_paper()
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    assert [p.columns for p in pages] == [1] * truth.pages
    ys = [l.bbox[1] for l in pages[0].lines]
    assert ys == sorted(ys)


def test_fonts_flags_and_spans():
    data, _ = one_column_paper()
    first = read_layout(pymupdf.open(stream=data, filetype="pdf"))[0]
    title = first.lines[0]
    assert title.bold and title.size == 18 and title.spans[0].text == title.text


def test_line_numbers_in_the_margin_and_side_stamps_are_removed():
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for n in range(20):
        y = 100 + n * 14
        page.insert_text((72, y), f"Body text line number {n} that is long enough to be prose.", fontsize=10)
        page.insert_text((40, y), f"{n:03d}", fontsize=7)
    page.insert_text((20, 500), "arXiv:2101.00001v1 [cs.CL] 1 Jan 2021", fontsize=9, rotate=90)
    texts = [l.text for l in read_layout(doc)[0].lines]
    assert len(texts) == 20 and all(t.startswith("Body text") for t in texts)


def test_graphics_boxes():
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.draw_rect(pymupdf.Rect(100, 100, 200, 150))
    page.draw_rect(pymupdf.Rect(201, 100, 300, 150))  # touches the first: one region
    page.insert_text((72, 400), "Some text", fontname=BOLD, fontsize=10)
    layout = read_layout(doc)[0]
    assert len(layout.drawings) == 1
    x0, y0, x1, y1 = layout.drawings[0]
    assert x0 == pytest.approx(99.5, abs=1) and x1 == pytest.approx(300.5, abs=1)


def test_graphics_far_below_the_page_s_first_drawing_are_kept():
    """A rule under the running head and a figure half a page below it: the sweep that joins touching paths stops
    at the rule, and the figure's paths must still make a region of their own."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.draw_line((72, 60), (540, 60))
    page.draw_rect(pymupdf.Rect(100, 400, 200, 450))
    page.draw_rect(pymupdf.Rect(200, 430, 300, 500))
    page.insert_text((72, 300), "Some text", fontsize=10)
    drawings = sorted(read_layout(doc)[0].drawings, key=lambda b: b[1])
    assert len(drawings) == 2
    assert drawings[1] == pytest.approx((99.5, 399.5, 300.5, 500.5), abs=1)


def test_boxes_touching_a_region_the_sweep_left_behind_are_still_joined():
    """A tall rule down the page, then more separate strokes beside it than the sweep looks back over, then a box
    touching the rule's foot: all that touch end in one region."""
    from extractors.layout import _SWEEP, merge_touching

    rule = (10, 0, 11, 700)
    strokes = [(100 + 8 * k, 5, 104 + 8 * k, 6) for k in range(_SWEEP + 10)]
    regions = merge_touching([rule, *strokes, (12, 690, 40, 699)], 3.0)
    assert (10, 0, 40, 700) in regions and len(regions) == len(strokes) + 1
    # regions that grew into each other are joined: two L-shapes whose boxes overlap though no stroke touches
    assert merge_touching([(0, 0, 50, 2), (0, 0, 2, 50), (30, 30, 80, 32), (78, 30, 80, 80)], 1.0) == [(0, 0, 80, 80)]


def test_normalize_expands_ligatures_and_keeps_superscripts():
    assert plain_text("e\ufb03cient \ufb01eld\u00a0x\u00b2") == "efficient field x\u00b2"
    assert plain_text("soft\u00adhyphen") == "softhyphen"


def test_join_lines_dehyphenates_only_word_breaks():
    assert join_lines(["an extrac-", "tion step"]) == "an extraction step"
    assert join_lines(["a self-", "Attention layer"]) == "a self-Attention layer"
    assert join_lines(["EFFICIENT SO-", "LUTION"]) == "EFFICIENT SOLUTION"


def test_loose_tex_accents_join_their_letters():
    assert plain_text("Pierre-Franc\u00b8ois Gr\u00b4egory J\u02dbedrzej") == "Pierre-François Grégory Jędrzej"
    assert plain_text("authors\u00b4 roles") == "authors\u00b4 roles"  # an acute used as an apostrophe


def test_columns_set_in_two_types_are_read_as_two_columns():
    """The last page of a letter: the body ends in the left column, the right one holds the references in
    smaller type. Neither size alone fills both columns, yet the page has two."""
    data, _, entries = letter_paper()
    last = read_layout(pymupdf.open(stream=data, filetype="pdf"))[-1]
    assert last.columns == 2
    right = [line.text for line in last.lines if line.column == 1]
    assert right == entries


def _columns_page(widths: list[float], spanner: bool = False) -> tuple[bytes, list[list[str]]]:
    """A page of columns of the given widths (12 pt gutters) under a full-width title, each line of prose filling
    its column and naming the column it is in, so reading order shows which column a line was read in. With
    `spanner`, a line set across the last two columns halfway down (a pull quote), read with the column it
    starts in."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((72, 60), "A Title Set Across the Whole Page of the Magazine", fontname=BOLD, fontsize=14)
    gutter = 12.0
    left = (WIDTH - sum(widths) - gutter * (len(widths) - 1)) / 2
    texts = []
    for c, width in enumerate(widths):
        x = left + sum(widths[:c]) + gutter * c
        column = []
        for n in range(40):
            text = f"column {c} line {n}"
            while pymupdf.get_text_length(text + " and on", fontsize=8) < width:
                text += " and on"
            if spanner and c == len(widths) - 2 and n == 20:
                column.append("a quote set across two columns " * 3)
                page.insert_text((x, 90 + 14 * n), column[-1], fontsize=8)
                continue
            if spanner and c == len(widths) - 1 and n == 20:
                continue
            page.insert_text((x, 90 + 14 * n), text, fontsize=8)
            column.append(text)
        texts.append(column)
    return doc.tobytes(), texts


@pytest.mark.parametrize("widths", [[240, 240], [160, 160, 160], [150, 170, 170], [170, 170, 150],
                                    [110, 110, 110, 110]])
def test_columns_are_read_one_after_the_other(widths):
    """Two columns, three as magazines set them (the gutter found first either side of the middle), or four narrow
    ones as some journals set their references: each read top to bottom before the next, left to right (three
    columns read as two would interleave two of them)."""
    data, texts = _columns_page(widths)
    [page] = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    assert page.columns == len(widths)
    body = [line for line in page.lines if line.text.startswith(("column", "a quote"))]
    assert [line.text for line in body] == [text for column in texts for text in column]
    assert [line.column for line in body] == [c for c, column in enumerate(texts) for _ in column]


def test_a_long_abstract_across_the_page_does_not_hide_the_columns_under_it():
    """A first page: an abstract set across the page in body type, with more lines than half of what the two
    columns under it hold, then the columns, each read top to bottom before the next."""
    layout, columns = _abstract_over_columns(abstract=16, columns=2, lines=12, pitch=246, words=4, top=300)
    assert layout.columns == 2
    body = [line.text for line in layout.lines if line.text.startswith("col")]
    assert body == [text.strip() for column in columns for text in column]


def _abstract_over_columns(abstract: int, columns: int, lines: int, pitch: float, words: int, top: float,
                           width: int = 95):
    """A page of `abstract` lines across the page in body type (`width` characters) over `columns` columns of
    `lines` lines each (their left edges `pitch` apart, each line naming its column); the page's layout and the
    columns' texts."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for n in range(abstract):
        text = f"abstract line {n} " + "and more of the abstract " * 5
        page.insert_text((72, 80 + 12 * n), text[:width], fontsize=9)
    texts = [[f"col {c} line {n} " + "and on " * words for n in range(lines)] for c in range(columns)]
    for c, column in enumerate(texts):
        for n, text in enumerate(column):
            page.insert_text((72 + pitch * c, top + 12 * n), text, fontsize=9)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    return layout, texts


def test_two_short_runs_side_by_side_under_body_text_are_no_columns():
    """One column of body text over a borderless two-column table of four rows: still one column, each row read
    across (the abstract rule above does not make short side-by-side runs under body text columns)."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    body = "This single column paper runs its text across the whole page width, line after line, as one column does"
    for n in range(25):
        page.insert_text((72, 80 + 14 * n), f"{n:02d} " + body[:90], fontsize=10)
    rows = [("Learning rate schedule used", "Linear warm-up then cosine decay"),
            ("Batch size per device step", "Thirty-two sequences of 512 tokens"),
            ("Optimizer and its settings", "AdamW with beta2 set to 0.98 here"),
            ("Dropout on attention layers", "Ten percent on every block used")]
    for n, (a, b) in enumerate(rows):
        page.insert_text((72, 470 + 14 * n), a + " and more", fontsize=10)
        page.insert_text((330, 470 + 14 * n), b + " and more", fontsize=10)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    assert layout.columns == 1
    assert [line.text for line in layout.lines[-8:]] == [f"{cell} and more" for row in rows for cell in row]


def test_a_box_beside_an_abstract_across_the_columns_is_read_as_a_block():
    """A journal's first page: an article-info box in a narrow strip beside an abstract that runs across both
    columns of the body below. The box's lines and the abstract's are read each as a block, the abstract's heading
    right before its text, not interleaved row by row."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((120, 70), "A Title Set Across the Page", fontname=BOLD, fontsize=16)
    info = ["article info", "Article history:", "Received 27 August 2016", "Accepted 31 October 2016",
            "Available online 1 November", "Keywords:", "Gastric cancer", "Kinase inhibitors"]
    abstract = [f"abstract line {n} " + "of the summary that runs across the page " * 2 for n in range(10)]
    for n, text in enumerate(info):  # the box in its own leading, off the abstract's rows
        page.insert_text((43, 120 + 8.5 * n), text, fontsize=6.5)
    page.insert_text((207, 120), "abstract", fontsize=7)
    for n, text in enumerate(abstract):
        page.insert_text((207, 131 + 10 * n), text[:80], fontsize=7.5)
    for c in range(2):
        for n in range(30):
            page.insert_text((43 + 263 * c, 260 + 12 * n), f"column {c} line {n} " + "and the body goes on " * 2,
                             fontsize=9)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    texts = [line.text for line in layout.lines]
    assert layout.columns == 2
    start = texts.index("article info")
    assert texts[start:start + len(info)] == info
    at = texts.index("abstract")
    assert [t[:15] for t in texts[at + 1:at + 1 + len(abstract)]] == [t[:15] for t in abstract]


def test_three_columns_under_a_long_abstract_are_three():
    """The gutter between the last two of three columns is sought among those columns' lines: the abstract above,
    which reaches out of their span, does not count against it."""
    layout, columns = _abstract_over_columns(abstract=20, columns=3, lines=10, pitch=172, words=3, top=340, width=115)
    assert layout.columns == 3
    assert [line.text for line in layout.lines if line.text.startswith("col")] == [
        text.strip() for column in columns for text in column]


def _filled(text: str, width: float, size: float = 9) -> str:
    while pymupdf.get_text_length(text + " a", fontsize=size) < width:
        text += " a"
    return text


def test_a_table_row_across_the_gutter_takes_no_column_lines_above_it():
    """Two columns, then a table whose middle cells run across the gutter: the columns above stay columns, read one
    after the other, and the table is read by its rows (cells level with the cells across are a table's, not a box
    beside a block)."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for c in range(2):
        for n in range(25):
            page.insert_text((72 + 246 * c, 80 + 12 * n), _filled(f"col {c} line {n}", 222), fontsize=9)
    rows = [("Method", "Accuracy on the benchmark set", "F1 score"),
            ("Baseline", "71.2 plus or minus 0.3 points", "70.1"), ("Ours", "75.9 plus or minus 0.2 points", "74.8")]
    for r, row in enumerate(rows):
        for x, cell in zip((80, 250, 470), row):
            page.insert_text((x, 400 + 12 * r), cell, fontsize=8)
    for c in range(2):
        for n in range(25):
            page.insert_text((72 + 246 * c, 450 + 12 * n), _filled(f"low {c} line {n}", 222), fontsize=9)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    texts = [line.text for line in layout.lines]
    above = [t.split(" a")[0] for t in texts if t.startswith("col ")]
    assert above == [f"col {c} line {n}" for c in range(2) for n in range(25)]
    assert texts.index("Accuracy on the benchmark set") < texts.index("Ours")  # by rows, not the left cells first


def test_four_narrow_columns_under_two_are_read_after_them_one_by_one():
    """A page in two columns whose foot is set in four narrow columns (a journal's reference list, its heading atop
    the first): both body columns first, then the four columns, each top to bottom, not their rows interleaved."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for c in range(2):
        for n in range(25):
            page.insert_text((60 + 252 * c, 70 + 12 * n), _filled(f"body {c} line {n}", 232), fontsize=9)
    page.insert_text((60, 392), "References", fontname=BOLD, fontsize=10)
    for c in range(4):
        for n in range(18):
            page.insert_text((60 + 126 * c, 408 + 10 * n), _filled(f"ref {c} line {n}", 106, 7.5), fontsize=7.5)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    texts = [line.text.split(" a")[0] for line in layout.lines]
    assert texts == ([f"body {c} line {n}" for c in range(2) for n in range(25)] + ["References"]
                     + [f"ref {c} line {n}" for c in range(4) for n in range(18)])


def _narrow_gutter_page(right_piece_at: float) -> list[str]:
    """Two columns of 9 pt body text 8 pt apart (as scanned journals set them), their lines on different baselines,
    and under them two 8 pt lines on the baselines of the first, written as one text object so that PyMuPDF reads
    both columns' pieces as one block: the left pieces at the left column's edge, the right ones at
    `right_piece_at`. The texts of the page's lines in reading order."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    width, right = 245, 72 + 245 + 8
    for n in range(30):
        page.insert_text((72, 80 + 12 * n), _filled(f"left {n}", width), fontsize=9)
        page.insert_text((right, 86 + 12 * n), _filled(f"right {n}", width), fontsize=9)
    writer, font = pymupdf.TextWriter(page.rect), pymupdf.Font("helv")
    for k, (x, y) in {1: (72, 460), 3: (right_piece_at, 460), 2: (72, 470), 4: (right_piece_at, 470)}.items():
        writer.append((x, y), _filled(f"[{k}] A. Author, Journal {k}, {k}0 (1997).", width, 8), font=font, fontsize=8)
    writer.write_text(page)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    return [line.text for line in layout.lines]


def test_two_columns_lines_joined_across_a_narrow_gutter_are_parted():
    """A reference list at the foot of both columns, its entries on common baselines across a narrow gutter, is
    read column by column ([1], [2], then [3], [4]), not as lines across the page."""
    texts = _narrow_gutter_page(72 + 245 + 8)
    entries = [t for t in texts if t.startswith("[")]
    assert [t[:3] for t in entries] == ["[1]", "[2]", "[3]", "[4]"]
    assert all(t.count("[") == 1 for t in entries)


def test_a_line_across_the_gutter_not_at_the_column_edge_stays_whole():
    """A line whose right piece starts off the right column's edge (a caption across the page, a word gap where
    the gutter is) is one line."""
    texts = _narrow_gutter_page(72 + 245 + 2)
    assert [t[:3] for t in texts if t.startswith("[")] == ["[1]", "[2]"]


def test_a_table_of_four_columns_in_one_column_text_is_no_four_columns():
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    body = "This single column paper runs its text across the whole page width, line after line, as one column does"
    for n in range(12):
        page.insert_text((72, 80 + 14 * n), f"{n:02d} " + body[:90], fontsize=10)
    cells = [["Model name", "Parameters", "Accuracy", "Latency"]] + [
        [f"Transformer system {k}", f"{k * 110} million weights", f"{70 + k}.5 percent on test",
         f"{k * 3} ms per item"] for k in range(1, 11)]
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            page.insert_text((72 + 120 * c, 280 + 14 * r), cell, fontsize=10)
    for n in range(6):
        page.insert_text((72, 450 + 14 * n), f"{n + 12:02d} " + body[:90], fontsize=10)
    [layout] = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    texts = [line.text for line in layout.lines]
    assert layout.columns == 1
    assert texts[texts.index("Model name"):texts.index("Model name") + 5] == [*cells[0], cells[1][0]]


def test_a_line_across_two_of_three_columns_does_not_cut_the_first():
    data, texts = _columns_page([160, 160, 160], spanner=True)
    [page] = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    assert page.columns == 3
    body = [line.text.strip() for line in page.lines if line.text.startswith(("column", "a quote"))]
    assert body == [text.strip() for column in texts for text in column]


def test_a_number_in_brackets_beside_a_repeated_footer_stays_furniture():
    """An equation number is kept where a formula shares its row; a footer's '(n)' beside a repeated line that
    happens to hold '=' (a URL's query) is page furniture like the footer itself."""
    doc = pymupdf.open()
    for n in range(1, 4):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        for row in range(30):
            page.insert_text((72, 80 + row * 14), f"Body text line {row} of page {n} says something plain.", fontsize=10)
        page.insert_text((72, HEIGHT - 40), "Available online at http://example.org/view?id=1234", fontsize=8)
        page.insert_text((WIDTH - 90, HEIGHT - 40), f"({n})", fontsize=8)
    pages = read_layout(doc)
    assert not any(line.text.strip() in ("(1)", "(2)", "(3)") for p in pages for line in p.lines)
    assert all(any(line.text.strip() == f"({p.page})" for line in p.furniture) for p in pages)


@pytest.mark.parametrize(("before", "raised", "read"), [
    ("binding to Tyr", "369", "binding to Tyr369 of the domain"),  # a residue's place in the chain
    ("stacking with His", "388", "stacking with His388 of the domain"),
    ("the corpus", "1", "the corpus of the domain"),  # a footnote mark
    ("from DeVal", "2", "from DeVal of the domain"),  # a word that merely ends like a code
])
def test_a_raised_number_after_an_amino_acid_code_is_its_residue_number(before, raised, read):
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((72, 100), before, fontname="tiro", fontsize=10)
    x = 72 + pymupdf.get_text_length(before, fontname="tiro", fontsize=10)
    page.insert_text((x, 96), raised, fontname="tiro", fontsize=6)
    x += pymupdf.get_text_length(raised, fontname="tiro", fontsize=6) + 2.5
    page.insert_text((x, 100), "of the domain", fontname="tiro", fontsize=10)
    pages = read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf"))
    assert [line.text for line in pages[0].lines] == [read]


def test_the_rule_under_a_running_head_is_furniture_too():
    """A rule set right under the running head of every page is dropped with the head, so no float beside it
    takes it for its graphics; a table's rule lower on the page stays."""
    def page(number: int, moved: float = 0.0) -> PageLayout:
        head = Line(text="Noisy Matrix Decomposition via Convex Relaxation", page=number, bbox=(150, 40, 460, 49),
                    size=9, font="Times")
        body = [Line(text=f"Body text line {k} of page {number}, which runs across the column.", page=number,
                     bbox=(72, 100 + 12 * k, 300, 110 + 12 * k), size=10, font="Times") for k in range(10)]
        return PageLayout(page=number, width=612, height=792, lines=[head, *body],
                          drawings=[(55 + moved, 52 + moved, 542 + moved, 53 + moved), (72, 300, 300, 301)])
    pages = finish_layout([page(1), page(2), page(3)])
    assert [p.drawings for p in pages] == [[(72, 300, 300, 301)]] * 3
    # a scan's rule, read from its ink, lands a point or so apart page to page
    pages = finish_layout([page(1), page(2, 0.6), page(3, 1.4)])
    assert [p.drawings for p in pages] == [[(72, 300, 300, 301)]] * 3
    pages = finish_layout([page(1, -0.1), page(2, 0.1)])  # either side of a 2-point bucket's edge
    assert [p.drawings for p in pages] == [[(72, 300, 300, 301)]] * 2
    assert all(not any("Noisy" in line.text for line in p.lines) for p in pages)


def test_a_running_head_beside_a_bar_under_its_rule_is_furniture():
    """The rule over a running head and the bar beside it join into one box that stops short of the head's foot,
    and a figure's frame half a page below, or right under its caption below the head, is no rule under it: none
    makes the head a ruled table cell."""
    data, title = barred_running_head_paper(4)
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    assert not any(title in line.text for page in pages for line in page.lines)
    assert all(any(title in line.text for line in page.furniture) for page in pages)

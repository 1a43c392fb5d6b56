"""OCR of pages without a text layer: a generated paper, rasterized (pictures of its pages, no text), parses into
the sections and words of the original, marked as OCR, with boxes where the words are printed; OCR reads only the
pages triage flags, at most the cap, and says what it left unread."""

from __future__ import annotations

import statistics
from dataclasses import replace

import numpy as np
import pymupdf
import pytest

from bench.ocr import (char_accuracy, label_recall, rasterized, regions_found, section_precision, section_recall,
                       word_recall)
from extractors import ocr, ocr_type
from extractors.errors import NoTextLayerError
from extractors.limits import ParseLimits
from extractors.model import Line, PageLayout, Span
from extractors.pipeline import parse_pdf
from tests.pdf_factory import ITALIC, Writer, one_column_paper, prose, stored_rotated, write

SCAN_DPI = 200  # a common office-scanner setting
# What OCR must recover of the generated paper: its sections, and its words (measured on Tesseract 5 with the
# Debian English data; a misread word is a miss, so these leave room for a few).
MIN_SECTION_RECALL = 0.9
MIN_WORD_RECALL = 0.95
MIN_CHAR_ACCURACY = 0.97


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    data, truth = one_column_paper()
    folder = tmp_path_factory.mktemp("ocr")
    return folder, data, truth, parse_pdf(write(folder, "original.pdf", data))


@pytest.fixture(scope="module")
def scanned(paper):
    folder, data, _, _ = paper
    return parse_pdf(write(folder, "scanned.pdf", rasterized(data, SCAN_DPI)))


def _overlap(a, b) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return max(w, 0) * max(h, 0) / smaller if smaller > 0 else 0.0


def test_a_scanned_paper_yields_the_sections_of_its_original(paper, scanned):
    _, _, truth, _ = paper
    assert scanned.profile.text_kind == "scanned" and scanned.profile.ocr_pages == list(range(1, truth.pages + 1))
    assert section_recall([s.title for s in scanned.sections], [t for _, t, _, _ in truth.sections]) \
        >= MIN_SECTION_RECALL
    assert scanned.metadata.title == truth.title


def test_ocr_text_matches_the_printed_words(paper, scanned):
    original = paper[3]
    assert word_recall(scanned.text, original.text) >= MIN_WORD_RECALL
    assert char_accuracy(scanned.text, original.text) >= MIN_CHAR_ACCURACY


def test_ocr_sections_and_chunks_are_marked_and_boxed_where_printed(paper, scanned):
    original = paper[3]
    assert scanned.chunks and {c.text_source for c in scanned.chunks} == {"ocr"}
    assert {s.text_source for s in scanned.sections} == {"ocr"}
    assert any(w.startswith("OCR (tesseract, eng) read pages 1, 2, 3,") for w in scanned.audit.warnings)
    assert "ocr/tesseract" in scanned.audit.extractor_versions
    assert scanned.audit.page_warnings == [w for w in scanned.audit.warnings if w.startswith("OCR ")]
    printed = {s.title: s.box for s in original.sections}
    matched = [(s.box, printed[s.title]) for s in scanned.sections if s.title in printed]
    assert len(matched) >= MIN_SECTION_RECALL * len(printed)
    for ocr_box, box in matched:  # PDF coordinates of the same page: the heading's box covers the printed heading
        assert ocr_box.page == box.page and _overlap(ocr_box.bbox, box.bbox) > 0.6, (ocr_box, box)


@pytest.mark.parametrize("rotation", [90, 270])
def test_a_scan_stored_turned_reads_as_the_upright_one(paper, scanned, rotation):
    """Scanners often store a page turned, with /Rotate turning it back: OCR reads the page as shown, every word of
    it (MuPDF's own OCR text page clipped a turned page's words to its shorter side), boxed where it is shown."""
    folder, data, _, original = paper
    turned = parse_pdf(write(folder, f"turned-{rotation}.pdf", stored_rotated(rasterized(data, SCAN_DPI), rotation)))
    assert word_recall(turned.text, original.text) >= MIN_WORD_RECALL
    assert [(s.title, s.box.page) for s in turned.sections] == [(s.title, s.box.page) for s in scanned.sections]
    for mine, upright in zip(turned.sections, scanned.sections):
        assert _overlap(mine.box.bbox, upright.box.bbox) > 0.6, (mine.box, upright.box)


def test_only_pages_without_text_are_read_and_the_same_page_reads_the_same(paper, scanned):
    folder, data, _, original = paper
    mixed = parse_pdf(write(folder, "mixed.pdf", rasterized(data, SCAN_DPI, pages={2})))
    assert mixed.profile.text_kind == "mixed" and mixed.profile.ocr_pages == [2]
    assert {c.text_source for c in mixed.chunks if c.page_end < 2} == {"text_layer"}
    assert {c.text_source for c in mixed.chunks if c.page_start == 2} == {"ocr"}
    on_page_2 = [(s.title, s.box) for s in scanned.sections if s.box.page == 2]
    assert on_page_2 and [(s.title, s.box) for s in mixed.sections if s.box.page == 2] == on_page_2
    assert [s.title for s in mixed.sections if s.box.page == 1] == \
        [s.title for s in original.sections if s.box.page == 1]  # page 1 is its text layer, untouched


def test_ocr_reads_at_most_the_cap_and_names_the_pages_it_left(paper):
    folder, data, truth, _ = paper
    doc = parse_pdf(write(folder, "capped.pdf", rasterized(data, SCAN_DPI, pages={2, 3})),
                    ParseLimits(max_ocr_pages=1))
    assert doc.profile.ocr_pages == [2]
    left = [w for w in doc.audit.warnings if "unread" in w]
    assert len(left) == 1 and left[0].startswith("page 3 without a text layer left unread")
    assert "PAPERKG_PARSE_MAX_OCR_PAGES" in left[0]
    assert all(c.page_start < 3 for c in doc.chunks)


def test_without_language_data_a_scanned_page_is_named_not_silently_dropped(paper, monkeypatch):
    folder, data, _, _ = paper
    monkeypatch.setattr(ocr, "tessdata", lambda: None)
    doc = parse_pdf(write(folder, "mixed-no-ocr.pdf", rasterized(data, SCAN_DPI, pages={2})))
    assert doc.profile.ocr_pages == [] and doc.profile.text_kind == "mixed"
    assert any(w.startswith("page 2 without a text layer left unread") and "tesseract-ocr-eng" in w
               for w in doc.audit.warnings)
    assert {c.page_start for c in doc.chunks} <= {1, 3}
    with pytest.raises(NoTextLayerError) as refused:
        parse_pdf(write(folder, "scanned-no-ocr.pdf", rasterized(data, SCAN_DPI)))
    assert "tesseract-ocr-eng" in refused.value.hint


def _loose_words_under_the_print(data: bytes) -> bytes:
    """The paper's pages as pictures (the printed page) under an invisible text layer that holds every word on a
    line of its own, as some converters write it: plenty of text on every page, none of it in lines."""
    from extractors.mupdf import pymupdf

    doc = pymupdf.open(stream=rasterized(data, SCAN_DPI), filetype="pdf")
    words = " ".join(page.get_text() for page in pymupdf.open(stream=data, filetype="pdf")).split()
    per_page = len(words) // len(doc) + 1
    for page in doc:
        for n, word in enumerate(words[page.number * per_page:(page.number + 1) * per_page]):
            column, row = divmod(n, 50)
            page.insert_text((40 + column * 60, 40 + row * 14), word, fontsize=8, render_mode=3)
    return doc.tobytes()


def test_a_text_layer_of_loose_words_is_replaced_by_ocr_of_every_page(paper):
    folder, data, truth, original = paper
    doc = parse_pdf(write(folder, "loose-words.pdf", _loose_words_under_the_print(data)))
    assert doc.profile.ocr_pages == list(range(1, truth.pages + 1))
    assert any("whose text layer is unusable" in w for w in doc.audit.warnings)
    assert section_recall([s.title for s in doc.sections], [t for _, t, _, _ in truth.sections]) >= MIN_SECTION_RECALL
    assert word_recall(doc.text, original.text) >= MIN_WORD_RECALL
    assert all(c.text_source == "ocr" for c in doc.chunks)


def test_scoring_counts_misreads_and_ignores_reading_order():
    assert char_accuracy("b a", "a b") == 1.0
    assert char_accuracy("heilo world", "hello world") == pytest.approx(1 - 1 / 11)
    assert word_recall("hello there", "hello world") == 0.5
    assert section_recall(["1ntroduction", "Method"], ["Introduction", "Method", "Results"]) == pytest.approx(2 / 3)


@pytest.mark.parametrize(("read", "number"), [("Il. ULTRA LIGHT BOSONS", "II."), ("fil. TESTING WITH THE CMB", "III."),
                                              ("Iv. CONCLUSIONS", "IV."), ("II. RESULTS", "II."),
                                              ("VL CONCLUSION", "VI."), ("IIL RESULTS", "III.")])
def test_a_misread_roman_section_number_is_read_as_one(read, number):
    line = Line(text=read, page=1, bbox=(0, 0, 100, 10), size=10, font="GlyphLessFont",
                spans=[Span(text=read, bbox=(0, 0, 100, 10), size=10, font="GlyphLessFont")])
    fixed = ocr._roman_number(line)
    title = read.split(".", 1)[1] if "." in read else " " + read.split(" ", 1)[1]
    assert fixed.text == number + title and fixed.spans[0].text == fixed.text


@pytest.mark.parametrize("text", ["it. We evaluate", "1. INTRODUCTION", "11. RELATED WORK", "Ill-posed. THE",
                                  "LSTM NETWORKS", "VLDB PAPERS", "L. SMITH", "XL MODELS FOR NLP", "L AND M BEAMS",
                                  "VL Model results"])
def test_other_line_starts_are_left_as_read(text):
    line = Line(text=text, page=1, bbox=(0, 0, 100, 10), size=10, font="GlyphLessFont")
    assert ocr._roman_number(line).text == text


def test_a_poster_sized_page_is_read_at_a_bounded_resolution():
    from extractors.mupdf import pymupdf

    doc = pymupdf.open()
    doc.new_page(width=612, height=792)
    doc.new_page(width=3370, height=2384)  # A0
    letter, poster = doc[0], doc[1]
    assert ocr._dpi(letter) == ocr.DPI
    scale = ocr._dpi(poster) / 72
    assert poster.rect.width * scale * poster.rect.height * scale <= ocr.MAX_PIXELS


def test_equation_recall_counts_the_originals_numbers_the_scan_also_numbers():
    assert label_recall(["(1)", "2", "A.1"], ["1", "2", "3", "a.1"]) == pytest.approx(3 / 4)
    assert label_recall([], []) == 1.0 and label_recall(["1"], ["2"]) == 0.0


def test_section_precision_counts_the_scan_s_titles_the_original_has():
    assert section_precision(["1ntroduction", "M7", "Method", "Vpp"], ["Introduction", "Method", "Results"]) == 0.5
    assert section_precision([], ["Introduction"]) is None  # no sections: nothing to be precise about


def test_a_float_is_placed_when_its_region_overlaps_the_original_s_by_half():
    truth = [("figure", "1", 2, (50, 100, 290, 400)), ("table", "1", 3, (50, 100, 290, 200)),
             ("figure", "2", 4, (50, 100, 290, 400))]
    scanned = [("figure", "1", 2, (50, 110, 290, 405)),  # the same region, a little apart
               ("table", "I", 3, (50, 100, 290, 200)),  # another label
               ("figure", "2", 4, (50, 380, 290, 400))]  # the caption alone
    assert regions_found(scanned, truth) == 1
    assert regions_found([("figure", "(1)", 2, (50, 100, 290, 400))], truth[:1]) == 1
    # one to one: a figure misread as a second "Figure 1" does not hide the right one, and one region places one
    misread = [("figure", "1", 2, (50, 100, 290, 400)), ("figure", "1", 2, (300, 500, 560, 700))]
    assert regions_found(misread, truth[:1]) == 1 and regions_found(misread[::-1], truth[:1]) == 1
    assert regions_found(truth[:1], truth[:1] * 2) == 1



def _item(first: str, mark: np.ndarray) -> tuple[Line, np.ndarray]:
    """A list item at one pixel per point: `mark` (its ink) read as `first`, then words."""
    ink = np.zeros((200, 612), dtype=bool)
    ink[100:100 + mark.shape[0], 80:80 + mark.shape[1]] = mark
    spans = [Span(first, (79, 96, 88, 110), 10, "GlyphLessFont"),
             Span("query", (92, 96, 120, 110), 10, "GlyphLessFont"), Span("string", (123, 96, 150, 110), 10, "G")]
    return Line(f"{first} query string", 1, (79, 96, 150, 110), 10, "GlyphLessFont", spans=spans), ink


def test_a_bullet_read_as_a_letter_is_read_as_a_bullet():
    """'■ A query string' came back as 'a A query string', a lettered sub-heading."""
    line, ink = _item("a", np.ones((5, 5), dtype=bool))
    read = ocr._bullet(line, ink, 1.0)
    assert read.text == "• query string" and read.spans[0].text == "•"


def test_a_letter_a_digit_or_a_tall_stroke_stays_as_read():
    ring = np.ones((7, 7), dtype=bool)
    ring[1:6, 1:6] = False  # an 'o': its ink fills half its box
    bold = np.ones((6, 6), dtype=bool)
    bold[2:4, 2:4] = False  # a bold 'a' or 'e': its ink fills nearly all its box, but for the hole in its middle
    bar = np.ones((8, 2), dtype=bool)  # an 'I' or an 'l'
    for first, mark in (("o", ring), ("a", bold), ("I", bar), ("1", np.ones((5, 5), dtype=bool))):
        line, ink = _item(first, mark)
        assert ocr._bullet(line, ink, 1.0) == line


def test_italic_type_is_told_by_its_lean_and_upright_type_is_not():
    """OCR names no font, so a heading set in italic ('2.1. Piezoresistive effect', as many journals set their
    sub-headings) looked like body text: the slant is read from the ink."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=300)
    faces = {"tiit": True, "heit": True, "tiro": False, "tibo": False, "helv": False, "cour": False}
    for k, font in enumerate(faces):
        page.insert_text((72, 60 + 30 * k), "2.1. Piezoresistive effect of the strained gauges", fontname=font,
                         fontsize=11)
    scale = 200 / 72
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    ink = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.stride)[:, :pix.w] < 128
    boxes = [line["bbox"] for block in page.get_text("dict")["blocks"] for line in block["lines"]]
    lines = [Line("2.1. Piezoresistive effect of the strained gauges", 1, tuple(box), 11.0, "GlyphLessFont")
             for box in boxes]
    assert [ocr_type._leans(ink, line, scale) for line in lines] == list(faces.values())


def test_a_slight_lean_is_italic_and_a_lean_backwards_is_not():
    """One journal's italic sub-headings lean 7 degrees: sheared back they stack barely sharper than as they stand,
    and they read as upright body text, so the paper lost them. Against the opposite shear the lean shows."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=200)
    leans = {0.12: True, -0.12: False, 0.0: False}
    for k, lean in enumerate(leans):
        at = pymupdf.Point(72, 60 + 30 * k)
        page.insert_text(at, "2.1. Piezoresistive effect of the strained gauges", fontname="tiro", fontsize=9,
                         morph=(at, pymupdf.Matrix(1, 0, lean, 1, 0, 0)))
    scale = 200 / 72
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    ink = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.stride)[:, :pix.w] < 128
    boxes = [line["bbox"] for block in page.get_text("dict")["blocks"] for line in block["lines"]]
    lines = [Line("2.1. Piezoresistive effect", 1, tuple(box), 9.0, "GlyphLessFont") for box in boxes]
    assert [ocr_type._leans(ink, line, scale) for line in lines] == list(leans.values())


def test_a_scanned_sub_heading_set_in_italic_is_a_section(tmp_path):
    w = Writer()
    w.heading("1 Introduction", size=11)
    w.paragraph(prose(4))
    for number, title in (("1.1", "Scope of the Study"), ("1.2", "Related Measures")):
        w.space(8)
        w.line(f"{number} {title}", size=10, font=ITALIC)
        w.space(3)
        w.paragraph(prose(4, offset=1))
    w.heading("2 Method", size=11)
    w.paragraph(prose(3, offset=2))
    data = rasterized(w.bytes(), 200)
    found = [(s.number, s.title) for s in parse_pdf(write(tmp_path, "italic.pdf", data)).sections]
    assert found == [("1", "Introduction"), ("1.1", "Scope of the Study"), ("1.2", "Related Measures"),
                     ("2", "Method")]


def _typed(texts: list[tuple[str, str, float]], dpi: int = 300, scan_dpi: int | None = None,
           step: float = 30.0) -> tuple[list[Line], np.ndarray, float]:
    """Lines (text, font, size) printed one under another, `step` points apart, and their ink read at `dpi` (from a
    picture of the page at `scan_dpi`, as a scan is read, when given), each line given the wrong size 9 pt, as OCR
    might guess it, and a span per word as OCR gives them."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=60 + step * len(texts))
    for k, (text, font, size) in enumerate(texts):
        page.insert_text((72, 50 + step * k), text, fontname=font, fontsize=size)
    words = page.get_text("words")
    picture = pymupdf.open("pdf", rasterized(doc.tobytes(), scan_dpi))[0] if scan_dpi else page
    pix = picture.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    ink = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.stride)[:, :pix.w] < 128
    lines = []
    for k in range(len(texts)):
        mine = [w for w in words if 50 + step * (k - 1) < (w[1] + w[3]) / 2 <= 50 + step * k]
        spans = [Span(w[4], tuple(w[:4]), 9.0, "GlyphLessFont") for w in mine]
        box = (min(w[0] for w in mine), min(w[1] for w in mine), max(w[2] for w in mine), max(w[3] for w in mine))
        lines.append(Line(" ".join(w[4] for w in mine), 1, box, 9.0, "GlyphLessFont", spans=spans))
    return lines, ink, dpi / 72


def test_a_scanned_line_s_size_is_measured_from_its_ink():
    """Tesseract's sizes are rough (one paper's 8.5 pt body text came back as 8.3 to 11 pt), so a heading's style
    did not match the heading before it and a paragraph whose first line came back large looked like a heading.
    Lines in one face and size measure alike whatever their words, capitals and digits (a line without ascenders
    too), and larger type measures larger, in bold too, where capitals and ascenders ink their rows nearly as
    densely as the lower-case letters do."""
    texts = [("the results of the first experiment are shown", "tiro", 10),
             ("Gastroenterology 2008;135:1534-42 (PMid:18775429), doi:", "tiro", 10),
             ("Table 3 gives the F1 of BERT and ELMo on CoNLL 2003", "tiro", 10),
             ("INTRODUCTION AND RELATED WORK", "tiro", 10),
             ("once more we see a rise in error", "tiro", 10),
             ("4.2 Results on the Held-out Set", "tiro", 12),
             ("4 Related Work", "tibo", 12),
             ("where the model is trained on each split", "tiro", 8)]
    lines, ink, scale = _typed(texts)
    sizes = [line.size for line in ocr_type.typeset(lines, ink, scale)]
    for size, (_, _, true) in zip(sizes, texts):
        assert size == pytest.approx(true, rel=0.1)
    assert max(sizes[:5]) - min(sizes[:5]) <= 0.05 * 10
    assert min(sizes[5:7]) > max(sizes[:5]) + 1 and sizes[7] < min(sizes[:5]) - 1
    assert all(span.size == line.size for line in ocr_type.typeset(lines, ink, scale) for span in line.spans)


def test_a_line_s_size_does_not_depend_on_where_it_falls_on_the_pixel_grid():
    """A scan at 200 dpi is read at 300, so each of its pixels spans a row and a half, and an edge of a line's x band
    may fall inside a row. Counted in whole rows, one paper's body text measured 8.4 and 9.4 pt, two sizes to tell
    apart; measured to a fraction of a row, the same line set at every offset to the grid measures within 5 % of
    the others (in whole rows, one line in twelve came out 6-7 % smaller)."""
    for size in (8, 9.5):
        lines, ink, scale = _typed([("the results of the first experiment are shown", "tiro", size)] * 12,
                                   scan_dpi=200, step=30.1)
        sizes = [line.size for line in ocr_type.typeset(lines, ink, scale)]
        assert all(abs(s / statistics.median(sizes) - 1) <= 0.05 for s in sizes), (size, sizes)


def test_a_line_without_letters_or_capitals_to_measure_keeps_the_size_ocr_gave():
    """Too few letters in lower-case words to measure an x band by ('of it'), one capital alone, or signs only."""
    lines, ink, scale = _typed([("= + - x", "tiro", 10), ("a, b", "tiro", 10), ("of it", "tiro", 10),
                                ("= A +", "tiro", 10)])
    assert [line.size for line in ocr_type.typeset(lines, ink, scale)] == [9.0] * 4


def test_a_box_off_the_page_or_over_other_ink_is_not_measured():
    """A box partly off the page is measured from the page's pixels under it, one wholly off the page not at all
    (its slice must not wrap around to the page's far edge), and a box whose ink gives a size far from OCR's
    (a shaded background) keeps OCR's."""
    lines, ink, scale = _typed([("the results of the GASTROENTEROLOGY 2008 (PMID:18775429)", "tiro", 10)])
    line = lines[0]
    # its lower-case words' columns are found in the box cut from the page's left edge, not 80 pt to their right
    shifted = replace(line, bbox=(-80, line.bbox[1], line.bbox[2], line.bbox[3]))
    off = replace(line, bbox=(100, -40, 300, -10), spans=[replace(s, bbox=(s.bbox[0], -40, s.bbox[2], -10))
                                                          for s in line.spans])
    shaded = np.ones_like(ink)
    assert ocr_type.typeset([shifted], ink, scale)[0].size == pytest.approx(10, rel=0.1)
    assert ocr_type.typeset([off], ink, scale)[0].size == 9.0
    assert ocr_type.typeset([line], shaded, scale)[0].size == 9.0


def test_a_heading_in_small_capitals_measures_as_its_initials():
    """'INTRODUCTION' set in small capitals: the text layer gives the initial's size as the line's (sections.py
    takes a line's largest letters), so OCR measures up to the initial's top, not the small capitals' band."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=100)
    page.insert_text((72, 50), "I", fontname="tiro", fontsize=10)
    page.insert_text((72 + pymupdf.get_text_length("I", "tiro", 10), 50), "NTRODUCTION", fontname="tiro",
                     fontsize=7.4)
    box = pymupdf.Rect()
    for word in page.get_text("words"):
        box |= pymupdf.Rect(word[:4])
    pix = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
    ink = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.stride)[:, :pix.w] < 128
    line = Line("INTRODUCTION", 1, tuple(box), 7.0, "GlyphLessFont",
                spans=[Span("INTRODUCTION", tuple(box), 7.0, "GlyphLessFont")])
    assert ocr_type.typeset([line], ink, 300 / 72)[0].size == pytest.approx(10, rel=0.1)


def test_sizes_measured_a_pixel_apart_are_one_size_across_the_paper():
    """Measuring rounds to whole pixels, so one heading style came back as 8.6 and 8.9 pt, two styles to
    extractors/sections.py: sizes within 5 % of each other (or a pixel) take the nearest size that more of the
    paper's text is set in. Sizes 7 % apart stay apart, a stray size between two does not join them, and a page
    with a text layer keeps its exact sizes."""
    def line(text: str, size: float) -> Line:
        return Line(text, 1, (72, 100, 300, 110), size, "GlyphLessFont", spans=[Span(text, (72, 100, 300, 110),
                                                                                     size, "GlyphLessFont")])
    body = "the results of the first experiment are shown in the table below " * 3
    pages = [PageLayout(1, 612, 792, [line("I. INTRODUCTION", 8.6), line(body, 9.9), line(body, 10.1),
                                      line("A Title in Large Type", 12.0)]),
             PageLayout(2, 612, 792, [line("II. RELATED WORK", 8.9), line("III. METHOD", 8.9), line(body, 9.9)]),
             PageLayout(3, 612, 792, [line("IV. RESULTS", 8.6), line(body, 10.1)]),
             PageLayout(4, 612, 792, [line("4.1 Sub-section", 10.6), line("4.2 Sub-section", 10.6),
                                      line("4.3 Sub-section", 11.3), line("4.4 Sub-section", 11.3),
                                      line("4.5", 11.0)])]
    sizes = [[(ln.size, {s.size for s in ln.spans}) for ln in page.lines]
             for page in ocr_type.common_sizes(pages, [1, 2, 4], 300 / 72)]
    assert sizes == [[(8.9, {8.9}), (9.9, {9.9}), (9.9, {9.9}), (12.0, {12.0})],
                     [(8.9, {8.9}), (8.9, {8.9}), (9.9, {9.9})],
                     [(8.6, {8.6}), (10.1, {10.1})],
                     [(10.6, {10.6}), (10.6, {10.6}), (11.3, {11.3}), (11.3, {11.3}), (11.3, {11.3})]]


def test_body_text_measured_over_a_range_is_one_size_whichever_line_is_longest():
    """Measured to a fraction of a pixel, no two lines share a size, so the size a group is led by is where most
    text lies near it, not the size of its longest line: body text measured from 9.0 to 9.7 pt, whose longest line
    is its smallest, is one size (led by 9.0, the lines from 9.54 up made a second one), and a heading style 12 %
    above it stays apart."""
    def line(text: str, size: float) -> Line:
        return Line(text, 1, (72, 100, 300, 110), size, "GlyphLessFont", spans=[Span(text, (72, 100, 300, 110),
                                                                                     size, "GlyphLessFont")])
    body = [line("the results of the first experiment are shown in the table", 9.0 + 0.02 * k) for k in range(36)]
    body[0] = line(body[0].text * 3, 9.0)
    headings = [line("A Heading", 10.5), line("Another Heading", 10.6)]
    pages = [PageLayout(1, 612, 792, body + headings)]
    sizes = [ln.size for ln in ocr_type.common_sizes(pages, [1], 300 / 72)[0].lines]
    assert len(set(sizes[:36])) == 1 and 9.2 <= sizes[0] <= 9.6
    assert len(set(sizes[36:])) == 1 and sizes[36] >= 10.5


def test_capitals_are_measured_by_the_typeface_s_own_proportion():
    """A line set in capitals is measured by their height, taken as so many times the x band. Faces differ (Times'
    capitals stand 1.47 times its x band, Helvetica's 1.37), so the paper's own ratio, from the acronyms of its
    lines in lower case, replaces the usual 1.52: a heading in Times capitals then measures as its body text does,
    where the usual ratio put it 4 % below (one paper's headings, a point below its body, fell under the
    small-print cut)."""
    for font, ratio in (("tiro", 1.47), ("helv", 1.37)):
        lines, ink, scale = _typed([("the results on CMB and WMAP data are shown here", font, 10),
                                    ("NASA and ESA launched the probes in time", font, 12)])
        assert ocr_type.capitals_ratios(lines, ink, scale) == [pytest.approx(ratio, rel=0.03)] * 2
    texts = [("the results of the first experiment are shown", "tiro", 10),
             ("INTRODUCTION AND RELATED WORK", "tiro", 10)] + [("as the NASA and ESA data show here", "tiro", 10)] * 10
    lines, ink, scale = _typed(texts)
    typed = ocr_type.typeset(lines, ink, scale)
    ratios = ocr_type.capitals_ratios(typed, ink, scale)
    pages = [PageLayout(1, 612, 400, typed)]
    body, heading = ocr_type.calibrated_capitals(pages, [1], ratios)[0].lines[:2]
    assert heading.size == pytest.approx(body.size, rel=0.02) and heading.size != typed[1].size
    assert typed[1].size < 0.97 * body.size  # the usual ratio's measure
    assert ocr_type.calibrated_capitals(pages, [1], ratios[:9]) == pages  # too few lines to tell
    assert ocr_type.calibrated_capitals(pages, [], ratios) == pages  # pages not read keep their sizes


def test_acronyms_set_in_small_capitals_are_left_out_of_the_calibration():
    """An acronym or an author's name set in small capitals stands about as high as the x band (a ratio near 1, no
    typeface's): such lines are left out, the others give the paper's ratio, and with fewer than ten of those the
    usual ratio stays."""
    line = Line("METHODS", 1, (72, 100, 140, 110), 10.0, "GlyphLessFont",
                spans=[Span("METHODS", (72, 100, 140, 110), 10.0, "GlyphLessFont")])
    pages = [PageLayout(1, 612, 792, [line])]
    mixed = ocr_type.calibrated_capitals(pages, [1], [1.0] * 20 + [1.47] * 10)[0].lines[0]
    assert mixed.size == pytest.approx(10.0 * 0.70 / 0.46 / 1.47)
    assert ocr_type.calibrated_capitals(pages, [1], [1.0] * 20 + [1.47] * 9) == pages

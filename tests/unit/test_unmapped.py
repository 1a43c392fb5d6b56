"""Glyphs a text layer gives no character for (digits of a font without a Unicode map): OCR names them in place,
so figures, equations, sections and citations keep their numbers, and nothing else of the text layer changes."""

from __future__ import annotations

import pymupdf
import pytest

import extractors.ocr as ocr
from extractors.layout import read_page
from extractors.ocr import ocr_missing_text
from extractors.pipeline import parse_pdf
from extractors.text import UNMAPPED
from extractors.unmapped import MIN_SHARE, mark_fills, unmapped_share
from tests.pdf_factory import unmapped_digits_paper, write

M = UNMAPPED


@pytest.mark.parametrize(("text", "read", "fills"), [
    (f"Figure {M} shows", "Figure 1 shows", ["1"]),
    (f"the model of [{M}{M}] fits", "the model of [12] fits", ["1", "2"]),
    (f"e{M}ective", "effective", ["ff"]),  # a ligature: one glyph, two characters
    (f"({M})", "(2);", ["2"]),
    (f"E = m + k ({M})", "E = m + k", [M]),  # OCR read nothing there: the mark stays, to become U+FFFD
    (f"a{M}b", "a 12345678 b", [M]),  # far more than a glyph's worth: a misalignment, not a reading
    (f"a = {M} + b", "a=3+b", ["3"]),  # OCR spaces a formula its own way
    (f"x = {M}{M} y", "x=12 y", ["1", "2"]),
    (f"p = 0.{M}{M}{M} here", "p = 0.12 here", [M, M, M]),  # fewer characters than glyphs: no reading of them
    (f"[{M}{M}]", "[1]", [M, M]),
])
def test_each_mark_takes_what_ocr_prints_at_its_place(text, read, fills):
    assert mark_fills(text, read) == fills


def test_the_generated_pdf_prints_digits_the_text_layer_cannot_name():
    """The builder's digits render (the page shows '(2)') while MuPDF's text has no digit where they are."""
    page = pymupdf.open(stream=unmapped_digits_paper(), filetype="pdf")[0]
    text = page.get_text()
    assert "Figure" in text and not any(c.isdigit() for c in text)
    assert unmapped_share([read_page(page)]) >= MIN_SHARE


def test_ocr_names_the_digits_and_keeps_the_text_layer(tmp_path):
    doc = parse_pdf(write(tmp_path, "unmapped.pdf", unmapped_digits_paper()))
    assert [(s.number, s.title) for s in doc.sections[:2]] == [("1", "Introduction"), ("2", "Results")]
    assert [e.label for e in doc.equations] == ["1", "2"]
    assert [(f.label, f.caption) for f in doc.figures] == [("1", "Energy levels of the model for 30 states.")]
    text = "\n".join(chunk.text for chunk in doc.chunks)
    assert "the model of [12] fits the energies of Table 2 within 30 MeV." in text
    assert "ocr/tesseract" in doc.audit.extractor_versions
    assert "A. Author and B. Author" in doc.text  # a raised mark after a word is a footnote mark, not text
    assert "Journal of Physics 45, 2019." in text
    assert M not in doc.text and "\ufffd" not in doc.text
    assert any("glyphs the text layer names no character for" in w and "page 1" in w for w in doc.audit.warnings)


def test_a_few_unnamed_glyphs_are_left_unknown_without_ocr(tmp_path):
    """Below MIN_SHARE (a math symbol here and there) OCR is not worth a page's seconds: each glyph is U+FFFD,
    Unicode's character whose value is unknown."""
    pdf = pymupdf.open(stream=unmapped_digits_paper(sentences=10), filetype="pdf")
    pages = [read_page(page) for page in pdf]
    assert 0 < unmapped_share(pages) < MIN_SHARE
    outcome = ocr_missing_text(pdf, pages, None)
    assert outcome.filled == [] and outcome.pages == pages
    doc = parse_pdf(write(tmp_path, "unmapped.pdf", unmapped_digits_paper(sentences=10)))
    assert "the model of [\ufffd\ufffd] fits" in doc.text and M not in doc.text


def test_without_ocr_the_glyphs_are_unknown_and_the_warning_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr, "tessdata", lambda: None)
    doc = parse_pdf(write(tmp_path, "unmapped.pdf", unmapped_digits_paper()))
    assert M not in doc.text and "As Figure \ufffd shows" in doc.text
    assert any("stay U+FFFD" in w and "language data" in w for w in doc.audit.warnings)


def test_the_ocr_page_cap_counts_the_pages_it_fills():
    pdf = pymupdf.open(stream=unmapped_digits_paper(), filetype="pdf")
    pages = [read_page(page) for page in pdf]
    outcome = ocr_missing_text(pdf, pages, 0)
    assert outcome.filled == [] and outcome.unfilled == [1]
    assert any("at most 0 pages" in w for w in outcome.warnings(0))
    assert ocr_missing_text(pdf, pages, 1).filled == [1]  # the same page within the cap


def test_the_spans_take_the_same_characters_as_their_line():
    """Table cells and headings are read from spans: each span holds what its line's text holds."""
    pdf = pymupdf.open(stream=unmapped_digits_paper(), filetype="pdf")
    outcome = ocr_missing_text(pdf, [read_page(page) for page in pdf], None)
    line = next(line for line in outcome.pages[0].lines if "the model of" in line.text)
    assert "[12]" in line.text and "".join(s.text for s in line.spans).split() == line.text.split()

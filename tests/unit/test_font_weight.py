"""Fonts named by an opaque code are weighed by their ink (extractors/font_weight.py)."""

import pytest

from extractors.font_weight import opaque
from extractors.layout import read_layout
from extractors.mupdf import pymupdf
from extractors.pipeline import parse_pdf
from tests.pdf_factory import opaque_font_subheadings_paper, write


def test_subheadings_in_a_heavy_font_with_an_opaque_name_are_found_under_their_sections(tmp_path):
    data, subheadings = opaque_font_subheadings_paper(heavy=True)
    sections = parse_pdf(write(tmp_path, "paper.pdf", data)).sections
    by_id = {s.id: s for s in sections}
    found = [s for s in sections if s.title in subheadings]
    assert [s.title for s in found] == subheadings
    assert all(s.level == 2 for s in found)
    assert [by_id[s.parent_id].title for s in found] == ["METHODS"] * 3 + ["RESULTS"] * 2


def test_the_same_font_printed_in_the_body_weight_stays_regular(tmp_path):
    data, subheadings = opaque_font_subheadings_paper(heavy=False)
    lines = [line for page in read_layout(pymupdf.open("pdf", data)) for line in page.lines]
    alone = [line for line in lines if line.text in subheadings]
    assert len(alone) == len(subheadings) and not any(line.bold for line in alone)
    assert not {s.title for s in parse_pdf(write(tmp_path, "paper.pdf", data)).sections} & set(subheadings)


def test_the_heavy_font_is_bold_on_every_span_and_the_body_font_is_not():
    data, subheadings = opaque_font_subheadings_paper(heavy=True)
    spans = [span for page in read_layout(pymupdf.open("pdf", data)) for line in page.lines for span in line.spans]
    assert {span.bold for span in spans if span.font == "Fk"} == {True}
    assert {span.bold for span in spans if span.font == "Times-Roman"} == {False}


@pytest.mark.parametrize("font, expected", [
    ("ELGKHA+AdvPECFD36", True), ("AdvTT5bf2ac07", True), ("AdvTTabcd1234", True), ("Fk", True), ("F12", True),
    ("Times-Roman", False), ("ArialMT", False), ("NimbusRomNo9L-Regu", False), ("CMR10", False),
    ("SFRM0800", False), ("ABCDEF+Helvetica", False), ("DejaVuSans", False)])
def test_a_name_is_opaque_when_it_holds_no_word_and_is_no_tex_font_name(font, expected):
    assert opaque(font) is expected

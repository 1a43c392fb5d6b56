import pymupdf
import pytest

from extractors.body import assemble, body_lines
from extractors.layout import read_layout
from tests.pdf_factory import HEIGHT, WIDTH

CUT = "and this sentence runs on into the"
RESUMED = "next column, where it ends."
NOTE = ["* Corresponding author. Mailing address: Institute of", "Examples, Example City. E-mail: someone@example.org."]


def _filled(text: str, width: float, size: float) -> str:
    while pymupdf.get_text_length(text + " word", fontsize=size) < width:
        text += " word"
    return text


def _text(note: list[str], small_pages: int = 0) -> str:
    """Document.text of a page in two 9 pt columns whose left column breaks off mid-sentence above `note` in 8 pt
    at its foot, the sentence resuming at the right column's top; then `small_pages` pages of 7 pt print (a long
    table or bibliography), which make 7 pt the size most of the document's characters are set in."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for n in range(40):
        page.insert_text((72, 80 + 12 * n), _filled(f"left {n} says", 220, 9) + ".", fontsize=9)
    page.insert_text((72, 80 + 12 * 40), CUT, fontsize=9)
    for n, text in enumerate(note):
        page.insert_text((72, 80 + 12 * 42 + 10 * n), text, fontsize=8)
    page.insert_text((318, 80), RESUMED, fontsize=9)
    for n in range(1, 48):
        page.insert_text((318, 80 + 12 * n), _filled(f"right {n} says", 220, 9) + ".", fontsize=9)
    for _ in range(small_pages):
        extra = doc.new_page(width=WIDTH, height=HEIGHT)
        for n in range(70):
            extra.insert_text((72, 60 + 10 * n), _filled(f"small {n}", 460, 7), fontsize=7)
    lines = body_lines(read_layout(pymupdf.open(stream=doc.tobytes(), filetype="pdf")), [])
    return assemble(lines, set())[0]


@pytest.mark.parametrize("small_pages", [0, 3])
def test_a_footnote_at_the_foot_of_the_left_column_waits_for_the_sentence_it_cuts(small_pages):
    """The note is read after the sentence it interrupts ends in the next column, also when most of the paper is
    set smaller than the page's running text (the page's own text decides what is small print)."""
    text = " ".join(_text(NOTE, small_pages).split())
    assert f"{CUT} {RESUMED}" in text
    assert text.index(RESUMED) < text.index(NOTE[0]) < text.index("right 1 says")


def test_small_print_at_a_column_foot_without_a_footnote_mark_stays_in_place():
    """A block of small type with no footnote mark (a copyright notice, an author's address) may be anything; it
    keeps its place."""
    note = ["Permission to make digital or hard copies of all or part", "of this work is granted without fee."]
    text = " ".join(_text(note).split())
    assert text.index(CUT) < text.index(note[0]) < text.index(RESUMED)

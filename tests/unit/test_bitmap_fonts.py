"""Text in bitmap Type3 fonts (dvips): MuPDF reports a 0.24 pt size, 240 pt glyph boxes and a line per word, and
layout sets it again into lines of words with boxes on the glyphs, so that the paper parses like any other."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import pymupdf
import pytest

from extractors.bitmap_fonts import is_bitmap_span
from extractors.layout import read_layout, read_page
from extractors.pipeline import parse_pdf
from tests.pdf_factory import HEIGHT, WIDTH, bitmap_font_paper, stored_rotated, write


def _paper(columns: int, rotation: int) -> tuple[bytes, object]:
    data, truth = bitmap_font_paper(columns)
    return (stored_rotated(data, rotation) if rotation else data), truth


@pytest.fixture(scope="module", params=[(1, 0), (2, 0), (2, 270)], ids=["1-col", "2-col", "2-col-rotate-270"])
def paper(request):
    return _paper(*request.param)


def test_the_generated_pdf_has_the_degenerate_pattern(paper):
    """The builder writes what dvips does: as MuPDF reads it, sizes under a point, glyph boxes far taller than
    the text, and no line of several words (without the repair, triage refuses it)."""
    data, truth = paper
    page = pymupdf.open(stream=data, filetype="pdf")[0]
    lines = [line for block in page.get_text("dict")["blocks"] for line in block.get("lines", ())]
    spans = [span for line in lines for span in line["spans"]]
    assert spans and all(span["size"] < 1 for span in spans)
    assert min(abs(s["bbox"][3] - s["bbox"][1]) + abs(s["bbox"][2] - s["bbox"][0]) for s in spans) > 200
    words_per_line = [len("".join(s["text"] for s in line["spans"]).split()) for line in lines]
    assert max(words_per_line) == 1


def test_a_bitmap_font_paper_parses_with_its_title_and_headings(tmp_path, paper):
    data, truth = paper
    doc = parse_pdf(write(tmp_path, "bitmap.pdf", data))
    assert doc.metadata.title == truth.title
    assert [(s.number, s.title) for s in doc.sections] == truth.headings
    assert doc.page_count == truth.pages
    heading_tops = [top for text, _, (_, top, _, _) in truth.lines if text == " ".join(truth.headings[0])]
    assert abs(doc.sections[0].box.bbox[1] - heading_tops[0]) < 4  # the heading's box is on the heading
    boxes = [box for chunk in doc.chunks for box in chunk.boxes]
    assert boxes and all(0 <= b.bbox[0] < b.bbox[2] <= WIDTH and 0 <= b.bbox[1] < b.bbox[3] <= HEIGHT
                         for b in boxes)  # provenance in page coordinates, nothing 240 pt tall
    assert max(b.bbox[3] - b.bbox[1] for b in boxes) < HEIGHT / 2


def test_words_are_joined_into_the_printed_lines(paper):
    """Every printed line is read as one line with its words spaced, including words drawn in two pieces
    ("printe" "d") and without a space glyph anywhere."""
    data, truth = paper
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    read = {(line.page, line.text) for page in pages for line in page.lines}
    missing = [(page, text) for text, page, _ in truth.lines if (page, text) not in read]
    assert not missing, missing[:5]
    assert "printed" in {w for _, text in read for w in text.split()}


def test_boxes_sit_on_the_glyphs_within_the_page(paper):
    """Each line's box covers its glyphs (from the first glyph's origin to the last one's advance, from the
    capitals' top to the baseline) within a fraction of an em, in upright page coordinates."""
    data, truth = paper
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    boxes = defaultdict(list)  # prose repeats: a text may be printed on several lines of a page
    for line in (line for page in pages for line in page.lines):
        boxes[(line.page, line.text)].append(line.bbox)
    for text, page, (x0, top, x1, baseline) in truth.lines:
        box = min(boxes[(page, text)], key=lambda b: abs(b[1] - top))
        em = (baseline - top) / 0.7
        assert 0 <= box[0] and box[2] <= WIDTH and 0 <= box[1] and box[3] <= HEIGHT
        assert abs(box[0] - x0) < 0.5 and abs(box[2] - x1) < 0.5, (text, box)
        assert top - 0.4 * em < box[1] <= top and baseline <= box[3] < baseline + 0.4 * em, (text, box)


def test_sizes_tell_title_headings_and_body_apart(paper):
    data, truth = paper
    pages = read_layout(pymupdf.open(stream=data, filetype="pdf"))
    size = {line.text: line.size for page in pages for line in page.lines}
    heading = size[" ".join(truth.headings[0])]
    body = size[truth.lines[-1][0]]
    assert size[truth.title] > heading + 2 > body + 3
    assert 8 <= body <= 11


def test_ordinary_text_on_a_bitmap_page_reads_as_it_did():
    """Spans of other fonts on a page that uses a bitmap font are read as on a page without it."""
    data, _ = bitmap_font_paper(1)
    mixed = pymupdf.open(stream=data, filetype="pdf")
    plain = pymupdf.open()
    plain.new_page(width=WIDTH, height=HEIGHT)
    for page in (mixed[0], plain[0]):
        page.insert_text((72, HEIGHT - 40), "Received 9 December 1994; set in an outline font", fontsize=9)
        page.insert_text((20, 500), "hep-ph/9412269 sideways stamp", fontsize=12, rotate=90)
    ordinary = [replace(line, block=0) for line in read_page(mixed[0]).lines if not line.font.startswith("Type3")]
    assert len(ordinary) == 2 and ordinary == [replace(line, block=0) for line in read_page(plain[0]).lines]


def test_a_bitmap_glyph_on_a_line_of_another_font_stays_there_with_a_glyph_sized_box():
    """Parentheses from a bitmap font around a Courier address: MuPDF places them by the Courier text, so they
    stay on its line, their boxes and sizes repaired (the line's box no longer reaches 240 pt up)."""
    data, truth = bitmap_font_paper(1, email="zeng@odu.edu")
    text, _, (x0, top, x1, baseline) = next(line for line in truth.lines if "@" in line[0])
    lines = [line for line in read_page(pymupdf.open(stream=data, filetype="pdf")[0]).lines if "@" in line.text]
    assert [line.text for line in lines] == [text]
    box = lines[0].bbox
    assert abs(box[0] - x0) < 0.5 and abs(box[2] - x1) < 0.5
    assert top - 5 < box[1] <= top and baseline <= box[3] < baseline + 4
    assert all(8 <= span.size <= 11 for span in lines[0].spans)


def _span(size: float, box: tuple, chars: list[tuple[tuple, tuple]]) -> dict:
    return {"size": size, "bbox": box, "chars": [{"c": "x", "origin": o, "bbox": b} for o, b in chars]}


def test_only_a_tiny_size_with_cell_sized_boxes_is_a_bitmap_span():
    cell = _span(0.24, (72, -151, 120, 89), [((72, 89), (72, -151, 80, 89)), ((80, 89), (80, -151, 86, 89))])
    assert is_bitmap_span(cell, (1.0, 0.0))
    sideways = _span(0.24, (502, 26, 742, 50), [((502, 26), (502, 26, 742, 36)), ((502, 36), (502, 36, 742, 44))])
    assert is_bitmap_span(sideways, (0.0, 1.0))
    tiny_but_true = _span(0.5, (72, 88.6, 72.5, 89.1), [((72, 89), (72, 88.6, 72.25, 89.1))])  # hidden 0.5 pt text
    assert not is_bitmap_span(tiny_but_true, (1.0, 0.0))
    normal = _span(10, (72, 80, 100, 92), [((72, 89), (72, 80, 77, 92))])
    assert not is_bitmap_span(normal, (1.0, 0.0))

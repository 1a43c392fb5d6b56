"""The document answers where its elements are: spans and boxes through one base type, containment by layer."""

from __future__ import annotations

import pytest

from extractors.layers import Layer
from extractors.model import (Audit, Box, Chunk, Document, Element, Equation, Float, Mention, Metadata, Profile,
                              Reference, Section, SummarySentence, TextLine)

SHA = "b" * 64


def _section(id_: str, ordinal: int, start: int, end: int, parent: str | None = None) -> Section:
    return Section(id=id_, number=str(ordinal), title=id_, level=2 if parent else 1, parent_id=parent,
                   ordinal=ordinal, page_start=1, page_end=1, box=Box(page=1, bbox=(0, ordinal * 10, 100, ordinal * 10 + 8)),
                   char_start=start, char_end=end)


def _chunk(id_: str, section: str | None, start: int, end: int, kind: str = "text", boxes=None, box_starts=()) -> Chunk:
    return Chunk(id=id_, kind=kind, text="x" * (end - start), section_id=section, section_path=[], page_start=1,
                 page_end=2, boxes=boxes or [Box(page=1, bbox=(0, 0, 10, 10))], char_start=start, char_end=end,
                 content_hash=id_, box_starts=list(box_starts), element_id="tab1" if kind == "table" else None)


@pytest.fixture
def doc() -> Document:
    # "2" has only a subsection, "2.1"; "3" has no chunk after it
    sections = [_section("s1", 1, 0, 100), _section("s2", 2, 100, 100), _section("s21", 3, 100, 200, "s2"),
                _section("s3", 4, 200, 200)]
    two_columns = [Box(page=1, bbox=(0, 0, 50, 90)), Box(page=2, bbox=(60, 0, 110, 90))]
    chunks = [_chunk("c1", "s1", 0, 100), _chunk("c2", "s21", 100, 200, boxes=two_columns, box_starts=(0, 40)),
              _chunk("t1", "s21", 150, 160, kind="table")]
    table = Float(id="tab1", kind="table", label="1", caption="c", page=2, bbox=(0, 0, 9, 9), caption_bbox=(0, 0, 9, 1))
    return Document(sha256=SHA, file_name="d.pdf", page_count=2, text="x" * 200, metadata=Metadata(),
                    sections=sections, tables=[table], chunks=chunks,
                    profile=Profile(text_kind="native", chars_per_page=100, columns=1),
                    audit=Audit(sha256=SHA, page_count=2))


def test_a_layer_finds_the_element_holding_an_offset_and_nothing_in_a_gap():
    class Piece(Element):
        start: int
        end: int

        def span(self):
            return self.start, self.end

    layer = Layer([Piece(start=10, end=20), Piece(start=0, end=5), Piece(start=20, end=30)])
    assert [(p.start, p.end) for p in layer.elements] == [(0, 5), (10, 20), (20, 30)]
    assert layer.at(0).start == 0 and layer.at(19).start == 10 and layer.at(20).start == 20
    assert layer.at(5) is None and layer.at(7) is None and layer.at(30) is None and layer.at(-1) is None
    assert [p.start for p in layer.overlapping(4, 11)] == [0, 10]
    assert [p.start for p in layer.overlapping(5, 10)] == []  # the gap
    assert [p.start for p in layer.overlapping(19, 21)] == [10, 20]
    assert [p.start for p in layer.overlapping(-5, 100)] == [0, 10, 20]


def test_the_document_finds_chunks_by_offset_and_kind(doc):
    assert doc.chunk_at(155).id == "c2"  # text chunks by default: the table chunk's span is inside c2's
    assert doc.chunk_at(155, kind="table").id == "t1"
    assert doc.chunk_at(200) is None
    assert doc.chunk_of("tab1").id == "t1" and doc.chunk_of("fig9") is None


def test_a_heading_is_read_with_the_first_chunk_of_its_section_or_of_the_next_one_that_has_one(doc):
    assert doc.heading_chunk("s1").id == "c1"
    assert doc.heading_chunk("s2").id == "c2"  # its subsection's
    assert doc.heading_chunk("s3") is None


def test_text_is_printed_on_the_lines_it_runs_over():
    lines = [TextLine(char_start=0, char_end=10, page=1, bbox=(0, 0, 90, 9)),
             TextLine(char_start=11, char_end=20, page=1, bbox=(0, 10, 90, 19)),
             TextLine(char_start=21, char_end=30, page=2, bbox=(0, 0, 90, 9))]
    doc = Document(sha256=SHA, file_name="d.pdf", page_count=2, text="x" * 30, metadata=Metadata(), lines=lines,
                   profile=Profile(text_kind="native", chars_per_page=100, columns=1), audit=Audit(sha256=SHA, page_count=2))
    assert doc.boxes_of(5, 15) == [Box(page=1, bbox=(0, 0, 90, 9)), Box(page=1, bbox=(0, 10, 90, 19))]
    assert doc.boxes_of(25, 26) == [Box(page=2, bbox=(0, 0, 90, 9))]
    assert doc.boxes_of(10, 11) == []  # the break between two lines
    assert doc.line_at(12).bbox == (0, 10, 90, 19) and doc.line_at(30) is None


def test_a_chunk_says_which_of_its_regions_prints_an_offset(doc):
    chunk = doc.chunk("c2")
    assert chunk.box_at(100).page == 1 and chunk.box_at(139).page == 1 and chunk.box_at(140).page == 2


def test_every_element_kind_has_places_and_those_in_the_text_have_spans(doc):
    box = (1.0, 2.0, 3.0, 4.0)
    printed = [Float(id="f", kind="figure", label="1", caption="c", page=3, bbox=box, caption_bbox=box),
               Equation(id="e", label="1", text="x", page=3, bbox=box),
               Reference(id="r", ordinal=1, raw="r", page=3, bbox=box)]
    assert all(e.places() == [Box(page=3, bbox=box)] and e.span() is None for e in printed)
    in_text = [Mention(kind="citation", text="[1]", target_label="1", target_id=None, page=3, bbox=box,
                       char_start=5, char_end=8),
               SummarySentence(text="x", char_start=5, char_end=8, page=3, bbox=box)]
    assert all(e.places() == [Box(page=3, bbox=box)] and e.span() == (5, 8) for e in in_text)
    assert doc.section("s1").places() == [doc.section("s1").box] and doc.section("s1").span() == (0, 100)
    assert doc.chunk("c2").places() == doc.chunk("c2").boxes and doc.chunk("c2").span() == (100, 200)

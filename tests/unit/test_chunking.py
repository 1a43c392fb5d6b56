import hashlib

import pytest

from extractors.chunking import MAX_CHARS, _pieces
from extractors.pipeline import parse_pdf
from tests.pdf_factory import two_column_paper, write


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    data, _ = two_column_paper()
    return write(tmp_path_factory.mktemp("c"), "paper.pdf", data)


@pytest.fixture(scope="module")
def doc(pdf):
    return parse_pdf(pdf)


def test_chunks_stay_inside_one_section_and_under_the_limit(doc):
    sections = {s.id: s for s in doc.sections}
    for chunk in doc.chunks:
        assert len(chunk.text) <= MAX_CHARS
        assert doc.text[chunk.char_start:chunk.char_end] == chunk.text
        assert chunk.content_hash == hashlib.sha256(chunk.text.encode()).hexdigest()
        if chunk.section_id:
            s = sections[chunk.section_id]
            assert s.char_start <= chunk.char_start and chunk.char_end <= s.char_end
            assert chunk.section_path[-1] == s.title


def test_chunks_cover_the_section_text_and_carry_boxes(doc):
    for s in doc.sections:
        body = " ".join(doc.text[s.char_start:s.char_end].split())
        covered = " ".join(" ".join(c.text.split()) for c in doc.chunks if c.section_id == s.id)
        assert covered == body
    setup = next(c for c in doc.chunks if c.section_path == ["Method", "Training Setup"])
    assert setup.boxes and all(b.page == setup.page_start for b in setup.boxes[:1])


def test_ids_are_deterministic(doc, pdf, tmp_path):
    again = parse_pdf(write(tmp_path, "again.pdf", pdf.read_bytes()))
    assert [c.id for c in again.chunks] == [c.id for c in doc.chunks]
    assert [s.id for s in again.sections] == [s.id for s in doc.sections]


def test_long_paragraph_splits_at_sentence_ends():
    text = " ".join(f"Sentence number {i} is here." for i in range(200))
    pieces = _pieces(text, 0, len(text))
    assert all(b - a <= MAX_CHARS for a, b in pieces)
    assert all(text[a:b].endswith(".") for a, b in pieces)
    assert " ".join(text[a:b] for a, b in pieces) == text

"""Every PDF of the shared corpus parses without exception, with sane structure."""

from __future__ import annotations

import pytest

from extractors.limits import ParseLimits
from extractors.pipeline import parse_pdf
from tests.conftest import SHARED

PDFS = sorted((SHARED / "corpus").glob("*.pdf"))
NOT_PAPERS = {"docling_2305.03393v1-pg9.pdf", "docling_redp5110_sampled.pdf"}  # a single page, a manual


@pytest.mark.parametrize("pdf", PDFS, ids=[p.name for p in PDFS])
def test_corpus_pdf_parses(pdf, parsed_corpus, ocr_readings):
    doc = parsed_corpus(pdf)
    assert doc.page_count >= 1 and doc.metadata.title
    if pdf.name not in NOT_PAPERS:
        assert len(doc.sections) >= 1
    body = sum(len(c.text) for c in doc.chunks if c.kind == "text")
    text = sum(len(doc.text[s.char_start:s.char_end].strip()) for s in doc.sections)
    assert body >= 0.95 * text  # chunks cover the section text
    for chunk in doc.chunks:
        assert doc.text[chunk.char_start:chunk.char_end] == chunk.text
    # a parse of its own: the ids must not depend on the process's earlier parses (OCR readings come from the cache)
    again = parse_pdf(pdf, ParseLimits(ocr_cache=ocr_readings))
    assert [c.id for c in again.chunks] == [c.id for c in doc.chunks]
    assert [s.id for s in again.sections] == [s.id for s in doc.sections]


def test_corpus_is_there():
    assert len(PDFS) >= 50

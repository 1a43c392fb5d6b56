import pymupdf
import pytest

from extractors.errors import (CorruptPDFError, EmptyPDFError, EncryptedPDFError, ExtractionError, NoTextLayerError,
                               NotAPDFError)
from extractors.pipeline import parse_pdf
from ontology.errors import PaperKGError
from tests.pdf_factory import one_column_paper, with_dangling_object, write


def test_profile_and_audit(tmp_path):
    data, truth = one_column_paper()
    doc = parse_pdf(write(tmp_path, "paper.pdf", data))
    assert doc.profile.text_kind == "native" and doc.profile.columns == 1
    assert doc.profile.fonts[0] == "Times-Roman"
    assert doc.audit.page_count == truth.pages
    assert set(doc.audit.seconds_per_stage) >= {"open", "layout", "sections", "metadata", "chunking"}
    assert doc.audit.extractor_versions["paperkg-extractors"]
    import hashlib
    assert doc.sha256 == doc.audit.sha256 == hashlib.sha256(data).hexdigest()


def test_an_object_no_reader_can_load_does_not_stop_the_parse(tmp_path):
    """The JavaScript check reads every object; one whose cross-reference entry leads nowhere holds no script."""
    data, truth = one_column_paper()
    doc = parse_pdf(write(tmp_path, "dangling.pdf", with_dangling_object(data)))
    assert [(s.number, s.title, s.level, s.page_start) for s in doc.sections] == truth.sections


def test_not_a_pdf(tmp_path):
    with pytest.raises(NotAPDFError) as err:
        parse_pdf(write(tmp_path, "notes.pdf", b"just some text, not a PDF"))
    assert err.value.hint


def test_missing_file(tmp_path):
    with pytest.raises(NotAPDFError):
        parse_pdf(tmp_path / "missing.pdf")


def test_encrypted(tmp_path):
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    with pytest.raises(EncryptedPDFError):
        parse_pdf(write(tmp_path, "locked.pdf", data))


def test_truncated(tmp_path):
    data, _ = one_column_paper()
    with pytest.raises(CorruptPDFError):
        parse_pdf(write(tmp_path, "cut.pdf", data[:300]))


def test_zero_pages(tmp_path):
    with pytest.raises((EmptyPDFError, CorruptPDFError)):
        parse_pdf(write(tmp_path, "empty.pdf", b"%PDF-1.7\n%%EOF\n"))


def test_scanned_without_text_layer(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 50, 50), False)
    pix.clear_with(200)
    page.insert_image(page.rect, pixmap=pix)
    with pytest.raises(NoTextLayerError) as err:
        parse_pdf(write(tmp_path, "scan.pdf", doc.tobytes()))
    assert "OCR" in err.value.hint


def test_errors_are_paperkg_errors():
    assert issubclass(NoTextLayerError, ExtractionError) and issubclass(ExtractionError, PaperKGError)


def test_audit_warns_about_missing_structure(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(30):
        page.insert_text((72, 72 + 14 * i), f"Plain running text line {i} with nothing else on the page.", fontsize=10)
    parsed = parse_pdf(write(tmp_path, "plain.pdf", doc.tobytes()))
    assert "no section headings found; all text is front matter" in parsed.audit.warnings
    assert "no title found on page 1" in parsed.audit.warnings


def _words_one_by_one(rotate: int) -> bytes:
    """Two pages of prose whose words are each placed on a line of their own (rotated by `rotate` degrees), the
    way some converters write a text layer that no reader can join into lines."""
    from tests.pdf_factory import prose

    doc = pymupdf.open()
    words = prose(40).split()
    for start in range(0, 240, 120):
        page = doc.new_page()
        for n, word in enumerate(words[start:start + 120]):
            column, row = divmod(n, 40)
            point = (60 + row * 12, 60 + column * 150) if rotate else (60 + column * 150, 60 + row * 18)
            page.insert_text(point, word, fontsize=9, rotate=rotate)
    return doc.tobytes()


@pytest.mark.parametrize("rotate, says_rotated", [(0, False), (90, True)])
def test_a_text_layer_of_one_word_lines_that_ocr_cannot_read_is_refused_saying_why(tmp_path, monkeypatch, rotate,
                                                                                     says_rotated):
    from extractors import ocr

    monkeypatch.setattr(ocr, "tessdata", lambda: None)
    with pytest.raises(NoTextLayerError) as err:
        parse_pdf(write(tmp_path, "words.pdf", _words_one_by_one(rotate)))
    assert "one-word lines" in err.value.message
    assert ("rotated" in err.value.message) is says_rotated
    assert "pages 1, 2 with an unusable text layer left unread" in err.value.hint
    assert "tesseract-ocr-eng" in err.value.hint


def test_a_text_layer_of_one_word_lines_over_the_ocr_cap_is_refused_not_read_in_part(tmp_path):
    from extractors.limits import ParseLimits

    with pytest.raises(NoTextLayerError) as err:
        parse_pdf(write(tmp_path, "words.pdf", _words_one_by_one(0)), ParseLimits(max_ocr_pages=1))
    assert "one-word lines" in err.value.message
    assert "PAPERKG_PARSE_MAX_OCR_PAGES" in err.value.hint


def test_pages_that_print_one_word_lines_are_refused_after_ocr_reads_them(tmp_path):
    with pytest.raises(NoTextLayerError) as err:
        parse_pdf(write(tmp_path, "words.pdf", _words_one_by_one(0)))
    assert "OCR of its pages gives" in err.value.message


def test_figure_labels_beside_prose_are_not_a_broken_text_layer(tmp_path):
    data, truth = one_column_paper()
    doc = pymupdf.open(stream=data)
    for n in range(60):  # a labelled diagram: sixty one-word node labels on the first page
        doc[0].insert_text((400 + (n % 4) * 40, 500 + (n // 4) * 12), f"v{n}", fontsize=7)
    parsed = parse_pdf(write(tmp_path, "labels.pdf", doc.tobytes()))
    assert parsed.page_count == truth.pages and parsed.sections

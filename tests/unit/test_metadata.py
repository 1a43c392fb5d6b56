from extractors.metadata import _names, valid_meta_title
from extractors.pipeline import parse_pdf
import pytest

from tests.pdf_factory import journal_paper, letter_paper, one_column_paper, two_column_paper, write


def test_title_authors_abstract_as_printed_not_from_pdf_metadata(tmp_path):
    for builder in (one_column_paper, two_column_paper):
        data, truth = builder()
        meta = parse_pdf(write(tmp_path, "paper.pdf", data)).metadata
        assert meta.title == truth.title  # the PDF metadata says "Microsoft Word - draft.docx"
        assert [a.name for a in meta.authors] == truth.authors
        assert meta.authors[0].affiliations == ["University of Testing, Example City"]
        assert meta.abstract == truth.abstract
        assert meta.title_box is not None and meta.title_box.page == 1


@pytest.mark.parametrize("heading", ["Résumé", "Kurzfassung", "Resumen"])
@pytest.mark.parametrize("run_in", [False, True])
def test_an_abstract_named_in_another_language_is_the_abstract_without_its_name(tmp_path, heading, run_in):
    """Under a heading, or as a run-in lead ("Résumé. Une façon ..."), whose word is not part of the abstract."""
    data, truth = one_column_paper(abstract_heading=heading, run_in=run_in)
    doc = parse_pdf(write(tmp_path, "paper.pdf", data))
    assert doc.metadata.abstract == truth.abstract
    assert [s.title for s in doc.sections][0] == "Introduction"  # the heading is front matter, not a section


def test_junk_pdf_metadata_titles_are_rejected():
    for junk in ("(anonymous)", "Microsoft Word - paper.doc", "untitled", "main.tex", ""):
        assert not valid_meta_title(junk)
    assert valid_meta_title("Identifying Relations for Open Information Extraction")


def test_author_lines():
    assert _names("Georgiana Dinu and Marco Baroni") == ["Georgiana Dinu", "Marco Baroni"]
    assert _names("Kyle Lo1,2∗, Lucy Lu Wang2 & Daniel S. Weld") == ["Kyle Lo", "Lucy Lu Wang", "Daniel S. Weld"]
    assert _names("We introduce the problem of generation") == []


@pytest.mark.parametrize("label", [True, False])
def test_structured_abstract_under_a_small_label_or_none(label, tmp_path):
    """A journal's structured abstract (Background:, Methods:, Conclusions:, each its own paragraph) is one
    abstract, under an ABSTRACT label set smaller than the body or under no label at all."""
    data, truth = journal_paper(abstract_label=label)
    doc = parse_pdf(write(tmp_path, "journal.pdf", data))
    assert doc.metadata.abstract == truth.abstract
    assert doc.metadata.title == truth.title


def test_abstract_without_heading_set_smaller_than_the_body(tmp_path):
    data, truth, _ = letter_paper()
    doc = parse_pdf(write(tmp_path, "letter.pdf", data))
    assert doc.metadata.abstract == truth.abstract

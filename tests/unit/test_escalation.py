"""Escalation to PyMuPDF's layout model (extractors/escalation.py): each class of page the rules are unsure of,
on a synthetic paper, read with the real model, and the reconciliation of the model's regions with the rules'
candidates against a stand-in model whose regions the test chooses."""

import pymupdf
import pytest

from extractors.equations import find_equations
from extractors.escalation import (MAX_PAGES, SPARSE_HEADINGS, UNSURE_LABEL, UNSURE_NUMBERED, Escalator,
                                   model_equations)
from extractors.layout import read_layout
from extractors.model import Document
from extractors.mupdf import LayoutModelError
from extractors.pipeline import parse_pdf
from tests.pdf_factory import (equations_paper, one_column_paper, own_style_headings_paper, plain_subheadings_paper,
                               stored_rotated, tab_stop_equations_paper, two_column_paper, write)

SHA = "0" * 64


def _parse(tmp_path, data: bytes) -> Document:
    return parse_pdf(write(tmp_path, "paper.pdf", data))


def test_headings_in_a_style_the_rules_cannot_learn_are_found_where_the_model_reads_them(tmp_path):
    data, headings = own_style_headings_paper()
    doc = _parse(tmp_path, data)
    assert [s.title for s in doc.sections] == headings  # and the title, which the model calls a header, is none
    assert {s.level for s in doc.sections} == {1}
    assert doc.audit.escalations and all(e.reasons == [SPARSE_HEADINGS] for e in doc.audit.escalations)
    assert sum(e.added for e in doc.audit.escalations) >= 1


def test_numbered_subheadings_in_body_type_are_confirmed_by_the_model(tmp_path):
    data, numbers = plain_subheadings_paper()
    doc = _parse(tmp_path, data)
    assert [s.number for s in doc.sections if s.level == 2] == numbers
    assert [s.number for s in doc.sections if s.level == 1] == ["1", "2", "3", None]  # None: References
    assert {r for e in doc.audit.escalations for r in e.reasons} == {UNSURE_NUMBERED}


def test_labels_at_a_tab_stop_number_only_displays_the_model_confirms(tmp_path):
    data, truth = tab_stop_equations_paper()
    doc = _parse(tmp_path, data)
    numbered = [(e.label, e.page, e.text) for e in doc.equations if e.label]
    assert numbered and set(numbered) <= set(truth.numbered)  # none invented, the label's number as printed
    assert len(doc.equations) == len(truth.numbered)  # the others stay displays without a number
    assert [e.reasons for e in doc.audit.escalations] == [[UNSURE_LABEL]]


@pytest.mark.parametrize("make", [one_column_paper, two_column_paper, equations_paper])
def test_a_paper_the_rules_read_fully_never_reaches_the_model(tmp_path, make):
    assert _parse(tmp_path, make()[0]).audit.escalations == []


class _Model:
    """A layout model whose formula regions are the given rows of the page, counting the pages it reads."""

    def __init__(self, rows: list[tuple[float, float]]):
        self.rows, self.read = rows, 0

    def __call__(self, page):
        self.read += 1
        return [((60.0, top, 560.0, bottom), "formula") for top, bottom in self.rows]


def _tab_stop_page():
    data, truth = tab_stop_equations_paper()
    doc = pymupdf.open(stream=data, filetype="pdf")
    pages = read_layout(doc)
    labels = {line.text: line for line in pages[0].lines if line.text in {f"({n})" for n in range(1, 7)}}
    return doc, pages, truth, labels


def test_an_unnumbered_display_takes_the_label_the_model_finds_a_formula_beside():
    doc, pages, truth, labels = _tab_stop_page()
    model = _Model([(labels[t].bbox[1], labels[t].bbox[3]) for t in ("(1)", "(2)", "(3)")])
    escalator = Escalator(doc, read=model)
    equations = model_equations(pages, SHA, find_equations(pages, SHA), [], escalator)
    assert sorted(e.label for e in equations if e.label) == ["1", "2", "3"]
    assert all(e.text == truth.numbered[0][2] for e in equations if e.label)  # the label is not formula text
    assert model.read == 1 and [(a.page, a.added) for a in escalator.audit()] == [(1, 3)]


def test_a_label_already_numbering_a_display_is_a_reference_not_a_second_display():
    doc, pages, _, labels = _tab_stop_page()
    rules = find_equations(pages, SHA)
    first = next(e for e in rules if e.bbox[1] <= labels["(1)"].bbox[1] <= e.bbox[3])
    rules[rules.index(first)] = first.model_copy(update={"label": "2"})  # as if "(2)" was taken elsewhere
    model = _Model([(line.bbox[1], line.bbox[3]) for line in labels.values()])
    equations = model_equations(pages, SHA, rules, [], Escalator(doc, read=model))
    assert sorted(e.label for e in equations if e.label) == ["2", "3", "4", "5", "6"]


def test_the_model_reads_each_page_once_and_at_most_max_pages_of_a_paper():
    doc = pymupdf.open()
    for _ in range(MAX_PAGES + 3):
        doc.new_page()
    model = _Model([])
    escalator = Escalator(doc, read=model)
    answers = [escalator.regions(page, reason, "formula") for reason in (SPARSE_HEADINGS, UNSURE_LABEL)
               for page in range(1, doc.page_count + 1)]
    assert model.read == MAX_PAGES
    assert answers.count(None) == 2 * 3  # the pages past the cap, asked for either reason
    assert [a.reasons for a in escalator.audit()] == [[SPARSE_HEADINGS, UNSURE_LABEL]] * MAX_PAGES


def test_a_model_that_cannot_run_leaves_the_rules_output_and_says_so(tmp_path, monkeypatch):
    def no_memory(page):
        raise LayoutModelError("std::bad_alloc")

    monkeypatch.setattr("extractors.pipeline.Escalator", lambda doc: Escalator(doc, read=no_memory))
    data, numbers = plain_subheadings_paper()
    doc = _parse(tmp_path, data)
    assert [s.number for s in doc.sections if s.level == 1] == ["1", "2", "3", None]
    assert not any(s.level == 2 for s in doc.sections) and doc.audit.escalations == []
    assert any("layout model" in w for w in doc.audit.warnings)


def test_a_page_stored_turned_is_not_given_to_the_model():
    """The model reads a /Rotate page's text unturned, as one block: it has nothing to say there."""
    data, _ = plain_subheadings_paper()
    doc = pymupdf.open(stream=stored_rotated(data, 90), filetype="pdf")
    model = _Model([(0.0, 800.0)])
    escalator = Escalator(doc, read=model)
    assert escalator.regions(1, UNSURE_NUMBERED, "formula") == [] and model.read == 0
    assert escalator.audit() == []

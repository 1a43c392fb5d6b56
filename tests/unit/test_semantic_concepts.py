"""Definition patterns, concept typing and importance, and 'where X is the ...' after equations."""

from __future__ import annotations

import pytest

from extractors.semantic.abbreviations import analyse
from extractors.semantic.concepts import (abbreviation_terms, concept_kind, find_definitions, importance,
                                          symbol_definitions)
from extractors.semantic.passages import Passage


def _definitions(text: str):
    passages = [Passage(text, "Method")]
    sentences, _ = analyse(passages)
    return passages, sentences


@pytest.mark.parametrize("text, term, kind", [
    ("We define topical drift as the change of topic across sections.", "topical drift", "definition"),
    ("Label smoothing is a regularization technique that softens targets.", "Label smoothing", "technique"),
    ("Exposure bias is a phenomenon in which errors compound at test time.", "Exposure bias", "phenomenon"),
    ("A citation context refers to the sentence around a citation.", "citation context", "definition"),
    ("Span overlap is defined as the ratio of shared tokens.", "Span overlap", "definition"),
    ("Moreover, we define the associated dual norm R∗(U) := sup ⟨V, U⟩ over the unit ball.",
     "associated dual norm", "definition"),  # a term named by its symbol
    ("For any subspace M, we define the compatibility constant Ψ(M) as a supremum.", "compatibility constant",
     "definition"),
])
def test_definition_patterns(text, term, kind):
    passages, sentences = _definitions(text)
    found = find_definitions(sentences, passages)
    assert [(d.term, d.kind) for d in found] == [(term, kind)]
    assert found[0].sentence.text == text


def test_no_definition_in_plain_statements():
    passages, sentences = _definitions("The model is trained for ten epochs. Results are in Table 2. For a "
                                       "regularizer R, we define the quantity κ(R) := sup |V|/R(V). We define two "
                                       "functions φ : C → N and ψ : C → N. We define the objective function in "
                                       "Algorithm 1. We define the loss accordingly (Eq. 5). We define seven features "
                                       "f1 to f7.")
    assert find_definitions(sentences, passages) == []  # 'quantity' alone, or a count, names nothing


def test_kinds_and_importance():
    assert (concept_kind("technique"), concept_kind("theorem"), concept_kind("graph")) == ("technique", "theory", "definition")
    assert (importance(1, True), importance(7, False), importance(3, False), importance(1, False)) == \
        ("core", "core", "supporting", "background")


def test_symbols_defined_after_an_equation():
    passages, sentences = _definitions("where α is a decay factor. where n is the length.")
    assert [d.term for d in symbol_definitions(sentences, passages)] == ["decay factor"]


def test_a_term_introduced_with_its_abbreviation_is_a_concept_once():
    text = ("Scans come from magnetic resonance imaging (MRI) of each patient. We repeat MRI at six months. "
            "Later scans also use magnetic resonance imaging (MRI). The model is trained for ten epochs (see Sec. 2). "
            "Data came from the Allen Institute for Brain Science (AIBS).")
    passages, sentences = _definitions(text)
    _, pairs = analyse(passages)
    found = abbreviation_terms(pairs, sentences)
    assert [(d.term, d.alias, d.kind) for d in found] == [("magnetic resonance imaging", "MRI", "definition")]
    assert found[0].sentence.text.startswith("Scans come from") and text[found[0].start:].startswith("magnetic")

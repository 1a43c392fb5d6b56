"""The SciERC converter (training data of the mention tagger) and the typed mention scorer, on a hand-written record."""

from __future__ import annotations

import pytest
import spacy

from extractors.semantic.benchmark import EntityCounts
from extractors.semantic.scierc import SPANS_KEY, SciERCFormatError, record_to_doc, to_docbin
from extractors.semantic.tagger_score import gold_mentions, score

RECORD = {
    "doc_key": "hand_1",
    "sentences": [["We", "use", "-LRB-", "BERT", "-RRB-", "for", "named", "entity", "recognition", "."],
                  ["Accuracy", "improves", "on", "CoNLL", "."]],
    # document-level token indices, inclusive ends; 'entity' (7) nests inside the task (6-8)
    "ner": [[[3, 3, "Method"], [6, 8, "Task"], [7, 7, "OtherScientificTerm"]], [[10, 10, "Metric"], [13, 13, "Material"]]],
    "relations": [[], []],
}


@pytest.fixture(scope="module")
def vocab():
    return spacy.blank("en").vocab


def test_a_record_becomes_one_doc_with_printed_brackets_sentences_and_typed_spans(vocab):
    doc = record_to_doc(RECORD, vocab)
    assert doc.text == "We use (BERT) for named entity recognition. Accuracy improves on CoNLL."
    assert [s.text for s in doc.sents] == ["We use (BERT) for named entity recognition.", "Accuracy improves on CoNLL."]
    # the span categorizer learns nested mentions too: 'entity' inside the task stays
    assert [(e.text, e.label_) for e in doc.spans[SPANS_KEY]] == [
        ("BERT", "Method"), ("named entity recognition", "Task"), ("entity", "OtherScientificTerm"),
        ("Accuracy", "Metric"), ("CoNLL", "Material")]


def test_only_the_asked_labels_become_entities(vocab):
    doc = record_to_doc(RECORD, vocab, labels=("Method",))
    assert [(e.text, e.label_) for e in doc.spans[SPANS_KEY]] == [("BERT", "Method")]


def test_the_docbin_holds_every_record(vocab):
    second = {**RECORD, "doc_key": "hand_2"}
    docs = list(to_docbin([RECORD, second]).get_docs(vocab))
    assert len(docs) == 2 and all(len(d.spans[SPANS_KEY]) == 5 for d in docs)


@pytest.mark.parametrize("record, message", [
    ({**RECORD, "ner": RECORD["ner"][:1]}, "2 sentences but 1 NER lists"),
    ({**RECORD, "ner": [[[3, 20, "Method"]], []]}, "outside its 15 tokens"),
    ({"doc_key": "x", "ner": []}, "no 'sentences'"),
])
def test_a_broken_record_is_refused_with_its_key_and_fault(vocab, record, message):
    with pytest.raises(SciERCFormatError, match=message):
        record_to_doc(record, vocab)


def test_scoring_counts_exact_span_and_type_and_the_nested_gold_the_tagger_cannot_predict():
    gold = gold_mentions(RECORD)
    assert (7, 7, "OtherScientificTerm") in gold and len(gold) == 5
    predicted = {(3, 3, "Method"), (6, 8, "Method"), (13, 13, "Material"), (0, 0, "Generic")}
    counts = score([(gold, predicted)])
    assert (counts["Method"].correct, counts["Method"].predicted, counts["Method"].gold) == (1, 2, 1)
    assert (counts["Task"].correct, counts["Task"].gold) == (0, 1)
    assert (counts["all"].correct, counts["all"].predicted, counts["all"].gold) == (2, 4, 5)
    ontology = counts["ontology types"]  # Task, Method, Metric, Material: not OtherScientificTerm or Generic
    assert (ontology.correct, ontology.predicted, ontology.gold) == (2, 3, 4)
    assert counts["all"].f1 == pytest.approx(2 * 0.5 * 0.4 / 0.9)


def test_no_predictions_score_zero_not_an_error():
    assert EntityCounts(gold=3).f1 == 0.0 and EntityCounts().precision == 0.0

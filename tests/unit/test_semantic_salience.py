"""How candidate names become a paper's entities (salience.py): the name an entity is given. Text and table
cells written for the test."""

from __future__ import annotations

import pytest

from extractors.semantic.entities import analyse_passages
from extractors.semantic.passages import Passage
from extractors.semantic.salience import cut_short


@pytest.mark.parametrize("name, full, expected", [
    ("Acc.", "accuracy", True), ("prec", "precision", True), ("Rec", "recall", True),
    ("REC", "recall", False),  # an initialism in capitals may stand for anything ('recommendation')
    ("accuracy", "accuracy", False), ("P", "precision", False), ("ppl", "perplexity", False),
    ("acc", "top-1 accuracy", False), ("avg", "average precision", False),
    ("Reuters", "Reuters-21578", False),  # a name with its version is no word cut short
])
def test_a_word_cut_short(name, full, expected):
    assert cut_short(name, full) is expected


def test_a_header_word_cut_short_is_named_by_its_full_word():
    passages = [Passage("We classify abstracts with GraphRank and compare it with two baselines.", "Abstract"),
                Passage("Model | Acc. | Prec.\nTF-IDF | 81.2 | 77.0\nGraphRank | 85.1 | 80.3", "Result",
                        char_start=None, kind="cells")]
    metrics = {e.name for e in analyse_passages(passages).entities if e.label == "Metric"}
    assert metrics == {"accuracy", "precision"}


def test_a_table_of_statistics_lists_variables_not_methods():
    passages = [Passage("We followed 900 participants for nine years and report hazard ratios (HR) of dementia.",
                        "Abstract"),
                Passage("Variable | HR | 95% CI | p-value\nAPOE-E4 | 2.1 | 1.5-2.9 | 0.001\nMMSE | 0.9 | 0.8-1.0 | 0.04",
                        "Result", char_start=None, kind="cells")]
    found = analyse_passages(passages).ranked
    assert {(e.label, e.canonical) for e in found} == {("Metric", "hazard ratio"), ("Metric", "confidence interval"),
                                                       ("Metric", "p-value")}
    passages[1] = Passage("Model | Accuracy | p-value\nGraphRank | 85.1 | 0.01\nTF-IDF | 81.2 | 0.2", "Result",
                          char_start=None, kind="cells")
    assert ("Method", "GraphRank") in {(e.label, e.name) for e in analyse_passages(passages).ranked}


def _tasks(passages: list[Passage]) -> set[str]:
    return {e.name for e in analyse_passages(passages).ranked if e.label == "Task"}


def test_a_task_phrase_the_text_writes_only_in_the_plural_names_things_not_a_task():
    table = Passage("Gene | Masked alignment | Unmasked alignment\nATP5SL | 2 | 3\nPASK | 1 | 1", "Result",
                    char_start=None, kind="cells")
    caption = Passage("Table 3: Sites found with each masked alignment and unmasked alignment.", "Result",
                      kind="table")
    text = Passage("We compare the masked alignments with the unmasked alignments of each family; both masked "
                   "alignments agree.", "Experiment")
    assert not _tasks([text, caption, table]) & {"masked alignment", "unmasked alignment"}
    singular = Passage("Masked alignment of the families is what we study, and masked alignment is cheap.",
                       "Experiment")
    assert "masked alignment" in _tasks([singular, caption, table])

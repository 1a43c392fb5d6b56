"""Entity scoring as GOLD_SCHEMA.md says, and the SciREX reader."""

from __future__ import annotations

from extractors.semantic.benchmark import detokenize, score_type, scirex_gold, scirex_passages


def test_precision_over_names_recall_over_entities_alias_aware():
    gold = [["open information extraction", "Open IE"], ["relation extraction"]]
    counts = score_type(gold, ["Open IE", "open information extraction", "parsing"])
    assert (counts.correct, counts.predicted, counts.found, counts.gold) == (2, 3, 1, 2)
    assert round(counts.precision, 3) == 0.667 and counts.recall == 0.5


def test_similarity_threshold_is_point_nine():
    assert score_type([["ResNet-50"]], ["ResNet-101"]).found == 0
    assert score_type([["F1-score"]], ["F1 score"]).found == 1


def test_scirex_title_is_the_first_sentence_of_the_first_section():
    doc = {"words": "document : A Model for Parsing We parse trees . section : Data We use TreeBank .".split(),
           "sections": [[0, 10], [10, 17]], "sentences": [[0, 6], [6, 10], [10, 13], [13, 17]]}
    assert [(p.kind, p.section_kind, p.text) for p in scirex_passages(doc)] == [
        ("title", "Abstract", "A Model for Parsing"), ("text", "Abstract", "We parse trees."),
        ("text", "Experiment", "We use TreeBank."), ("heading", "Experiment", "Data")]


def test_scirex_reader():
    doc = {"words": "A Model . section : Experiments We test on SQuAD ( v1 ) with F1 .".split(),
           "sections": [[0, 3], [3, 16]], "sentences": [[0, 3], [3, 6], [6, 16]],
           "coref": {"SQuAD": [[9, 10]], "F1": [[14, 15]], "Model_X": []},
           "n_ary_relations": [{"Material": "SQuAD", "Metric": "F1", "Method": "Model_X", "Task": None}]}
    passages = scirex_passages(doc)
    assert [(p.kind, p.section_kind, p.text) for p in passages] == [
        ("title", "Abstract", "A Model."), ("text", "Experiment", "We test on SQuAD (v1) with F1."),
        ("heading", "Experiment", "Experiments")]
    assert scirex_gold(doc) == {"datasets": [["SQuAD", "SQuAD"]], "methods": [["Model X"]], "metrics": [["F1", "F1"]],
                                "tasks": []}
    assert detokenize(["state", "-", "of", "-", "the", "-", "art", ","]) == "state-of-the-art,"


def test_scirex_split_holds_out_a_fifth_of_the_documents_by_a_fixed_rule():
    from extractors.semantic.benchmark import SCIREX_HELD_OUT, scirex_split

    ids = [f"doc{n:04d}" for n in range(2000)]
    held_out = [i for i in ids if scirex_split(i) == SCIREX_HELD_OUT]
    assert 0.17 < len(held_out) / len(ids) < 0.23

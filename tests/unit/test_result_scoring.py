"""Result tuples are matched by paper, table, value at its printed precision and fuzzy method and metric."""

from __future__ import annotations

from pathlib import Path

from extractors.semantic.result_scoring import (ResultTuple, in_gold_tables, read_gold, read_table_check, score,
                                                score_tables, values_agree)

GOLD = [ResultTuple("p", "Table 2", "SPECTER (Ours)", "Classification / MAG / F1", "82.0"),
        ResultTuple("p", "Table 2", "SciBERT (2019)", "Classification / MAG / F1", "79.7"),
        ResultTuple("p", "Table 3", "SciBERT (2019)", "Accuracy", "93%")]


def test_typography_is_not_part_of_the_number():
    assert values_agree("**82.0**", "82.0") and values_agree("93%", "93") and values_agree("90.41 ± 0.06", "90.41")
    assert values_agree("27.6†23", "27.6") and values_agree(".28", "0.28") and values_agree("-2.1136e+09", "-2.1136E+09")


def test_values_agree_at_the_coarser_printed_precision_only():
    assert values_agree("28", "28.0") and values_agree("28.04", "28.0")
    assert not values_agree("28.0", "28.1") and not values_agree("0.93", "93") and not values_agree("n/a", "n/a")


def test_a_prediction_matches_by_fuzzy_method_and_metric_within_the_same_table():
    counts = score(GOLD, [ResultTuple("p", "2", "SPECTER", "F1", "82.0"),  # label "2" is "Table 2"
                          ResultTuple("p", "2", "SciBERT", "F1", "79.8"),  # wrong value
                          ResultTuple("p", "Table 2", "SciBERT", "F1", "93%"),  # value of another table
                          ResultTuple("q", "Table 3", "SciBERT", "Accuracy", "93")])  # another paper
    assert (counts.correct, counts.predicted, counts.found, counts.gold) == (1, 4, 1, 3)


def test_matching_is_one_to_one_and_needs_both_names():
    counts = score(GOLD, [ResultTuple("p", "Table 3", "SciBERT", "accuracy", "93"),
                          ResultTuple("p", "Table 3", "SciBERT", "accuracy", "93"),  # the same tuple again
                          ResultTuple("p", "Table 2", "SPECTER", "Recall", "82.0"),  # wrong metric
                          ResultTuple("p", "Table 2", "Doc2vec", "F1", "82.0")])  # wrong method
    assert (counts.correct, counts.predicted, counts.found) == (1, 4, 1)
    assert round(counts.precision, 2) == 0.25 and round(counts.recall, 2) == 0.33


def test_gold_file_reads_past_its_comment_header(tmp_path: Path):
    path = tmp_path / "gold.tsv"
    path.write_text("# how it was made\n# rules\nstem\ttable\tpage\tmethod\tdataset\tmetric\tvalue\n"
                    'p\tTable 1\t3\t"quoted" model\tSQuAD\tEM / dev\t71.2\n', encoding="utf-8")
    assert read_gold(path) == [ResultTuple("p", "Table 1", '"quoted" model', "EM / dev", "71.2", "SQuAD")]


def test_committed_gold_has_enough_tuples_each_with_a_number():
    gold = read_gold(Path(__file__).resolve().parents[2] / "bench" / "result_tuples_gold.tsv")
    assert len(gold) >= 150 and len({t.stem for t in gold}) >= 8
    assert all(t.method and t.metric and values_agree(t.value, t.value) for t in gold)


def test_predictions_of_tables_without_gold_are_set_apart():
    predicted = [ResultTuple("p", "2", "SPECTER", "F1", "82.0"), ResultTuple("p", "Table 5", "X", "F1", "1.0"),
                 ResultTuple("q", "Table 2", "SPECTER", "F1", "82.0")]
    assert in_gold_tables(GOLD, predicted) == predicted[:1]


def test_tables_read_are_scored_against_the_judged_ones(tmp_path: Path):
    path = tmp_path / "check.tsv"
    path.write_text("# judged by hand\nstem\ttable\tpage\tresult\twhy\nq\t1\t2\tyes\tmethods\nq\tTable 2\t3\tno\tdata\n"
                    "r\tIV\t1\tyes\tmethods\n", encoding="utf-8")
    judged = read_table_check(path)
    assert judged == {("q", "1"): True, ("q", "2"): False, ("r", "iv"): True}
    counts, wrong = score_tables(judged, [("q", "Table 1"), ("q", "2"), ("s", "1")])  # s 1: judged by nobody
    assert (counts.correct, counts.predicted, counts.found, counts.gold) == (1, 3, 1, 2)
    assert wrong == [("q", "2"), ("s", "1")]


def test_committed_table_check_names_no_gold_paper():
    root = Path(__file__).resolve().parents[2]
    judged = read_table_check(root / "bench" / "result_tables_check.tsv")
    assert len(judged) >= 50 and sum(judged.values()) >= 10
    gold = root.parent / "shared" / "gold"
    assert gold.is_dir()
    assert not [stem for stem, _ in judged if (gold / f"{stem}.json").exists()]

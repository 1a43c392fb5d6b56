"""Scoring of cross-paper questions (bench/cross_qa.py) and the judged questions file it reads."""

import hashlib

from bench.cross_qa import QUESTIONS, CrossQuestion, cross_questions, report, score, split_of


def test_the_judged_file_has_enough_questions_of_every_kind_and_both_halves():
    items = cross_questions(QUESTIONS)
    assert len(items) >= 30 and len({i.question for i in items}) == len(items)
    assert {i.kind for i in items} == {"dataset", "task", "method", "metric"}
    assert any(not i.papers for i in items) and any(len(i.papers) >= 3 for i in items)
    assert {split_of(i.question) for i in items} == {"dev", "held-out"}


def test_the_split_is_the_parity_of_the_question_texts_hash():
    question = "Which papers use WordNet?"
    even = int(hashlib.sha256(question.encode()).hexdigest(), 16) % 2 == 0
    assert split_of(question) == ("dev" if even else "held-out")


def test_an_exact_list_a_partial_one_and_an_empty_one():
    item = CrossQuestion("dataset", "Which papers use X?", frozenset({"a", "b"}))
    assert score(item, ["b", "a"]).exact
    partial = score(item, ["a", "c"])
    assert (partial.exact, partial.precision, partial.recall) == (False, 0.5, 0.5)
    nothing = score(CrossQuestion("dataset", "Which papers use Y?", frozenset()), [])
    assert (nothing.exact, nothing.precision, nothing.recall) == (True, 1.0, 1.0)
    assert score(item, []).precision == 1.0 and score(item, []).recall == 0.0


def test_the_report_counts_each_half_and_kind():
    rows = [score(CrossQuestion("task", q, frozenset({"a"})), answered)
            for q, answered in (("Which papers address A?", ["a"]), ("Which papers address B?", []))]
    figures = report(rows)
    assert figures["all"] == {"questions": 2, "exact_lists": 0.5, "precision": 1.0, "recall": 0.5}
    assert sum(figures[half]["questions"] for half in ("dev", "held-out")) == 2


def test_the_report_counts_each_batch_of_questions_apart():
    rows = [score(CrossQuestion("task", q, frozenset({"a"}), added), answered)
            for q, answered, added in (("Which papers address A?", ["a"], "2026-12-04"),
                                       ("Which papers address B?", [], "2026-12-05"))]
    figures = report(rows)
    assert figures["added 2026-12-04"]["exact_lists"] == 1.0 and figures["added 2026-12-05"]["exact_lists"] == 0.0
    assert all(i.added in ("2026-12-04", "2026-12-05") for i in cross_questions(QUESTIONS))

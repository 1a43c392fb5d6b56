"""The corpus check of `kg bench structure`: hand counts of non-gold papers, read and scored by the gold's rules."""

from __future__ import annotations

from bench.corpus_check import CHECK, load, overlap, score
from tests.conftest import SHARED

TSV = """# a comment line, as the header explains the counts
paper\tequations\treferences\thow
a\t2:1 2:2 3:A.1\t20\tnumbered
b\t-\t40\tauthor-year
"""


def test_rows_become_gold_shaped_records(tmp_path):
    path = tmp_path / "check.tsv"
    path.write_text(TSV)
    check = load(path)
    assert check["a"] == {"equations": {"numbered": [{"page": 2, "label": "1"}, {"page": 2, "label": "2"},
                                                     {"page": 3, "label": "A.1"}]},
                          "references_count": 20}
    assert check["b"] == {"equations": {"numbered": []}, "references_count": 40}


def test_scored_by_label_and_within_max_one_or_five_percent_over_the_papers_parsed(tmp_path):
    path = tmp_path / "check.tsv"
    path.write_text(TSV + "c\t1:1\t10\tnot in the corpus\n")
    predictions = {"a": {"equations": [{"label": "1", "page": 2}, {"label": "(A.1)", "page": 4},
                                       {"label": "9", "page": 5}], "references_count": 21},
                   "b": {"equations": [], "references_count": 43}}
    totals = score(load(path), predictions)
    eq = totals["equations"]
    assert (eq.matched, eq.predicted, eq.gold, eq.extra["page"]) == (2, 3, 3, 1)  # "c" was not parsed: not scored
    refs = totals["references"]
    assert (refs.matched, refs.gold) == (1, 2)  # 21 of 20 is within one; 43 of 40 is more than 5 %


def test_the_shipped_check_names_corpus_papers_outside_the_gold():
    check = load(CHECK)
    assert len(check) == 27
    assert overlap(check, SHARED / "gold") == []
    assert all((SHARED / "corpus" / f"{stem}.pdf").is_file() for stem in check)


def test_a_check_naming_a_gold_paper_is_caught(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    assert overlap({"a": {}, "b": {}}, tmp_path) == ["a"]

"""The corpus check of `kg bench structure`: hand counts of non-gold papers, read and scored by the gold's rules."""

from __future__ import annotations

from bench.corpus_check import CHECK, load, overlap, score
from tests.conftest import SHARED

TSV = """# a comment line, as the header explains the counts
paper\tequations\tfigures\ttables\treferences\thow
a\t2:1 2:2 3:A.1\t1:1 4:2\t-\t20\tnumbered
b\t-\t-\t3:I\t40\tauthor-year
"""


def test_rows_become_gold_shaped_records(tmp_path):
    path = tmp_path / "check.tsv"
    path.write_text(TSV)
    check = load(path)
    assert check["a"] == {"equations": {"numbered": [{"page": 2, "label": "1"}, {"page": 2, "label": "2"},
                                                     {"page": 3, "label": "A.1"}]},
                          "figures": [{"page": 1, "label": "1"}, {"page": 4, "label": "2"}], "tables": [],
                          "references_count": 20}
    assert check["b"] == {"equations": {"numbered": []}, "figures": [], "tables": [{"page": 3, "label": "I"}],
                          "references_count": 40}


def test_scored_by_label_and_within_max_one_or_five_percent_over_the_papers_parsed(tmp_path):
    path = tmp_path / "check.tsv"
    path.write_text(TSV + "c\t1:1\t1:1\t-\t10\tnot in the corpus\n")
    predictions = {"a": {"equations": [{"label": "1", "page": 2}, {"label": "(A.1)", "page": 4},
                                       {"label": "9", "page": 5}],
                         "figures": [{"label": "Figure 1", "page": 1}, {"label": "Fig. 2", "page": 5},
                                     {"label": "2", "page": 4}], "references_count": 21},
                   "b": {"equations": [], "tables": [], "references_count": 43}}
    totals = score(load(path), predictions)
    eq = totals["equations"]
    assert (eq.matched, eq.predicted, eq.gold, eq.extra["page"]) == (2, 3, 3, 1)  # "c" was not parsed: not scored
    figs = totals["figures"]  # labels as the gold's rules compare them: "Fig. 2" is figure 2, matched once
    assert (figs.matched, figs.predicted, figs.gold, figs.extra["page"]) == (2, 3, 2, 1)
    tables = totals["tables"]
    assert (tables.matched, tables.predicted, tables.gold) == (0, 0, 1)
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

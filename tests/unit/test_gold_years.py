"""The hand-read years of bench/gold_years.tsv: one per gold paper, and how the benchmark scores them."""

from __future__ import annotations

from bench.gold_years import YEARS, gold_years
from extractors.scoring import score_paper
from tests.conftest import SHARED

GOLD = {"title": "A Title", "authors": [], "abstract": {"start": "x", "end": "y"}, "references_count": 0}


def test_every_gold_paper_has_a_year_or_says_it_prints_none():
    years = gold_years()
    assert set(years) == {path.stem for path in (SHARED / "gold").glob("*.json")}
    assert all(year is None or 1950 <= year <= 2049 for year in years.values())
    assert sum(year is None for year in years.values()) == 3  # the LaTeX rebuilds and pm_papermage print none
    rows = [line.split("\t") for line in YEARS.read_text().splitlines() if line and not line.startswith("#")]
    assert all(len(row) == 3 and row[2].strip() for row in rows), "each year says where it is printed"


def test_the_year_counts_only_where_the_gold_has_one():
    assert "year" not in score_paper(GOLD, {"year": 2019})
    assert score_paper(GOLD | {"year": 2019}, {"year": 2019})["year"].matched == 1
    assert score_paper(GOLD | {"year": 2019}, {"year": 2018})["year"].matched == 0
    assert score_paper(GOLD | {"year": None}, {"year": None})["year"].matched == 1  # prints none: none is right
    assert score_paper(GOLD | {"year": None}, {})["year"].matched == 0  # a paper that failed to parse is wrong

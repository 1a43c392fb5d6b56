"""nDCG@10 of the search benchmark, its split of the judged queries, the semantic signal's scaling and the MMR
re-ordering, on hand-made rankings."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from bench.gold_sets import DEV, HELD_OUT, split_of
from bench.search import Judged, judged_queries, ndcg
from kg.find.search import WEIGHTS, Hit, mmr, rank


def test_ndcg_is_one_for_the_ideal_order_and_discounts_later_ranks():
    assert ndcg(["a", "b", "x"], frozenset({"a", "b"})) == 1.0
    assert ndcg(["x", "a"], frozenset({"a"})) == 1 / math.log2(3)
    assert ndcg(["x"] * 10 + ["a"], frozenset({"a"})) == 0.0


def hit(name: str, score: float, vector: list[float] | None) -> Hit:
    return Hit(paper_id=name, title=name, year=None, domains=[], score=score, signals={}, raw={}, entities=[],
               vector=vector)


def test_mmr_moves_a_near_duplicate_below_a_different_paper():
    hits = [hit("a", 0.9, [1.0, 0.0, 0.1]), hit("a_copy", 0.85, [1.0, 0.0, 0.11]), hit("b", 0.7, [0.0, 1.0, 0.1])]
    assert [h.paper_id for h in mmr(hits, 3)] == ["a", "b", "a_copy"]
    assert [h.paper_id for h in mmr(hits, 2)] == ["a", "b"]


def test_mmr_keeps_the_order_of_hits_without_vectors():
    hits = [hit("a", 0.9, None), hit("b", 0.8, None), hit("c", 0.7, None)]
    assert [h.paper_id for h in mmr(hits, 3)] == ["a", "b", "c"]


def test_judged_queries_split_by_their_text_into_two_halves():
    queries = judged_queries(Path(__file__).parents[2] / "bench" / "search_judged.tsv")
    assert all(q.split == split_of(q.query) for q in queries)
    halves = Counter(q.split for q in queries)
    assert set(halves) == {DEV, HELD_OUT} and min(halves.values()) >= len(queries) // 3
    assert Judged("same words", frozenset()).split == Judged("same words", frozenset({"x"})).split


def test_semantic_signal_is_similarity_over_the_best_candidates_not_stretched():
    def row(sha: str, score: float, kind: str) -> dict:
        return {"sha": sha, "score": score, "list": kind, "vector": None, "section": None, "section_title": None,
                "page": 1, "text": f"text of {sha}", "chunk": f"{sha}-c"}
    papers = {s: {"id": s, "title": s, "year": None, "domains": [], "cited_by": 0, "entities": []}
              for s in ("a", "b")}
    rows = [row("a", 2.0, "text"), row("b", 2.0, "text"), row("a", 0.80, "vector"), row("b", 0.76, "vector")]
    hits = {h.paper_id: h for h in rank(rows, papers, [], WEIGHTS)}
    assert hits["a"].signals["semantic"] == 1.0 and hits["b"].signals["semantic"] == 0.95
    assert hits["a"].score - hits["b"].score == pytest.approx(WEIGHTS["semantic"] * 0.05, abs=1e-4)

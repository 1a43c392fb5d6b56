"""Scoring of `kg search` against hand-judged queries (bench/search_judged.tsv): nDCG@10 with binary relevance.

The TSV has one query a line: the query, a tab, and the file names (without .pdf) of the corpus papers judged
relevant to it, separated by spaces. Queries are about topics, not titles; relevance was judged from each
candidate paper's title and abstract.

Queries fall into a dev and a held-out half by the fixed rule of bench/gold_sets.py applied to the query's text
(SHA-256, even -> dev), so that a query added later lands in a half without anyone choosing: ranking choices are
made on the dev half's figures, and the held-out half's only report whether they carry over.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from bench.gold_sets import split_of

K = 10


@dataclass(frozen=True)
class Judged:
    query: str
    relevant: frozenset[str]  # file stems

    @property
    def split(self) -> str:
        """bench.gold_sets.DEV or HELD_OUT, by the query's text."""
        return split_of(self.query)


def judged_queries(path: Path) -> list[Judged]:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.reader(handle, delimiter="\t") if r and not r[0].startswith("#")]
    return [Judged(r[0].strip(), frozenset(r[1].split())) for r in rows[1:]]  # the first row names the columns


def ndcg(ranked: list[str], relevant: frozenset[str], k: int = K) -> float:
    """Normalised discounted cumulative gain of the first k of `ranked` with binary gains: 1 when the ideal
    order (every relevant item first) is reached, 0 when no relevant item is in the first k."""
    dcg = sum(1 / math.log2(rank + 1) for rank, item in enumerate(ranked[:k], start=1) if item in relevant)
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(k, len(relevant)) + 1))
    return dcg / ideal if ideal else 0.0

"""Scoring of `kg search` against hand-judged queries (bench/search_judged.tsv): nDCG@10 with binary relevance.

The TSV has one query a line: the query, a tab, and the file names (without .pdf) of the corpus papers judged
relevant to it, separated by spaces. Queries are about topics, not titles; relevance was judged from each
candidate paper's title and abstract.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

K = 10


@dataclass(frozen=True)
class Judged:
    query: str
    relevant: frozenset[str]  # file stems


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

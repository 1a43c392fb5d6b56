"""Scoring of result tuples (method, metric, value of one table cell) against the hand-read gold of
bench/result_tuples_gold.tsv.

A predicted tuple matches a gold tuple of the same paper and table label when the values agree as numbers at
the precision they were printed with (after dropping %, a ±deviation and best/significance marks, which are
typography rather than the number) and the method and metric agree fuzzily (rapidfuzz token_set_ratio >= 80
after casefolding: "SPECTER (Ours)" is "SPECTER", and a canonical "F1" is the "Full / F1" of a two-row header).
Matching is one-to-one, so a repeated prediction is counted once and its copies are wrong. Pure functions; the
CLI (cli/bench_entities.py) runs the extractor and prints.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from rapidfuzz import fuzz

from extractors.scoring import norm_label
from extractors.semantic.benchmark import EntityCounts

FUZZY = 80
# The number of a cell: sign, digits, decimals, exponent; what may surround it is dropped by _NUMBER's search.
_NUMBER = re.compile(r"[-+−]?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:[eE][-+]?\d+)?")
_DEVIATION = re.compile(r"\s*(?:±|\+/-|\+-)\s*\d+(?:[.,]\d+)?")


@dataclass(frozen=True)
class ResultTuple:
    stem: str
    table: str  # label as printed, "Table 2" or "2"
    method: str
    metric: str
    value: str  # as printed
    dataset: str = ""


def read_gold(path: Path) -> list[ResultTuple]:
    """The gold TSV: '#' comment lines, a header line, then stem, table, page, method, dataset, metric, value."""
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return [ResultTuple(r["stem"], r["table"], r["method"], r["metric"], r["value"], r["dataset"])
            for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)]


def number(text: str) -> Decimal | None:
    """The number a cell prints, with its printed precision kept ("28.0" stays 28.0), or None."""
    found = _NUMBER.search(_DEVIATION.sub("", text))
    if not found:
        return None
    try:
        return Decimal(found.group(0).replace("−", "-").replace(",", "."))
    except InvalidOperation:
        return None


def values_agree(a: str, b: str) -> bool:
    """Equal at the coarser of the two printed precisions: '28' and '28.0' agree, '28.0' and '28.1' do not."""
    x, y = number(a), number(b)
    if x is None or y is None:
        return False
    unit = Decimal(1).scaleb(max(x.as_tuple().exponent, y.as_tuple().exponent))
    return x.quantize(unit, ROUND_HALF_UP) == y.quantize(unit, ROUND_HALF_UP)


def names_agree(a: str, b: str) -> bool:
    return fuzz.token_set_ratio(a.casefold(), b.casefold()) >= FUZZY


def matches(predicted: ResultTuple, gold: ResultTuple) -> bool:
    return (predicted.stem == gold.stem and norm_label(predicted.table) == norm_label(gold.table)
            and values_agree(predicted.value, gold.value) and names_agree(predicted.method, gold.method)
            and names_agree(predicted.metric, gold.metric))


def score(gold: Iterable[ResultTuple], predicted: Iterable[ResultTuple]) -> EntityCounts:
    """One-to-one greedy matching within each (paper, table); correct == found."""
    unmatched: dict[tuple[str, str], list[ResultTuple]] = {}
    gold = list(gold)
    for g in gold:
        unmatched.setdefault((g.stem, norm_label(g.table)), []).append(g)
    counts = EntityCounts(gold=len(gold))
    for p in predicted:
        counts.predicted += 1
        candidates = unmatched.get((p.stem, norm_label(p.table)), [])
        hit = next((g for g in candidates if matches(p, g)), None)
        if hit is not None:
            candidates.remove(hit)
            counts.correct += 1
            counts.found += 1
    return counts


def in_gold_tables(gold: Iterable[ResultTuple], predicted: Iterable[ResultTuple]) -> list[ResultTuple]:
    """The predictions from tables the gold has tuples of: precision over these says how well a result table is
    read, apart from which tables are taken for result tables (the gold leaves some out, see its header)."""
    tables = {(g.stem, norm_label(g.table)) for g in gold}
    return [p for p in predicted if (p.stem, norm_label(p.table)) in tables]


def read_table_check(path: Path) -> dict[tuple[str, str], bool]:
    """The hand-judged tables of bench/result_tables_check.tsv: (stem, label) -> is a result table."""
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return {(r["stem"], norm_label(r["table"])): r["result"] == "yes"
            for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)}


def score_tables(judged: dict[tuple[str, str], bool],
                 read: Iterable[tuple[str, str]]) -> tuple[EntityCounts, list[tuple[str, str]]]:
    """Which tables the reader takes for result tables (any tuple read from it), against the judgement: precision
    over the tables read (one nobody judged counts as wrong), recall over the tables judged result tables; and the
    tables read that are not result tables."""
    read = {(stem, norm_label(label)) for stem, label in read}
    wrong = sorted(key for key in read if not judged.get(key, False))
    right = len(read) - len(wrong)
    return EntityCounts(correct=right, predicted=len(read), found=right, gold=sum(judged.values())), wrong

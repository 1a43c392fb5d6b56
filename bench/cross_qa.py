"""Scoring of cross-paper questions ("which papers use X") against bench/cross_paper_questions.tsv: a question is
answered exactly when the answer's paper list is the judged list, and precision and recall of the lists show how
it misses. Figures are kept per half (dev, held-out) and per kind of question.

The split is a fixed rule on the question text (SHA-256, even -> dev, odd -> held-out), as bench/gold_sets.py
splits papers: tune on dev, read held-out only to report.
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass
from pathlib import Path

from bench.gold_sets import DEV, HELD_OUT

QUESTIONS = Path(__file__).with_name("cross_paper_questions.tsv")


@dataclass(frozen=True)
class CrossQuestion:
    kind: str  # dataset | task | method | metric
    question: str
    papers: frozenset[str]  # corpus file stems judged positive; empty when none is
    added: str = ""  # the batch the question came in (the date it was added)


def split_of(question: str) -> str:
    return DEV if int(hashlib.sha256(question.encode()).hexdigest(), 16) % 2 == 0 else HELD_OUT


def cross_questions(path: Path = QUESTIONS) -> list[CrossQuestion]:
    """The questions of a TSV laid out as bench/cross_paper_questions.tsv ('#' lines are comments, the first
    other row names the columns, "-" is an empty list)."""
    with path.open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.reader(handle, delimiter="\t") if r and not r[0].startswith("#")]
    added = rows[0].index("added") if rows and "added" in rows[0] else None
    return [CrossQuestion(r[0].strip(), r[1].strip(), frozenset(s for s in r[2].split() if s != "-"),
                          r[added].strip() if added is not None and added < len(r) else "")
            for r in rows[1:]]


@dataclass(frozen=True)
class Scored:
    kind: str
    split: str
    question: str
    expected: list[str]
    answered: list[str]
    exact: bool
    precision: float  # 1.0 for an empty answer list
    recall: float  # 1.0 when nothing is expected
    added: str = ""


def score(item: CrossQuestion, answered: list[str]) -> Scored:
    got = set(answered)
    hits = len(got & item.papers)
    return Scored(item.kind, split_of(item.question), item.question, sorted(item.papers), sorted(got),
                  got == item.papers, hits / len(got) if got else 1.0,
                  hits / len(item.papers) if item.papers else 1.0, item.added)


def summary(rows: list[Scored]) -> dict:
    """Exact-list accuracy and mean precision and recall of `rows`."""
    n = len(rows)
    if not n:
        return {"questions": 0}
    return {"questions": n, "exact_lists": round(sum(r.exact for r in rows) / n, 4),
            "precision": round(sum(r.precision for r in rows) / n, 4),
            "recall": round(sum(r.recall for r in rows) / n, 4)}


def report(rows: list[Scored]) -> dict[str, dict]:
    """The summary of all rows, of each half and of each kind within each half, and of each batch of questions
    and its halves (a batch added later shows how the rules do on names they were not developed on)."""
    out = {"all": summary(rows)}
    for half in (DEV, HELD_OUT):
        in_half = [r for r in rows if r.split == half]
        out[half] = summary(in_half)
        for kind in sorted({r.kind for r in rows}):
            out[f"{half} / {kind}"] = summary([r for r in in_half if r.kind == kind])
    for added in sorted({r.added for r in rows if r.added}):
        batch = [r for r in rows if r.added == added]
        out[f"added {added}"] = summary(batch)
        for half in (DEV, HELD_OUT):
            out[f"added {added} {half}"] = summary([r for r in batch if r.split == half])
    return out

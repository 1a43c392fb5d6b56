"""Scoring of the duplicate detector against hand judgements: precision of its best candidates (each judged by a
person in bench/duplicates_judged.tsv) and how many of the known duplicate pairs of the corpus it proposes
(bench/duplicates_known.tsv, found by reading the graph's entity names, not the detector's output)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from extractors.semantic.canonical import match_key

HERE = Path(__file__).resolve().parent
JUDGED = HERE / "duplicates_judged.tsv"
KNOWN = HERE / "duplicates_known.tsv"
TOP = 50

Pair = tuple[str, frozenset[str]]  # label, match keys of the two names


def pair(label: str, a: str, b: str) -> Pair:
    return label, frozenset((match_key(a), match_key(b)))


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def judgements(path: Path = JUDGED) -> dict[Pair, bool]:
    out = {}
    for row in _rows(path):
        if row[3] not in ("yes", "no"):
            raise ValueError(f"{path}: judgement {row[3]!r} of {row[:3]} is not yes or no")
        out[pair(*row[:3])] = row[3] == "yes"
    return out


def known_pairs(path: Path = KNOWN) -> list[Pair]:
    return [pair(*row[:3]) for row in _rows(path)]


@dataclass(frozen=True)
class Score:
    candidates: int
    top: int  # candidates scored: the best TOP, or all if fewer
    correct: int
    wrong: int
    unjudged: int  # counted as wrong
    known: int
    known_found: int
    missed: list[str]

    @property
    def precision(self) -> float:
        return self.correct / self.top if self.top else 0.0

    @property
    def known_recall(self) -> float:
        return self.known_found / self.known if self.known else 0.0


def score(proposed: list[tuple[str, str, str]], judged: dict[Pair, bool], known: list[Pair], top: int = TOP) -> Score:
    """`proposed`: (label, name, name) best first, as the curation queue lists them."""
    pairs = [pair(*p) for p in proposed]
    best = pairs[:top]
    verdicts = [judged.get(p) for p in best]
    found = set(pairs)
    missed = [f"{label}: {' / '.join(sorted(keys))}" for label, keys in known if (label, keys) not in found]
    return Score(len(pairs), len(best), sum(v is True for v in verdicts), sum(v is False for v in verdicts),
                 sum(v is None for v in verdicts), len(known), len(known) - len(missed), missed)

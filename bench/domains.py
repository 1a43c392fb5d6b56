"""Scoring of the domain tagger against the corpus MANIFEST's domain notes (`notes`: `domain=NLP/IE; ...`).

The notes name fields in the corpus's own words; MANIFEST_DOMAINS maps each note to one domain id of the shipped
seeds (extractors/data/domains.yaml), fixed before any figure was measured and never tuned: the note's first
part decides (NLP -> nlp, biomed -> biomedicine, physics -> physics, ML and CV -> cs_ml, HCI -> cs_ml), except
under CS, where the subfield does (systems, databases, networking, scheduling, software engineering, programming
languages and security -> systems, the areas CSRankings files under "Systems"; algorithms, theory, web and IR ->
cs_ml). A note outside the table (e.g. "technical report", "earth science") is not scored. A note may end with a
parenthesised venue ("CS/systems (OSDI 2006)"), which is not part of the field.

The gold papers are few (22, split into dev and held-out halves of about ten each), so one paper moves a half's
figure by about ten points; every corpus paper has a domain note, so the corpus papers outside the gold are a
second, larger check that the tagger was never tuned on (CORPUS_GROUPS).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bench.gold_sets import row_notes

# note (or its first part) -> domain id
MANIFEST_DOMAINS = {
    "NLP": "nlp",
    "biomed": "biomedicine",
    "biomed text mining": "biomedicine",
    "physics": "physics",
    "ML": "cs_ml",
    "CV": "cs_ml",
    "HCI": "cs_ml",
    "CS/algorithms": "cs_ml",
    "CS/theory": "cs_ml",
    "CS/web": "cs_ml",
    "CS/IR": "cs_ml",
    "CS/information retrieval": "cs_ml",
    "CS/databases": "systems",
    "CS/multimedia systems": "systems",
    "CS/networking": "systems",
    "CS/programming languages": "systems",
    "CS/security": "systems",
    "CS/systems": "systems",
    "CS/scheduling": "systems",
    "CS/software engineering": "systems",
}
_NOTE = re.compile(r"domain=(?P<value>[^;]+)")
_VENUE = re.compile(r"\s*\(.*$")  # from the first bracket on: a venue may hold brackets ('PVLDB 14(3)')
NOT_GOLD, WHOLE_CORPUS = "corpus (not gold)", "corpus (all)"


def expected_domain(note: str) -> str | None:
    """The domain id a MANIFEST domain note stands for: the whole note, its first two parts, or its first part
    in MANIFEST_DOMAINS; None for a note outside the table."""
    note = _VENUE.sub("", note)
    parts = [p.strip() for p in note.split("/")]
    for key in (note.strip(), "/".join(parts[:2]), parts[0]):
        if key in MANIFEST_DOMAINS:
            return MANIFEST_DOMAINS[key]
    return None


def manifest_notes(manifest: Path) -> dict[str, str]:
    """The domain note of each file stem of a MANIFEST.tsv that has one (bench.gold_sets.row_notes: the corpus's
    `notes` column or bench/unseen's `domain` column)."""
    with manifest.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {Path(r["file"]).stem: m["value"].strip() for r in rows if (m := _NOTE.search(row_notes(r)))}


@dataclass(frozen=True)
class Agreement:
    papers: int  # scored: a known expected domain and a predicted one
    agree: int

    @property
    def rate(self) -> float:
        return self.agree / self.papers if self.papers else 0.0


def agreement(predicted: Mapping[str, str | None], expected: Mapping[str, str | None]) -> Agreement:
    """How many papers' top domain is the expected one, over the papers with an expected domain (a paper the
    tagger gave no domain counts as a disagreement)."""
    scored = [stem for stem in predicted if expected.get(stem)]
    return Agreement(len(scored), sum(predicted[stem] == expected[stem] for stem in scored))


def corpus_groups(gold: Iterable[str], corpus: Iterable[str]) -> dict[str, list[str]]:
    """The corpus papers (file stems) outside the gold, and the whole corpus with the gold papers in it, each
    sorted: the groups scored beside the gold's own (bench/gold_sets.report_groups)."""
    every = sorted(set(corpus) | set(gold))
    gold = set(gold)
    return {NOT_GOLD: [stem for stem in every if stem not in gold], WHOLE_CORPUS: every}

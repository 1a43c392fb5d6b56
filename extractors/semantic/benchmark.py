"""Scoring of paper-level salient entities, as GOLD_SCHEMA.md "entities" says, and the SciREX reader.

A gold entity is found when any predicted name matches any of its surface forms (similarity >= 0.9 after
normalisation); a predicted name is correct when it matches some gold entity of that type; methods =
proposed + used. Pure functions; the CLI (cli/bench_entities.py) runs the extractor and prints.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from extractors.scoring import norm, similarity
from extractors.section_kinds import classify_title
from extractors.semantic.passages import FRONT, Passage

THRESHOLD = 0.9
TYPES = {"datasets": "Dataset", "methods": "Method", "metrics": "Metric", "tasks": "Task"}
_SCIREX_TYPES = {"Material": "datasets", "Method": "methods", "Metric": "metrics", "Task": "tasks"}


@dataclass
class EntityCounts:
    correct: int = 0  # predicted names that match a gold entity
    predicted: int = 0
    found: int = 0  # gold entities matched by some predicted name
    gold: int = 0

    def add(self, other: EntityCounts) -> None:
        self.correct += other.correct
        self.predicted += other.predicted
        self.found += other.found
        self.gold += other.gold

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def matches(name: str, forms: list[str]) -> bool:
    return any(name == f or similarity(name, f) >= THRESHOLD for f in forms)


def score_type(gold: list[list[str]], predicted: list[str]) -> EntityCounts:
    forms = [[norm(f) for f in entity] for entity in gold]
    names = [norm(p) for p in dict.fromkeys(predicted)]
    return EntityCounts(correct=sum(any(matches(n, fs) for fs in forms) for n in names), predicted=len(names),
                        found=sum(any(matches(n, fs) for n in names) for fs in forms), gold=len(forms))


def gold_entities(gold: dict) -> dict[str, list[list[str]]]:
    """The gold file's entities by benchmark type (methods = proposed + used)."""
    e = gold.get("entities", {})
    return {"datasets": e.get("datasets", []), "metrics": e.get("metrics", []), "tasks": e.get("tasks", []),
            "methods": e.get("methods_proposed", []) + e.get("methods_used", [])}


def score_paper(gold: dict[str, list[list[str]]], predicted: dict[str, list[str]]) -> dict[str, EntityCounts]:
    return {kind: score_type(gold.get(kind, []), predicted.get(kind, [])) for kind in TYPES}


def total(papers: list[dict[str, EntityCounts]]) -> dict[str, EntityCounts]:
    out = {kind: EntityCounts() for kind in TYPES}
    for paper in papers:
        for kind, counts in paper.items():
            out[kind].add(counts)
    return out


# ---------------------------------------------------------------- SciREX (document-level salient entities)

_DETOKENIZE = ((re.compile(r" ([,.;:?!%)\]])"), r"\1"), (re.compile(r"([(\[]) "), r"\1"), (re.compile(r" - "), "-"),
               (re.compile(r" ' s\b"), "'s"), (re.compile(r" / "), "/"))


def detokenize(words: list[str]) -> str:
    text = " ".join(words)
    for pattern, repl in _DETOKENIZE:
        text = pattern.sub(repl, text)
    return text


def scirex_passages(doc: dict) -> list[Passage]:
    """One passage per SciREX section, the first being the title, and one per section heading (the section's
    first sentence, 'section : Experiments'), as document_passages gives a PDF's; a section's kind comes from
    its heading by the structure extractor's own heading classifier."""
    words = doc["words"]
    first_sentence = {start: end for start, end in doc["sentences"]}
    out, headings = [], []
    for n, (start, end) in enumerate(doc["sections"]):
        text = detokenize(words[start:end])
        split = first_sentence.get(start, end)
        if n == 0:  # 'document : Title' then the abstract
            out.append(Passage(detokenize(words[start:split]).removeprefix("document:").strip(), FRONT, kind="title"))
            if split < end:
                out.append(Passage(detokenize(words[split:end]), FRONT))
            continue
        heading = text.removeprefix("section:").strip()
        found = classify_title(" ".join(heading.split()[:4])) or classify_title(" ".join(heading.split()[:2]))
        kind = found[0] if found else "Other"
        if text.startswith("section:") and split < end:
            title = detokenize(words[start:split]).removeprefix("section:").strip()
            headings.append(Passage(title, kind, kind="heading"))
            text = detokenize(words[split:end])
        out.append(Passage(text, kind))
    return out + headings


def scirex_gold(doc: dict) -> dict[str, list[list[str]]]:
    """Salient entities (the coref clusters of n-ary relations) by type, each with its name and the
    surface forms of its mentions."""
    kinds: dict[str, str] = {}
    for relation in doc["n_ary_relations"]:
        for role, kind in _SCIREX_TYPES.items():
            if relation.get(role):
                kinds[relation[role]] = kind
    out: dict[str, list[list[str]]] = {kind: [] for kind in TYPES}
    for name, kind in sorted(kinds.items()):
        spans = doc["coref"].get(name, [])
        forms = [name.replace("_", " ").strip()] + sorted({detokenize(doc["words"][s:e]) for s, e in spans})
        out[kind].append(forms)
    return out


SCIREX_TRAIN, SCIREX_HELD_OUT = "train", "held-out"


def scirex_split(doc_id: str) -> str:
    """SciREX documents split 80/20 by a fixed rule on their id (SHA-256 mod 5 == 0: held-out), chosen once, so
    that a learned part trains and is tuned on the 80 and the 20 are only ever read to report."""
    return SCIREX_HELD_OUT if int(hashlib.sha256(doc_id.encode()).hexdigest(), 16) % 5 == 0 else SCIREX_TRAIN


def load_scirex(directory: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(directory.glob("*.json"))]

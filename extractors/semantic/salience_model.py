"""Which candidate entities a paper's results are about: a logistic model per entity type, trained on SciREX's
salient entities (those in the document's n-ary results) against its other candidates (`kg train salience`).
Its probability is the `salience` of the paper's edge to the entity, and `central` says it reaches the type's
threshold (chosen on cross-validated predictions), so the graph can tell the few entities a paper is about from
the many it uses.

The rules (salience.py) still find the candidates, type them and give the evidence score of their pattern
families; the model weighs that evidence with document features a rule cannot balance by hand: how often and
how widely the paper mentions the name, whether the title, abstract, headings, experiment sections, tables or
captions name it, how early it appears, whether the paper defines it as an abbreviation, whether numbers stand
near it, how it ranks among the paper's other candidates of its type, and whether its name is part of another's
or holds another's (a method family and the paper's variant of it, a task and its sub-task). Pure functions; the
trained weights are data (extractors/data/salience.json).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from extractors.semantic import lexicons
from extractors.semantic.abbreviations import Abbreviation
from extractors.semantic.canonical import match_key
from extractors.semantic.passages import FRONT, Passage
from extractors.semantic.patterns import DATASET, METHOD, METRIC, TASK, strong_name
from extractors.semantic.salience import Entity

MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "salience.json"
_NUMBER = re.compile(r"\d+\.\d+|\d+ ?%")
_NEAR = 80  # characters either side of a mention in which a number counts as 'stated with it'
# a measure named as a criterion that something must meet ('IoU above 0.7', 'at least 50% IoU', 'an IoU threshold
# of 0.3') selects or counts what is scored; it is not what the results are scored by. An '@' names a measure's
# variant ('mAP@0.5', 'Hits@10'), not a criterion.
_CRITERION = re.compile(r"\bthresholds?\b|\babove\b|\bbelow\b|\bat (?:least|most)\b|"
                        r"\b(?:greater|larger|higher|lower|less|smaller) than\b|[<>≥≤]")
_BEFORE, _AFTER = 16, 12  # characters before and after a mention in which a criterion's words count
_EXPERIMENT_KINDS = ("Experiment", "Result")
_RELATED_KINDS = ("RelatedWork", "Background")


@dataclass(frozen=True)
class Peers:
    """What an entity is compared with: the paper's candidates of its type."""

    count: int
    most_mentions: int
    rank: dict[int, int]  # id() of each candidate -> its place by evidence score (0: the best)
    keys: frozenset[str]  # the candidates' match keys

    @classmethod
    def of(cls, same_type: list[Entity]) -> Peers:
        ordered = sorted(same_type, key=lambda e: (-e.score, e.name))
        return cls(len(same_type), max((len(e.mentions) for e in same_type), default=1),
                   {id(e): n for n, e in enumerate(ordered)}, frozenset(match_key(e.name) for e in same_type))

    def nesting(self, name: str) -> tuple[bool, bool]:
        """Whether another candidate's name holds this one ('R-CNN' in 'Cascade R-CNN': the family the paper's own
        variant belongs to) and whether this one holds another's ('BigGAN-deep' holds 'BigGAN'), spelling aside."""
        key = match_key(name)
        others = [k for k in self.keys if k and k != key]
        holds = lambda outer, inner: outer.startswith(inner) or outer.endswith(inner)  # 'ner' is not in 'generation'
        return (bool(key) and any(holds(k, key) for k in others), bool(key) and any(holds(key, k) for k in others))


def defined_keys(pairs: list[Abbreviation]) -> set[str]:
    """The match keys of the short and long forms the paper defines, once per paper."""
    return {match_key(form) for p in pairs for form in (p.short, p.long)}


def features(entity: Entity, peers: Peers, passages: list[Passage], defined: Collection[str],
             families: tuple[str, ...]) -> dict[str, float]:
    """The entity's features; `peers`: the paper's candidates of its type (it among them), `defined`: the paper's
    defined_keys(), `families`: the pattern families the model was trained with (one feature each, the family's
    strongest cue)."""
    mentions = entity.mentions
    kinds = [passages[m.passage].kind for m in mentions]
    sections = [passages[m.passage].section_kind for m in mentions]
    first = min((m.passage for m in mentions if passages[m.passage].kind == "text"), default=len(passages))
    keys = {match_key(s) for s in (entity.name, *entity.aliases)}
    stated = sum(bool(_NUMBER.search(passages[m.passage].text[max(0, m.start - _NEAR):m.end + _NEAR]))
                 for m in mentions)
    criteria = sum(as_criterion(passages[m.passage].text, m.start, m.end) for m in mentions) \
        if entity.label == METRIC else 0
    part_of_other, holds_other = peers.nesting(entity.name)
    return {
        **{f"family:{f}": entity.families.get(f, 0.0) for f in families},
        "evidence_score": entity.score,
        "weak_alone": float(entity.weak_alone),
        "log_mentions": math.log1p(len(mentions)),
        "section_kinds": len(set(sections)) / 5,
        "in_title": float("title" in kinds),
        "in_heading": float("heading" in kinds),
        "in_abstract": float(any(k == "text" and s == FRONT for k, s in zip(kinds, sections))),
        "log_experiment": math.log1p(sum(s in _EXPERIMENT_KINDS for s in sections)),
        "log_method": math.log1p(sum(s == "Method" for s in sections)),
        "log_introduction": math.log1p(sum(s == "Introduction" for s in sections)),
        "related_work_only": float(all(s in _RELATED_KINDS for s in sections)),
        "in_table": float(any(k in ("cells", "table") for k in kinds)),
        "in_caption": float(any(k in ("table", "figure") for k in kinds)),
        "first_place": first / max(len(passages), 1),
        "abbreviation": float(any(key in defined for key in keys)),
        "proposed": float(entity.proposed),
        "words": min(len(entity.name.split()), 6) / 6,
        "strong_name": float(strong_name(entity.name)),
        "capitals": float(entity.name.isupper() and len(entity.name) > 1),
        "share_of_most_mentioned": len(mentions) / max(peers.most_mentions, 1),
        "inverse_rank": 1 / (1 + peers.rank[id(entity)]),
        "log_with_numbers": math.log1p(stated),
        "log_candidates": math.log1p(peers.count),
        "part_of_other": float(part_of_other),
        "holds_other": float(holds_other),
        "as_criterion": criteria / max(len(mentions), 1),
        "cost_measure": float(entity.label == METRIC and cost_measure(entity.canonical or entity.name)),
    }


def as_criterion(text: str, start: int, end: int) -> bool:
    """Whether the mention at text[start:end] names a criterion: words of comparison right before it ('at least 50%
    IoU') or right after it ('IoU above 0.7', 'IoU threshold'), within its sentence; a measure further off ('AP at
    an IoU threshold') is not the one compared."""
    before = text[max(0, start - _BEFORE):start].rsplit(". ", 1)[-1]
    after = text[end:end + _AFTER].split(". ", 1)[0]
    return bool(_CRITERION.search(before) or _CRITERION.search(after))


def cost_measure(name: str) -> bool:
    """Whether a metric measures what a method costs (time, memory, speed) rather than how well it does: a paper
    reports its costs beside the quality its results are about."""
    words = name.lower().split()
    heads = lexicons.terms().cost_heads
    return bool(words) and (words[-1] in heads or words[-1].rsplit("-", 1)[-1] in heads)  # 'speed-up', 'run-time'


@dataclass(frozen=True)
class TypeModel:
    """A logistic regression over standardised features, and the probability from which an entity is salient."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, values: list[float]) -> float:
        z = self.bias + sum(w * (v - m) / s for w, v, m, s in zip(self.weights, values, self.mean, self.scale))
        return 1 / (1 + math.exp(-max(min(z, 50.0), -50.0)))


@dataclass(frozen=True)
class SalienceModel:
    families: tuple[str, ...]
    names: tuple[str, ...]  # feature names, in the order of each TypeModel's columns
    types: dict[str, TypeModel]  # entity label -> its model
    meta: dict  # how it was trained and what it scored (written by `kg train salience`)

    def to_json(self) -> str:
        return json.dumps({"families": self.families, "features": self.names, "meta": self.meta,
                           "types": {label: vars(m) for label, m in self.types.items()}}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> SalienceModel:
        data = json.loads(text)
        return cls(tuple(data["families"]), tuple(data["features"]),
                   {label: TypeModel(tuple(m["mean"]), tuple(m["scale"]), tuple(m["weights"]), m["bias"], m["threshold"])
                    for label, m in data["types"].items()}, data["meta"])

    def judge(self, ranked: list[Entity], passages: list[Passage], pairs: list[Abbreviation]) -> list[Entity]:
        """The candidates, in their order, each with its salience probability and whether it is central."""
        peers = {label: Peers.of([e for e in ranked if e.label == label]) for label in {e.label for e in ranked}}
        defined = defined_keys(pairs)
        out = []
        for e in ranked:
            model = self.types[e.label]
            values = features(e, peers[e.label], passages, defined, self.families)
            p = round(model.probability([values[n] for n in self.names]), 4)  # what is stored is what is compared
            out.append(replace(e, salience=p, central=p >= model.threshold))
        return out


@cache
def load(path: Path = MODEL_PATH) -> SalienceModel:
    model = SalienceModel.from_json(path.read_text())
    if missing := {DATASET, METHOD, METRIC, TASK} - set(model.types):
        raise ValueError(f"the salience model {path} has no model for {', '.join(sorted(missing))}: "
                         "run `kg train salience`")
    return model

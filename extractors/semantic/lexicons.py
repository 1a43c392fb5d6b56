"""The word lists of extractors/data/lexicons as typed lookups: curated ones, and learned_heads.yaml, which
`kg train heads` learns from training data (learned_heads.py). Lexicons type and support candidates; they never
make an entity on their own (see salience)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

from extractors.semantic.canonical import match_key, normalize


@dataclass(frozen=True)
class Lexicon:
    """canonical name by match key, for every canonical name and alias."""

    names: dict[str, str]
    initialisms: frozenset[str] = frozenset()  # match keys the lexicon writes in capitals only ('LAS', 'UAS')

    def lookup(self, surface: str) -> str | None:
        return self.names.get(match_key(surface))

    def lookup_as_written(self, surface: str) -> str | None:
        """lookup, except that a name the lexicon writes in capitals only is not found in lower case, nor, when
        shorter than four letters, capitalised: 'Las' (of Las Vegas) is no LAS, 'Rouge-L' is ROUGE-L."""
        key = match_key(surface)
        head = re.match(r"[A-Za-z]+", surface)
        as_word = bool(head) and len(head[0]) >= 4 and head[0].istitle()
        if key in self.initialisms and surface != surface.upper() and not as_word:
            return None
        return self.names.get(key)


@dataclass(frozen=True)
class Terms:
    task_heads: frozenset[str]
    dataset_heads: frozenset[str]
    dataset_list_heads: frozenset[str]
    task_column_heads: frozenset[str]
    row_data_heads: frozenset[str]
    method_heads: frozenset[str]
    metric_heads: frozenset[str]
    stop_names: frozenset[str]
    phrase_stops: frozenset[str]
    task_non_openers: frozenset[str]
    non_task_gerunds: frozenset[str]
    objectless_task_heads: frozenset[str]
    cost_heads: frozenset[str]
    study_heads: frozenset[str]
    study_modifiers: frozenset[str]
    artefact_nouns: frozenset[str]
    unit_symbols: frozenset[str]


@lru_cache(maxsize=None)
def raw(name: str) -> dict:
    return yaml.safe_load(resources.files("extractors").joinpath(f"data/lexicons/{name}.yaml").read_text())


def _lexicon(data: dict[str, list[str]]) -> Lexicon:
    names: dict[str, str] = {}
    lower: set[str] = set()  # keys some surface of which is written with a lower-case letter
    for canonical, aliases in data.items():
        for surface in map(str, [canonical, *(aliases or [])]):
            key = match_key(surface)
            names.setdefault(key, str(canonical))
            if surface != surface.upper() or sum(map(str.isalpha, surface)) < 2:
                lower.add(key)
    return Lexicon(names, frozenset(names) - lower)


def entries(name: str) -> dict[str, list[str]]:
    """A lexicon's canonical names and their aliases; metrics.yaml's 'statistics' section joins the metrics."""
    data = dict(raw(name))
    if name == "metrics":
        data |= data.pop("statistics")
    return data


@lru_cache(maxsize=1)
def metrics() -> Lexicon:
    return _lexicon(entries("metrics"))


@lru_cache(maxsize=1)
def evaluation_metrics() -> Lexicon:
    """The metrics without the statistical measures: what scores the methods a result table compares."""
    return _lexicon({k: v for k, v in raw("metrics").items() if k != "statistics"})


@lru_cache(maxsize=1)
def statistics() -> Lexicon:
    """The standard statistical measures of metrics.yaml's 'statistics' section (p-value, confidence interval,
    hazard ratio, ...): metrics that describe data and test hypotheses rather than score methods."""
    return _lexicon(raw("metrics")["statistics"])


@lru_cache(maxsize=1)
def datasets() -> Lexicon:
    return _lexicon(raw("datasets"))


@lru_cache(maxsize=1)
def terms() -> Terms:
    data = raw("terms")
    return Terms(**{key: frozenset(str(v) for v in data[key]) for key in Terms.__dataclass_fields__})


@lru_cache(maxsize=1)
def metric_heads() -> frozenset[str]:
    """Words that end a metric's name: the curated ones and the learned ones, less the words that never end a
    name of any kind (phrase_stops: 'performance' heads metric mentions in training data, but 'in terms of
    performance' names no metric)."""
    learned = frozenset(str(w) for w in raw("learned_heads")["metric_heads"])
    return (terms().metric_heads | learned) - terms().phrase_stops


def _singular_key(text: str) -> str:
    """A match key with every word's plural dropped: 'principal components analysis' is the learned 'principal
    component analysis'."""
    return "".join(match_key(word) for word in normalize(text).split())


@lru_cache(maxsize=1)
def _method_phrases() -> frozenset[str]:
    t = terms()
    return frozenset(_singular_key(str(p)) for p in raw("learned_heads")["method_phrases"]
                     if not (str(p).split()[0] in t.study_modifiers and str(p).split()[-1] in t.study_heads))


def is_method_phrase(text: str) -> bool:
    """Whether training data knows the phrase, ending in a task noun, as a method's name ('beam search'); a
    study the paper performs ('statistical analysis', 'error analysis': a study modifier before a study noun),
    which is neither a method nor a task, is not among them."""
    return _singular_key(text) in _method_phrases()


def known_aliases(label: str, canonical: str) -> list[str]:
    """The lexicon's other names of an entity (none for entities no lexicon knows)."""
    lexicon = datasets() if label == "Dataset" else metrics() if label == "Metric" else None
    if lexicon is None or lexicon.lookup(canonical) != canonical:
        return []
    return sorted({s for s in entries("datasets" if label == "Dataset" else "metrics").get(canonical) or []})

"""Duplicate entities across the whole graph: pairs of one label that may name the same thing, each with a
score and the reasons for it, for curators to merge or reject (SAME_AS candidates). Nothing is merged here.

Ingest-time resolution (kg/entities.py) only catches near spellings of one paper's names against the graph.
What it misses, and this finds, are an abbreviation and its expansion held by two nodes ("S2ORC" and "Semantic
Scholar Open Research Corpus"), names that differ by words or spelling beyond its cut-off, and names whose
embeddings are close. Three kinds of evidence:

- abbreviation: the papers' text defines one name as the short form of the other (the Schwartz-Hearst pairs of
  extractors/semantic/abbreviations.py, given by the caller), or the short name spells the initials of the long
  one ("SVM", "Support Vector Machine"; a digit repeats the letter before it, "S2ORC");
- spelling: rapidfuzz token-set similarity of the normalised names, held back by the plain similarity of their
  match keys so that a name inside a longer one ("neural network", "recurrent neural network") is not enough;
- meaning: cosine of the names' embeddings (the caller's embedder), which supports, never alone decides.

Comparing every pair is quadratic in the entities of a label, so pairs are only formed inside blocks: names
sharing a word, a word's first letters, an initials key, or a text-defined abbreviation. A block larger than
_MAX_BLOCK (a word most names share) forms no pairs: it would be quadratic again and says little.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from rapidfuzz import fuzz

from extractors.semantic.canonical import match_key, normalize

EXTRACTOR = "duplicates"
VERSION = "1"

_MAX_BLOCK = 60
_PREFIX = 5  # letters of a word that block spelling variants ("tokenization", "tokenisation")
_STOP = frozenset("a an and as at by for from in into of on or the to via with".split())
_ACRONYM = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Za-z][A-Za-z0-9\-]{1,11}$")
_DIGITS = re.compile(r"\d+")

# Scores: an abbreviation the text defines is nearly certain; initials alone can be a coincidence; a spelling or
# meaning match is only proposed when both agree well enough (see _similarity).
DEFINED = 0.95
INITIALS = 0.85
MIN_SCORE = 0.8
_MIN_RATIO = 0.8  # plain similarity of the match keys below which a token-set match is containment, not spelling
_MIN_COSINE = 0.8


@dataclass(frozen=True)
class Named:
    """An entity of the graph as the detector sees it."""

    label: str
    id: str
    name: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n in (self.name, *self.aliases) if n)


@dataclass(frozen=True)
class Definition:
    """A short form the text defines ("Semantic Scholar Open Research Corpus (S2ORC)"), and where."""

    short: str
    long: str
    chunk_id: str | None = None


@dataclass(frozen=True)
class Candidate:
    label: str
    source: str  # the smaller id of the pair, so that a pair has one spelling
    target: str
    score: float
    reasons: tuple[str, ...]  # human-readable, strongest first
    chunk_ids: tuple[str, ...] = ()  # passages that define one name as the abbreviation of the other


Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]


def propose(entities: Iterable[Named], definitions: Iterable[Definition] = (), embed: Embed | None = None,
            *, min_score: float = MIN_SCORE) -> list[Candidate]:
    """Candidate pairs of one label, best first (score, then ids), each pair once."""
    by_label: dict[str, list[Named]] = defaultdict(list)
    for entity in entities:
        if entity.names:
            by_label[entity.label].append(entity)
    defined = _defined(definitions)
    out: list[Candidate] = []
    for label, members in sorted(by_label.items()):
        members.sort(key=lambda e: e.id)
        vectors = _vectors(members, embed)
        for i, j in sorted(_blocked_pairs(members, defined)):
            candidate = _judge(label, members[i], members[j], defined,
                               float(vectors[i] @ vectors[j]) if vectors is not None else None)
            if candidate is not None and candidate.score >= min_score:
                out.append(candidate)
    return sorted(out, key=lambda c: (-c.score, c.label, c.source, c.target))


def initials(name: str, *, keep_stop: bool = False) -> str:
    """First letters of the words of a multi-word name ('' for one word); hyphens and slashes split words too."""
    words = normalize(name).split()
    if not keep_stop:
        words = [w for w in words if w not in _STOP]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def acronym_letters(name: str) -> str:
    """The letters an acronym-like name stands for ('' if the name does not look like one): lower case,
    hyphens dropped, a digit repeating the letter before it ('S2ORC' -> 'ssorc')."""
    if not _ACRONYM.match(name.strip()):
        return ""
    text = name.strip().replace("-", "").lower()
    return _DIGITS.sub(lambda m: text[m.start() - 1] * (int(m.group()) - 1) if m.start() and int(m.group()) <= 4
                       else m.group(), text)


def _defined(definitions: Iterable[Definition]) -> dict[frozenset[str], list[str]]:
    """{match keys of a short and a long form: the passages defining it}."""
    out: dict[frozenset[str], list[str]] = defaultdict(list)
    for d in definitions:
        key = frozenset((match_key(d.short), match_key(d.long)))
        if len(key) == 2:
            out[key] += [d.chunk_id] if d.chunk_id and d.chunk_id not in out[key] else []
    return out


def _vectors(members: list[Named], embed: Embed | None) -> np.ndarray | None:
    if embed is None:
        return None
    vectors = np.asarray(embed([e.name for e in members]), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def _blocking_keys(entity: Named) -> set[str]:
    keys: set[str] = set()
    for name in entity.names:
        words = [w for w in normalize(name).split() if w not in _STOP]
        keys.update(f"w:{w}" for w in words if len(w) >= 3)
        keys.update(f"p:{w[:_PREFIX]}" for w in words if len(w) > _PREFIX)
        keys.update(f"i:{k}" for k in (initials(name), initials(name, keep_stop=True), acronym_letters(name)) if k)
    return keys


def _blocked_pairs(members: list[Named], defined: dict[frozenset[str], list[str]]) -> set[tuple[int, int]]:
    blocks: dict[str, list[int]] = defaultdict(list)
    for index, entity in enumerate(members):
        for key in _blocking_keys(entity):
            blocks[key].append(index)
        for name in entity.names:
            blocks[f"k:{match_key(name)}"].append(index)
    pairs = {(i, j) for block in blocks.values() if 1 < len(block) <= _MAX_BLOCK for i, j in combinations(block, 2)}
    for short_long in defined:  # a defined pair blocks its two names whatever their size of block
        a, b = tuple(short_long)
        pairs.update((min(i, j), max(i, j)) for i in blocks.get(f"k:{a}", ()) for j in blocks.get(f"k:{b}", ())
                     if i != j)
    return pairs


def _judge(label: str, a: Named, b: Named, defined: dict[frozenset[str], list[str]],
           cosine: float | None) -> Candidate | None:
    source, target = (a, b) if a.id < b.id else (b, a)
    reasons: list[tuple[float, str]] = []
    chunks: list[str] = []
    for x in source.names:
        for y in target.names:
            passages = defined.get(frozenset((match_key(x), match_key(y))))
            if passages is not None:
                short, long = (x, y) if len(match_key(x)) < len(match_key(y)) else (y, x)
                reasons.append((DEFINED, f"abbreviation: the text defines {short!r} as {long!r}"))
                chunks += passages
            if _initials_match(x, y) or _initials_match(y, x):
                short, long = (x, y) if _initials_match(x, y) else (y, x)
                reasons.append((INITIALS, f"abbreviation: {short!r} spells the initials of {long!r}"))
    similarity = _similarity(source, target, cosine)
    if similarity is not None:
        reasons.append(similarity)
    if cosine is not None and reasons:
        reasons.append((0.0, f"embedding cosine {cosine:.2f}"))
    if not reasons or max(r[0] for r in reasons) == 0.0:
        return None
    reasons.sort(key=lambda r: -r[0])
    texts = tuple(dict.fromkeys(r[1] for r in reasons))
    return Candidate(label, source.id, target.id, round(reasons[0][0], 3), texts, tuple(dict.fromkeys(chunks)))


def _initials_match(short: str, long: str) -> bool:
    letters = acronym_letters(short)
    return bool(letters) and letters in {initials(long), initials(long, keep_stop=True)}


def _similarity(a: Named, b: Named, cosine: float | None) -> tuple[float, str] | None:
    """(score, reason) of the closest pair of names by spelling, or None. Names with different numbers
    ('ResNet-50', 'ResNet-101') are different things however close they look."""
    best: tuple[float, str] | None = None
    for x in a.names:
        for y in b.names:
            kx, ky = match_key(x), match_key(y)
            if kx == ky or _DIGITS.findall(kx) != _DIGITS.findall(ky) or min(len(kx), len(ky)) < 4:
                continue
            token_set = fuzz.token_set_ratio(normalize(x), normalize(y)) / 100
            ratio = fuzz.ratio(kx, ky) / 100
            if ratio < _MIN_RATIO:
                continue
            parts = [token_set, ratio] + ([cosine] if cosine is not None else [])
            if cosine is not None and cosine < _MIN_COSINE:
                continue
            score = sum(parts) / len(parts)
            if best is None or score > best[0]:
                best = (score, f"spelling: {x!r} and {y!r} (token-set {token_set:.2f}, match keys {ratio:.2f})")
    return best

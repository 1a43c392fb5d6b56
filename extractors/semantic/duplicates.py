"""Duplicate entities across the whole graph: pairs of one label that may name the same thing, each with a
score and the reasons for it, for curators to merge or reject (SAME_AS candidates). Nothing is merged here.

Ingest-time resolution (kg/ingest/entities.py) only catches near spellings of one paper's names against the graph.
What it misses, and this finds, are an abbreviation and its expansion held by two nodes ("S2ORC" and "Semantic
Scholar Open Research Corpus"), names that differ by words or spelling beyond its cut-off, and names whose
embeddings are close. Three kinds of evidence:

- abbreviation: the papers' text defines one name as the short form of the other (the Schwartz-Hearst pairs of
  extractors/semantic/abbreviations.py, given by the caller), a name prints the other in parentheses ("Advogato
  (AD)"), or the short name spells the initials of the long one ("SVM", "Support Vector Machine"; a digit repeats
  the letter before it, "S2ORC") or of some of its words ("English POS tagging");
- the same name: two nodes that share a name or an alias (by match key);
- spelling: rapidfuzz token-set similarity of the normalised names, when the words they do not share pair up as
  near spellings of each other ("tokenization", "tokenisation"). A name inside a longer one ("dependency parsing",
  "labeled dependency parsing") is a narrower thing, not a spelling, and so is a negated word ("labeled",
  "unlabeled");
- meaning: cosine of the names' embeddings (the caller's embedder), averaged into a spelling match's score, so a
  respelling whose meaning the embedder finds far drops below MIN_SCORE; never a reason alone.

Comparing every pair is quadratic in the entities of a label, so pairs are only formed inside blocks: names
sharing a word, a word's first or last letters, an initials key, a form printed in parentheses, or a
text-defined abbreviation. A block larger than
_MAX_BLOCK (a word most names share) forms no pairs: it would be quadratic again and says little.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from extractors.semantic.canonical import match_key, normalize

EXTRACTOR = "duplicates"
VERSION = "1"

_MAX_BLOCK = 60
_PREFIX = 5  # first letters of a word that block spelling variants ("tokenization", "tokenisation")
_SUFFIX = 4  # last letters of a word that block them too ("Im2Seq", "Img2seq")
_STOP = frozenset("a an and as at by for from in into of on or the to via with".split())
_ACRONYM = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Za-z][A-Za-z0-9\-]{1,11}$")
_DIGITS = re.compile(r"\d+")

# Scores: one name is nearly certain, and so is an abbreviation the text defines; initials alone can be a
# coincidence; a spelling match is only proposed when spelling and meaning agree well enough (see _similarity).
SAME_NAME = 0.99
DEFINED = 0.95
INITIALS = 0.85
MIN_SCORE = 0.8
_MIN_RATIO = 0.8  # plain similarity of the match keys below which two names are more than respelled
_LETTERS_PER_EDIT = 8  # a word differing from another by one edit (or a swap) per this many letters is a respelling
_STEM = 5  # letters two words of names that share another word must begin with alike to be forms of one word
_PARENTHESISED = re.compile(r"^(.+?)\s*\(([^()]+)\)$")  # "Advogato (AD)": a name with its short form in it
_MIN_INITIALS = 3  # letters of an acronym matched by initials alone: two-letter ones match too much by chance
_NEGATIONS = ("un", "non", "in", "dis", "anti", "semi")


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


def parts(name: str) -> tuple[str, ...]:
    """The long and the short form of a name that prints both ("Advogato (AD)"), else nothing."""
    m = _PARENTHESISED.match(name.strip())
    return (m.group(1), m.group(2)) if m else ()


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


def propose(entities: Iterable[Named], definitions: Iterable[Definition] = (), embed: Embed | None = None
            ) -> list[Candidate]:
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
            if candidate is not None and candidate.score >= MIN_SCORE:
                out.append(candidate)
    return sorted(out, key=lambda c: (-c.score, c.label, c.source, c.target))


def initials(name: str, *, keep_stop: bool = False) -> str:
    """First letters of the words of a multi-word name ('' for one word); hyphens and slashes split words too
    (normalize() makes them spaces)."""
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
        keys.update(f"s:{w[-_SUFFIX:]}" for w in words if len(w) > _SUFFIX)
        keys.update(f"k:{match_key(p)}" for p in parts(name))
        keys.update(f"i:{k}" for k in (initials(name), initials(name, keep_stop=True), acronym_letters(name)) if k)
        keys.add(f"k:{match_key(name)}")
    return keys


def _blocked_pairs(members: list[Named], defined: dict[frozenset[str], list[str]]) -> set[tuple[int, int]]:
    blocks: dict[str, list[int]] = defaultdict(list)
    for index, entity in enumerate(members):
        for key in _blocking_keys(entity):
            blocks[key].append(index)
    pairs = {(i, j) for block in blocks.values() if 1 < len(block) <= _MAX_BLOCK for i, j in combinations(block, 2)}
    for short_long in defined:  # a defined pair blocks its two names whatever their size of block
        a, b = tuple(short_long)
        pairs.update((min(i, j), max(i, j)) for i in blocks.get(f"k:{a}", ()) for j in blocks.get(f"k:{b}", ())
                     if i != j)
    return pairs


def _judge(label: str, a: Named, b: Named, defined: dict[frozenset[str], list[str]],
           cosine: float | None) -> Candidate | None:
    source, target = (a, b) if a.id < b.id else (b, a)
    reasons: list[tuple[float, str, str]] = []  # (score, kind, words)
    chunks: list[str] = []
    for x in source.names:
        for y in target.names:
            if match_key(x) == match_key(y):
                reasons.append((SAME_NAME, "same", f"same name: {x!r} and {y!r}"))
            passages = defined.get(frozenset((match_key(x), match_key(y))))
            if passages is not None:
                short, long = (x, y) if len(match_key(x)) < len(match_key(y)) else (y, x)
                reasons.append((DEFINED, "defined", f"abbreviation: the text defines {short!r} as {long!r}"))
                chunks += passages
            if _initials_match(x, y) or _initials_match(y, x):
                short, long = (x, y) if _initials_match(x, y) else (y, x)
                reasons.append((INITIALS, "initials", f"abbreviation: {short!r} spells the initials of {long!r}"))
            elif _abbreviated_words(x, y) or _abbreviated_words(y, x):
                short, long = (x, y) if _abbreviated_words(x, y) else (y, x)
                reasons.append((INITIALS, "initials", f"abbreviation: {short!r} abbreviates words of {long!r}"))
            for whole, other in ((x, y), (y, x)):
                if match_key(other) in {match_key(p) for p in parts(whole)}:
                    reasons.append((DEFINED, "parenthesised",
                                    f"abbreviation: {whole!r} prints {other!r} as one of its forms"))
    similarity = _similarity(source, target, cosine)
    if similarity is not None:
        reasons.append(similarity)
    if cosine is not None and reasons:
        reasons.append((0.0, "cosine", f"embedding cosine {cosine:.2f}"))
    if not reasons or max(r[0] for r in reasons) == 0.0:
        return None
    reasons.sort(key=lambda r: -r[0])
    kinds: dict[str, str] = {}  # the first reason of each kind: one example says why
    for _, kind, text in reasons:
        kinds.setdefault(kind, text)
    texts = tuple(kinds.values())
    return Candidate(label, source.id, target.id, round(reasons[0][0], 3), texts, tuple(dict.fromkeys(chunks)))


def _initials_match(short: str, long: str) -> bool:
    letters = acronym_letters(short)
    return len(letters) >= _MIN_INITIALS and letters in {initials(long), initials(long, keep_stop=True)}


def _abbreviated_words(short: str, long: str) -> bool:
    """`short` is `long` with some of its words replaced by their acronym, printed in capitals: 'English POS
    tagging', 'English part-of-speech tagging'; 'Open IE', 'open information extraction'."""
    ws, wl = normalize(short).split(), normalize(long).split()
    head = next((i for i, (a, b) in enumerate(zip(ws, wl)) if a != b), min(len(ws), len(wl)))
    tail = next((i for i, (a, b) in enumerate(zip(ws[::-1], wl[::-1])) if a != b), min(len(ws), len(wl)))
    middle_s, middle_l = ws[head:len(ws) - tail], wl[head:len(wl) - tail]
    if len(middle_s) != 1 or len(middle_l) < 2 or head + tail == 0:
        return False
    acronym = middle_s[0]
    expansion = " ".join(middle_l)
    return (len(acronym) >= 2 and acronym in {initials(expansion), initials(expansion, keep_stop=True)}
            and re.search(rf"\b{re.escape(acronym.upper())}\b", short) is not None)


def _similarity(a: Named, b: Named, cosine: float | None) -> tuple[float, str, str] | None:
    """(score, reason) of the closest pair of names by spelling, or None. Names with different numbers
    ('ResNet-50', 'ResNet-101') are different things however close they look."""
    best: tuple[float, str, str] | None = None
    for x in a.names:
        for y in b.names:
            kx, ky = match_key(x), match_key(y)
            if kx == ky or _DIGITS.findall(kx) != _DIGITS.findall(ky) or min(len(kx), len(ky)) < 4:
                continue
            token_set = fuzz.token_set_ratio(normalize(x), normalize(y)) / 100
            ratio = fuzz.ratio(kx, ky) / 100
            if (ratio < _MIN_RATIO and not _same_words(x, y)) or not _respelled(x, y):
                continue
            scores = [token_set, ratio] + ([cosine] if cosine is not None else [])
            score = sum(scores) / len(scores)
            if best is None or score > best[0]:
                best = (score, "spelling",
                        f"spelling: {x!r} and {y!r} (token-set {token_set:.2f}, match keys {ratio:.2f})")
    return best


def _respelled(x: str, y: str) -> bool:
    """The words of one name not in the other pair up, in order, as respellings (an edit or a swap of two letters
    per _LETTERS_PER_EDIT letters: 'tokenization', 'tokenisation'), none a negation of the other: so neither name is
    the other plus words (a narrower thing), nor one word with letters added ('Malawi', 'Malawian'). Between names
    that share a word, two forms of one word count too ('phylogeny reconstruction', 'phylogenetic reconstruction')."""
    if _same_words(x, y):
        return True
    wx, wy = (normalize(n).split() for n in (x, y))
    only_x, only_y = [w for w in wx if w not in wy], [w for w in wy if w not in wx]
    if not only_x or len(only_x) != len(only_y):
        return False
    shared = len(only_x) < len(wx)
    return all((OSA.distance(a, b) <= max(1, min(len(a), len(b)) // _LETTERS_PER_EDIT) or shared and _one_stem(a, b))
               and not _negation(a, b) for a, b in zip(only_x, only_y))


def _same_words(x: str, y: str) -> bool:
    """The same words, repeated or reordered ('ELMo ELMo', 'ELMo')."""
    return set(normalize(x).split()) == set(normalize(y).split())


def _one_stem(a: str, b: str) -> bool:
    """Two forms of one word ('phylogeny', 'phylogenetic'; 'multi', 'multiple'): a long common beginning."""
    common = len(os.path.commonprefix([a, b]))
    return common >= _STEM and common >= 0.75 * min(len(a), len(b))


def _negation(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return any(long == prefix + short for prefix in _NEGATIONS)

"""From cues to paper-level entities: cluster names (match keys, abbreviations, lexicon aliases), type
them by the votes of the pattern families, count their mentions in the text, and keep the salient ones.

The evidence score is a noisy-or of the distinct families that found a name, raised by how often and where the
name is mentioned (title, abstract, experiment/result sections, tables); a lexicon hit or a tagger mention alone
never passes. A paper's entities are those whose evidence passes their type's threshold (the things it proposes
and uses, GOLD_SCHEMA.md's sense) and those the learned salience model (salience_model.py) finds central to the
results it reports (SciREX's sense).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from extractors.disjoint import DisjointSets
from extractors.semantic import lexicons
from extractors.semantic.abbreviations import Abbreviation
from extractors.semantic.canonical import match_key
from extractors.semantic.passages import FRONT, Passage
from extractors.semantic.patterns import DATASET, METHOD, METRIC, TASK, Cue, strong_name

PROPOSED_FAMILIES = ("proposed_we", "proposed_our", "proposed_title", "proposed_appositive")
# Families that decide nothing alone: a lexicon hit, or a mention the trained tagger found (a model of abstracts
# says a phrase names a thing of a kind, not that the paper is about it). Such a candidate is left to the salience
# model, which weighs it like any other.
WEAK_FAMILIES = {"metric_lexicon", "dataset_lexicon", "tagger"}
_WEAK_ALONE_MENTIONS = 3
_GENERIC = ("used", "cited", "method_head", "table_row")  # families that say 'a named thing', not which kind
THRESHOLDS = {DATASET: 0.5, METHOD: 0.55, METRIC: 0.5, TASK: 0.55}  # set on SciREX train docs and the gold set together
_SECTION_WEIGHT = {"Abstract": 1.0, "Introduction": 0.8, "Method": 0.9, "Experiment": 1.0, "Result": 1.0,
                   "Discussion": 0.6, "Conclusion": 0.7, "RelatedWork": 0.3, "Background": 0.5, "Appendix": 0.4}


@dataclass(frozen=True)
class Located:
    """A cue placed in a passage (start/end in the passage text)."""

    cue: Cue
    passage: int
    start: int
    end: int


@dataclass(frozen=True)
class MentionSpan:
    passage: int
    start: int
    end: int
    text: str


@dataclass
class Entity:
    label: str
    name: str  # as the paper writes it most often
    canonical: str  # the name the cross-paper id derives from (the lexicon's, when it knows the entity)
    aliases: list[str]
    score: float
    proposed: bool
    families: dict[str, float]  # family -> strongest cue
    mentions: list[MentionSpan] = field(default_factory=list)
    evidence: list[Located] = field(default_factory=list)  # cues of the chosen type, strongest first
    weak_alone: bool = False  # only weak families found it, and it is mentioned too seldom for the rules to keep it
    salience: float = 0.0  # the salience model's probability that the paper's results are about it (0: not run)
    central: bool = False  # the probability reaches the model's threshold for the type


class _Clusters:
    """Disjoint sets of match keys: the names that stand for one entity."""

    def __init__(self) -> None:
        self._sets = DisjointSets()
        self._ids: dict[str, int] = {}

    def _id(self, key: str) -> int:
        if key not in self._ids:
            self._ids[key] = self._sets.add()
        return self._ids[key]

    def find(self, key: str) -> int:
        return self._sets.find(self._id(key))

    def union(self, a: str, b: str) -> None:
        self._sets.join(self._id(a), self._id(b))


def abbreviation_cues(pairs: list[Abbreviation]) -> list[Located]:
    """A defined short form is a named thing; its long form's head noun says which kind."""
    t = lexicons.terms()
    out = []
    for pair in pairs:
        words = pair.long.lower().split()
        head = words[-1] if words else ""
        two = " ".join(words[-2:])
        kind = (METRIC if lexicons.metrics().lookup(pair.long) or lexicons.metrics().lookup(pair.short) else
                DATASET if head in t.dataset_heads or two in t.dataset_heads or lexicons.datasets().lookup(pair.short) else
                None if lexicons.is_method_phrase(pair.long) else
                METRIC if _metric_headed(pair.long) else
                TASK if head in t.task_heads else METHOD if head in t.method_heads else None)
        if kind:
            out.append(Located(Cue(kind, pair.long, 0, len(pair.long), "abbreviation", 0.55), pair.passage,
                               pair.start, pair.start + len(pair.long)))
    return out


def _typed(cue: Cue) -> Cue:
    """Generic 'named thing' cues take the kind a lexicon knows the name as."""
    if cue.family in _GENERIC or cue.type == METHOD and cue.family.startswith("dataset"):
        if lexicons.datasets().lookup(cue.name):
            return Cue(DATASET, cue.name, cue.start, cue.end, cue.family, cue.strength)
        if lexicons.metrics().lookup(cue.name):
            return Cue(METRIC, cue.name, cue.start, cue.end, cue.family, cue.strength)
    return cue


def method_named(cue: Cue) -> bool:
    """A task phrase that training data knows as a method's name ('beam search', 'logistic regression',
    'principal component analysis') is no task. Nor is it made a method: the papers that mention such a method
    seldom have it among their salient ones (SciREX's training documents: it lowered method F1 there)."""
    return cue.type == TASK and lexicons.is_method_phrase(cue.name)


def _is_word_char(text: str, i: int) -> bool:
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] in "_-")


def find_mentions(surfaces: set[str], passages: list[Passage], lowered: list[str] | None = None) -> list[MentionSpan]:
    """Whole-word occurrences of the surfaces; names with a capital match in case ('Word' is not 'word'),
    lower-case phrases in any case; where two surfaces overlap the longer wins. `lowered`: the passages'
    texts in lower case, when the caller has them already."""
    lowered_texts = lowered or [p.text.lower() for p in passages]
    out = []
    for i, p in enumerate(passages):
        lowered = lowered_texts[i]
        taken: list[tuple[int, int]] = []
        for surface in sorted(surfaces, key=len, reverse=True):
            haystack, needle = (p.text, surface) if surface != surface.lower() else (lowered, surface)
            at = haystack.find(needle)
            while at >= 0:
                end = at + len(needle)
                if not _is_word_char(haystack, at - 1) and not _is_word_char(haystack, end) and \
                        not any(s < end and at < e for s, e in taken):
                    taken.append((at, end))
                    out.append(MentionSpan(i, at, end, p.text[at:end]))
                at = haystack.find(needle, at + 1)
    return sorted(out, key=lambda m: (m.passage, m.start))


def place_evidence(mentions: list[MentionSpan], passages: list[Passage]) -> list[float]:
    """What the number and places of the mentions say, as extra noisy-or strengths: how often (weighted by
    section kind), whether the title or abstract names it, whether a table prints it."""
    weighted = sum(_SECTION_WEIGHT.get(passages[m.passage].section_kind, 0.6) for m in mentions)
    out = [0.5 * (1 - math.exp(-weighted / 6))]
    if any(passages[m.passage].section_kind == FRONT for m in mentions):
        out.append(0.25)
    if any(passages[m.passage].kind in ("table", "cells") for m in mentions):
        out.append(0.2)
    return out


def _noisy_or(strengths: list[float]) -> float:
    return 1 - math.prod(1 - s for s in strengths)


def rank_entities(passages: list[Passage], located: list[Located], pairs: list[Abbreviation]) -> list[Entity]:
    """Every candidate entity with its type, score and mentions, best first (not yet thresholded)."""
    clusters = _Clusters()
    located = [Located(_typed(l.cue), l.passage, l.start, l.end) for l in located if not method_named(l.cue)] + \
        abbreviation_cues(pairs)
    for pair in pairs:
        clusters.union(match_key(pair.short), match_key(pair.long))
    for item in located:
        for lex in (lexicons.datasets(), lexicons.metrics()):
            if (canonical := lex.lookup(item.cue.name)) is not None:
                clusters.union(match_key(item.cue.name), match_key(canonical))
    by_root: dict[int, list[Located]] = defaultdict(list)
    for item in located:
        by_root[clusters.find(match_key(item.cue.name))].append(item)
    lowered = [p.text.lower() for p in passages]
    short_of = {match_key(p.long): p.short for p in pairs}
    long_keys = set(short_of)
    longs_of: dict[str, list[str]] = defaultdict(list)
    for pair in pairs:
        longs_of[match_key(pair.short)].append(pair.long)
    entities = []
    for items in by_root.values():
        votes: dict[str, dict[str, float]] = defaultdict(dict)
        for item in items:
            fam = votes[item.cue.type]
            fam[item.cue.family] = max(fam.get(item.cue.family, 0.0), item.cue.strength)
        label = max(votes, key=lambda k: (_noisy_or(list(votes[k].values())), k))
        families = votes[label]
        if set(families) == {"abbreviation"} and label == METHOD:
            continue  # a bare abbreviation pair with a method-like head is too weak a sign
        if label == METRIC and _defined_as_other(items, longs_of):
            continue
        surfaces = Counter(item.cue.name for item in items)
        surfaces.update(s for s in (short_of.get(match_key(n)) for n in list(surfaces)) if s)
        mentions = find_mentions(set(surfaces), passages, lowered)
        if not mentions:
            continue
        # a weak family decides nothing alone: it needs a pattern, repeated mentions or a table
        weak_alone = set(families) <= WEAK_FAMILIES and len(mentions) < _WEAK_ALONE_MENTIONS and \
            not any(passages[m.passage].kind in ("cells", "table") for m in mentions)
        if label == TASK and len(mentions) == 1 and passages[mentions[0].passage].kind == "text":
            continue  # a task the paper names once in running text is a passing mention, not what it is about
        if label == TASK and _only_plural(set(surfaces), mentions, passages, lowered):
            continue
        texts = Counter(m.text for m in mentions)
        name, canonical = _names(label, surfaces, texts, long_keys)
        score = _noisy_or(list(families.values()) + place_evidence(mentions, passages))
        proposed = label == METHOD and max((families.get(f, 0.0) for f in PROPOSED_FAMILIES), default=0.0) >= 0.8
        evidence = sorted((i for i in items if i.cue.type == label), key=lambda i: -i.cue.strength)
        entities.append(Entity(label, name, canonical, sorted(set(texts) - {name}), round(score, 4), proposed,
                               dict(families), mentions, evidence, weak_alone))
    return _drop_nested(sorted(entities, key=lambda e: (-e.score, e.label, e.name)))


def _plurals(phrase: str) -> set[str]:
    """The plural forms of a phrase's last word: 'alignments', 'searches', 'analyses', 'queries'."""
    out = {phrase + "s", phrase + "es"}
    if phrase.endswith("is"):
        out.add(phrase[:-2] + "es")
    if phrase.endswith("y"):
        out.add(phrase[:-1] + "ies")
    return out


def _only_plural(surfaces: set[str], mentions: list[MentionSpan], passages: list[Passage], lowered: list[str]) -> bool:
    """Whether the running text writes a task phrase in the plural only ('masked alignments', 'alternative
    alignments'): the plural counts things, the results of an activity, not the activity a paper addresses,
    which is a mass noun ('alignment of sequences'). A phrase printed only in a table or heading, where a label
    may drop the plural, is judged by the running text; one the text never writes is kept."""
    if any(passages[m.passage].kind == "text" for m in mentions):
        return False
    plurals = {p for surface in surfaces for p in _plurals(surface.lower())}
    return any(re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", lowered[i])
               for i, passage in enumerate(passages) if passage.kind == "text" for p in plurals)


def _defined_as_other(items: list[Located], longs_of: dict[str, list[str]]) -> bool:
    """A short form the paper defines is what its long form says: 'in terms of AD' names no metric when AD is
    'Alzheimer's disease', whose words are no metric's (not a known metric, no metric head)."""
    longs = [long for item in items for long in longs_of.get(match_key(item.cue.name), [])]
    if not longs:
        return False
    return not any(_known_metric(long) or _metric_headed(long) for long in longs)


def _known_metric(long: str) -> bool:
    """Whether a long form is a known metric, or one of several words with modifiers before it: 'mean
    intersection-over-union' and 'frequency weighted intersection-over-union' are intersection over union averaged
    another way. A known metric of one word after others ('self-organizing map', 'mixed precision') is not: such
    a word names other things too."""
    words = long.split()
    return bool(lexicons.metrics().lookup(long)) or any(
        len(re.split(r"[\s-]+", " ".join(words[i:]))) > 1 and lexicons.metrics().lookup(" ".join(words[i:]))
        for i in range(1, len(words)))


def _metric_headed(long: str) -> bool:
    """A long form that ends in a metric head ('hazard ratios', 'mean absolute error') names a metric; the
    heads are compared as match keys, so 'ratios' is 'ratio'."""
    heads = {match_key(h) for h in lexicons.metric_heads()}
    return bool(long.split()) and match_key(long.split()[-1]) in heads


def _names(label: str, surfaces: Counter, texts: Counter, long_forms: set[str]) -> tuple[str, str]:
    """(name, canonical): the paper's most mentioned surface form, and the name the cross-paper id derives
    from: the lexicon's canonical name when the lexicon knows the entity (so 'mAP' in one paper and 'mean
    average precision' in another share a node), else the long form of a defined abbreviation, which papers
    spell alike more often than they pick the same short form."""
    name = max(surfaces, key=lambda s: (texts.get(s, 0), surfaces[s], len(s), s))
    if not strong_name(name) and (lowered := name[0].lower() + name[1:]) in surfaces | texts:
        name = lowered  # 'Citation recommendation' opening a sentence is 'citation recommendation'
    lex = lexicons.datasets() if label == DATASET else lexicons.metrics() if label == METRIC else None
    canonical = next((c for s in surfaces if lex and (c := lex.lookup(s)) is not None), None)
    long = sorted(s for s in surfaces if match_key(s) in long_forms)
    if label == METRIC and canonical and cut_short(name, canonical):
        name = canonical  # 'Acc.' in a table header is 'accuracy'
    return name, canonical or (long[0] if long else name)


def cut_short(name: str, full: str) -> bool:
    """Whether `name` is the one word `full` cut short, as a table header abbreviates a word to fit its column
    ('Acc.', 'prec', 'Rec.' of 'accuracy', 'precision', 'recall'): two letters or more, in lower case or with an
    initial capital, the start of the word and not all of it. An initialism in capitals ('REC', 'ACC') is not
    made of the word's first letters and may stand for anything."""
    word = name[:-1] if name.endswith(".") else name
    return full.isalpha() and word.isalpha() and len(word) >= 2 and word[1:].islower() and \
        full.lower().startswith(word.lower()) and len(word) < len(full)


def _drop_nested(entities: list[Entity]) -> list[Entity]:
    """A task phrase that is the tail of a longer one of the same kind ('structure recognition' in 'table
    structure recognition') is the longer one when that is mentioned at least half as often."""
    keep = []
    for e in entities:
        longer = [o for o in entities if o is not e and o.label == e.label == TASK and not o.weak_alone
                  and o.name.lower().endswith(" " + e.name.lower()) and len(o.mentions) * 2 >= len(e.mentions)]
        if not longer:
            keep.append(e)
    return keep


def salient(entities: list[Entity]) -> list[Entity]:
    """The entities whose evidence passes their type's threshold, and the central ones."""
    return [e for e in entities if e.score >= THRESHOLDS[e.label] and not e.weak_alone or e.central]

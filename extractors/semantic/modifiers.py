"""One capitalised word that the paper writes as the first word of longer names: 'Cox' in 'Cox regression' and
'Cox proportional hazards', 'Gibbs' in 'Gibbs sampler', 'Gaussian' in 'Gaussian noise'. Such a word (a person's
name made an adjective, or an adjective of one) names no method or metric by itself; the name is the phrase it
opens, when that phrase ends in a head noun of the entity's kind ('Gibbs sampler': a method head), else there is
no entity. A proper name of a method ('Transformer', 'Mallet') is written alone or before a verb or a
function word as often as not, so it stays. A metric's short form that the text writes before nouns ('VBR
video') names a kind of thing, not a measure, and a task phrase that always opens a metric's name ('average
completion' of 'average completion time') names no task.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from extractors.semantic import lexicons
from extractors.semantic.canonical import match_key
from extractors.semantic.passages import Passage
from extractors.semantic.patterns import METHOD, METRIC, TASK, strong_name
from extractors.semantic.salience import Entity, find_mentions

# one mention of a method says too little ('Adam optimizer' is written once where 'Adam' is the name); a metric is
# seldom named by a capitalised word alone, so one 'Pearson correlation' says it
MIN_MENTIONS = {METHOD: 2, METRIC: 1}
SHARE = 0.75  # of the running-text mentions that go on with a lower-case content word
_NEXT = re.compile(r"(?:['’]s)?[ \t]+(?P<w>[a-z][a-z-]*)\b")


def _plain_word(name: str) -> bool:
    return " " not in name and name[:1].isupper() and not strong_name(name)


def _followers(e: Entity, passages: list[Passage]) -> list[tuple[str, str] | None]:
    """(word, phrase as printed) for the lower-case content word after each running-text mention of the name
    itself ('correlation', 'Pearson’s correlation'); None where a function word, a capital, a bracket or
    punctuation follows. A defined long form's mentions do not count; a task's mentions count in any case."""
    stops = lexicons.terms().phrase_stops
    out: list[tuple[str, str] | None] = []
    for m in e.mentions:
        text = passages[m.passage].text
        if passages[m.passage].kind != "text" or m.text != e.name and e.label != TASK:
            continue
        found = _NEXT.match(text, m.end)
        word = found.group("w") if found else None
        content = word and word not in stops and not word.endswith("ly")
        out.append((word, text[m.start:found.end()]) if content else None)
    return out


def _heads(label: str) -> frozenset[str]:
    return lexicons.terms().method_heads if label == METHOD else lexicons.metric_heads()


def _opens_metric(e: Entity, passages: list[Passage]) -> bool:
    """A task phrase that the running text always continues with a metric head ('average completion' of
    'average completion time') is the start of a metric's name."""
    followers = _followers(e, passages)
    return bool(followers) and all(f and f[0] in lexicons.metric_heads() for f in followers)


def _short_form(name: str) -> bool:
    return " " not in name and strong_name(name)


def complete_modifiers(entities: list[Entity], passages: list[Passage]) -> list[Entity]:
    """Each method or metric named by one plain capitalised word that at least SHARE of its running-text
    mentions (MIN_MENTIONS of its kind or more) continue with a lower-case word: renamed to the phrase of the
    word and a head noun the text prints most often, with that phrase's mentions, or left out when no head noun
    follows.
    A metric's short form written so ('VBR video', 'CBR data': a kind of thing, not a measure of it) is left
    out when no metric head follows it, and otherwise kept as it is ('BLEU score' is BLEU). A task phrase
    that only ever opens a metric's name is left out."""
    named = {(e.label, match_key(e.name)) for e in entities}
    out = []
    for e in entities:
        if e.label == TASK:
            if not _opens_metric(e, passages):
                out.append(e)
            continue
        plain = _plain_word(e.name)
        if e.label not in (METHOD, METRIC) or not (plain or e.label == METRIC and _short_form(e.name)):
            out.append(e)
            continue
        followers = _followers(e, passages)
        content = [w for w in followers if w]
        if len(followers) < MIN_MENTIONS[e.label] or len(content) < SHARE * len(followers):
            out.append(e)
            continue
        phrases = Counter(phrase for word, phrase in content if word in _heads(e.label))
        if not phrases:
            continue
        if not plain:
            out.append(e)
            continue
        name = phrases.most_common(1)[0][0]
        if (e.label, match_key(name)) not in named:  # else the phrase is an entity already
            out.append(replace(e, name=name, canonical=name, aliases=[], mentions=find_mentions({name}, passages)))
    return out

"""Sentences and short-form/long-form pairs ("convolutional neural network (CNN)") of passages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.semantic import nlp
from extractors.semantic.schwartz_hearst import definitions
from extractors.semantic.passages import Passage

_SHORT = re.compile(r"^(?=.*[A-Z])[A-Za-z][A-Za-z0-9\-./&+]{1,14}$")


@dataclass(frozen=True)
class Sentence:
    passage: int  # index into the passage list
    start: int  # character offsets in the passage text
    end: int
    text: str


@dataclass(frozen=True)
class Abbreviation:
    short: str
    long: str
    passage: int
    start: int  # of the long form in the passage text
    end: int  # of the short form


def plausible(short: str, long: str) -> bool:
    """Schwartz-Hearst also pairs enumerations ('(iii)') and plain words; a short form has a capital, the
    long form two words or more and no more than five times the short form's letters in words."""
    words = long.split()
    return bool(_SHORT.match(short)) and 2 <= len(words) <= max(3, 2 * len(short)) and short.lower() != long.lower()


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])|\n{2,}")
_NOT_AN_END = re.compile(r"(?:\bet al|\be\.g|\bi\.e|\bcf|\bvs|\bFig|\bEq|\bSec|\bTab|\bNo|\bapprox|\b[A-Z])\.$")
_SHORT_FORM_TRIGGER = re.compile(r"\(\s*[A-Za-z][\w\-./&+]{0,14}\s*[);,]")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans by end punctuation before a capital or digit, not after 'et al.', 'e.g.', 'Fig.' or an
    initial; regex, because tokenising every sentence with spaCy costs more than the ingest budget allows."""
    spans, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        if _NOT_AN_END.search(text[max(start, m.start() - 8): m.start()]):
            continue
        if text[start: m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


def analyse(passages: list[Passage]) -> tuple[list[Sentence], list[Abbreviation]]:
    """Sentences of every passage, and the abbreviation pairs (Schwartz & Hearst) of the sentences that have a
    parenthesised short-form candidate (only those are tokenised)."""
    sentences = [Sentence(i, s, e, p.text[s:e]) for i, p in enumerate(passages) for s, e in split_sentences(p.text)]
    triggered = [s for s in sentences if _SHORT_FORM_TRIGGER.search(s.text)]
    pairs: list[Abbreviation] = []
    for sentence, doc in zip(triggered, nlp.sentences().tokenizer.pipe([s.text for s in triggered], batch_size=64)):
        for short, long in definitions(doc):
            if plausible(short.text, long.text) and long.start_char < short.start_char:
                pairs.append(Abbreviation(short.text, long.text, sentence.passage, sentence.start + long.start_char,
                                          sentence.start + short.end_char))
    return sentences, pairs

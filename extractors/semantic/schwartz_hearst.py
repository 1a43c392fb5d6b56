"""Abbreviation definitions ("convolutional neural network (CNN)") in a tokenised sentence, by the algorithm of
A. Schwartz and M. Hearst, "A simple algorithm for identifying abbreviation definitions in biomedical text",
Pacific Symposium on Biocomputing 2003.

This is a re-implementation of the variant in scispaCy's AbbreviationDetector (Apache-2.0,
https://github.com/allenai/scispacy, scispacy/abbreviation.py), which paperkg used until it dropped the
dependency: scispaCy pins numpy<2 and brings scipy, scikit-learn and nmslib for the one function paperkg used.
It keeps that variant's choices so that the same sentences give the same pairs: candidates are the words in
parentheses (up to three tokens: the short form, with the long form in the words before it) or the word before
parentheses that hold four to eight tokens (the reverse order); a short form has words of 2-9 characters, starts
with a letter and is at least half letters; a pair once found is also paired with every later occurrence of
its short form in the same text; a short or long form defined twice keeps its first definition.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Doc, Span

from extractors.text import long_form_start

_MAX_INSIDE = 8  # tokens between the parentheses
_SHORT_INSIDE = 3  # up to this many, the parentheses hold the short form; more, the long form


def _parenthesised(doc: Doc) -> Iterator[tuple[int, int]]:
    """(first, end) token indices of what every pair of an opening and a later closing parenthesis encloses,
    nested or not, in order of the opening one, then the closing one."""
    closes = [t.i for t in doc if t.text == ")"]
    for opening in (t.i for t in doc if t.text == "("):
        for closing in closes:
            if opening + 1 < closing <= opening + 1 + _MAX_INSIDE:
                yield opening + 1, closing


def _balanced(span: Span) -> bool:
    depth = 0
    for token in span:
        depth += (token.text == "(") - (token.text == ")")
        if depth < 0:
            return False
    return depth == 0


def _could_be_short(span: Span) -> bool:
    text = span.text
    return (all(2 <= len(t) <= 9 for t in span) and text[0].isalpha()
            and sum(c.isalpha() for c in text) >= len(text) / 2)


def _candidates(doc: Doc) -> Iterator[tuple[Span, Span]]:
    """(short form, where its long form may lie) for every parenthesised group."""
    for first, end in _parenthesised(doc):
        if first == 1:  # the text opens with the parenthesis: nothing before it
            continue
        if end - first > _SHORT_INSIDE:
            short, long = doc[first - 2:first - 1], doc[first:end]
            if not _balanced(long):
                continue
        else:
            short = doc[first:end]
            letters = sum(len(t) for t in short)
            reach = min(letters + 5, 2 * letters)  # Schwartz & Hearst's bound on the long form's words
            long = doc[max(first - 1 - reach, 0):first - 1]
        if _could_be_short(short):
            yield short, long


def long_form(short: Span, window: Span) -> Span | None:
    """The shortest end of `window` whose characters contain the short form's letters and digits in order, the
    first of them at the start of a word; None when there is none. Both are compared as their tokens joined by
    single spaces; the character position is then mapped back to a token by the tokens' own text and spacing."""
    begin = long_form_start(" ".join(t.text for t in short), " ".join(t.text for t in window))
    if begin is None:
        return None
    covered = 0
    for offset, token in enumerate(window):
        covered += len(token.text_with_ws)
        if covered > begin:
            return window[offset:]
    return window


def definitions(doc: Doc) -> list[tuple[Span, Span]]:
    """(short form, long form) pairs of `doc`: each definition and each later use of a defined short form,
    grouped by definition in the order found."""
    found: list[tuple[Span, Span]] = []
    longs_seen: set[str] = set()
    shorts_seen: set[str] = set()
    for short, window in _candidates(doc):
        long = long_form(short, window)
        if long is None or long.text in longs_seen or short.text in shorts_seen:
            continue
        longs_seen.add(long.text)
        shorts_seen.add(short.text)
        found.append((short, long))
    pairs = []
    for short, long in found:
        words = [t.text for t in short]
        uses = [doc[i:i + len(words)] for i in range(len(doc) - len(words) + 1)
                if [t.text for t in doc[i:i + len(words)]] == words]
        pairs.extend((use, long) for use in uses)
    return pairs

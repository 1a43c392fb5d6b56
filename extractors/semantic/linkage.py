"""Links between elements from the text: figures and tables to the entities their captions and citing
sentences name (ILLUSTRATES for figures, SUMMARIZES for tables), and DEPENDS_ON / RELATED_TO between
methods and concepts from dependency patterns ("X is based on Y", "X extends Y", "X is similar to Y"),
never from co-occurrence alone."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.semantic.abbreviations import Sentence

_DEPENDS = re.compile(r"\b(?:is|are)\s+(?:based|built)\s+(?:on|upon)\b|\bbuilds?\s+(?:on|upon)\b|\bextends?\b|"
                      r"\b(?:is|are)\s+an?\s+(?:extension|variant|modification|generali[sz]ation)\s+of\b|"
                      r"\b(?:relies|rely)\s+on\b|\b(?:uses|use)\b|\bincorporates?\b")
_RELATED = re.compile(r"\b(?:is|are)\s+(?:similar|related|analogous|comparable|equivalent)\s+to\b|\blike\b")


@dataclass(frozen=True)
class Relation:
    type: str  # DEPENDS_ON | RELATED_TO
    source: str  # entity key (label, name)
    target: str
    sentence: Sentence
    strength: float


def relations_in(sentence: Sentence, named: list[tuple[int, int, str]]) -> list[Relation]:
    """named: (start, end, key) of the entities mentioned in the sentence (passage offsets), in order.
    The entity before the trigger depends on (or relates to) the first entity after it."""
    out = []
    for pattern, type_, strength in ((_DEPENDS, "DEPENDS_ON", 0.6), (_RELATED, "RELATED_TO", 0.5)):
        for m in pattern.finditer(sentence.text):
            at = sentence.start + m.start()
            before = [k for s, e, k in named if e <= at and at - e <= 40]
            after = [k for s, e, k in named if s >= sentence.start + m.end() and s - (sentence.start + m.end()) <= 25]
            if before and after and before[-1] != after[0]:
                out.append(Relation(type_, before[-1], after[0], sentence, strength))
    return out

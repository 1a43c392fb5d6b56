"""Concepts: terms the paper defines ("we define X as", "X is a Y that ...", "X, i.e., ...", "X refers to") or
introduces with an abbreviation ("magnetic resonance imaging (MRI)"), typed by their definition's head noun, with
importance from how often and where they are mentioned."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.semantic import lexicons, nlp
from extractors.semantic.abbreviations import Abbreviation, Sentence
from extractors.semantic.non_entities import names_organisation
from extractors.semantic.passages import FRONT, Passage

# a term's words give nothing back: a space or a comma follows them, never a word character
_TERM = r"(?P<t>[A-Za-z][\w-]*+(?:\s+[\w-]++){0,3}?)"
_DEFINITIONS = (
    (re.compile(rf"\b[Ww]e\s+(?:define|call|denote|refer\s+to)\s+(?:the\s+|a\s+|an\s+)?{_TERM}\s+as\b"), 0.85),
    (re.compile(r"\b[Ww]e\s+call\s+(?:this|these|it|them)\s+(?:[\w-]+\s+){0,2}?(?P<t>[\w-]+(?:\s+[\w-]+){0,2}?)\s*[.,]"), 0.7),
    (re.compile(rf"^(?:(?:An?|The)\s+)?{_TERM}\s+(?:is|are)\s+defined\s+as\b"), 0.85),
    (re.compile(rf"^(?:(?:An?|The)\s+)?{_TERM}\s+refers?\s+to\b"), 0.75),
    (re.compile(rf"^(?:(?:An?|The)\s+)?{_TERM}\s+(?:is|are)\s+(?:a|an)\s+(?P<h>(?:[\w-]+\s+){{0,3}}?[\w-]+)\s+(?:that|which|where|whose|in\s+which)\b"), 0.6),
    # (not deeper than 64 characters into a hyphenated run: deeper starts each read the run again)
    (re.compile(rf"\b(?<![\w-]{{64}}){_TERM},\s+i\.\s?e\.,?\s"), 0.55),
    # mathematics defines a term by the symbol it gives it: 'we define the dual norm R*(U) := ...'; a term of
    # one word there ('the quantity k(R)'), a count ('two functions f, g') or a symbol's letters ('tcq i') names
    # nothing in particular
    (re.compile(r"\b[Ww]e\s+define\s+(?:the\s+|a\s+|an\s+)?(?!(?:one|two|three|four|five|six|seven|eight|nine|ten|"
                r"several|multiple|some|many|few|various|following|new)\s)"
                r"(?P<t>[A-Za-z][\w-]++(?:[^\S\n]+[A-Za-z][\w-]++){1,3}?)"
                # the symbol: a Greek or other non-ASCII letter, or a letter with an argument, index or star after it
                r"[^\S\n]+(?=[^\x00-\x7F]|[A-Za-z]\w*[(\[*^_{∗′]|[A-Za-z]\d)"), 0.6),
)
_THEORY = {"theory", "theorem", "principle", "law", "hypothesis", "lemma", "assumption", "model"}
_PHENOMENON = {"effect", "phenomenon", "bias", "problem", "property", "behavior", "behaviour", "error", "noise",
               "distribution", "phase", "state", "process"}


@dataclass(frozen=True)
class Definition:
    term: str
    sentence: Sentence
    start: int  # of the term in the passage text
    strength: float
    kind: str  # definition | technique | theory | phenomenon
    alias: str | None = None  # the short form a term was introduced with


def concept_kind(head: str | None) -> str:
    """The ontology's concept typing from the definition's head noun."""
    word = (head or "").split()[-1].lower() if head else ""
    if word in lexicons.terms().method_heads:
        return "technique"
    if word in _THEORY:
        return "theory"
    if word in _PHENOMENON:
        return "phenomenon"
    return "definition"


def find_definitions(sentences: list[Sentence], passages: list[Passage]) -> list[Definition]:
    stops = lexicons.terms().phrase_stops
    out = []
    for s in sentences:
        if passages[s.passage].kind != "text":
            continue
        for pattern, strength in _DEFINITIONS:
            m = pattern.search(s.text)
            if not m:
                continue
            term = m.group("t").strip()
            words = term.split()
            if not words or words[0].lower() in stops or words[-1].lower() in stops or len(term) < 3:
                continue
            head = predicate_noun(s.text) or m.groupdict().get("h")
            out.append(Definition(term, s, s.start + m.start("t"), strength, concept_kind(head)))
            break
    return out


def predicate_noun(sentence: str) -> str | None:
    """The noun a definition says the term is ('X is a regularization technique that ...' -> 'technique'),
    from the dependency parse of this one sentence; None without the parser."""
    parser = nlp.parser()
    if parser is None:
        return None
    doc = parser(sentence)
    return next((t.text for t in doc if t.dep_ in ("attr", "dobj", "oprd") and t.pos_ in ("NOUN", "PROPN")), None)


def importance(mentions: int, in_front: bool) -> str:
    """core: named in the title/abstract or mentioned often; supporting: mentioned again; else background."""
    if in_front or mentions >= 6:
        return "core"
    return "supporting" if mentions >= 2 else "background"


def in_front(passages: list[Passage], indexes: set[int]) -> bool:
    return any(passages[i].section_kind == FRONT for i in indexes)


_WHERE = re.compile(r"^[Ww]here\s+\S{1,12}\s+(?:is|are|denotes|denote|represents|represent|stands\s+for)\s+"
                    r"(?:the|a|an)\s+(?P<t>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)(?=\s*(?:,|;|\.|and\b|of\b|$))")


def symbol_definitions(sentences: list[Sentence], passages: list[Passage]) -> list[Definition]:
    """'where W is the weight matrix, ...' after a display equation: the equation defines that concept."""
    out = []
    for s in sentences:
        if passages[s.passage].kind == "text" and (m := _WHERE.match(s.text)):
            term = m.group("t").strip()
            if len(term.split()) > 1 and term.split()[-1] not in lexicons.terms().phrase_stops:
                out.append(Definition(term, s, s.start + m.start("t"), 0.6, "definition"))
    return out


def abbreviation_terms(pairs: list[Abbreviation], sentences: list[Sentence]) -> list[Definition]:
    """Each long form the paper introduces with a short form, once, with the sentence that does it: a paper
    abbreviates the terms it goes on to use, so the pair is its own definition of the short form. Typed entities
    (a method, a dataset ...) are taken out by the caller; organisations (an affiliation's acronym) here."""
    stops = lexicons.terms().phrase_stops
    out, seen = [], set()
    for pair in pairs:
        words = pair.long.split()
        key = pair.long.lower()
        if key in seen or words[0].lower() in stops or words[-1].lower() in stops or names_organisation(pair.long):
            continue
        sentence = next((s for s in sentences if s.passage == pair.passage and s.start <= pair.start < s.end), None)
        if sentence is not None:
            seen.add(key)
            out.append(Definition(pair.long, sentence, pair.start, 0.5, "definition", alias=pair.short))
    return out

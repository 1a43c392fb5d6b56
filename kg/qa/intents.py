"""Question analysis: map a question to an intent the typed graph can answer, by English patterns.

The patterns name kinds of things in English ('datasets', 'figure'); the labels and relationship types they
map to are checked against the Schema by the caller. A question no pattern fits is `search` (hybrid retrieval).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.qa.text import unfronted

# English nouns for the entity labels of the ontology.
ENTITY_NOUNS = {
    "Dataset": ("dataset", "datasets", "data set", "data sets", "benchmark", "benchmarks", "corpus", "corpora"),
    "Method": ("method", "methods", "model", "models", "algorithm", "algorithms", "approach", "approaches",
               "system", "systems", "baseline", "baselines", "technique", "techniques", "architecture",
               "architectures"),
    "Metric": ("metric", "metrics", "measure", "measures", "evaluation metric", "evaluation metrics"),
    "Task": ("task", "tasks", "problem", "problems"),
}
ELEMENT_NOUNS = {"figure": "Figure", "fig": "Figure", "table": "Table", "tab": "Table", "section": "Section",
                 "sec": "Section", "equation": "Equation", "eq": "Equation"}
# Verbs of "which X does the paper <verb>" and the relationship types they stand for, per target label.
VERBS = {
    "propose": "PROPOSES", "introduce": "PROPOSES", "present": "PROPOSES", "contribute": "PROPOSES",
    "develop": "PROPOSES", "use": "USES", "employ": "USES", "rely on": "USES", "utilize": "USES",
    "adopt": "USES", "compare": "USES", "evaluate on": "EVALUATES_ON", "test on": "EVALUATES_ON",
    "evaluate": "EVALUATES_ON", "experiment on": "EVALUATES_ON", "benchmark on": "EVALUATES_ON",
    "measure": "MEASURES", "report": "MEASURES", "address": "ADDRESSES", "tackle": "ADDRESSES",
    "solve": "ADDRESSES", "work on": "ADDRESSES", "study": "ADDRESSES", "cite": "CITES", "mention": "MENTIONS",
}
# What a verb means for a label it cannot take directly (a paper "uses" metrics by measuring them).
RELATION_FOR_LABEL = {("USES", "Metric"): "MEASURES", ("USES", "Task"): "ADDRESSES",
                      ("EVALUATES_ON", "Method"): "USES", ("MEASURES", "Dataset"): "EVALUATES_ON",
                      ("MEASURES", "Method"): "USES", ("PROPOSES", "Dataset"): "USES",
                      ("EVALUATES_ON", "Metric"): "MEASURES"}


@dataclass(frozen=True)
class Intent:
    name: str  # entities_of_paper | papers_with | definition | where_element | element_content | results | compare | search
    label: str | None = None  # entity or element label the question is about
    relations: tuple[str, ...] = ()
    number: str | None = None  # printed label of a figure/table/section/equation
    names: tuple[str, ...] = field(default_factory=tuple)  # entity names the question mentions


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_NOUN_LABEL = {noun: label for label, nouns in ENTITY_NOUNS.items() for noun in nouns}
_VERB_RE = _alt(VERBS)
_NOUN_RE = _alt(_NOUN_LABEL)
_NUM = r"([A-Z]?\d+(?:\.\d+)*[a-z]?|[A-Z](?:\.\d+)*)"
_ELEMENT_RE = r"(figure|fig\.?|table|tab\.?|section|sec\.?|equation|eq\.?)\s*" + _NUM
_SUBJECT = r"(?:the |this |that |each )?(?:paper|papers|work|study|article|authors?|they|it|we|you|[\w\-: ]{2,80}?)"

_PATTERNS: list[tuple[str, re.Pattern]] = [
    ("where_element", re.compile(rf"^(?:where|on (?:which|what) page)\b.*?\b{_ELEMENT_RE}\b", re.I)),
    ("element_content", re.compile(
        rf"^what (?:does|do|is (?:shown|presented|reported|depicted) in|is in|information (?:does|is in))\s+"
        rf"{_ELEMENT_RE}\s*(?:show|depict|illustrate|present|report|summari[sz]e|contain|describe)?\b", re.I)),
    ("element_content", re.compile(rf"^(?:describe|summari[sz]e|explain)\s+{_ELEMENT_RE}\b", re.I)),
    ("compare", re.compile(r"^(?:how does |how do )?compare\s+(?:the )?(.+?)\s+(?:and|with|to|vs\.?|versus)\s+"
                           r"(?:the )?(.+?)\??$", re.I)),
    ("compare", re.compile(r"^(?:what is |what are )?(?:the )?differences? between\s+(?:the )?(.+?)\s+and\s+"
                           r"(?:the )?(.+?)\??$", re.I)),
    ("compare", re.compile(r"^how does\s+(.+?)\s+compare (?:to|with)\s+(.+?)\??$", re.I)),
    ("results", re.compile(r"^(?:what (?:are|were|is|was) )?(?:the )?(?:results?|scores?|performance) of\s+(.+?)\s+"
                           r"on\s+(?:the )?(.+?)\??$", re.I)),
    ("results", re.compile(r"^how (?:well )?(?:does|did)\s+(.+?)\s+(?:perform|do|score)\s+on\s+(?:the )?(.+?)\??$",
                           re.I)),
    ("papers_with", re.compile(rf"^(?:(?:which|what) (?:of the )?|(?:list|name|find|show)(?: me)? (?:all )?(?:the )?)"
                               rf"(?:papers?|works?|articles?|studies)\s+(?:do |does |that |which |in the corpus )?"
                               rf"({_VERB_RE})(?:e?s|e?d)?\s+(?:on |in )?(?:the )?(.+?)\??$", re.I)),
    ("entities_of_paper", re.compile(
        rf"^(?:which|what)\s+(?:\w+\s+)?({_NOUN_RE})\s+(?:does|do|did|is|are|were|was)\s+{_SUBJECT}\s+"
        rf"({_VERB_RE})(?:e?[sd]|ing)?\b(?:\s+(?:on|in|for))?\s*\??$", re.I)),
    ("entities_of_paper", re.compile(
        rf"^(?:which|what)\s+(?:\w+\s+)?({_NOUN_RE})\s+(?:are|were|is|was)\s+({_VERB_RE})e?d\b"
        rf"(?:\s+(?:on|in|for|by))?\s*(?:in |by )?(?:the |this )?(?:paper|work|study|article|authors?)?\s*\??$", re.I)),
    ("definition", re.compile(r"^(?:what (?:is|are) (?:an? |the )?|define (?:an? |the )?|"
                              r"what do(?:es)? (?:the )?(?:paper|work|study|article|authors?) mean by (?:an? |the )?|"
                              r"what does (?:an? |the )?|what is meant by (?:an? |the )?)([^?]+?)"
                              r"(?:\s+(?:mean|stand for|refer to|denote)(?:\s+in (?:this|the) (?:paper|work|study|article))?)?"
                              r"\s*\??$", re.I)),
]
# The kind of a term a definition question may name before it ("the abbreviation SHOP", "the evaluation metric
# PSNR"): the term is what follows.
_TERM_KIND = re.compile(r"^(?:abbreviation|acronym|initialism|term|word|phrase|symbol|notation|(?:evaluation )?metric|"
                        r"measure|parameter|variable)\s+(?=\S)", re.I)
# A "what is X" question asks for a definition only when X is a short name, not a description of a value.
_NOT_A_TERM = re.compile(r"\b(of|in|on|for|by|with|between|from|that|which|when|how|does|do|used|reported)\b", re.I)


def analyse(question: str) -> Intent:
    """The intent of a question; `search` when no pattern applies."""
    q = unfronted(question)
    for name, pattern in _PATTERNS:
        match = pattern.search(q)
        if not match:
            continue
        intent = _build(name, match)
        if intent is not None:
            return intent
    return Intent("search")


def _element(kind: str, number: str) -> tuple[str, str]:
    return ELEMENT_NOUNS[kind.lower().rstrip(".")], number


def _build(name: str, match: re.Match) -> Intent | None:
    if name in ("where_element", "element_content"):
        label, number = _element(match.group(1), match.group(2))
        return Intent(name, label=label, number=number)
    if name in ("compare", "results"):
        first, second = (_clean(g) for g in match.groups())
        return Intent(name, names=(first, second)) if first and second else None
    if name == "papers_with":
        return Intent(name, relations=(VERBS[match.group(1).lower()],), names=(_clean(match.group(2)),))
    if name == "entities_of_paper":
        label = _NOUN_LABEL[match.group(1).lower()]
        relation = VERBS[match.group(2).lower()]
        relation = RELATION_FOR_LABEL.get((relation, label), relation)
        relations = (relation, "EVALUATES_ON") if (label, relation) == ("Dataset", "USES") else (relation,)
        return Intent(name, label=label, relations=relations)
    term = _clean(_TERM_KIND.sub("", _clean(match.group(1))))
    if not term or len(term.split()) > 4 or _NOT_A_TERM.search(term):
        return None
    return Intent("definition", names=(term,))


def _clean(text: str) -> str:
    return text.strip().strip("?.!\"' ").removeprefix("the ").strip()


# ------------------------------------------------------------------ a paper the question names

@dataclass(frozen=True)
class PaperName:
    """Words of a question that may name a paper, the kinds of match (kg.read.queries.PaperMatch.matched_by) that
    count as naming it, and the question to answer once it does (the name read as 'the paper')."""

    name: str
    accepts: frozenset[str]
    question: str


_IDS = frozenset({"id", "doi", "arxiv"})
# A DOI, an arXiv id with its prefix, or a bare new-style arXiv id (YYMM.NNNNN).
_IDENTIFIER = re.compile(r"\b(?:doi:\s*)?10\.\d{4,9}/[^\s\"<>,;]*[^\s\"<>,;.?!)]|\barxiv:\s*[\w.\-/]+\w|"
                         r"\b\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?\b", re.I)
_QUOTED = re.compile(r'"([^"]{2,300})"|\u201c([^\u201c\u201d]{2,300})\u201d')
# "the BERT paper", "the Transformer-XL article": a name of a few words (none of them "the") before the noun
_THE_NAMED = re.compile(r"\bthe\s+((?:(?!the\b)[^\s,;?!]+\s+){0,5}?(?!the\b)[^\s,;?!]+)\s+(?:paper|article)\b",
                        re.I)
# "In <name>, ...": the clause goes with the name, so the rest reads as a question the patterns above know
_LEADING = re.compile(r"^\s*(?:in|from|according to)\s+$", re.I)
_TRAILING = re.compile(r"^\s*(?:paper|article)?\s*[,:]\s*", re.I)


def paper_names(question: str) -> list[PaperName]:
    """The names a question may give a paper, most specific first: a DOI or arXiv id, a quoted title (matched as
    a whole title only: quotes also mark terms), then "the X paper", where X may be the paper's short title ("the
    BERT paper" for "BERT: Pre-training ...") or its title, trying X without its first words too ("the
    original BERT paper"). The caller resolves each (kg.read.queries.resolve_paper, not loose) and keeps the first
    that names exactly one paper in an accepted way."""
    found = [PaperName(m.group(0), _IDS, _without(question, m.start(), m.end()))
             for m in _IDENTIFIER.finditer(question)]
    for m in _QUOTED.finditer(question):
        group = 1 if m.group(1) is not None else 2
        found.append(PaperName(m.group(group).strip(), _IDS | {"title"}, _without(question, m.start(), m.end())))
    for m in _THE_NAMED.finditer(question):
        words = m.group(1).split()
        for first in range(len(words)):
            found.append(PaperName(" ".join(words[first:]), frozenset({"title", "short title"}),
                                   _without(question, m.start(), m.end())))
    return found


def _without(question: str, start: int, end: int) -> str:
    """The question with the name at [start, end) read as 'the paper'; a leading "In <name>," clause removed."""
    before, after = question[:start], question[end:]
    clause = _TRAILING.match(after)
    if clause and _LEADING.match(before):
        return after[clause.end():]
    return f"{before}the paper{after}"

"""Extractive answers: the sentences of retrieved passages that best support a question, never new text.

Pure functions over candidate chunks, so the choice of sentence is unit-testable with exact outputs.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from functools import lru_cache

from extractors.bbox import parse_bbox
from kg.qa.reader import (Question, assigned_value, counts_of, date_in, defines, enumerations, extreme_asked,
                          extreme_row, long_form, name_before, name_given, new_numbers, ratio_in, read_question,
                          refers_to, section_of, table_cell, without_references)
from kg.qa.text import STOPWORDS, abbreviations, paragraphs, question_proper, sentences, squash, stem, terms, tokens

ANSWER_CHARS = 300  # answers are read (and judged) on their first 300 characters
MIN_SUPPORT = 0.2  # share of the question's weighted terms a sentence must cover to count as support
EXTREME_BONUS = 0.3  # the table row holding the extreme value asked for, over the table's other rows
CONTEXT_CHARS = 300  # the text before a unit that says what it is about, for answers read by their form
COUNT_BONUS = 0.3  # a number of the things a 'how many' question counts ('1800 machines') or the value set to the
# symbol it names ('\u03a9m = 0.27'), over other numbers
# a unit naming as many items as a list question counts, three or more ('which four datasets': 'on A, B, C and D'),
# over one that announces a list ('the following datasets:') or counts its items ('four datasets'): the list itself
ITEMS_BONUS = 0.3
LIST_BONUS = 0.15  # a unit listing three items or more, for a list question that does not count them
REPEAT_SHARE = 0.8  # an evidence sentence sharing this share of an earlier one's terms adds nothing
_UNIT_CHARS = 260
# A table row ('Table 2 | KEHGCN | MIMIC-IV Jaccard: 0.37 | ...') is one unit up to this length: its cells are named
# and the reader takes the one asked for (kg.qa.reader.table_cell); cut into windows, the cells past the first would
# lose the row's label and table, and with them the reading of a cell.
_ROW_CHARS = 2000
_TABLE_ROW = re.compile(r"Table \S+ \| ")
# the words a question counts its answer's items with, and the count: 'which two criteria', 'which 3 models'
_COUNT_WORDS = {word: n for n, word in enumerate("- - two three four five six seven eight nine ten".split()) if n > 1}
_COUNT_WORDS |= {str(n): n for n in range(2, 11)}
_NAME_Q = re.compile(r"^(which|what|who|from which|on which|in which|into which|with which)\b", re.I)


@dataclass(frozen=True)
class Unit:
    """A sentence (or a clause window of a long sentence) of a chunk, scored against the question."""

    chunk: dict
    start: int
    end: int
    score: float
    coverage: float
    matched: int = 0  # distinct question terms it contains
    announces: bool = False  # names the count of things asked for ('two criteria') but not the things
    lacks_number: bool = False  # a 'how many' question's unit without a number the question does not hold
    span: str | None = None  # what in it answers the question's kind (kg.qa.reader), if the reader found it
    leads: bool = False  # the span leads the answer: a table cell with its headers, a section with its number
    # the span answers by its form alone, however little else of the question the unit holds: the long form of
    # the short form asked about shares only the short form with 'What does ULBDM stand for?', and a sentence
    # defining the term asked about need not repeat 'defined'
    sure: bool = False

    @property
    def text(self) -> str:
        return squash(self.chunk["text"][self.start:self.end])

    @property
    def answer_text(self) -> str:
        """The unit as an answer: a table cell with its headers, or the numbered section asked for, leads, so it
        is read before the row's other columns or the sentence push it out of the first 300 characters; any
        other unit is its own text."""
        return f"{self.span} \u2014 {self.text}" if self.leads else self.text


@lru_cache(maxsize=4096)
def units_of(text: str) -> tuple[tuple[int, int], ...]:
    """Sentences, and for sentences longer than an answer, overlapping windows of whole clauses. Cached: the
    questions about one paper compete over the same chunks, and splitting is about a quarter of scoring's CPU."""
    out = []
    for start, end in _continued(text, sentences(text)):
        if end - start <= _UNIT_CHARS or _TABLE_ROW.match(text, start) and end - start <= _ROW_CHARS:
            out.append((start, end))
            continue
        cuts = [start] + [start + m.end() for m in re.finditer(r"[;,:]\s+|\s+(?=\()|\s{2,}", text[start:end])]
        cuts += [end]
        for i, a in enumerate(cuts[:-1]):
            b = next((c for c in reversed(cuts[i + 1:]) if c - a <= _UNIT_CHARS), cuts[i + 1])
            out.append((a, min(b, a + _UNIT_CHARS + 40)))
    return tuple(out)


def _continued(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentence spans with a sentence cut by a line or paragraph break rejoined: one that ends without a full
    stop, colon or question mark and whose next part begins in lower case ('the nuclear norm' / 'or the sum of
    singular values'), and one cut after initials ('the U.S.' / 'National Library')."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out:
            before, first = text[out[-1][0]:out[-1][1]].rstrip(), text[start:start + 1]
            if (first.islower() and not before.endswith((".", "!", "?", ":"))) or \
                    re.search(r"(?:^|\s)(?:[A-Z]\.){2,}$", before):
                out[-1] = (out[-1][0], end)
                continue
        out.append((start, end))
    return out


def idf_weights(question_terms: list[str], texts: list[str]) -> dict[str, float]:
    """BM25-style idf of each question term over the candidate sentences."""
    bags = [set(terms(t)) for t in texts]
    n = len(bags) or 1
    df = {t: sum(t in b for b in bags) for t in set(question_terms)}
    return {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}


def score_units(question: str, chunks: list[dict], asked: Question | None = None) -> list[Unit]:
    """Every unit of the candidate chunks scored: weighted share of the question's terms (and bigrams) it
    contains, plus what it offers for the kind of answer asked (`asked`, read from the question when not
    given; kg.qa.reader), plus a small prior from the chunk's retrieval rank."""
    q_terms = terms(question_proper(question))
    if not q_terms or not chunks:
        return []
    asked = asked or read_question(question)
    spans = [(c, a, b) for c in chunks for a, b in units_of(c["text"])]
    weights = idf_weights(q_terms, [c["text"][a:b] for c, a, b in spans])
    q_bigrams = set(zip(q_terms, q_terms[1:]))
    naming = bool(_NAME_Q.search(question))
    # 'which two criteria': how many things the answer names ('Table 3' names no count)
    count_words = set(tokens(without_references(question))) & _COUNT_WORDS.keys()
    counted = {_COUNT_WORDS[w] for w in count_words} - {2}  # a pair ('A and B') ends too many clauses to tell
    # a count of three or more adds to a sentence that repeats it ('three genes: A, B and C'), but a list rarely
    # says how many it names; 'two' stays a term like any other, as a pair is no list to tell by (above)
    uncounted = {stem(w) for w in count_words if _COUNT_WORDS[w] in counted}
    total = sum(w for t, w in weights.items() if t not in uncounted) or 1.0
    top = max(c.get("score", 0.0) for c in chunks) or 1.0
    forms = short_forms(chunks)
    glued = _glued_pairs(question)
    weighted = list(weights.items())
    known = _words(question)
    extremes = extreme_rows(chunks, question) if asked.kind not in ("section", "acronym", "definition") else {}
    scored = []
    for chunk, a, b in spans:
        raw = chunk["text"][a:b]
        s_terms = terms(raw)
        present = frozenset(with_other_forms(set(s_terms), forms) | _glued_in(raw, glued))
        context = _caption_terms(chunk, a)
        if context:
            found = [(w, max(_match(t, present), 0.5 * _match(t, context))) for t, w in weighted]
        else:  # most units: no caption, so only the sentence's own terms count (_match inlined: most CPU time)
            prefixes = _prefixes(present)
            found = [(w, 1.0 if t in present else 0.7 if len(t) >= 5 and t[:5] in prefixes and _family(t, present)
                      else 0.0) for t, w in weighted]
        coverage = sum(w * m for w, m in found) / total
        bigrams = len(q_bigrams & set(zip(s_terms, s_terms[1:]))) / (len(q_bigrams) or 1)
        score = coverage + 0.25 * bigrams + 0.1 * (chunk.get("score", 0.0) / top)
        score += _element_bonus(chunk, raw, asked)
        span, leads, lacks_number, counts = _read(chunk, raw, question, asked)
        extreme = extremes.get((chunk["id"], a))
        if extreme:  # 'the highest MAP': this row holds it, whatever the other rows share with the question
            span, leads, lacks_number, counts = extreme, True, False, False
            score += EXTREME_BONUS
        announces = False
        if asked.kind == "number":
            score += -0.15 if lacks_number else 0.15 + (0.15 if leads else 0.0) + (COUNT_BONUS if counts else 0.0)
        elif asked.kind in ("date", "naming"):
            score += 0.15 if span else -0.15
        elif asked.kind == "entity" and span:  # the name of the kind of thing asked for: 'the Adam optimizer'
            score += 0.15
        elif asked.kind == "section" and span:
            score += 0.5 * len(set(terms(span)) & set(q_terms)) / len(set(q_terms))
        elif asked.kind == "acronym" and span:
            score += 1.0
        elif asked.kind == "definition" and span:
            score += 0.2
        elif asked.kind == "list" and (_counts_asked(raw, count_words, set(q_terms), forms)  # 'two KBs: UMLS ...'
                                       or raw.rstrip().endswith(":")):  # 'on the following benchmarks:'
            score += 0.2
            announces = True
        elif (asked.kind == "list" and coverage >= MIN_SUPPORT  # of the question's topic, not any list
              and (counted & enumerations(raw) if count_words else max(enumerations(raw), default=0) >= 3)):
            score += ITEMS_BONUS if count_words else LIST_BONUS  # 'which four datasets': 'on A, B, C and D'
        elif naming and _has_new_name(raw, known):
            score += 0.05
        elif naming:
            announces = bool(count_words & set(tokens(raw)))
        if len(raw) < 30:
            score *= 0.6
        matched = sum(m > 0 for _, m in found)  # a word of the family counts: 'vernalized' in 'vernalization'
        # the extreme row answers by its values: its words are the table's, which every row shares; a date answers
        # by its form given a word of the question ('received'); a number of the things counted, the name of the
        # kind asked and a name given ('We named the system Broccoli') given two, in the unit or the text just
        # before it ('... the Wikipedia dump. ... results in 21,015,324 passages'): the noun alone is no topic
        sure = (asked.kind in ("acronym", "definition") and span is not None or bool(extreme) and matched >= 2
                or asked.kind == "date" and span is not None and matched >= 1
                or (counts or asked.kind in ("entity", "naming") and span is not None)
                and _supported(chunk["text"], a, present, weighted))
        scored.append(Unit(chunk, a, b, score, coverage, matched, announces, lacks_number, span, leads, sure))
    return sorted(scored, key=lambda u: (-u.score, u.chunk["id"], u.start))


def definition_first(units: list[Unit], term: str | None = None, needed: int = 2) -> list[Unit]:
    """Units for a definition or naming question: what the reader read as the answer first (an acronym's
    expansion, a sentence defining the term, the name given: `sure`), then, for a `term`, sentences that read as its
    definition and share `needed` terms of the question, each group by score."""
    return sorted(units, key=lambda u: (not u.sure, not (term is not None and u.matched >= needed and
                                                         defines(u.text, term)), -u.score))


def _supported(text: str, start: int, present: frozenset[str], weighted: list[tuple[str, float]]) -> bool:
    """Two of the question's terms in a unit (`present`) and in the text of its chunk just before it
    (CONTEXT_CHARS): a unit that answers by its form needs the question's topic around it."""
    around = present | frozenset(terms(text[max(0, start - CONTEXT_CHARS):start]))
    return sum(t in around for t, _ in weighted) >= 2


def extreme_rows(chunks: list[dict], question: str) -> dict[tuple[str, int], str]:
    """{(chunk id, start of the row): its cell} for every table chunk holding the row with the extreme value a
    question asks for ('Which baseline obtains the highest MAP?'; kg.qa.reader.extreme_row): every row of a table
    shares the caption's terms, so only the values tell the row asked for from the others."""
    out: dict[tuple[str, int], str] = {}
    if extreme_asked(question) is None:  # most questions: no table needs reading again
        return out
    for chunk in chunks:
        if chunk.get("kind") != "table":
            continue
        rows = [(a, squash(chunk["text"][a:b])) for a, b in paragraphs(chunk["text"])]
        found = extreme_row([row for _, row in rows], question)
        if found:
            out[(chunk["id"], rows[found[0]][0])] = found[1]
    return out


def _counts_asked(raw: str, counts: set[str], q_terms: set[str], forms: list[tuple[set[str], set[str]]]) -> bool:
    """A unit that counts the things a list question asks for ('two KBs' for 'Which two knowledge bases'): the
    question's count word followed by one of its nouns (in either form of an abbreviation): where the list
    begins."""
    words = tokens(raw)
    for i, word in enumerate(words):
        if word in counts:
            after = with_other_forms({stem(w) for w in words[i + 1:i + 3]}, forms)
            if after & q_terms:
                return True
    return False


def _element_bonus(chunk: dict, raw: str, asked: Question) -> float:
    """For a question naming a table or figure ('in Table 3'): its own caption and rows, and sentences that refer
    to it, are where the answer is; so are sentences that refer to any numbered thing it names ('Example 2')."""
    if asked.elements and chunk.get("kind") in ("table", "figure") and chunk["text"].startswith(asked.elements):
        return 0.3
    return 0.15 if asked.refers and refers_to(raw, asked.refers) else 0.0


def _read(chunk: dict, raw: str, question: str, asked: Question) -> tuple[str | None, bool, bool, bool]:
    """(span, whether it leads the answer, whether the unit lacks a number, whether the span is the number the
    question's form asks for: of the things counted, set to the symbol named, a share) of a unit for the kind of
    answer asked. A section question reads the section the unit is in, which counts more as its title holds more
    of the question's terms."""
    if asked.kind == "section":
        span = section_of(chunk)
        return span, span is not None, False, False
    if asked.kind == "number":
        cell = table_cell(" ".join(raw.split()), question)
        if cell:
            return cell, True, False, False
        numbers = new_numbers(raw, question)
        counted = counts_of(raw, asked.counted) if asked.counted and numbers else None
        assigned = assigned_value(raw, list(asked.symbols)) if asked.symbols and numbers else None
        share = next((n for n in numbers if n.endswith("%")), None) if asked.percent else None
        ratio = ratio_in(numbers) if asked.ratio else None
        by_form = counted or assigned or share or ratio
        return by_form or (numbers[0] if numbers else None), False, not numbers, bool(by_form)
    if asked.kind == "date":
        return date_in(raw), False, False, False
    if asked.kind == "naming":
        return name_given(raw), False, False, False
    if asked.kind == "entity" and asked.noun:
        return name_before(raw, asked.noun), False, False, False
    if asked.kind == "acronym" and asked.short:
        return long_form(raw, asked.short), False, False, False
    if asked.kind == "definition" and asked.term:
        return (squash(raw) if defines(raw, asked.term) else None), False, False, False
    return None, False, False, False


def _glued_pairs(question: str) -> dict[str, tuple[str, str]]:
    """Two adjacent words of the question written as one ('TableFormer-large' as 'TABLEFORMERLARGE': a model's
    size set in small capitals after its name, glued in the text layer), each with the terms of its two words."""
    words = [t for t in tokens(question) if t.isalpha()]
    return {a + b: (stem(a), stem(b)) for a, b in zip(words, words[1:])
            if a not in STOPWORDS and b not in STOPWORDS}


def _glued_in(raw: str, glued: dict[str, tuple[str, str]]) -> set[str]:
    """The terms of the question's word pairs that `raw` writes as one word."""
    lower = raw.lower()
    if not any(pair in lower for pair in glued):  # most units: none, and no tokenising
        return set()
    return {term for t in tokens(raw) if t in glued for term in glued[t]}


def short_forms(chunks: list[dict]) -> list[tuple[set[str], set[str]]]:
    """(terms of a short form and its singular, terms of its long form) of every abbreviation the candidate
    passages define, so 'KBs' in a sentence answers a question about 'knowledge bases' and back."""
    pairs = {pair for chunk in chunks for pair in abbreviations(chunk["text"])}
    return [(set(terms(short)) | {t.removesuffix("s") for t in terms(short)}, set(terms(long)))
            for short, long in sorted(pairs)]


def with_other_forms(present: set[str], forms: list[tuple[set[str], set[str]]]) -> set[str]:
    """A sentence's terms plus the other form of every abbreviation it contains in one form."""
    out = set(present)
    for short, long in forms:
        if short & present:
            out |= long
        elif long <= present:
            out |= short
    return out


def _caption_terms(chunk: dict, start: int) -> frozenset[str]:
    """For a row of a table or figure (any paragraph after the caption), the caption's terms: a row's numbers
    answer what its caption says it measures."""
    if chunk.get("kind") not in ("table", "figure"):
        return frozenset()
    caption_end = chunk["text"].find("\n\n")
    return frozenset(terms(chunk["text"][:caption_end])) if 0 < caption_end < start else frozenset()


def _match(term: str, present: frozenset[str]) -> float:
    """1 for the term itself; 0.7 for a word of the same family (_family: 'dimensional'/'dimensionality'). The
    5-letter prefixes, cached per sentence, rule out most words before _family compares them."""
    if term in present:
        return 1.0
    if len(term) >= 5 and term[:5] in _prefixes(present) and _family(term, present):
        return 0.7
    return 0.0


def _family(term: str, present: frozenset[str]) -> bool:
    """A word of the term's family among `present`: the two share all of the shorter one but its last letter at
    most ('simulat'/'simulation', 'spectra'/'spectrum', 'dimensional'/'dimensionality'), not merely their first
    letters ('experiment'/'experience', 'spectra'/'spectacle')."""
    for word in present:
        if len(word) >= 5 and word[:5] == term[:5]:
            shared = len(os.path.commonprefix((word, term)))
            if shared >= min(len(word), len(term)) - 1:
                return True
    return False


@lru_cache(maxsize=1024)
def _prefixes(words: frozenset[str]) -> frozenset[str]:
    """The 5-letter prefixes of the longer words, once per sentence: `_match` runs for every question term
    on every sentence (most of the CPU time of an answer)."""
    return frozenset(w[:5] for w in words if len(w) >= 5)


@lru_cache(maxsize=256)
def _words(question: str) -> frozenset[str]:
    """The question's words, lower-cased: what a name in an answer must not be to count as new."""
    return frozenset(t.lower() for t in re.findall(r"\w[\w\-]*", question))


_WORD = re.compile(r"\b[A-Za-z][\w\-]*")


def _has_new_name(text: str, known: frozenset[str]) -> bool:
    """A name the question (its words `known`) does not already contain: a word with a capital after its first
    letter ('VESPA', 'codeML', 'SciBERT'), or a capitalised word that neither begins the sentence nor is a stop
    word ('We'). A word holds a capital when lower-casing changes it (cheaper than testing each letter)."""
    for i, match in enumerate(_WORD.finditer(text)):
        word = match.group()
        lower = word.lower()
        if lower == word or lower in known:
            continue
        if word[1:] != lower[1:] or (i > 0 and lower not in STOPWORDS):
            return True
    return False


def compose(units: list[Unit], needed_terms: int = 2) -> tuple[str, list[Unit]]:
    """The best unit first, then the next best that add support, while the answer stays within ANSWER_CHARS.
    Units overlapping one already taken, or giving its span in a repeat of it (`_repeats`), are skipped. No answer
    when the best unit covers too little of the question or shares fewer than `needed_terms` of its terms. A best
    unit that announces the things asked for without naming them ('two criteria are optimized together') is followed
    by the sentence after it in its passage, which usually names them, and one ending in a colon by the units after
    it, a list's items; for a question asking for a number, the best unit holding a number leads when it has
    support. A span that leads a unit is said once (the section of three sentences). Returns the answer and the
    units it is made of."""
    if not units or not units[0].sure and (units[0].coverage < MIN_SUPPORT or units[0].matched < needed_terms):
        return "", []
    if units[0].lacks_number:  # a question asking for a number: the best supported unit holding one leads
        lead = next((u for u in units if not u.lacks_number and u.score >= 0.5 * units[0].score
                     and u.coverage >= MIN_SUPPORT and u.matched >= needed_terms), units[0])
        units = [lead, *(u for u in units if u is not lead)]
    best = units[0]
    taken = [best]
    said = [set(terms(best.text))]
    length = len(best.answer_text)
    follows = _announced(best, units) if best.announces else []
    for unit in [*follows, *units[1:]]:
        if unit not in follows and unit.score < 0.5 * best.score or length >= ANSWER_CHARS:
            break
        if any(u.chunk["id"] == unit.chunk["id"] and u.start < unit.end and unit.start < u.end for u in taken):
            continue
        words = set(terms(unit.text))
        if unit.span and any(u.span == unit.span for u in taken) and _repeats(words, said):
            continue  # the same answer in other words of the same statement: the captions of four plots
        if length + 1 + len(unit.answer_text) > ANSWER_CHARS + 120:
            continue
        said.append(words)
        taken.append(unit)
        length += 1 + len(unit.answer_text)
    return " ".join(u.text if u.leads and u.span in {t.span for t in taken[:i]} else u.answer_text
                    for i, u in enumerate(taken)), taken


def _announced(unit: Unit, units: list[Unit]) -> list[Unit]:
    """What an announcing unit announces, in its chunk after it: the next sentence ('These criteria are ...'),
    or, after a colon, the units that follow in order (the items of a list, one paragraph each), as many as the
    answer has room for."""
    after = sorted((u for u in units if u.chunk["id"] == unit.chunk["id"] and u.start >= unit.end),
                   key=lambda u: u.start)
    return after if unit.text.endswith(":") else after[:1]


def evidence_units(taken: list[Unit], ranked: list[Unit], k: int) -> list[Unit]:
    """Up to `k` units, one per chunk: the answer's, then the best ranked ones that do not repeat a unit already
    chosen (most of their terms, REPEAT_SHARE of the smaller set, shared with it): a paper's captions
    'Performance ratio for the simulation on 200 processors, ... tasks' would fill the evidence with one
    statement."""
    chosen: list[Unit] = []
    said: list[set[str]] = []
    seen: set[str] = set()
    for i, unit in enumerate([*taken, *ranked]):
        if len(chosen) == k:
            break
        if unit.chunk["id"] in seen:
            continue
        words = set(terms(unit.text))
        if i >= len(taken) and _repeats(words, said):
            continue
        seen.add(unit.chunk["id"])
        said.append(words)
        chosen.append(unit)
    return chosen


def _repeats(words: set[str], said: list[set[str]]) -> bool:
    """A unit whose terms share REPEAT_SHARE of the smaller set with a unit already said: it says nothing new."""
    return any(len(words & earlier) >= REPEAT_SHARE * min(len(words), len(earlier)) for earlier in said
               if words and earlier)


def confidence(units: list[Unit]) -> float:
    """How much of the question the best sentence supports, damped when it is not clearly ahead."""
    if not units:
        return 0.0
    best = units[0]
    margin = best.score - (units[1].score if len(units) > 1 else 0.0)
    return round(max(0.0, min(1.0, 0.8 * best.coverage + 0.2 * min(1.0, margin * 4))), 3)


def locate_in_chunk(chunk: dict, start: int) -> tuple[int | None, str | None]:
    """The page and box of a character offset of a chunk: the last box whose text begins at or before it
    (`box_starts`, aligned with `bboxes`). A chunk without them (ingested before extractors 0.4.2) gives
    its first box."""
    raw_boxes = chunk.get("bboxes") or []
    if not raw_boxes:
        return chunk.get("page_start"), None
    starts = chunk.get("box_starts") or [0]
    index = max((i for i, at in enumerate(starts[:len(raw_boxes)]) if at <= start), default=0)
    return parse_bbox(raw_boxes[index])[0], raw_boxes[index]

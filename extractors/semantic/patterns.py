"""Pattern families over one sentence: each finds candidate entity names with the family's name and
strength. Pure functions of the text; typing by context and salience happen later (salience.py).

Families: proposed ("we propose X", "our model, X,", title "X: ..."), cited ("X (Author et al., 2019)",
"X [12]"), used ("using X", "compared with X"), method_head ("X network"), dataset_context ("on the X
dataset", "trained on X"), dataset_list ("corpora such as X and Y"), coordination ("X, Y and Z" with one of
them typed), metric_context ("measured by X", "in terms of X", "X score"), metric_lexicon, dataset_lexicon,
task_phrase ("named entity recognition"; stronger in the title or as a whole section heading), task_context
("the task of X", "the X task"), table_column (the cells of a table's Dataset or Task column).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from extractors.semantic import lexicons

DATASET, METHOD, METRIC, TASK = "Dataset", "Method", "Metric", "Task"

# A name token: capitalised, CamelCase, acronym or letters with digits ("word2vec"), hyphen/slash parts allowed.
# Its runs are possessive: what may follow a token (a space, a comma, a bracket, a colon) is never one of its own
# characters, so giving one back never lets a pattern match, and a long word is read once.
_TOK = r"(?:[A-Z][A-Za-z0-9]*+(?:[-/.][A-Za-z0-9]++)*+\+*+|[a-z]++[A-Z0-9][A-Za-z0-9]*+(?:-[A-Za-z0-9]++)*+)"
_NAME = rf"{_TOK}(?:[ \t]+{_TOK}){{0,4}}"
# Where a pattern that opens with a name may start: not just after a capital (the capital starts the same name
# with more of the word), not a lower-case token just after a lower-case letter (likewise), and not deeper than
# 64 characters into a run of name characters (a start inside a long run is found from the run's first 64
# characters; deeper starts made a long run cost its length squared).
_NAME_START = r"(?<![A-Z])(?<![A-Za-z0-9\-/.+]{64})(?![a-z](?<=[a-z][a-z]))"
_OPENING_NAME = _NAME_START + _NAME
# "(Author et al., 2019)" or "[12]"; a parenthesis with only a year follows an author's name, not a thing's
# (the look-aheads stay inside the 80 characters the parenthesis may hold)
_CITE = r"(?:\s*\((?=[^()]{0,79}[A-Za-z])(?=[^()]{0,76}\d{4})[^()]{2,80}\)|\s*\[\d+(?:\s*[,–-]\s*\d+)*\])"
_STRONG = re.compile(r"[A-Z].*[A-Z]|[A-Za-z]\d|\d[A-Za-z]|^[a-z]+[A-Z]")


@dataclass(frozen=True)
class Cue:
    type: str
    name: str
    start: int  # in the sentence
    end: int
    family: str
    strength: float  # how much this family alone says the name is a salient entity of this type


def strong_name(name: str) -> bool:
    """A name that is a name whatever its position: an acronym, CamelCase or letters mixed with digits."""
    return any(_STRONG.search(token) for token in name.split())


# A variable with an index ('m0', 'm8a', 'x2', 'k1Neutral'): one lower-case letter and a digit open it. Papers
# write symbols so (models numbered in a formula, parameters); a name of several letters with digits ('word2vec')
# is still a name.
_SYMBOL = re.compile(r"[a-z]\d")


def symbol(name: str) -> bool:
    """A mathematical symbol with an index, not a name, however strong its mix of letters and digits."""
    return bool(_SYMBOL.match(name))


def name_confidence(label: str, canonical: str) -> float:
    """How likely a name denotes a real entity of its label, from the name alone: known to a lexicon, a
    distinctive name (acronym, CamelCase, digits), a phrase of several words, or one plain word."""
    lexicon = lexicons.datasets() if label == "Dataset" else lexicons.metrics() if label == "Metric" else None
    if lexicon is not None and lexicon.lookup(canonical):
        return 0.9
    if strong_name(canonical):
        return 0.75
    return 0.6 if len(canonical.split()) > 1 else 0.5


def _heads(words: frozenset[str]) -> str:
    return "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words), key=len, reverse=True))


@lru_cache(maxsize=1)
def _compiled() -> dict[str, tuple[re.Pattern, str, float]]:
    t = lexicons.terms()
    ds, mh, th = _heads(t.dataset_heads), _heads(t.method_heads), _heads(t.task_heads)
    return {
        "proposed_we": (re.compile(
            rf"\b[Ww]e\s+(?:propose|present|introduce|develop|describe|design|build|call|name|dub|release|"
            rf"contribute|coin)(?:s|d)?\s+(?:(?:a|an|the|our|it|this|them|here)\s+)?(?:[\w-]+\s+){{0,5}}?"
            rf"(?:called|named|dubbed|coined|termed|,|:|\()?\s*(?P<n>{_NAME})"), METHOD, 0.9),
        "proposed_our": (re.compile(
            rf"\b(?:[Oo]ur|[Tt]he\s+proposed|[Tt]his)\s+(?:[\w-]+\s+){{0,2}}?(?:{mh})\s*+(?:,|\(|:)?\s*+"
            rf"(?:called\s+|named\s+|dubbed\s+)?(?P<n>{_NAME})"), METHOD, 0.8),
        "proposed_appositive": (re.compile(
            rf"(?P<n>{_OPENING_NAME})\s*,\s*(?:a|an)\s+(?:novel|new|simple|general|unified|scalable|open-source)\s+"
            rf"(?:[\w-]+\s+){{0,3}}?(?:{mh})\b"), METHOD, 0.6),
        "dataset_appositive": (re.compile(
            rf"(?P<n>{_OPENING_NAME}){_CITE}?\s*(?:,|\()\s*(?:a|an|the)\s+(?:[\w,.-]+\s+){{0,4}}?(?:{ds})\b"), DATASET, 0.85),
        "cited": (re.compile(rf"(?P<n>{_OPENING_NAME}){_CITE}"), METHOD, 0.55),
        "used": (re.compile(
            rf"\b(?:using|uses|use|used|adopt(?:s|ed)?|employ(?:s|ed)?|appl(?:y|ies|ied)|via|run(?:s)?|ran|"
            rf"compared?\s+(?:with|to|against)|comparisons?\s+(?:with|to|against)|outperforms?|baselines?"
            rf"(?:\s+(?:such\s+as|including|are|is))?|based\s+on|built\s+(?:on|upon)|implemented\s+(?:in|with)|"
            rf"trained\s+with|extends?|relies\s+on|rely\s+on)\s*:?\s+(?:the\s+|a\s+|an\s+)?(?P<n>{_NAME})"),
            METHOD, 0.5),
        "method_head": (re.compile(rf"(?P<n>{_OPENING_NAME})\s+(?:{mh})\b"), METHOD, 0.6),
        "dataset_head": (re.compile(rf"(?P<n>{_OPENING_NAME}){_CITE}?\s+(?:{ds})\b"), DATASET, 0.85),
        "dataset_context": (re.compile(
            rf"\b(?:train(?:ed|ing)?|evaluat(?:e|es|ed|ing)|test(?:ed|ing)?|experiments?|results?|performance|"
            rf"fine-tun(?:e|ed|ing)|pre-?train(?:ed|ing)?|benchmark(?:ed|s)?|scores?|accuracy|F1)\s+"
            rf"(?:\w+\s+){{0,2}}?(?:on|over|from)\s+(?:the\s+)?(?P<n>{_NAME})"), DATASET, 0.7),
        "metric_context": (re.compile(
            r"\b(?:measured|evaluated|assessed|reported|quantified|compared)\s+(?:by|in(?!\s+terms\b)|using|with|via)\s+"
            r"(?:the\s+)?(?P<n>[\w@-]+(?:\s+[\w@-]+){0,3}?)(?=\s*(?:[,.;:()]|and\b|of\b|on\b|$))"
            r"|\bin\s+terms\s+of\s+(?:the\s+)?(?P<m>[\w@-]+(?:\s+[\w@-]+){0,3}?)(?=\s*(?:[,.;:()]|and\b|of\b|on\b|$))"),
            METRIC, 0.7),
        "task_context": (re.compile(
            rf"\b(?:task|problem)s?\s+of\s+(?P<n>[\w-]+(?:\s+[\w-]+){{0,3}}?\s+(?:{th}))\b"
            rf"|\b(?:the|a|an|our)\s+(?P<m>[\w-]+(?:\s+[\w-]+){{0,3}}?)\s+(?:task|problem)s?\b"
            rf"|^(?P<k>[\w-]+(?:\s+[\w-]+){{0,3}}?)\s+(?:is|are)\s+(?:the|a|an)\s+(?:\w+\s+)?(?:task|problem)\s+of\b"),
            TASK, 0.7),
        "task_address": (re.compile(
            rf"\b(?:address(?:es|ed|ing)?|tackl(?:e|es|ed|ing)|solv(?:e|es|ed|ing)|stud(?:y|ies|ied|ying)|"
            rf"focus(?:es|ed|ing)?\s+on|investigat(?:e|es|ed|ing)|work\s+on|advances?\s+in|progress\s+in)\s+"
            rf"(?:the\s+|a\s+)?(?:(?:problem|task|challenge)s?\s+of\s+)?(?P<n>(?:[\w-]+\s+){{0,3}}?(?:{th}))\b"),
            TASK, 0.65),
        "task_purpose": (re.compile(
            rf"\b(?:{mh}|approach(?:es)?|techniques?|solutions?|tools?|resources?|benchmarks?|datasets?|corpus)\s+"
            rf"(?:for|to)\s+(?:the\s+)?(?:(?:problem|task)s?\s+of\s+)?(?P<n>(?:[\w-]+\s+){{0,3}}?(?:{th}))\b"),
            TASK, 0.55),
        # (a phrase starts no deeper than 64 characters into a hyphenated run: deeper starts each read the run again)
        "task_phrase": (re.compile(rf"\b(?<![\w-]{{64}})(?P<n>(?:[A-Za-z][\w-]*+\s+){{1,3}}(?:{th}))\b"), TASK, 0.35),
    }


def clean_name(name: str, kind: str) -> str:
    """Drop stop words at both ends ('In PubTabNet' -> 'PubTabNet', 'the dependency parsing' -> ...)."""
    t = lexicons.terms()
    words = name.strip(" ,.;:()[]'\"").split()
    stops = t.phrase_stops if kind == TASK else t.stop_names
    lower = kind == TASK
    while words and ((words[0].lower() if lower else words[0].rstrip(".")) in stops or words[0].lower() in t.phrase_stops):
        words.pop(0)
    while words and ((words[-1].lower() if lower else words[-1].rstrip(".")) in stops):
        words.pop()
    if not lower:  # 'SIF The SIF': a stop word inside a run of capitalised words ends the name
        cut = next((k for k, w in enumerate(words) if k and w.rstrip(".") in stops), len(words))
        words = words[:cut]
        half = len(words) // 2
        if half and words[:half] == words[half:]:  # 'ELMo ELMo': a name printed twice in a row is named once
            words = words[:half]
    if kind == TASK:  # 'learning across dependency parsing': the phrase is what follows the last stop word
        last_stop = max((k for k, w in enumerate(words) if w.lower() in t.phrase_stops), default=-1)
        words = words[last_stop + 1:]
        while len(words) > 1 and words[0].lower() in t.phrase_stops | t.task_heads | t.task_non_openers:
            words.pop(0)  # 'an alternative alignment' is at most 'alignment'
    return " ".join(words).rstrip(".,;:")


_SUFFIXES = ("-based", "-like", "-style", "-aware", "-specific", "-level", "-wise")


def _introduces_dataset(after: str) -> bool:
    return bool(_dataset_after().match(after))


@lru_cache(maxsize=1)
def _dataset_after() -> re.Pattern:
    return re.compile(rf"\s*+(?:,|\(|:)?\s*+(?:a|an|the)?\s*+(?:[\w-]+\s+){{0,4}}?(?:{_heads(lexicons.terms().dataset_heads)})\b")


def _plausible(name: str, family: str) -> bool:
    """Context families capture any phrase: a metric phrase must be a known metric, an acronym or end in a
    metric noun; a task phrase must end in a task noun, a gerund or be an acronym; adverbs never name tasks."""
    t = lexicons.terms()
    last = name.split()[-1]
    if family == "metric_context":
        return bool(lexicons.metrics().lookup(name)) or strong_name(name) and len(name.split()) == 1 or \
            last.lower() in lexicons.metric_heads()
    if family == "task_context":
        gerund = last.endswith("ing") and last.lower() not in t.non_task_gerunds
        return (last.lower() in t.task_heads or gerund or strong_name(last)) and \
            not any(w.endswith("ly") for w in name.split())
    if family == "task_phrase":
        return not any(w.endswith("ly") for w in name.split())
    return not name.lower().endswith(_SUFFIXES)


_TASK_CONTEXTS = ("task_context", "task_address")  # 'a model for parsing' is too weak for one noun


def valid_name(name: str, kind: str, family: str = "") -> bool:
    """A task is a phrase of 2-4 words, or one task noun a task context names ('the summarization task')."""
    if not name or len(name) > 60 or len(re.findall(r"[A-Za-z]", name)) < 2:
        return False
    if kind == TASK:
        words = name.split()
        shortest = 1 if family in _TASK_CONTEXTS and name.lower() in lexicons.terms().task_heads else 2
        return shortest <= len(words) <= 4 and all(w[0].isalpha() for w in words) and not any(
            w.lower() in lexicons.terms().phrase_stops for w in words)
    return name.split()[0][0].isalpha() or name[0].isdigit()


def _heading_is(heading: str, start: int, length: int) -> bool:
    """The task phrase is the whole heading but for a number and punctuation ('4.2 Citation Prediction')."""
    return not re.search(r"[A-Za-z]", heading[:start] + heading[start + length:])


def _strength(family: str, strength: float, title: bool, whole_heading: bool) -> float:
    """A task phrase in the title names what the paper is about; one that is a whole heading, its section's."""
    if family != "task_phrase":
        return strength
    return 0.7 if title else 0.6 if whole_heading else strength


# a list member may carry a citation or a short note: "PubTabNet [22]", "FinTabNet (113k samples)"
_MEMBER = rf"{_NAME}(?:\s*(?:\([^()]{{1,60}}\)|\[[^\[\]]{{1,30}}\]))?"
# at most 40 members before the 'and': from every member of a longer comma list the search read the rest of it
_LIST = re.compile(rf"{_NAME_START}{_MEMBER}(?:\s*,\s*{_MEMBER}){{0,40}},?\s+(?:and|or)\s+{_MEMBER}")
_NOTES = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# what follows an author's name in a citation: 'Huang et al.', 'Lee, 2018', 'Chen and Lee, 2018',
# 'Saier and Färber (2019)'
# (its runs of spaces are possessive: each is followed by a word, a comma or a bracket, never by another space)
_AUTHOR_AFTER = re.compile(r"(?:\s++(?:and|&)\s++[^\s,;()]+)?\s*+(?:et\s++al\b|,?\s*+\(?(?:19|20)\d\d[a-z]?\b)")
_TYPED_BY_LIST = (DATASET, METHOD)


def _members(sentence: str, start: int, end: int) -> list[tuple[int, int]]:
    """The names of a list span, not the words of its citations or notes, nor stop words, nor the authors of
    a citation the list is ('(Huang et al., 2019; Lee, 2018)')."""
    text = sentence[start:end]
    notes = [(n.start(), n.end()) for n in _NOTES.finditer(text)]
    return [(start + x.start(), start + x.end()) for x in re.finditer(_NAME_START + _TOK + r"(?:[ \t]+" + _TOK + r")*", text)
            if not any(a <= x.start() < b for a, b in notes) and x.group(0) not in lexicons.terms().stop_names
            and not _AUTHOR_AFTER.match(sentence, start + x.end())]


def coordination_cues(sentence: str, cues: list[Cue]) -> list[Cue]:
    """Names coordinated with a typed name ('ukWaC, Wikipedia and BNC') share its type: the family
    'coordination' gives the other members a weaker cue of the type the list's typed members agree on. A
    citation names no type ('PubTabNet [22], FinTabNet [21] and PubTables-1M data sets'), so it only votes
    when nothing else in the list does."""
    out = []
    for m in _LIST.finditer(sentence):
        members = _members(sentence, m.start(), m.end())
        inside = [c for c in cues if m.start() <= c.start < m.end() and c.type in _TYPED_BY_LIST]
        inside = [c for c in inside if c.family != "cited"] or inside
        kinds = {c.type for c in inside}
        if len(members) < 2 or len(kinds) != 1:
            continue
        kind = kinds.pop()
        for s, e in members:
            if not any(c.start == s for c in inside) and valid_name(sentence[s:e], kind):
                out.append(Cue(kind, sentence[s:e], s, e, "coordination", 0.5))
    return out


@lru_cache(maxsize=1)
def _dataset_list() -> re.Pattern:
    heads = _heads(lexicons.terms().dataset_list_heads)
    return re.compile(rf"\b(?:{heads})\s*(?:,?\s*such\s+as|,?\s*including|,?\s*namely|like|:|\()\s*"
                      rf"(?:the\s+)?(?P<l>{_MEMBER}(?:\s*,\s*{_MEMBER})*(?:,?\s+(?:and|or)\s+{_MEMBER})?)")


def dataset_list_cues(sentence: str) -> list[Cue]:
    """Names a dataset noun introduces ('data sets such as X and Y', 'three corpora: X, Y and Z') are
    datasets, each of them."""
    out = []
    for m in _dataset_list().finditer(sentence):
        for s, e in _members(sentence, m.start("l"), m.end("l")):
            if valid_name(sentence[s:e], DATASET):
                out.append(Cue(DATASET, sentence[s:e], s, e, "dataset_list", 0.75))
    return out


_HEADER_METRIC = re.compile(r"\s*(?P<n>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){1,3})\s*(?:\([^()]{0,20}\)|\[[^\[\]]{0,20}\])?\s*$")


def header_metric(cell: str) -> str | None:
    """A header cell that is a metric's name by how it is built: two to four words ending in a metric head
    ('Disk efficiency', 'Frobenius error'), with at most a unit after it ('Total cost ($)')."""
    m = _HEADER_METRIC.match(cell)
    if m is None or m.group("n").split()[-1].lower() not in lexicons.metric_heads():
        return None
    return m.group("n")


# 'Table 2:', 'Figure 3.', 'Fig. 4', then what the float shows: '(A) plot of the', 'the', 'effect of X on'
_CAPTION_OPENING = re.compile(r"\s*(?:Table|Figure|Fig\.?)\s+[\w.]+\s*[:.]?\s*"
                              r"(?:(?:a\s+)?(?:plots?|graphs?|curves?)\s+of\s+|effect\s+of\s+.{1,40}?\s+on\s+)?"
                              r"(?:the\s+)?", re.IGNORECASE)
_CAPTION_NAME = re.compile(r"(?P<n>[A-Za-z][\w'’-]*(?:\s+(?!(?:of|for|on|in|at|with|by|versus|vs|over|as|and|"
                           r"between|under|per|from|to|when|across)\b)[A-Za-z][\w'’-]*){0,5})", re.IGNORECASE)


def caption_metric(caption: str) -> Cue | None:
    """The quantity a table or figure caption opens with, when it is a metric's name: 'Figure 3: Performance
    ratio for the simulation ...', 'Plot of the squared Frobenius norm error of ...', 'Table 4: The Pearson's
    correlation between ...'. A plot or a result table shows a measured quantity, and its caption names it first;
    the name must be a known metric or two words or more ending in a metric head."""
    opening = _CAPTION_OPENING.match(caption)
    if opening is None or (m := _CAPTION_NAME.match(caption, opening.end())) is None:
        return None
    name = m.group("n")
    words = name.split()
    known = lexicons.metrics().lookup(name)
    if not known and (len(words) < 2 or words[-1].lower() not in lexicons.metric_heads()):
        return None
    if len(words) > 1 and name.isupper():  # 'COST PER FULL-RATE STREAM': a caption set in capitals says no more
        return None
    if any(w.lower() in lexicons.terms().phrase_stops for w in words[1:-1]):  # 'SIDD outperforms other measures'
        return None  # a sentence, not a name
    return Cue(METRIC, name, m.start("n"), m.end("n"), "caption", 0.6)


def cell_cues(line: str, result_table: bool, header: bool = False) -> list[Cue]:
    """Cues of one table row ('cell | cell | ...'): metric names among the cells (short forms such as 'P',
    'R', 'F1' count here, but not a lower-case letter, which is a variable such as a p-value, nor a formula such
    as 'p1 = 0.3'), in a header row (`header`) also a cell named like a metric (header_metric), and, in a
    result table (one with a metric header), a named first cell as a method."""
    cues = []
    offset = 0
    for n, cell in enumerate(line.split(" | ")):
        found = []
        for word in re.finditer(r"[^\s()=]+(?:\s+[^\s()=\d]+){0,3}", cell):
            token = word.group(0).strip(".,:;")
            variable = len(token) == 1 and token.islower() or cell[word.start() + len(token):].lstrip().startswith("=")
            if lexicons.metrics().lookup(token) and not variable:
                found.append(Cue(METRIC, token, offset + word.start(), offset + word.start() + len(token), "table_header", 0.6))
        if header and not found and (name := header_metric(cell)):
            start = offset + cell.find(name)
            found.append(Cue(METRIC, name, start, start + len(name), "table_header", 0.6))
        cues += found
        name = re.match(rf"\s*(?P<n>{_NAME})", cell)
        if result_table and n == 0 and name and strong_name(name.group("n")) and not symbol(name.group("n")) and \
                not re.search(r"\d\.\d", cell):
            cues.append(Cue(METHOD, name.group("n"), offset + name.start("n"), offset + name.end("n"), "table_row", 0.45))
        offset += len(cell) + 3
    return _partnered(cues)


_PARTNERS = frozenset({"precision", "recall", "F1"})


def _partnered(cues: list[Cue]) -> list[Cue]:
    """A one-letter header 'P' or 'R' is precision or recall only beside its partners: the two are reported
    together, with or without F1 ('P | R | F1'). Alone, the letter is whatever the table's field calls P or R (a
    p-value, a number of processors, a rank)."""
    known = {c.name: lexicons.metrics().lookup(c.name) for c in cues if c.type == METRIC}
    letters = {c.name for c in cues if len(c.name) == 1 and known.get(c.name) in _PARTNERS}
    if not letters:
        return cues
    partners = {known[c.name] for c in cues if c.type == METRIC and known.get(c.name) in _PARTNERS}
    return cues if len(partners) >= 2 else [c for c in cues if c.name not in letters]


def _named_cell(cell: str) -> bool:
    """A cell that names something: capitalised or a strong name, and no citation ('Kim et al. (2003)')."""
    return (cell[0].isupper() or strong_name(cell)) and not re.search(r"\bet al\b|\(\d{4}[a-z]?\)", cell)


def _column_kind(cell: str) -> str | None:
    """The kind a table's header cell says its column (or, ending in an arrow, its row) lists."""
    t = lexicons.terms()
    head = cell.strip(" .:*→").lower()
    return DATASET if head in t.dataset_heads else TASK if head in t.task_column_heads else None


def _column_entry(cell: str, kind: str) -> str | None:
    """The name a listed cell gives, without a bracketed note and what follows it: 'DEP (UAS)' -> 'DEP',
    'Advogato (AD)' -> 'Advogato', 'Hamsterster friendships (Shf) undirected' -> 'Hamsterster friendships'."""
    heads = lexicons.terms().dataset_heads
    name = re.sub(r"\s*\(.*$", "", cell).strip()
    if not (2 <= len(re.findall(r"[A-Za-z]", name)) and len(name.split()) <= 5 and _named_cell(name)) or \
            lexicons.metrics().lookup(name) or name.lower() in heads or _column_kind(name) or \
            name.rstrip(".") in lexicons.terms().stop_names:  # 'Total', 'Average' rows
        return None
    if kind == TASK and (re.search(r"\d", name) or not all(w[0].isalpha() for w in name.split())):
        return None
    return name


_MERGED_VALUES = re.compile(r"\d\s+[-+−]?\d")


def _shift(header: list[str], row: list[str]) -> int:
    """How far a row's cells sit left of the header's: a shorter row lacks a cell spanning rows on its left
    ('Biomed' over three rows), so it aligns right; but when the parse merged some of its values into one cell
    ('undirected 149700 5449275'), it is short on the right and aligns left."""
    if any(_MERGED_VALUES.search(cell) for cell in row):
        return 0
    return max(len(header) - len(row), 0)


def column_cues(lines: list[str]) -> list[tuple[int, Cue]]:
    """A table whose header (first two rows) has a 'Dataset'/'Corpus'/'Benchmark' or a 'Task' column lists
    datasets or tasks in that column: (row index, cue) for each named cell below the header. A header cell
    with an arrow ('Task → | Classification | Citation prediction') lists them along its row instead."""
    rows = [line.split(" | ") for line in lines]
    out = []
    for header_row, row in enumerate(rows[:2]):
        for j, cell in enumerate(row):
            kind = _column_kind(cell)
            if kind is None:
                continue
            along = cell.rstrip().endswith("→")
            places = [(header_row, k) for k in range(j + 1, len(row))] if along else \
                [(r, j - _shift(row, rows[r])) for r in range(header_row + 1, len(rows))
                 if 0 <= j - _shift(row, rows[r]) < len(rows[r])]
            for r, k in places:
                text = rows[r][k].strip()
                name = _column_entry(text, kind)
                if name:
                    offset = sum(len(c) + 3 for c in rows[r][:k]) + rows[r][k].find(text)
                    out.append((r, Cue(kind, name, offset, offset + len(name), "table_column", 0.6)))
    return out


@lru_cache(maxsize=1)
def _triggers() -> dict[str, re.Pattern]:
    """A cheap test per family: the full pattern only runs on sentences that contain its key words."""
    t = lexicons.terms()
    return {
        "proposed_we": re.compile(r"\b[Ww]e\b"),
        "proposed_our": re.compile(r"\b(?:[Oo]ur|[Pp]roposed|This)\b"),
        "proposed_appositive": re.compile(r", an? "),
        "dataset_appositive": re.compile(r"[,(]\s*(?:an?|the) "),
        "cited": re.compile(r"\(|\["),
        "used": re.compile(r"\b(?:us|adopt|employ|appl|via|run|ran|compar|outperform|baseline|based|built|implemented|"
                           r"trained|extend|rel)"),
        "dataset_head": re.compile(rf"\b(?:{_heads(t.dataset_heads)})\b"),
        "dataset_context": re.compile(r"\b(?:on|over|from)\b"),
        "metric_context": re.compile(r"\b(?:measured|evaluated|assessed|reported|quantified|compared|terms)\b"),
        "task_context": re.compile(r"\b(?:task|problem)"),
        "task_address": re.compile(r"\b(?:address|tackl|solv|stud|focus|investigat|work|advance|progress)"),
        "task_purpose": re.compile(rf"\b(?:{_heads(t.task_heads)})\b"),  # the phrase ends in a task noun
        "task_phrase": re.compile(rf"\b(?:{_heads(t.task_heads)})\b"),
        "method_head": re.compile(rf"\b(?:{_heads(t.method_heads)})\b"),
    }


def find_cues(sentence: str, title: bool = False, heading: bool = False) -> list[Cue]:
    """Every pattern family's candidates in one sentence (title=True adds the 'X: ...' title family). A task
    phrase in the title, or making up a section heading, is what the paper or section is about; there task
    phrases are found in any case, since titles and headings capitalise every word."""
    cues = []
    triggers = _triggers()
    for family, (pattern, kind, strength) in _compiled().items():
        text = sentence.lower() if kind == TASK and (title or heading) else sentence  # 'Citation Prediction'
        if not triggers[family].search(text):
            continue
        for m in pattern.finditer(text):
            group = next((g for g in ("n", "m", "k") if g in pattern.groupindex and m.group(g)), None)
            if group is None:
                continue
            raw = m.group(group)
            name = clean_name(raw, kind)
            if not valid_name(name, kind, family):
                continue
            if family.startswith("proposed") and not (strong_name(name) or len(name.split()) > 1) or \
                    m.start(group) == 0 and kind != TASK and not strong_name(name):
                continue  # a capitalised word opening a sentence is not a name by itself
            if not _plausible(name, family):
                continue
            start = m.start(group) + raw.find(name.split()[0])
            if family == "task_phrase" and start > 0 and re.match(r"[A-Z][a-z]", name):
                continue  # 'Cox regression', 'Gang scheduling': a proper name inside a sentence makes a method's name
            if family.startswith("proposed") and _introduces_dataset(sentence[m.end(group):]):
                kind = DATASET  # "we introduce S2ORC, a large corpus of ..." proposes a dataset
            whole_heading = heading and _heading_is(sentence, start, len(name))
            cues.append(Cue(kind, name, start, start + len(name), family, _strength(family, strength, title, whole_heading)))
    cues += lexicon_cues(sentence)
    if triggers["dataset_head"].search(sentence):
        cues += dataset_list_cues(sentence)
    cues += coordination_cues(sentence, cues)
    if title and (m := re.match(rf"\s*(?P<n>{_NAME})\s*:", sentence)) and valid_name(m.group("n"), METHOD):
        cues.append(Cue(METHOD, m.group("n"), m.start("n"), m.end("n"), "proposed_title", 0.95))
    if title:
        cues += title_task_cues(sentence)
    return cues


# A title's main part: after a 'Name:' prefix, else before a subtitle; a verb of improvement opening it is no task
_TITLE_MAIN = re.compile(rf"^\s*(?:{_NAME}\s*:\s*)?(?i:(?:improving|enhancing|boosting|towards?|revisiting|rethinking)\s+)?"
                         r"(?P<t>[^:]+)")
_NP = r"[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,4}?"
# '<task> via|using|with|by|through <method>' and '<process> of <object> in|on|for ...'
_TITLE_TASK = re.compile(rf"(?P<n>{_NP})\s+(?:via|using|with|by|through|based\s+on)\s+"
                         rf"|(?P<m>[A-Za-z][\w-]*\s+of\s+(?:the\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){{0,2}}?)"
                         r"(?=\s+(?:in|on|for|with|via|using|by|from|under)\b|\s*$)", re.IGNORECASE)
_NOMINAL = ("tion", "sion", "ment", "ing", "sis", "ance", "ence")


def title_task_cues(title: str) -> list[Cue]:
    """What a title says the paper does, by the way titles are written: '<task> via|using|with <method>'
    ('Noisy Matrix Decomposition via Convex Relaxation', 'SPECTER: Document-level Representation Learning using
    ...') and '<process> of <object> in ...' ('Improving Detection of Influential Nodes in Complex Networks').
    The task's head is a process noun (a task head, or a nominalisation such as 'decomposition', 'learning'),
    and a task is never a study the paper performs ('Analyses of ...')."""
    t = lexicons.terms()
    main = _TITLE_MAIN.match(title)
    if main is None or (m := _TITLE_TASK.match(title, main.start("t"))) is None:
        return []
    group = "n" if m.group("n") else "m"
    name = m.group(group)
    words = name.lower().split()
    head = words[-1] if group == "n" else words[0]
    inner = [w for w in words if w not in ("of", "the")] if group == "m" else words
    if not (head in t.task_heads or head.endswith(_NOMINAL)) or head in t.study_heads or \
            head in t.non_task_gerunds or any(w in t.phrase_stops for w in inner) or len(inner) < 2:
        return []
    return [Cue(TASK, name.lower(), m.start(group), m.end(group), "title_task", 0.7)]


@lru_cache(maxsize=1)
def _lexicon_index() -> dict[str, list[tuple[str, str, str]]]:
    """surface (lower case) -> (kind, canonical, surface as written) for every lexicon name and alias."""
    index: dict[str, list[tuple[str, str, str]]] = {}
    for kind, data in ((METRIC, lexicons.entries("metrics")), (DATASET, lexicons.entries("datasets"))):
        for canonical, aliases in data.items():
            for surface in map(str, [canonical, *(aliases or [])]):
                if len(surface) > 2 or any(c.isdigit() for c in surface):  # 'P', 'R', 'AP': table headers only
                    index.setdefault(surface.lower(), []).append((kind, str(canonical), surface))
    return index


_WORD = re.compile(r"[\w@+/'-]+(?:\.\d+)?")


@lru_cache(maxsize=1)
def _lexicon_starts() -> dict[str, int]:
    """first word (lower case) of a lexicon surface -> the most words any surface starting with it has."""
    starts: dict[str, int] = {}
    for surface in _lexicon_index():
        words = [m.group(0) for m in _WORD.finditer(surface)]
        if words:
            starts[words[0]] = max(starts.get(words[0], 0), len(words))
    return starts


def _written_as(text: str, surface: str) -> bool:
    """Whether `text` is the lexicon's `surface`: an acronym (a capital after the first letter: 'MAP', 'mAP',
    'nDCG') or a word with digits is written one way, its case is what tells it from a common word ('map'); other
    words in any case ('Adjusted Rand Index' in a table header)."""
    ours, theirs = text.split(), surface.split()
    return len(ours) == len(theirs) and all(
        a == b if any(c.isupper() for c in b[1:]) or any(c.isdigit() for c in b) else a.lower() == b.lower()
        for a, b in zip(ours, theirs))


# A measure's word used as a verb: at the sentence's start (or a parenthesis's) or after a subject or 'to' ('Recall
# that ...', 'we recall the definition', 'to recall how', 'Recall r = ...'), with a clause, an object or a symbol
# after it (the noun goes on with 'of', 'is', a number: 'Recall of the system', 'recall is 0.8').
_VERB_BEFORE = re.compile(r"(?:^|[(\[]|\b(?:we|us|I|you|to|also|briefly|first|now)\s+)$", re.I)
_VERB_AFTER = re.compile(r"^\s+(?:(?:that|how|what|why|whether|where|from|the|a|an|our|this|these|those|its|their)\b"
                         r"|[A-Za-z](?=\s*[=(,]))")  # or a symbol it defines: 'Recall r = L/C


def _as_verb(sentence: str, start: int, end: int) -> bool:
    return sentence[start:end].lower() in _VERBS and bool(_VERB_BEFORE.search(sentence[:start])
                                                          and _VERB_AFTER.match(sentence[end:]))


_VERBS = frozenset({"recall"})  # the measures' words that are also verbs ('precision', 'error' are nouns only)


def lexicon_cues(sentence: str) -> list[Cue]:
    """Lexicon hits (longest first, up to four words), weak on their own: a metric word near a number is a
    little stronger. Dataset names match in case; metric names as `_written_as` says ('map' in 'learning to map
    sentences' is a verb, not mAP)."""
    index = _lexicon_index()
    starts = _lexicon_starts()
    words = [(m.start(), m.end()) for m in _WORD.finditer(sentence)]
    cues = []
    i = 0
    while i < len(words):
        longest = starts.get(sentence[words[i][0]:words[i][1]].lower(), 0)
        for n in range(min(longest, len(words) - i), 0, -1):
            start, end = words[i][0], words[i + n - 1][1]
            text = sentence[start:end]
            hit = next((entry for entry in index.get(text.lower(), [])
                        if text == entry[2] or entry[0] != DATASET and _written_as(text, entry[2])), None)
            if hit and " " * (n - 1) == "".join(c for c in text if c.isspace()) \
                    and not (hit[0] == METRIC and _as_verb(sentence, start, end)):
                near_number = bool(re.search(r"\d", sentence[end: end + 25]))
                strength = 0.45 if hit[0] == METRIC and near_number else 0.3
                cues.append(Cue(hit[0], text, start, end, f"{hit[0].lower()}_lexicon", strength))
                i += n - 1
                break
        i += 1
    return cues

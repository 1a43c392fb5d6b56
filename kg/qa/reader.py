"""The reader: what kind of answer a question asks for (a number, a list, a definition, an abbreviation's long
form, a section, a name), the tables, figures and other numbered things it names, and the span of a candidate
unit (a sentence, a list item or a table row) that gives the answer: a number with its unit, the cell of a table
row with its row and column headers, the long form of an abbreviation, a defining sentence, a numbered section.
kg.qa.answer scores the units with it.

Rules of typography and English question forms only, so they hold for any paper: nothing here knows a paper,
a field or a term.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.text import long_form_start
from kg.qa.analysis import printed_symbols
from kg.qa.text import QUESTION_WORDS, STOPWORDS, abbreviations, stem, terms, tokens, unfronted

_QUANTITIES = (r"(number|percentage|proportion|share|size|fraction|amount|value|score|f1|accuracy|precision|recall|"
               r"error|rate|speed|time|runtime|throughput|average|resolution|dimensionality|dimension|length|count|"
               r"range|cost|spread)")
NUMERIC_Q = re.compile(rf"\b(how (many|much|long|large|fast|big|often)|what {_QUANTITIES}|at how many|which year|"
                       rf"what (is|are|was|were) (the |its |their )?([\w\-]+ ){{0,2}}{_QUANTITIES}|"
                       r"what [\w\- ]*\b(score|f1|accuracy|rate|ratio|time|map|bleu|auc|cost|values?|fold))\b", re.I)
# A question that names the unit of its answer asks for a number: 'in hectares', '(mm)'
_UNIT_ASKED = re.compile(r"\bin\s+(?:(?i:hectares|acres|(?:kilo|centi|milli|micro|nano)?met(?:er|re)s|seconds|minutes|"
                         r"hours|days|weeks|months|years|percent|degrees|kelvin|(?:kilo|milli)?grams|lit(?:er|re)s|"
                         r"angstroms?|\u00e5ngstr\u00f6ms?)|ha|mm|cm|km|nm|ms|kg|mg)\b|"
                         r"\s\((?:mm|cm|km|nm|ms|ha|kg|mg|%|\u00b0C|K)\)")  # units as printed: 'MS MARCO' is no unit
# 'What share of the trials ...': the answer is a percentage
_PERCENT_Q = re.compile(r"\b(?:share|proportion|fraction|percentage)\s+of\b|\bpercent\b", re.I)  # not 'they share'
# 'What ratio of A to B ...', 'In what ratio were ... split': the answer is printed as a ratio, '40:60'; an odds,
# hazard, risk or likelihood ratio, a signal-to-noise, aspect or compression ratio is one number
_RATIO_Q = re.compile(r"(?<!odds )(?<!hazard )(?<!risk )(?<!likelihood )(?<!noise )(?<!aspect )(?<!compression )"
                      r"\bratio\b", re.I)
_RATIO = re.compile(r"\d+(?:\.\d+)?(?::\d+(?:\.\d+)?)+")
# 'Which optimizer were ...': the kind of thing a name answers, printed after the name ('the Adam optimizer')
_WHICH_NOUN = re.compile(r"^(?:which|what)\s+([a-z][\w\-]*)\s+(?:is|are|was|were|do|does|did|has|have|had)\b", re.I)
# 'How many passages ...': the noun counted, the first words after 'how many' up to a stop word
_HOW_MANY = re.compile(r"\bhow\s+many\s+(.*)", re.I)
# A question asking for a date, and the dates a sentence gives ('December 15, 1998', '15 Dec. 1998', '1998-12-15')
_DATE_Q = re.compile(r"\b(?:what|which)\s+(?:date|day|month)\b|^when\s+(?:was|were|did)\b.*\b(?:published|received|"
                     r"submitted|accepted|released|launched|founded|held|collected|recorded|conducted)\b", re.I)
_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
          r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_DATE = re.compile(rf"\b(?:\d{{1,2}}\s+{_MONTH}\s+\d{{4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|"
                   rf"{_MONTH}\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})\b")
# 'What is a function that ... called?': the question asks for the name a sentence gives something, after
# 'called', 'termed', 'known as'
_NAMING_Q = re.compile(r"^what\s+(?:is|are|was|were)\s+.+?\s+(?:called|termed|named|known\s+as|referred\s+to\s+as)\b|"
                       r"^what\s+is\s+the\s+name\s+of\b", re.I)
_NAMING = re.compile(r"\b(?:called|termed|named|dubbed|known\s+as|referred\s+to\s+as)\s+(?:an?\s+|the\s+)?"
                     r"([^,.;:()]{2,60})", re.I)
_COUNT_Q = re.compile(r"^(?:which|what)\s+(?:\w+\s+){0,3}?(two|three|four|five|six|seven|eight|nine|ten)\b", re.I)
_LIST_Q = re.compile(r"^(?:list|name)\b|^(?:which|what)\s+(?:kinds?|types?|sorts?)\s+of\b|"
                     r"^(?:(?:at|on|in|for|from|with|by|to)\s+)?(?:which|what)\s+(?:[\w\-]+\s+){0,4}?"
                     r"[\w\-]+s(?-i:(?<!ss)(?<!is)(?<!us))\s+"  # a plural ('GPUs' too): not 'class', 'corpus'
                     r"(?:of\s+[\w\-]+\s+)?(?:are|were|was|is|do|does|did|have|has)\b", re.I)
# "What does X stand for", "the abbreviation X", "the acronym X": X is a short form with two capitals or more
_SHORT_FORM = r"([A-Za-z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9\-]*)"
_ACRONYM_Q = re.compile(rf"\b(?:does|do|did)\s+(?:the\s+)?(?:abbreviation\s+|acronym\s+|(?:evaluation\s+)?metric\s+|"
                        rf"measure\s+|term\s+)?{_SHORT_FORM}\s+stand\s+for\b|"
                        rf"\b(?:abbreviation|acronym|short\s+form)\s+{_SHORT_FORM}\b", re.I)
_DEFINITION_Q = re.compile(r"^(?:how\s+(?:is|are|was|were)\s+(?P<a>.+?)\s+(?:defined|described|characteri[sz]ed|"
                           r"given|computed|measured)\b|what\s+(?:is|are)\s+meant\s+by\s+(?P<b>.+?)\s*\??$|"
                           r"what\s+do(?:es)?\s+(?:the\s+)?(?:paper|work|study|article|authors?)\s+mean\s+by\s+"
                           r"(?P<d>.+?)\s*\??$|"
                           r"what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<c>[^?]{1,60}?)\s*\??$|"
                           r"what\s+happens\s+(?:during|in|on)\s+(?:an?\s+|the\s+)?(?P<e>[^?]{1,60}?)\s*\??$)", re.I)
# Numbered things a question may name, and their labels, one or several: 'Examples 1 and 2', 'Sec. 3.2'
_REFERRED = re.compile(r"\b(tables?|tab\.|figures?|figs?\.|examples?|sections?|secs?\.|equations?|eqs?\.|"
                       r"theorems?|lemmas?|corollar(?:y|ies)|algorithms?|appendi(?:x|ces))\s*"
                       r"((?:[A-Z]?\d+(?:\.\d+)*[a-z]?|\b[IVXL]+\b)(?:\s*(?:,|and|&)\s*(?:[A-Z]?\d+(?:\.\d+)*[a-z]?|"
                       r"\b[IVXL]+\b))*)", re.I)
_SECTION_Q = re.compile(r"^(?:which|what|in which|in what)\s+(?:sub)?sections?\b", re.I)
# A table or figure the question names: 'Table 3', 'Table III', 'Fig. 2', 'Figure A.1'
_ELEMENT = re.compile(r"\b(tables?|tab\.|figures?|figs?\.)\s*([A-Z]?\d+(?:\.\d+)?[a-z]?|[IVXL]+\b|[A-Z]\.\d+)",
                      re.I)
# '[19]', '[3, 7]', 'Figure 3', 'Table 2', 'Sec. 4.1', 'Eq. (5)': references, not quantities
_REFERENCE = re.compile(r"\[\d+(?:\s*[,\u2013\-]\s*\d+)*\]|\b(?:fig(?:ure)?s?|tables?|tab|sec(?:tion)?s?|"
                        r"eqs?|equations?|examples?|theorems?|lemmas?|§)\.?\s*\(?\d+(?:\.\d+)*\)?", re.I)
# a number, with what follows it when that is a unit or a scale ('0.3 nm', '15.12 hours', '47.5 %', '684K'); numbers
# joined by colons are one value, a ratio or a time ('40:60', '10:30')
_NUMBER = re.compile(r"(?<![\w.])[-+\u2212]?\d[\d,]*(?:\.\d+)?(?::\d+(?:\.\d+)?)*"
                     r"(?:\s?(?:%|[A-Za-z\u00b5\u00c5]{1,12}\b))?")
# No quantities: a footnote mark glued to the name after it ('2REVERB uses', '8SQuAD is': five letters or more, in
# capitals or with a capital inside, which no unit is: '10Mpc', '8GPUs', '10Gbit', '60FPS' stay), and an item's
# number in parentheses at the start of the item ('(1) Random: ...; (2) BM25: ...'; not 'diabetes (23)').
_NOT_QUANTITY = re.compile(r"(?<![\w.])\d{1,2}(?=[A-Z](?:[A-Z]{4,}|[A-Za-z]*[a-z][A-Z][A-Za-z]*)\b)|"
                           r"(?:^|(?<=[;:.])|(?<=[;:.]\s))\(\d{1,2}\)")


@dataclass(frozen=True)
class Question:
    """What the reader needs to know of a question."""

    kind: str  # number | date | acronym | definition | naming | list | section | entity | other
    short: str | None = None  # the short form an acronym question asks about
    term: str | None = None  # the term a definition question asks about
    elements: tuple[str, ...] = ()  # chunk prefixes of the tables and figures it names: 'Table 3:'
    refers: tuple[tuple[str, str], ...] = ()  # (kind, label) of every numbered thing it names: ('ex', '2')
    counted: str | None = None  # the stem of the noun a 'how many' question counts: 'passag'
    symbols: tuple[str, ...] = ()  # the symbols it names, as printed ('\u03a9m' for 'Omega_m')
    percent: bool = False  # it asks for a share: a percentage answers it
    ratio: bool = False  # it asks for a ratio: a ratio printed as one ('40:60') answers it
    noun: str | None = None  # 'which optimizer ...': the kind of thing named, as it follows a name ('Adam optimizer')


def read_question(question: str) -> Question:
    """The kind of answer a question asks for, by the form of the question."""
    whole, q = " ".join(question.split()), unfronted(question)  # 'In Table 5, what ...' names Table 5
    where = {"elements": tuple(dict.fromkeys(_element_prefix(m) for m in _ELEMENT.finditer(whole))),
             "refers": tuple(dict.fromkeys(_references(whole)))}
    acronym = _ACRONYM_Q.search(q)
    if acronym:
        return Question("acronym", short=acronym.group(1) or acronym.group(2), **where)
    if _SECTION_Q.search(q):
        return Question("section", **where)
    if _DATE_Q.search(q):
        return Question("date", **where)
    if NUMERIC_Q.search(q) or _UNIT_ASKED.search(q):
        return Question("number", counted=_counted(q), symbols=tuple(printed_symbols(q)),
                        percent=bool(_PERCENT_Q.search(q)), ratio=bool(_RATIO_Q.search(q)), **where)
    if _NAMING_Q.search(q):
        return Question("naming", **where)
    if _COUNT_Q.search(q) or _LIST_Q.search(q):
        return Question("list", **where)
    definition = _DEFINITION_Q.search(q)
    if definition:
        term = next(g for g in definition.groups() if g)
        term = re.sub(r"^(?:the|an?)\s+", "", term, flags=re.I).strip("\"'“”‘’ ")
        if len(term.split()) <= 6:
            return Question("definition", term=term, **where)
    if re.match(r"^(?:which|what|who)\b", q, re.I):
        noun = _WHICH_NOUN.match(q)
        return Question("entity", noun=noun.group(1).lower() if noun and noun.group(1).lower() not in STOPWORDS
                        else None, **where)
    return Question("other", **where)


def _counted(question: str) -> str | None:
    """The stem of the noun a 'how many' question counts: the last of the words after 'how many' before the
    first stop word ('How many training examples were used?' counts examples); a compound of letters and digits
    is one word ('How many bisaryl-1,4-dien-3-one analogs', 'How many 3D scans'), a number alone ends them."""
    match = _HOW_MANY.search(question)
    if not match:
        return None
    words = []
    for word in re.split(r"[\s\u2014]+", match.group(1).lower()):  # 'images\u2014if any\u2014were'; en dashes join
        word = word.strip("?!.,;:()[]\"'")
        if word in STOPWORDS or word in QUESTION_WORDS or not any(ch.isalpha() for ch in word):
            break
        words.append(word)
    last = tokens(words[-1]) if words else []
    return stem(last[-1]) if last and last[-1].isalpha() else None


def counts_of(text: str, counted: str) -> str | None:
    """The first number of a text that counts the noun asked about, with the words between ('21,015,324
    passages', '1800 machines', '12 Transformer layers'): the direct answer to 'how many passages'."""
    pattern = rf"(?<![\w.])\d[\d,]*(?:\.\d+)?((?:\s+[\w\-]+){{0,2}}?)\s+{re.escape(counted)}\w*\b"
    for match in re.finditer(pattern, _REFERENCE.sub(" ", text), re.I):
        if not set(tokens(match.group(1))) & STOPWORDS:  # '100 words as passages' counts words
            return " ".join(match.group().split())
    return None


# An enumeration's last item: 'and C' after a comma (the serial comma), or 'B and C' in the last part
_LAST_ITEM = re.compile(r"^(?:and|or)\s|\s(?:and|or)\s", re.I)
_BRACKETED = re.compile(r"\(([^()]*)\)|\[[^\[\]]*\]")
_ITEM_WORDS = 8  # an item between commas is a noun phrase, a part longer than this a clause
_LIST_COMMA = re.compile(r"(?<!\d),|,(?!\d)")  # not a thousands separator ('1,234,567')


_EITHER = re.compile(r"either\b", re.I)


def enumerations(text: str) -> set[int]:
    """How many items each enumeration that ends a clause of the text names: 'on A, the B, and C.' 3, 'A, B, C and
    D' 4, 'A and B' 2. The items between commas are short noun phrases, a longer part is a clause whose end is the
    first item; so a short clause before the list reads as an item ('In this work, we used A, B and C': 4). Bracketed
    text is read on its own ('three GC cells (X, Y, and Z)')."""
    pieces = [_BRACKETED.sub("", text), *(m.group(1) for m in _BRACKETED.finditer(text) if m.group(1))]
    out = set()
    for clause in (c for piece in pieces for c in re.split(r"[;:]", piece)):
        parts = [p.strip() for p in _LIST_COMMA.split(clause)]
        if _EITHER.match(parts[-1]):  # ', either at A or at B': two, the clause before names none of them
            parts = parts[-1:]
        last = _LAST_ITEM.search(parts[-1])
        if last is None or last.start() == 0 and len(parts) == 1:  # '(or with heuristics)': no list
            continue
        serial = last.start() == 0  # ', and C': C alone; 'B and C': two items
        middle = 0
        for part in reversed(parts[1:-1]):
            if len(part.split()) > _ITEM_WORDS:
                break
            middle += 1
        out.add((1 if len(parts) > 1 else 0) + middle + (1 if serial else 2))
    return out


def assigned_value(text: str, symbols: list[str]) -> str | None:
    """The value a text sets a symbol the question names to ('\u03a9m = 0.27' for 'Omega_m'), with the
    symbol."""
    for symbol in symbols:
        match = re.search(rf"(?<!\w){re.escape(symbol)}\s*=\s*[-+\u2212]?\d[\d,]*(?:\.\d+)?", text)
        if match:
            return match.group()
    return None


def name_before(text: str, noun: str) -> str | None:
    """The name printed before the noun a 'which <noun>' question asks about ('the Adam optimizer', 'the Keras
    library', 'a BiLSTM encoder'): a word with a capital (and digits, if any: not a bare number), not the sentence's
    first word."""
    for match in re.finditer(rf"(?<=\s)((?=[\w\-+.]*[A-Z])[A-Z0-9][\w\-+.]*[\w+]|[a-z]+[A-Z][\w\-]*)\s+"
                             rf"{re.escape(noun)}(?:s|es)?\b",
                             text):
        if match.group(1).lower() not in STOPWORDS:
            return match.group(1)
    return None


def date_in(text: str) -> str | None:
    """The first full date a text gives ('December 15, 1998')."""
    match = _DATE.search(text)
    return match.group() if match else None


def name_given(text: str) -> str | None:
    """The name a sentence gives something ('is often called a differentially private sanitizer'); after the thing
    named, its name ('We named the system Broccoli')."""
    match = _NAMING.search(text)
    if not match:
        return None
    given = match.group(1).strip()
    after_thing = re.match(r"^[a-z][\w\-]*\s+([A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)\b", given)
    return after_thing.group(1) if after_thing else given


def _element_prefix(match: re.Match) -> str:
    kind = "Table" if match.group(1).lower().startswith("tab") else "Figure"
    return f"{kind} {match.group(2)}:"


def section_of(chunk: dict) -> str | None:
    """The numbered section a chunk belongs to, as an answer to 'Which section ...': 'Section 3.5 Lower Bounds'."""
    number, title = chunk.get("section_number"), chunk.get("section")
    return f"Section {number} {title}" if number and title else None


def _references(text: str) -> list[tuple[str, str]]:
    """(kind, label) of the numbered things a text names; the kind is the first two letters of its word, which
    tell the kinds apart and meet the word's abbreviation ('Eq.' and 'Equation')."""
    return [(m.group(1).lower()[:2], label) for m in _REFERRED.finditer(text)
            for label in re.findall(r"[A-Z]?\d+(?:\.\d+)*[a-z]?|\b[IVXL]+\b", m.group(2))]


def refers_to(text: str, refers: tuple[tuple[str, str], ...]) -> bool:
    """A sentence that refers to one of the numbered things the question names ('as Table 3 shows', 'in Fig. 3',
    'see Examples 1 and 2')."""
    return any(found in refers for found in _references(text))


def ratio_in(numbers: list[str]) -> str | None:
    """The first of `numbers` printed as a ratio ('40:60', '40:60 ratio')."""
    return next((n for n in numbers if _RATIO.fullmatch(n.split()[0])), None)


def without_references(text: str) -> str:
    """The text without citations and the labels of figures, tables, sections and equations ('[19]', 'Table 3'),
    whose numbers are no quantities."""
    return _REFERENCE.sub(" ", text)


def new_numbers(text: str, question: str) -> list[str]:
    """The numbers of a text (with a unit or scale word after them) that the question does not hold itself,
    citations and labels of figures, tables, sections and equations left out."""
    known = {t for t in tokens(question) if t[:1].isdigit()}
    out = []
    for match in _NUMBER.finditer(_NOT_QUANTITY.sub(" ", without_references(text))):
        value = match.group().strip()
        number, _, unit = value.partition(" ")
        value = number if unit.lower() in STOPWORDS else value
        if tokens(value) and tokens(value)[0] not in known:
            out.append(value)
    return out


# ------------------------------------------------------------------ table rows

_ABBREVIATED = re.compile(r"^([a-z]{2,})\.$")


def header_matches(header: str, question_terms: set[str], question_words: set[str]) -> int:
    """How many words of a column or row header the question holds: as a term, or as the word an abbreviation
    with a final period stands for ('Avg.' for 'average': same first letter, its letters in order)."""
    hits = len(set(terms(header)) & question_terms)
    for word in re.findall(r"[A-Za-z]+\.", header):
        short = _ABBREVIATED.match(word.lower())
        if short and any(_abbreviates(short.group(1), w) for w in question_words):
            hits += 1
    return hits


def _abbreviates(short: str, word: str) -> bool:
    if len(word) <= len(short) or word[0] != short[0]:
        return False
    rest = iter(word)
    return all(ch in rest for ch in short)


def table_cell(row: str, question: str) -> str | None:
    """The cell of a table row ('Table 2 | SPECTER | CLS: 84.2 | Avg.: 80.0') that answers a question, with the
    row's label (its first cell) and the cell's column header: 'Table 2, SPECTER, Avg.: 80.0'. The cell is the
    named value whose header the question holds (most header words; the leftmost on a tie); none when no header
    matches, or the row is no table row."""
    cells = [c.strip() for c in row.split(" | ")]
    if len(cells) < 3 or not re.match(r"^Table \S+$", cells[0]):
        return None
    q_terms, q_words = set(terms(question)), {w for w in tokens(question) if w.isalpha()}
    best, best_hits = None, 0
    for cell in cells[1:]:
        header, sep, value = cell.rpartition(": ")
        if not sep or not any(ch.isdigit() for ch in value):
            continue
        hits = header_matches(header, q_terms, q_words)
        if hits > best_hits:
            best, best_hits = cell, hits
    if best is None:
        return None
    label = cells[1].rpartition(": ")[2]  # the row's first cell names it ('SPECTER', 'Model: Large')
    return ", ".join([cells[0], *([label] if cells[1] != best else []), best])


# ------------------------------------------------------------------ the extreme row of a table

# Not 'top', 'max' or 'min': they name quantities too ('top-1 accuracy', a 'Max degree' column).
_MOST = re.compile(r"\b(?:highest|largest|greatest|maximum|best)\b", re.I)
_LEAST = re.compile(r"\b(?:lowest|smallest|minimum|fewest|worst)\b", re.I)
# Quantities of which less is better, so that 'best' asks for their lowest value ('the best perplexity').
_LESS_IS_BETTER = re.compile(r"\b(?:error|errors|loss|perplexity|ppl|cost|costs|time|runtime|latency|delay|wer|cer|"
                             r"rmse|mse|mae)\b", re.I)
_VALUE = re.compile(r"^[-\u2212]?\d[\d,]*(?:\.\d+)?%?$|^[-\u2212]?\.\d+%?$")
# A question about the baselines asks for the rows a paper compares against, not its own ('SPECTER (Ours)').
_BASELINE = re.compile(r"\bbaselines?\b", re.I)
_OWN_ROW = re.compile(r"\bours\b|\bproposed\b", re.I)


def extreme_asked(question: str) -> str | None:
    """'max' or 'min' when a question asks for the extreme of a quantity ('the highest MAP', 'the minimum cost',
    'the best perplexity': best is the lowest of a quantity where less is better), else None."""
    most, least = bool(_MOST.search(question)), bool(_LEAST.search(question))
    if most == least:
        return None
    flip = bool(_LESS_IS_BETTER.search(question)) and re.search(r"\b(?:best|worst)\b", question, re.I) is not None
    return ("max" if most else "min") if not flip else ("min" if most else "max")


def extreme_row(rows: list[str], question: str) -> tuple[int, str] | None:
    """For rows of one table ('Table 1 | SGC | MAP: 91.6 | nDCG: 84.1'), the row holding the extreme value the
    question asks for (extreme_asked) in the column whose header holds most of the question's words, with that
    cell read as table_cell reads it ('Table 1, SGC, MAP: 91.6'): (row index, cell). None when the question asks
    for no extreme, names a row itself ('the maximum degree of Twitter': that row's value is asked for), no
    header matches, or fewer than two rows have a plain number in that column. A header named twice in a row (a
    second level of headers lost) counts its first cell, as table_cell does. A question about the baselines
    leaves out the rows the paper marks as its own ('Ours', 'proposed')."""
    direction = extreme_asked(question)
    if direction is None or any(_names_row(row, question) for row in rows):
        return None
    q_terms, q_words = set(terms(question)), {w for w in tokens(question) if w.isalpha()}
    best_hits, header = 0, None
    for row in rows:
        for cell in row.split(" | ")[2:]:
            name, sep, _ = cell.strip().rpartition(": ")
            hits = header_matches(name, q_terms, q_words) if sep else 0
            if hits > best_hits:
                best_hits, header = hits, name
    if header is None:
        return None
    found: list[tuple[float, int, str]] = []
    for index, row in enumerate(rows):
        cells = [c.strip() for c in row.split(" | ")]
        if len(cells) < 3 or not re.match(r"^Table \S+$", cells[0]):
            continue
        cell = next((c for c in cells[2:] if c.rpartition(": ")[0] == header), None)
        value = cell.rpartition(": ")[2].strip() if cell else ""
        label = cells[1].rpartition(": ")[2]
        if _VALUE.match(value) and not (_BASELINE.search(question) and _OWN_ROW.search(label)):
            number = float(value.replace(",", "").replace("\u2212", "-").rstrip("%"))
            found.append((number, index, f"{cells[0]}, {label}, {cell}"))
    if len(found) < 2:
        return None
    pick = max(found, key=lambda f: (f[0], -f[1])) if direction == "max" else min(found, key=lambda f: (f[0], f[1]))
    return pick[1], pick[2]


def _names_row(row: str, question: str) -> bool:
    """A question holding the label of a table row (its first cell) as whole words, a word of three letters or
    more among them, so a label '1' or 'all' names nothing."""
    cells = row.split(" | ")
    if len(cells) < 3 or not re.match(r"^Table \S+$", cells[0].strip()):
        return False
    label = tokens(cells[1].rpartition(": ")[2])
    if not any(len(w) >= 3 and w.isalpha() for w in label):
        return False
    return f" {' '.join(label)} " in f" {' '.join(tokens(question))} "


# ------------------------------------------------------------------ abbreviations

def long_form(text: str, short: str) -> str | None:
    """The long form a passage gives a short form, before it ('Ultra Light Bosonic Dark Matter (ULBDM)') or
    in parentheses after it ('SIDD (Second Improvement of DegreeDistance)'), if it does; or, where the short
    form's letters are not all initials ('baseflow index (BFI)', 'the "dilated convolution network" or DCN'), the
    words before it that hold its letters in order (Schwartz and Hearst's test), and the words after it in a list
    of abbreviations or a table's legend ('BFI, baseflow index.', 'SHOP, scaffold hopping;')."""
    if short.lower() not in text.lower():  # every form below names the short form
        return None
    wanted = short.lower().removesuffix("s")
    for found_short, found_long in abbreviations(text):
        if found_short.lower().removesuffix("s") == wanted:
            return found_long
    for match in re.finditer(rf"\b{re.escape(short)}\s*\(([^()]{{3,120}})\)", text):
        inside = " ".join(match.group(1).split())
        if _initials(inside) == list(wanted) or _spells(short, inside):
            return inside
    letters = sum(ch.isalnum() for ch in short)
    before = rf"((?:[\w\-]+[,\"'\u201c\u201d\u2019]*\s+){{1,{min(letters + 5, 2 * letters)}}})"
    for match in re.finditer(rf"{before}(?:\(\s*{re.escape(short)}\s*\)|or\s+(?:simply\s+)?{re.escape(short)}\b)",
                             text):
        window = " ".join(re.sub(r"[,\"'\u201c\u201d\u2019]", " ", match.group(1)).split())
        start = long_form_start(short, window)
        if start is not None and len(window[start:]) > len(short):
            return window[start:]
    for match in re.finditer(rf"(?:^|[;:.]\s*|\s)\b{re.escape(short)}\s*[,=:]\s+([^,;:.()]{{3,80}})", text):
        legend = " ".join(match.group(1).split())
        if _spells(short, legend):
            return legend
    return None


def _spells(short: str, long: str) -> bool:
    """The whole of `long`, from its first letter (the short form's), holds the short form's letters in order."""
    return long[:1].lower() == short[:1].lower() and long_form_start(short, long) == 0


_LINKING = frozenset("of the and for in on to with a an".split())


def _initials(long: str) -> list[str]:
    """The letters a long form gives its short form: each word's first letter, and the inner capitals of a word
    written in camel case ('DegreeDistance' gives d, d); linking words ('of', 'the') give none."""
    out = []
    for word in re.findall(r"[A-Za-z][\w']*", long.replace("-", " ")):
        if word.lower() in _LINKING:
            continue
        out += [word[0].lower(), *(c.lower() for c in word[1:] if c.isupper())]
    return out


def defines(text: str, term: str) -> bool:
    """A sentence that reads as a definition of `term`: the term followed closely by a defining verb or an
    apposition ('X is ...', 'X, i.e. ...', 'X or the sum of ...', 'X (the ...)', 'X = ...'), or 'we define X'."""
    head = re.split(r"\s+(?:of|in|for)\s+", term, maxsplit=1)[0]  # 'the nuclear norm of X': its head
    words = [stem(w) for w in tokens(head)]
    if not words:
        return False
    # a final y meets its plural's 'ie' ('summary', 'summaries'); a short word keeps it ('key' is no 'keeping')
    pattern = r"\W+".join(re.escape(w[:-1]) + r"(?:y|ie)\w*" if len(w) >= 4 and w.endswith("y") else re.escape(w) + r"\w*"
                          for w in words)
    lowered = " ".join(text.lower().split())
    return bool(re.search(rf"\b{pattern}\b[^.;]{{0,40}}?(?:\b(?:is|are|was|were|refers? to|denotes?|stands? for|means?|"
                          rf"is defined as|is given by|is computed as|corresponds? to)\b|,?\s+(?:i\.e\.|or the|that is|"
                          rf"namely)\b|\s*[=:(])|\bdefine[sd]?\b[^.]{{0,30}}\b{pattern}\b|"
                          rf"\b(?:is|are|was|were)\s+(?:\w+\s+)?(?:called|termed|named|known\s+as|referred\s+to\s+as)\s+"
                          rf"(?:an?\s+|the\s+)?{pattern}\b|\bwe\s+(?:call|term)\b[^.]{{0,40}}\b{pattern}\b", lowered))

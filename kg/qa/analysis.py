"""Question analysis for retrieval: the words a question is searched with, plus the other spellings that
typographic and scientific conventions give the same thing, since Neo4j's fulltext analyser neither stems nor
knows them.

- Symbols with subscripts or superscripts: a question types `T_pc`, `T_{pc}` or `E^2`, while a PDF's text layer
  has `Tpc` or `T pc` (the subscript is a separate run of smaller glyphs); the joined form and the parts search.
  A Greek letter a question spells out (`Omega_m`, `chi-squared`) searches as the symbol printed (`\u03a9m`,
  `\u03c72`).
- Numbers: thousands separators (`5,000` / `5000`), trailing zeros (`3.0` / `3`), a number glued to its unit
  (`5nm` / `5 nm`), spelt-out units (`nanometres` / `nm`), and a percentage written as a fraction (`85%` / `0.85`)
  or the other way round.
- A word's other number (`datasets` / `dataset`): the index has no stemmer.
- The paper's own abbreviations (`knowledge base (KB)`): a question in one form also searches the other, given
  the (short, long) pairs the retrieved passages define (kg.qa.text.abbreviations).

Pure functions on strings, so tests can state exact outputs. Every variant is a plain word; the Lucene query is
built by kg.read.fulltext, which bounds and escapes it.
"""

from __future__ import annotations

import re

from kg.qa.text import GREEK_LETTERS, QUESTION_WORDS, STOPWORDS, question_proper, tokens

# Units written as symbols in papers and as words in questions (or back), both directions.
_UNITS = {"nm": "nanometer nanometers nanometre nanometres", "mm": "millimeter millimeters millimetre millimetres",
          "cm": "centimeter centimeters centimetre centimetres", "km": "kilometer kilometers kilometre kilometres",
          "ms": "millisecond milliseconds", "us": "microsecond microseconds", "ns": "nanosecond nanoseconds",
          "min": "minute minutes", "h": "hour hours hr hrs", "s": "second seconds sec secs",
          "kb": "kilobyte kilobytes", "mb": "megabyte megabytes", "gb": "gigabyte gigabytes",
          "tb": "terabyte terabytes", "hz": "hertz", "khz": "kilohertz", "mhz": "megahertz", "ghz": "gigahertz",
          "kg": "kilogram kilograms", "mg": "milligram milligrams", "ev": "electronvolt electronvolts",
          "kev": "kiloelectronvolt", "mev": "megaelectronvolt", "gev": "gigaelectronvolt", "tev": "teraelectronvolt",
          "k": "thousand kelvin", "m": "million", "b": "billion",
          "%": "percent percentage"}
_UNIT_OF = {word: symbol for symbol, words in _UNITS.items() for word in words.split()}
_SYMBOL = re.compile(r"(?<!\w)([A-Za-z\u0370-\u03ff]{1,3})([_^])(?:\{\s*([A-Za-z0-9\u0370-\u03ff]{1,6})\s*\}|"
                     r"([A-Za-z0-9\u0370-\u03ff]{1,6})\b)")
_GREEK_NAME = re.compile(rf"\b({'|'.join(GREEK_LETTERS)})(?![A-Za-z])(?:-(squared)\b)?", re.I)
_NUMBER_UNIT = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(%|[a-z]{1,3}\b)?", re.I)


def search_words(question: str, pairs: list[tuple[str, str]] = ()) -> list[str]:
    """The question's content words followed by the other forms of them, each once, in order of appearance.
    `pairs` are the paper's (short, long) abbreviation pairs: a question naming one form searches the other."""
    question = question_proper(question)
    words = [t for t in _words(_joined_symbols(question)) if t not in STOPWORDS and t not in QUESTION_WORDS]
    lettered = _as_symbols(question)
    greek = [w for w in _words(lettered) if re.search("[\u0370-\u03ff]", w)]
    extra = symbol_forms(question) + (symbol_forms(lettered) + greek if greek else [])
    extra += number_forms(question) + [w for t in words for w in other_number(t)]
    extra += abbreviation_forms(question, pairs)
    return list(dict.fromkeys([*words, *(w.lower() for w in extra)]))


def _words(text: str) -> list[str]:
    """Words as the index's analyser cuts them: `T_pc` stays one (kg.qa.text.tokens splits it)."""
    return [w.strip(".,").lower() for w in re.findall(r"[\w.,%]+", text) if w.strip(".,")]


def _joined_symbols(question: str) -> str:
    """The question with `T_{pc}` read as `T_pc`: braces are markup, not words."""
    return _SYMBOL.sub(lambda m: f"{m[1]}{m[2]}{m[3] or m[4]}", question)


def _as_symbols(question: str) -> str:
    """The question with every Greek letter it spells out as the letter ('Omega_m' as '\u03a9_m', 'chi-squared'
    as '\u03c72', the way a square is printed)."""
    def symbol(match: re.Match) -> str:
        letter = chr(GREEK_LETTERS[match[1].lower()] - (32 if match[1][0].isupper() else 0))
        return letter + ("2" if match[2] else "")
    return _GREEK_NAME.sub(symbol, question)


def printed_symbols(question: str) -> list[str]:
    """The symbols a question names, as a text layer prints them: 'Omega_m' as '\u03a9m', 'T_{pc}' as 'Tpc',
    'alpha' as '\u03b1'."""
    lettered = _as_symbols(question)
    joined = [m[1] + (m[3] or m[4]) for m in _SYMBOL.finditer(lettered)]
    alone = re.findall(r"[\u0370-\u03ff](?![_^\w])", _SYMBOL.sub(" ", lettered))
    return list(dict.fromkeys(joined + alone))


def symbol_forms(question: str) -> list[str]:
    """For every symbol with a sub- or superscript (`T_pc`, `T_{pc}`, `E^2`): the joined form (`Tpc`) and the
    script alone when it is a word of two characters or more (`pc`), as a text layer spells them."""
    out = []
    for base, _, braced, bare in _SYMBOL.findall(question):
        script = braced or bare
        out.append(base + script)
        if len(script) > 1:
            out.append(script)
    return out


def number_forms(question: str) -> list[str]:
    """Other spellings of the question's numbers and units: without thousands separators or trailing zeros, a
    glued unit apart, a unit's symbol for its name and back, and a percentage as a fraction or back."""
    out: list[str] = []
    for match in _NUMBER_UNIT.finditer(question):
        text, unit = match[1].rstrip(",."), (match[2] or "").lower()
        plain = text.replace(",", "")
        if "." in plain:
            plain = plain.rstrip("0").rstrip(".")
        out += [plain] if plain != text else []
        if unit in _UNITS:
            out += [plain, unit] if unit.isalpha() and " " not in match[0] else []  # '5nm' as '5 nm'

            out += _UNITS[unit].split()[:2]
        value = float(plain)
        if unit == "%" or re.match(r"\s*(?:percent|per cent)\b", question[match.end():], re.I):
            out.append(_plain(value / 100))
        elif 0 < value < 1 and "." in plain:
            out.append(_plain(value * 100))
    for word in tokens(question):
        if _UNIT_OF.get(word, "").isalpha():  # the index has no '%'
            out.append(_UNIT_OF[word])
    return [w for w in out if w]


def _plain(value: float) -> str:
    """A number as papers print it: no float noise, no trailing zeros ('0.85', '85', '12.5')."""
    return f"{round(value, 6):f}".rstrip("0").rstrip(".")


def other_number(word: str) -> list[str]:
    """The singular of a regular English plural and the plural of a singular noun-like word: `datasets` and
    `dataset`. Words of three letters or fewer, numbers and words in -ss, -us, -is (not plurals) and -ed,
    -ing, -ly (not nouns) are left alone."""
    if len(word) <= 3 or not word.isalpha() or word.endswith(("ss", "us", "is", "ed", "ing", "ly")):
        return []
    if word.endswith("ies"):
        return [word[:-3] + "y"]
    if word.endswith(("xes", "ches", "shes")):
        return [word[:-2]]
    if word.endswith("s"):
        return [word[:-1]]
    if word.endswith("y") and word[-2] not in "aeiou":
        return [word[:-1] + "ies"]
    return [word + ("es" if word.endswith(("x", "ch", "sh")) else "s")]


def abbreviation_forms(question: str, pairs: list[tuple[str, str]]) -> list[str]:
    """For each (short, long) pair the paper defines: the long form's words when the question has the short form,
    the short form when it has the long form."""
    said = f" {' '.join(tokens(question))} "
    out: list[str] = []
    for short, long in pairs:
        short_words, long_words = tokens(short), tokens(long)
        if not short_words or not long_words:
            continue
        singular = short_words[0].removesuffix("s")
        has_short = f" {singular} " in said or f" {singular}s " in said
        has_long = f" {' '.join(long_words)} " in said
        if has_short and not has_long:
            out += [w for w in long_words if w not in STOPWORDS]
        elif has_long and not has_short:
            out += short_words
    return out

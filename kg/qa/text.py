"""Text utilities shared by QA, locate and the QA benchmark: tokens, light stemming, sentence splitting.

Deterministic and dependency-free, so unit tests can state exact outputs.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here
hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other our
out over own same she should so some such than that the their theirs them then there these they this those
through to too under until up very was we were what when where which while who whom why will with would you your
yours paper papers use used using uses show shows shown according mentioned given total
""".split())

# Words that ask for a kind of answer rather than name what the answer is about.
QUESTION_WORDS = frozenset("what which who whom whose where when why how many much".split())

# The frame of a question, which names no part of its answer: an adjective after 'how' ('how long', 'how large'
# ask for a number, and the answer rarely repeats the adjective), 'what kind of', a hedge ('roughly how many').
# An adverbial put in front ('In Bigtable, what is a tablet?') hides the question's form, which follows the comma.
_FRAME = re.compile(r"\bhow\s+(?:long|large|big|fast|often|far|old|wide|high|deep|tall|heavy|small|frequently)\b|"
                    r"\b(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\b|\b(?:roughly|approximately)\b", re.I)
_FRONTED = re.compile(r"^(?:in|within|for|under|according\s+to)\s+[^,?]{1,60},\s+(?=(?:what|which|who|how|when|"
                      r"where|why|is|are|does|do|did)\b)", re.I)

# Greek letters, which a question spells out ('chi-squared', 'Omega_m') and a text layer prints as symbols
# ('\u03c72', '\u03a9m'): tokens read a symbol as its name, a word apart.
_GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon " \
         "phi chi psi omega".split()
# each letter's name and the code point of its small letter (no final sigma between rho and sigma)
GREEK_LETTERS = {name: 0x3b1 + i + (i >= 17) for i, name in enumerate(_GREEK)}
_GREEK_NAMES = str.maketrans({**{chr(code): f" {name} " for name, code in GREEK_LETTERS.items()},
                              "\u03c2": " sigma ", "\u03d5": " phi ", "\u03f5": " epsilon ", "\u03d1": " theta "})

_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*[a-z%]*|[a-z]+")
_ABBREVIATIONS = ("et al.", "e.g.", "i.e.", "fig.", "figs.", "eq.", "eqs.", "tab.", "sec.", "vs.", "no.", "cf.",
                  "resp.", "approx.", "ref.", "refs.", "al.", "etc.", "dr.", "prof.", "st.", "inc.")
_PARAGRAPH = re.compile(r"(?:(?!\n\s*\n).)+", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def searchable(text: str) -> str:
    """NFKC, lower case, hyphenation at line ends undone."""
    return unicodedata.normalize("NFKC", text).replace("-\n", "").lower()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stripper: enough to match 'datasets'/'dataset', 'trained'/'training'/'train', 'running'/
    'run'. A final 'e' of a longer stem goes too, so 'automate', 'automates' and 'automating' meet; Greek plurals
    take their singular ('analyses'/'analysis')."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith(("yses", "eses")):
        return word[:-2] + "is"
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            word = word[: len(word) - len(suffix)] + repl
            if suffix in ("ing", "ed") and len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
                word = word[:-1]  # 'running', 'stopped': the consonant doubled before the ending (Porter's rule)
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def tokens(text: str) -> list[str]:
    """Lower-case word and number tokens ('7,918', '0.959', '81.1m', '8x' stay whole); a Greek letter is its
    name ('\u03c72' gives 'chi', '2')."""
    return [t.rstrip(".,") for t in _TOKEN.findall(searchable(text).translate(_GREEK_NAMES))]


def unfronted(question: str) -> str:
    """The question without an adverbial put in front of it ('In Bigtable, what is a tablet?'), whitespace
    collapsed: what the forms of questions are matched against."""
    return _FRONTED.sub("", " ".join(question.split()))


def question_proper(question: str) -> str:
    """The question without its frame (_FRAME): the words an answer is to share with it. An adverbial put in
    front stays: it names the topic ('In the site characteristics table, what does BFI stand for?')."""
    return _FRAME.sub(" ", " ".join(question.split()))


def terms(text: str) -> list[str]:
    """Stemmed content tokens: what a passage must share with a question to be about it."""
    return list(_terms(text))


@lru_cache(maxsize=8192)
def _terms(text: str) -> tuple[str, ...]:
    """Cached: answer scoring asks for the terms of the same sentences several times per question (CPU time)."""
    return tuple(stem(t) for t in tokens(text) if t not in STOPWORDS and t not in QUESTION_WORDS and len(t) > 1)


def paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the paragraphs of a passage (text between blank lines), without their outer
    whitespace: a table chunk's caption and each of its rows."""
    return [_strip(text, m.start(), m.end()) for m in _PARAGRAPH.finditer(text) if m.group().strip()]


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences of a passage; a paragraph break ends one too, abbreviations such as
    'et al.' and 'Fig.' do not."""
    spans = []
    for paragraph in _PARAGRAPH.finditer(text):
        start = paragraph.start()
        for match in _SENTENCE_END.finditer(text, paragraph.start(), paragraph.end()):
            before = text[max(start, match.start() - 8): match.start()].lower()
            if before.endswith(_ABBREVIATIONS) or re.search(r"(?:^|\s)[a-z]\.$", before):
                continue
            if text[start:match.start()].strip():
                spans.append(_strip(text, start, match.start()))
            start = match.end()
        if text[start:paragraph.end()].strip():
            spans.append(_strip(text, start, paragraph.end()))
    return spans


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    return start + len(piece) - len(piece.lstrip()), end - len(piece) + len(piece.rstrip())



def squash(text: str) -> str:
    """Whitespace (line breaks inside a passage) collapsed to single spaces."""
    return " ".join(text.split())


_LINKING = frozenset("of the and for in on to with a an".split())
_PAREN_SHORT = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9\-]{0,9}?[A-Z][A-Za-z0-9\-]{0,9}?)\s*\)")


def abbreviations(text: str) -> list[tuple[str, str]]:
    """(short, long) pairs a passage defines as 'knowledge bases (KBs)': the short form's capitals (a plural
    's' dropped) are the initials of the words just before the parenthesis (parts of hyphenated words count, 'of', 'the' do not)."""
    pairs = []
    for match in _PAREN_SHORT.finditer(text):
        short = match.group(1)
        letters = [c.lower() for c in short.removesuffix("s") if c.isupper()]
        words = re.findall(r"[A-Za-z][\w']*(?:-[A-Za-z][\w']*)*", text[max(0, match.start() - 120):match.start()])
        taken: list[str] = []
        parts: list[str] = []
        for word in reversed(words):
            if len(parts) >= len(letters):
                break
            taken.insert(0, word)
            if word.lower() not in _LINKING:  # 'Bag of Concepts (BoC)'
                parts = word.split("-") + parts
        if len(letters) >= 2 and [p[0].lower() for p in parts] == letters:
            pairs.append((short, " ".join(taken)))
    return pairs

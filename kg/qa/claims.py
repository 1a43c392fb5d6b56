"""Claims read as data: the numbers a claim states (with their units) and the words it is about, and whether a
number printed in a paper is the number a claim states.

Pure functions, so the reading of a claim and the comparison of numbers are unit-testable with exact outputs;
kg.qa.verify looks up the evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg.qa.text import searchable, terms

MAX_CLAIM = 500  # characters: a claim is one sentence; longer text is refused rather than searched

# Metrics reported as a percentage or as a share of 1 (92.1 F1 is 0.921 F1); other quantities (BLEU aside, which
# is printed both ways too) are never rescaled by 100.
_PERCENT_METRICS = frozenset("""f1 f-score f-measure accuracy acc precision recall auc map mrr ndcg teds bleu rouge
error rate percent percentage share proportion fraction p@1 r@1 em exact-match hit@1 hits@1""".split())
_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9, "bn": 1e9}
_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}
# A number: digits with thousands separators or a decimal part, then an optional scale word or letter and an
# optional percent sign. Not part of a word or an identifier ('S2ORC', 'ACE2005', 'R1', 'ℓ1').
_NUMBER = re.compile(
    r"(?<![\w.\-/])(?P<sign>[-+\u2212])?(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?(?P<scale>thousand|million|billion|bn|[kKmMbB])(?![\w]))?"
    r"(?P<percent>\s?%|\s?percent\b)?x?(?![\w])(?!\.\d)")
_WORD_NUMBER = re.compile(r"\b(" + "|".join(_WORD_NUMBERS) + r")\b", re.I)
_CITATION = re.compile(r"\[\d+(?:\s*[,\u2013\-]\s*\d+)*\]")
# Words of a claim that say how it is phrased, not what it is about: a passage need not contain them.
CLAIM_WORDS = frozenset("""paper study work authors author we our it reach reaches reached achieve achieves achieved
obtain obtains obtained get gets score scores scored report reports reported has have contain contains contained
uses use used employ employs employed evaluate evaluates evaluated evaluation propose proposes proposed introduce
introduces introduced present presents presented method model approach system dataset data set task metric
value about approximately around roughly total""".split())


@dataclass(frozen=True)
class Quantity:
    """A number as printed: its value in plain units (the scale word applied: '81.1M' is 81,100,000), whether it
    was printed as a percentage, and the decimals printed, which set how closely another number must agree."""

    value: float
    percent: bool
    decimals: int
    start: int
    end: int
    text: str
    unit: str | None = None  # the word printed right after it ('200 processors' -> 'processor'), if any

    @property
    def tolerance(self) -> float:
        """Half a unit of the last digit printed: '92.1' stands for anything that rounds to it."""
        return 0.5 * 10.0 ** -self.decimals


def quantities(text: str) -> list[Quantity]:
    """The numbers of a passage or claim in order ('8x' is 8), citations ('[12]'), digits inside names and numbers
    that label a thing ('Table 2') left out; 'fifteen' and the other small number words count too."""
    clean = _CITATION.sub(lambda m: " " * len(m.group()), text)
    out = []
    for m in _NUMBER.finditer(clean):
        digits = m.group("digits").replace(",", "")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        value = float(digits)
        scale = (m.group("scale") or "").lower()
        if scale:
            factor = _SCALES[scale]
            value *= factor
            decimals -= len(str(int(factor))) - 1
        if m.group("sign") in ("-", "\u2212"):
            value = -value
        if not _labels(clean, m.start()):
            out.append(Quantity(value, bool(m.group("percent")), decimals, m.start(), m.end(), text[m.start():m.end()],
                                _unit(clean, m.end())))
    for m in _WORD_NUMBER.finditer(clean):
        out.append(Quantity(float(_WORD_NUMBERS[m.group(1).lower()]), False, 0, m.start(), m.end(), m.group(),
                            _unit(clean, m.end())))
    return sorted(out, key=lambda q: q.start)


_LABEL_WORDS = ("table", "tab.", "figure", "fig.", "section", "sec.", "eq.", "equation", "appendix", "model",
                "algorithm", "example", "step", "version", "task")


def _labels(text: str, start: int) -> bool:
    """A number that names a thing rather than measures it: 'Table 2', 'Fig. 3', 'Section 4', 'Model 1'."""
    return text[max(0, start - 10):start].rstrip().lower().endswith(_LABEL_WORDS)


_UNIT = re.compile(r"\s*([A-Za-z][\w\-]*)")


def _unit(text: str, end: int) -> str | None:
    """The stemmed word right after a number, unless it is a stop word ('of', 'on') or the text goes on with
    something else (a comma, a bar of a table row)."""
    m = _UNIT.match(text, end)
    found = terms(m.group(1)) if m else []
    return found[0] if found else None


def same_kind(claimed: Quantity, stated: Quantity) -> bool:
    """Whether two numbers can measure the same thing: the word after each (its unit or what it counts) is the
    same, or one of them has none ('57.6 F1' and '8,000 tokens' are not comparable; '57.6 F1' and a table's
    '57.6' are)."""
    return claimed.unit is None or stated.unit is None or claimed.unit == stated.unit


def percentage_context(text: str) -> bool:
    """A claim about a metric reported as a percentage or a share of 1 (F1, accuracy, ...), or printed with %."""
    words = set(re.findall(r"[\w@\-]+", searchable(text)))
    return bool(words & _PERCENT_METRICS) or "%" in text or "percent" in words


def same_number(claimed: Quantity, stated: Quantity, percentage: bool = False) -> bool:
    """Whether `stated` is the number `claimed` says: within half a unit of the claim's last digit ('92.1' =
    '92.10' = '92.14'; '92.1' != '92.2'; '92' = '92.3'). A number printed less precisely than the claim does not
    confirm it ('around 2' is not '2.4'). A percentage and a share of 1 are the same number (92.1 = 0.921) when
    either is printed with % or `percentage` says the metric is one; '92.1%' and '92.1' are always the same."""
    scales = [1.0]
    if percentage or claimed.percent or stated.percent:
        scales += [100.0, 0.01]
    margin = claimed.tolerance + 1e-9 * max(1.0, abs(claimed.value))
    return any(abs(stated.value * scale - claimed.value) <= margin for scale in scales)


@dataclass(frozen=True)
class Claim:
    """A claim read for checking: its text, the numbers it states, and the text it is about without them (what
    retrieval searches for, so that a wrong number does not change which passages are found)."""

    text: str
    numbers: tuple[Quantity, ...]
    about: str
    percentage: bool

    @property
    def key_terms(self) -> list[str]:
        """The stemmed words a passage must share with the claim to be about it: its content words without the
        words of phrasing (CLAIM_WORDS) and without its numbers."""
        phrasing = {t for w in CLAIM_WORDS for t in terms(w)}
        return list(dict.fromkeys(t for t in terms(self.about) if t not in phrasing and not t[0].isdigit()))


def parse_claim(text: str) -> Claim:
    """A claim's numbers and the rest of its words ('Model X reaches 92.1 F1 on Y' -> 92.1, 'Model X reaches F1
    on Y'). Years printed as four digits are numbers too: a claim about a year is checked like any other."""
    text = " ".join(text.split())
    numbers = tuple(quantities(text))
    about = text
    for q in reversed(numbers):
        about = about[:q.start] + " " + about[q.end:]
    return Claim(text, numbers, " ".join(about.split()), percentage_context(text))

"""Text normalisation shared by every extractor: ligatures, odd spaces, hyphenated line breaks.

NFKC would also flatten superscripts, subscripts and fractions (x² -> x2), which changes the
meaning of math; so compatibility mappings are applied per character except for those.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from extractors.model import Line

_KEEP_TAGS = ("<super>", "<sub>", "<fraction>")
_DROP = {"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\ufffe"}
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
# A glyph its font gives no character for: MuPDF reports the replacement character U+FFFD, or passes the font's own
# code through, which for the small codes such fonts use is a control character. Layout keeps this mark in its
# place (a Unicode noncharacter: no font maps a glyph to one, as icon fonts do to private-use characters), so that
# OCR can say what is printed there (extractors/unmapped.py); what OCR does not fill becomes UNKNOWN.
UNMAPPED = "\ufdd0"
UNKNOWN = "\ufffd"
_UNMAPPED_CODES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]")


@lru_cache(maxsize=4096)
def _char(ch: str) -> str:
    if ch in _DROP or (unicodedata.category(ch) == "Cc" and ch not in "\t\n"):
        return ""
    if ch in _ACCENTS:  # a spacing accent no letter took (NFKC would make it space + combining mark)
        return ch
    decomposition = unicodedata.decomposition(ch)
    if decomposition.startswith("<") and not decomposition.startswith(_KEEP_TAGS):
        return unicodedata.normalize("NFKC", ch)
    return ch


# Spacing accents as TeX prints them ("Franc¸ois", "Gr´egory") and their combining forms.
_ACCENTS = {"´": "́", "`": "̀", "¨": "̈", "ˆ": "̂", "˜": "̃",
            "¸": "̧", "˛": "̨", "ˇ": "̌", "˘": "̆", "˙": "̇",
            "˚": "̊", "¯": "̄", "^": "̂", "~": "̃"}
_COMBINING = "".join(sorted(set(_ACCENTS.values())))
_LOOSE_ACCENT = re.compile(rf"([^\W\d_])?([´¨ˆ˜¸˛ˇ˘˙˚¯]| [{_COMBINING}])([^\W\d_])?")
_BELOW = {"¸", "˛"}  # cedilla and ogonek may follow their letter ("Franc¸ois")


def _attach_accent(m: re.Match) -> str:
    """Put a loose accent on the letter it touches: the next one if that makes a real letter
    ("Gr´egory"), else, for marks set below a letter, the previous one. An accent standing
    apart (an acute used as an apostrophe: "authors´ roles") is left alone."""
    before, accent, after = m.group(1) or "", m.group(2).strip(), m.group(3) or ""
    mark = _ACCENTS.get(accent, accent)
    if after and len(joined := unicodedata.normalize("NFC", after + mark)) == 1:
        return before + joined
    if before and accent in _BELOW and len(joined := unicodedata.normalize("NFC", before + mark)) == 1:
        return joined + after
    return m.group(0)


def mark_unmapped(text: str) -> str:
    """The text with each glyph MuPDF could not map to a character replaced by UNMAPPED (tab, line feed and
    carriage return aside: text layers use them as spaces)."""
    return _UNMAPPED_CODES.sub(UNMAPPED, text)


def is_plain(text: str) -> bool:
    """Printable ASCII with single spaces: most of a paper's text, which plain_text and mark_unmapped leave as it
    is (worth knowing on the parser's hot path)."""
    return text.isascii() and text.isprintable() and "  " not in text


def plain_text(text: str) -> str:
    """Ligatures, full-width forms, loose accents and odd spaces to plain text; math
    super/subscripts kept."""
    if text.isascii():
        if is_plain(text):
            return text
        return _SPACES.sub(" ", _CONTROL.sub("", text))
    out = _LOOSE_ACCENT.sub(_attach_accent, text)
    out = unicodedata.normalize("NFC", "".join(_char(ch) for ch in out))
    return _SPACES.sub(" ", out)


# what a line that ends its sentence (or a lead-in to a list or a display) ends with
SENTENCE_END = (".", "?", "!", ":")

# Figures and tables numbered apart from the paper's own, by the part of the paper they are printed in: Nature's
# "Extended Data Fig. 2", a journal's web appendix bound after the paper ("Appendix Table 1"), "Supplementary Table
# 1"; not across a paragraph break ('APPENDIX' over 'Table 3 lists ...'). Their labels take a prefix (ED2, A1, S1)
# so that they stay apart from the paper's own Figure 2 or Table 1.
FLOAT_PART = r"(?P<part>(?i:extended[^\S\n]+data|appendix|supplementa(?:ry|l))[^\S\n]+)?"


def part_label(part: str | None, label: str) -> str:
    """A float's label with the prefix of the part it is numbered in (FLOAT_PART's match); a label lettered already
    ("Appendix Table A1") keeps its own, a Roman one ("Appendix Table II") takes it too."""
    if not part or re.match(r"[A-Z]{1,2}\.?\d", label):
        return label
    word = part.strip().lower()
    return ("ED" if word.startswith("extended") else "A" if word.startswith("appendix") else "S") + label

HYPHEN_END = re.compile(r"(?<=[^\W\d_])[-\u2010\u2011]$")


def join_lines(texts: list[str]) -> str:
    """One paragraph from its lines: "extrac-" + "tion" -> "extraction", else joined by a space.

    A trailing hyphen is dropped when the next line starts lower case (or both halves are in
    capitals, as in headings); "self-" + "Attention" keeps it: "self-Attention".
    """
    out = ""
    for raw in texts:
        text = raw.strip()
        if not text:
            continue
        if not out:
            out = text
        elif HYPHEN_END.search(out):  # a word broken at the line end: no space either way
            drop = text[0].islower() or out.split()[-1][:-1].isupper() and text.split()[0].isupper()
            out = (out[:-1] if drop else out) + text
        else:
            out = f"{out} {text}"
    return out


# A display equation's number as printed at the end of its row: "(3)", "(3.2)", "(A1)", "(A.1)", "(2a)", and
# chapter-equation numbers joined by a hyphen or dash, "(2-1)", "(2–1)"
EQUATION_LABEL = re.compile(r"\(\s*(?P<label>(?:[A-Z]{1,2}\.?)?\d{1,3}(?:[.\-‐–]\d{1,3})*[a-z]?)\s*\)\s*$")
# the relations and big operators a formula is written with
MATH_RELATION = re.compile(r"[=<>≤≥≠≈∝∈∉⊂⊆→←↔⇒∑∏∫]|:=")
# the fonts formulas are set in (TeX's math italic, symbols and extension, the AMS symbols, Latin Modern Math,
# MathTime, Word's Cambria Math, STIX, Symbol and the txfonts')
MATH_FONT = re.compile(r"^(?:CM(?:MI|SY|EX)|MSBM|MSAM|Math|Symbol|STIX|Cambria ?Math|rtxmi|txsy|txex|mt?math|rmtmi|"
                       r"lmmath)", re.I)
# the characters formulas are written with
MATH_CHARS = re.compile(r"[=+−∑∏∫≤≥≠≈∈∉⊂⊆∝∞∂∇·×÷√|^_{}\[\]αβγδεθλμνπρστφχψωΓΔΘΛΠΣΦΨΩ∀∃→←↔⇒]")


def is_mathy(line: Line) -> bool:
    """Set like a formula: math fonts, or a high share of math symbols."""
    if any(MATH_FONT.match(s.font) for s in line.spans) or MATH_FONT.match(line.font):
        return True
    text = line.text.replace(" ", "")
    return bool(text) and len(MATH_CHARS.findall(text)) >= max(1, 0.08 * len(text))


# The headings of a paper's abstract and bibliography in the other languages research is commonly published in
# (French, German, Spanish, Portuguese, Italian, Dutch), as regular-expression alternatives: a paper in one of them
# still has its abstract and references found. Words that also head a closing summary ('Zusammenfassung',
# 'Samenvatting', as 'Summary' does in English) are not abstract names.
ABSTRACT_NAMES = r"abstract|r[ée]sum[ée]|kurzfassung|resumen|resumo|riassunto"
REFERENCES_NAMES = (r"references?|références|bibliographie|literatur|literaturverzeichnis|referencias|"
                    r"bibliografía|referências|referencias bibliográficas|referências bibliográficas|bibliografia|"
                    r"riferimenti bibliografici|referenties|literatuur")
# the bibliography's heading under the names journals give it ("References and Notes": Science; "Reference": many
# Word templates; "Works Cited": MLA)
REFERENCES = re.compile(rf"^({REFERENCES_NAMES}|references and notes|notes and references|bibliography|literature cited|"
                        r"cited literature|works cited)$", re.I)

# A float's caption label at the start of a line ("Figure 3", "Fig. 3", "Table A1", "Scheme 2"): a caption or a
# sentence about a float, never a heading or a running head.
FLOAT_LABEL = re.compile(r"^(fig(?:ure)?s?|table|tab|scheme|algorithm|listing)\.?\s*[A-Z]?\d", re.I)


def long_form_start(short: str, words: str) -> int | None:
    """Where in `words` the shortest end holding the short form's letters and digits in order begins, the first
    of them at the start of a word (Schwartz and Hearst's test of an abbreviation's long form: 'BFI' in 'baseflow
    index' begins at 0, its F inside 'baseflow'); None when no end holds them. Compared a character at a time:
    lower() may change a string's length."""
    at = len(words) - 1
    for i in range(len(short) - 1, -1, -1):
        wanted = short[i].lower()
        if not wanted.isalnum():
            continue
        while at >= 0 and (words[at].lower() != wanted or (i == 0 and at > 0 and words[at - 1].isalnum())):
            at -= 1
        if at < 0:
            return None
        at -= 1
    return at + 1

"""Text normalisation shared by every extractor: ligatures, odd spaces, hyphenated line breaks.

NFKC would also flatten superscripts, subscripts and fractions (x² -> x2), which changes the
meaning of math; so compatibility mappings are applied per character except for those.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_KEEP_TAGS = ("<super>", "<sub>", "<fraction>")
_DROP = {"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\ufffe"}
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")


@lru_cache(maxsize=4096)
def _char(ch: str) -> str:
    if ch in _DROP or (unicodedata.category(ch) == "Cc" and ch not in "\t\n"):
        return ""
    decomposition = unicodedata.decomposition(ch)
    if decomposition.startswith("<") and not decomposition.startswith(_KEEP_TAGS):
        return unicodedata.normalize("NFKC", ch)
    return ch


def normalize(text: str) -> str:
    """Ligatures, full-width forms and odd spaces to plain text; math super/subscripts kept."""
    if text.isascii():
        return _SPACES.sub(" ", "".join(ch for ch in text if ch >= " " or ch == "\t"))
    out = unicodedata.normalize("NFC", "".join(_char(ch) for ch in text))
    return _SPACES.sub(" ", out)


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

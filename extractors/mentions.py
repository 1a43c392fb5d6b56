"""In-text pointers in Document.text: citation markers resolved to references, and cross-references
to figures, tables, equations and sections resolved to those elements.

Numbered citations ("[3, 5-7]") resolve by number, and only when the bibliography is numbered and
every number exists, so "[0, 1]" intervals are not citations; keyed ones ("[Smi20, ABC+19]") by key.
Author-year citations ("(Smith et al., 2020; Lee, 2019a)", "Smith and Lee (2020)") resolve by
first-author surname (fuzzy) and year, the letter suffix picking among same-author same-year entries
in bibliography order. The bibliography itself and the caption that opens a figure/table chunk are
not searched.
"""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

from extractors.model import BBox, Document, Mention, Reference
from extractors.text import FLOAT_PART, part_label

NUM = r"\d{1,3}"
NUMBERED_RE = re.compile(rf"\[\s*({NUM}(?:\s*[-–,;]\s*{NUM})*)\s*\]")
KEYED_RE = re.compile(r"\[([^\[\]]{3,120})\]")
PAREN_RE = re.compile(r"\(([^()]{0,300}?(?:19|20)\d{2}[a-z]?)\)")
# A surname's characters give nothing back (a space, a comma or the end follows them, never one of them).
NAME = r"[A-Z][\w'’\-]++(?:\s+[A-Z][\w'’\-]++)?"
YEAR_PAREN_RE = re.compile(r"\((?P<year>(?:19|20)\d{2}[a-z]?)\)")
# An author's name starts neither just after a capital (that capital starts the same name with more of the word)
# nor deeper than 64 characters into a word, and has at most 8 particles ("van der"): otherwise every capital
# of a long word, or every particle of a long run of them, read the rest of it again.
AUTHOR = rf"(?![A-Z](?<=[A-Z]{{2}}))(?<![\w'’\-]{{64}})(?P<name>(?:(?:van|von|de|der|den|da|di|du|le|la)\s++){{0,8}}+{NAME})"
NARRATIVE_RE = re.compile(rf"{AUTHOR}(?:\s+(?:and|&)\s+{NAME}|\s+et\s+al\.?)?\s*$")
ITEM_RE = re.compile(rf"{AUTHOR}(?:\s+(?:and|&)\s+{NAME}|\s+et\s+al\.?)?,?\s+(?P<year>(?:19|20)\d{{2}}[a-z]?)")
LABEL = r"(?:[A-Z]\.?\d+(?:\.\d+)*|S?\d+(?:\.\d+)*[a-z]?|[IVX]{1,5})"
LIST = rf"{LABEL}(?:\s*(?:,|and|&|-|–|to)\s*{LABEL})*"
XREF_RE = re.compile(
    rf"(?<!\w){FLOAT_PART}"
    rf"(?P<kind>Figs?\.|Figures?|Tables?|Tabs?\.|Eqs?\.|Equations?|Sections?|Sects?\.|Secs?\.|Appendix|§§?)"
    rf"\s*(?P<paren>\()?(?P<labels>{LIST})(?(paren)\))(?![\w.]\w)")
KINDS = {"fig": "figure", "tab": "table", "eq": "equation", "sec": "section", "app": "section", "§": "section"}
# a separator with spaces around it is tried from the first space of a run only (a later space matches only
# where the first does), so a long run of spaces costs one pass
_RUN_START = r"(?!(?<=\s)\s)"
INITIAL = re.compile(r"^(?:[A-Z]\.?){1,3}$|^(?:[A-Z]\.-?)+[A-Z]?\.?$")


def folded(name: str) -> str:
    """Accents dropped and lower case: how a cited surname is compared with a bibliography entry."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).lower()


def surname_tokens(author: str) -> list[str]:
    """Name tokens that are not initials: 'C. Auer' -> ['auer'], 'van den Beek M' -> ['van', 'den', 'beek']."""
    return [folded(t.strip(".,")) for t in author.split() if not INITIAL.match(t.strip(","))]


def matches_author(name: str, ref: Reference) -> bool:
    if not ref.authors:
        return folded(name.split()[-1]) in folded(ref.raw[:80])
    tokens = surname_tokens(ref.authors[0])
    target = folded(name).split()
    return bool(tokens) and (target[-1] in tokens or fuzz.ratio(target[-1], tokens[-1]) >= 85
                             or fuzz.ratio(" ".join(target), " ".join(tokens)) >= 85)


def resolve_author_year(name: str, year: str, refs: list[Reference]) -> Reference | None:
    """The entry by `name` in `year`; '2019b' is the second such entry in bibliography order."""
    number, suffix = int(year[:4]), year[4:]
    same = [r for r in refs if r.year == number and matches_author(name, r)]
    if not same:
        return None
    index = ord(suffix) - ord("a") if suffix else 0
    return same[index] if index < len(same) else same[0]


def expand(numbers: str) -> list[int]:
    """'3, 5-7' -> [3, 5, 6, 7]."""
    out: list[int] = []
    for part in re.split(_RUN_START + r"\s*[,;]\s*", numbers):
        bounds = [int(x) for x in re.split(_RUN_START + r"\s*[-–]\s*", part) if x]
        if len(bounds) == 2 and 0 < bounds[1] - bounds[0] < 50:
            out += range(bounds[0], bounds[1] + 1)
        else:
            out += bounds
    return out


def expand_labels(labels: str) -> list[str]:
    """'3 and 4' -> ['3', '4']; '2-4' -> ['2', '3', '4'] for plain numbers."""
    parts = re.split(_RUN_START + r"\s*(?:,|and|&)\s*", labels)
    out: list[str] = []
    for part in parts:
        bounds = re.split(_RUN_START + r"\s*(?:-|–|to)\s*", part)
        if len(bounds) == 2 and all(b.isdigit() for b in bounds) and 0 < int(bounds[1]) - int(bounds[0]) < 20:
            out += [str(n) for n in range(int(bounds[0]), int(bounds[1]) + 1)]
        else:
            out += [b for b in bounds if b]
    return out


def skipped_spans(doc: Document) -> list[tuple[int, int]]:
    """The bibliography's text and each figure/table chunk's own label at its start."""
    spans = [(s.char_start, s.char_end) for s in doc.sections if s.core_kind == "reference"]
    spans += [(c.char_start, c.char_start + 12) for c in doc.chunks if c.kind in ("figure", "table")]
    return spans


def citations(doc: Document) -> list[tuple[int, int, str, str, Reference | None]]:
    """(start, end, text, label, reference) for every citation marker."""
    refs = doc.references
    out = []
    numbered = {int(m[1]): r for r in refs if r.marker and (m := re.fullmatch(r"\[?(\d{1,3})[\].)]?", r.marker))}
    keyed = {r.marker.strip("[]"): r for r in refs
             if r.marker and re.fullmatch(r"\[[^\[\]\d\s]*\d{2,4}[a-z]?\]", r.marker)}
    if numbered:
        for m in NUMBERED_RE.finditer(doc.text):
            numbers = expand(m[1])
            if numbers and all(n in numbered for n in numbers):
                out += [(m.start(), m.end(), m[0], str(n), numbered[n]) for n in numbers]
        return out
    if keyed:  # "[Smi20, ABC+19]"
        for m in KEYED_RE.finditer(doc.text):
            keys = [k.strip() for k in re.split(r"[,;]", m[1])]
            if all(k in keyed for k in keys):
                out += [(m.start(), m.end(), m[0], k, keyed[k]) for k in keys]
        return out
    for m in PAREN_RE.finditer(doc.text):
        for item in re.split(r";", m[1]):
            hit = ITEM_RE.search(item)
            if hit:
                ref = resolve_author_year(hit["name"], hit["year"], refs)
                out.append((m.start(), m.end(), m[0], f"{hit['name']} {hit['year']}", ref))
    for y in YEAR_PAREN_RE.finditer(doc.text):  # "Smith et al. (2020)": the name just before a (year)
        window = max(0, y.start() - 80)
        m = NARRATIVE_RE.search(doc.text[window:y.start()])  # a slice: the pattern's look-behinds stop at its start
        ref = resolve_author_year(m["name"], y["year"], refs) if m else None
        if ref is not None:
            start = window + m.start()
            out.append((start, y.end(), doc.text[start:y.end()], f"{m['name']} {y['year']}", ref))
    return out


def cross_references(doc: Document) -> list[tuple[int, int, str, str, str, str | None]]:
    """(start, end, text, kind, label, target id) for every pointer to a figure, table, equation or section."""
    targets = {
        "figure": {f.label: f.id for f in doc.figures},
        "table": {t.label: t.id for t in doc.tables},
        "equation": {e.label: e.id for e in doc.equations if e.label},
        "section": {s.number.rstrip("."): s.id for s in doc.sections if s.number},
    }
    out = []
    for m in XREF_RE.finditer(doc.text):
        word = m["kind"].lower()
        kind = next(v for k, v in KINDS.items() if word.startswith(k))
        is_float = kind in ("figure", "table")
        apart = not is_float and part_label(m["part"], "") in ("ED", "S")  # "Supplementary Eq. 3": not the paper's
        for label in expand_labels(m["labels"]):
            if is_float:
                label = part_label(m["part"], label)  # "Extended Data Fig. 2" is ED2, not Figure 2
            # "Fig. 3b" is Figure 3's
            target = None if apart else targets[kind].get(label) or targets[kind].get(label.rstrip("abcdefghij"))
            out.append((m.start(), m.end(), m[0], kind, label, target))
    return out


def _locate(doc: Document, offset: int) -> tuple[int, BBox, str | None]:
    """(page, box, chunk id) of an offset of Document.text: its line's box, else its chunk's first region."""
    chunk = doc.chunk_at(offset, kind=None)
    line = doc.line_at(offset)
    if line is not None:
        return line.page, line.bbox, chunk.id if chunk else None
    if chunk and chunk.boxes:
        return chunk.boxes[0].page, chunk.boxes[0].bbox, chunk.id
    return 1, (0.0, 0.0, 0.0, 0.0), chunk.id if chunk else None


def find_mentions(doc: Document) -> list[Mention]:
    """Citations and cross-references in reading order, each with the box of the line it is printed on (the
    chunk's first region for text outside the body's lines)."""
    skip = skipped_spans(doc)
    found = [(s, e, t, "citation", label, ref.id if ref else None) for s, e, t, label, ref in citations(doc)]
    found += cross_references(doc)
    out = []
    for start, end, text, kind, label, target in sorted(found, key=lambda f: f[0]):
        if any(a <= start < b for a, b in skip):
            continue
        page, bbox, chunk_id = _locate(doc, start)
        out.append(Mention(kind=kind, text=text, target_label=label, target_id=target, page=page, bbox=bbox,
                           char_start=start, char_end=end, chunk_id=chunk_id))
    return out

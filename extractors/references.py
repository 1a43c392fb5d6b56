"""The bibliography: lines of the References section split into entries, each parsed into fields.

Entries start at a sequential marker ("[12]", "12.") when the list is numbered; otherwise at the
left edge of a hanging-indent list (or at the indent of a list whose entries indent their first line, as
paragraphs do), or after a vertical gap when entries are spaced apart, or, as a last resort, at an
author-list start after a line that ended an entry with a period.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace

from extractors.model import Line, Reference, element_id

# A marker may stand alone on its line, its entry set beside it or on the next line (BMC, Word layouts).
# "[12]", "12.", "12)", "(12)" (ACS journals), or a bare "12" before the first author's capital (any script's:
# 'Öztürk', 'Łukasz') or name particle ('van der Berg'), or alone on its line (Portland Press, some Elsevier
# journals)
MARKER_RE = re.compile(r"^\s*(?:\[(?P<b>\d{1,3})\]|(?P<d>\d{1,3})\.(?=\s|[A-Z]|$)|(?P<p>\d{1,3})\)(?=\s|$)"
                       r"|\((?P<q>\d{1,3})\)(?=\s|$)"
                       r"|(?P<n>\d{1,3})(?:\s+(?=[^\W\d_a-z][\w'’\-]*[ ,.]|(?:van|von|de|der|di|da|le|la)\s)"
                       r"|\s*$))\s*")
YEAR_RE = re.compile(r"(?<![\d./:])((?:19|20)\d{2})[a-z]?(?![\d])(?!\.\d)")
DOI_RE = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
ARXIV_RE = re.compile(r"(?:arxiv[:\s]*|arxiv\.org/(?:abs|pdf)/|abs/)"
                      r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.I)
AUTHOR_START_RE = re.compile(r"^(?:[A-Z][\w'’\-]+,?\s+(?:[A-Z]\.\s*)+|(?:[A-Z]\.\s*)+[A-Z][\w'’\-]+|"
                             r"[A-Z][\w'’\-]+\s+[A-Z][\w'’\-]+,)")
# (a run of spaces is tried from its first space only: a later start matches only where the first does)
INVERTED_RE = re.compile(r"(?!(?<=\s)\s)(?:^|,\s*|\s+and\s+|\s*&\s*)(?P<surname>[A-Z][\w'’\- ]*?),\s+"
                         r"(?P<given>(?:[A-Z][a-z]?\.\s*-?)*[A-Z][a-z]?\.?)(?=,|$|\s+and\s|\s*&)")
QUOTED_RE = re.compile(r"[“\"](?P<title>[^”\"]{8,}?)[,.]?[”\"]")
AUTHORS_YEAR_RE = re.compile(r"^(?P<a>.{3,400}?)[.,]?\s+\(?(?:19|20)\d{2}[a-z]?\)?[.,:]\s+(?P<rest>.+)$")
NAME_WORDS = {"and", "et", "al", "van", "von", "der", "den", "de", "da", "del", "di", "la", "le", "dos", "du", "y"}
INITIAL_END_RE = re.compile(r"(?:\b[A-Z]|\b(?:al|eds?|Proc|Vol|vol|pp|no|No|Jr|Sr|St|Inc|Ltd|Conf|Int|Trans|"
                            r"Univ|Dept|etc|vs|cf|Fig|Eq|Ch|Sec|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec))$")

_EDGE_SHARE = 0.9  # of a column's lines that end at its right edge or before


KEY_RE = re.compile(r"^\s*\[(?P<key>[A-Za-z][A-Za-z+\-.]{0,12}\d{2,4}[a-z]?)\]\s*")


def marker_number(text: str) -> int | None:
    m = MARKER_RE.match(text)
    return int(m["b"] or m["d"] or m["p"] or m["q"] or m["n"]) if m else None


def opens_entry(lines: list[Line], i: int) -> int | None:
    """The marker number line i opens an entry with. A "12." or "12)" alone on its line opens one only when the
    next line starts right of it (the entry set beside or below it) or in another column (the entry turned the
    column); a wrapped entry's last line "19." is followed by the next entry at the list's left edge. A bracketed
    "[12]" is never a wrapped entry's tail."""
    line = lines[i]
    m, n = MARKER_RE.match(line.text), marker_number(line.text)
    if m is None or m["b"] or m.end() < len(line.text):
        return n
    after = lines[i + 1] if i + 1 < len(lines) else None
    if after is None:
        return None
    turned = (after.page, after.column) != (line.page, line.column)
    return n if turned or after.bbox[0] >= line.bbox[2] - 1 else None


def numbered_starts(lines: list[Line]) -> list[int] | None:
    """Indices of lines opening entries 1, 2, 3, ... in sequence (a number or two may be lost to the
    layout), when the list is numbered. A list numbered "(1)" is numbered so throughout, and no other list is: a
    wrapped entry's line may open with its issue number ('(3) 245-260 (2001).')."""
    starts, expected, parenthesized = [], None, None
    for i, line in enumerate(lines):
        n = opens_entry(lines, i)
        if n is None or (expected is None and n > 2) or (expected is not None and not expected <= n <= expected + 2):
            continue
        in_parentheses = MARKER_RE.match(line.text)["q"] is not None
        if parenthesized is not None and in_parentheses != parenthesized:
            continue
        starts.append(i)
        expected, parenthesized = n + 1, in_parentheses
    return starts if len(starts) >= max(3, 0.05 * len(lines)) else None


def unheaded_list(lines: list[Line]) -> list[Line]:
    """A bibliography printed without a heading (as REVTeX and letters journals set it): from the last line
    opening entry 1 ("[1]", "1.", or a raised "1" before an author's name) that opens one, the lines in that line's
    type to the end of the document, when they hold entries 1, 2, 3, ... in sequence; else []. Lines in another type
    (an Acknowledgments paragraph set between the columns of the list) are not part of it. A list numbered
    otherwise than "[1]" is a bibliography only when most of its entries print a year, as citations do and the
    steps of a procedure ("1. Run the statements ...") do not. A later line that only looks like entry 1 (a
    sentence of the Methods after the list opening with '1 Gyr', a plot's tick label) does not hide the list."""
    for first in (i for i in range(len(lines) - 1, -1, -1) if opens_entry(lines, i) == 1):
        if run := _list_from(lines, first):
            return run
    return []


def _list_from(lines: list[Line], first: int) -> list[Line]:
    """The list unheaded_list reads from line `first`, or []."""
    size = lines[first].size
    run = [line for line in lines[first:] if abs(line.size - size) < 0.6]
    starts = numbered_starts(run)
    if not starts:
        return []
    if MARKER_RE.match(lines[first].text)["b"]:  # "[1]"
        return run
    entries = [join([line.text for line in run[a:b]]) for a, b in entry_bounds(starts, len(run))]
    return run if sum(bool(YEAR_RE.search(e)) for e in entries) * 2 >= len(entries) else []


def entry_bounds(starts: list[int], end: int) -> list[tuple[int, int]]:
    """(first, past-last) line index of each entry, from the lines that open entries and the list's end."""
    return list(zip(starts, [*starts[1:], end]))


def keyed_starts(lines: list[Line]) -> list[int] | None:
    """Indices of lines opening with an alphanumeric key ("[Smi20]", "[ABC+19]"), when the list is keyed."""
    starts = [i for i, line in enumerate(lines) if KEY_RE.match(line.text)]
    return starts if len(starts) >= max(3, 0.05 * len(lines)) else None


def left_edges(lines: list[Line]) -> dict[tuple[int, int], float]:
    """Left edge of the list in each (page, column)."""
    edges: dict[tuple[int, int], float] = {}
    for line in lines:
        key = (line.page, line.column)
        edges[key] = min(edges.get(key, line.bbox[0]), line.bbox[0])
    return edges


def right_edges(lines: list[Line]) -> dict[tuple[int, int], float]:
    """Right edge of the text in each (page, column): where nine in ten of its lines end at most, so that a few
    lines reaching past the column (a figure's labels no region covers, read by OCR) do not make every line of
    it look short."""
    ends: dict[tuple[int, int], list[float]] = defaultdict(list)
    for line in lines:
        ends[(line.page, line.column)].append(line.bbox[2])
    edges: dict[tuple[int, int], float] = defaultdict(float)
    for key, xs in ends.items():
        xs.sort()
        edges[key] = xs[min(len(xs) - 1, int(_EDGE_SHARE * len(xs)))]
    return edges


def layout_starts(lines: list[Line]) -> list[int]:
    """Entry starts of an unnumbered list: hanging indent, else vertical gaps, else author starts."""
    if not lines:
        return []
    edges = left_edges(lines)
    size = Counter(round(l.size) for l in lines).most_common(1)[0][0]
    flush = [abs(l.bbox[0] - edges[(l.page, l.column)]) < 0.3 * size for l in lines]
    right = max(l.bbox[2] for l in lines)  # an entry's last line ends short; or the entry is one line, its year on it
    by_text = lambda i: (lines[i - 1].text.rstrip().endswith(".") and bool(AUTHOR_START_RE.match(lines[i].text))
                         and (lines[i - 1].bbox[2] < right - 2 * size or bool(YEAR_RE.search(lines[i].text))))
    share = sum(flush) / len(lines)
    if 0.1 < share < 0.8 or 0.8 <= share < 1 and _hanging(lines, flush, size):  # two indents; the list's first line
        # opens an entry, so its indent is the entries' (flush: hanging; else a paragraph's). A column whose lines
        # share one edge (an entry's last lines carried over to the next page) cannot tell by indent: the text does.
        indented = {key for key, f in zip(((l.page, l.column) for l in lines), flush) if not f}
        return [0] + [i for i in range(1, len(lines)) if (flush[i] == flush[0] if (lines[i].page, lines[i].column)
                                                          in indented else by_text(i))]
    gaps = [0.0] + [b.bbox[1] - a.bbox[3] if a.page == b.page and a.column == b.column else 0.0
                    for a, b in zip(lines, lines[1:])]
    pitch = sorted(g for g in gaps if g > -size)[len(gaps) // 2] if gaps else 0.0
    spaced = [i for i, g in enumerate(gaps) if g > pitch + 0.4 * size]
    if len(spaced) >= max(2, 0.1 * len(lines)):
        return sorted({0, *spaced})
    return [0] + [i for i in range(1, len(lines)) if by_text(i)]


def _hanging(lines: list[Line], flush: list[bool], size: float) -> bool:
    """Whether a list whose lines are nearly all flush (most entries one line long) still sets its entries with a
    hanging indent: a line that runs to the column's right edge (an entry going on) is mostly followed by an
    indented one. In a list without indents the line after a full one is flush, and the odd indented line is no
    sign of entries."""
    right = right_edges(lines)
    after_full = [not flush[i] for i in range(1, len(lines)) if (lines[i].page, lines[i].column) ==
                  (lines[i - 1].page, lines[i - 1].column) and lines[i - 1].bbox[2] >= right[
                      (lines[i].page, lines[i].column)] - size]
    return len(after_full) >= 2 and sum(after_full) >= 0.5 * len(after_full)


def join(texts: list[str]) -> str:
    """Join wrapped lines, closing hyphenation breaks ("re-" + "search")."""
    out = ""
    for t in texts:
        t = t.strip()
        if out.endswith("-") and t[:1].islower() and not out.endswith(" -"):
            out = out[:-1] + t
        else:
            out = f"{out} {t}" if out else t
    return out


def sentences(text: str) -> list[str]:
    """Split at ". " but not after initials or common abbreviations."""
    parts, start = [], 0
    for m in re.finditer(r"[.?!]\s+", text):
        if INITIAL_END_RE.search(text[start:m.start()]):
            continue
        parts.append(text[start:m.start() + 1].strip())
        start = m.end()
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def split_authors(text: str) -> list[str]:
    """'A. Smith, B. Jones, and C. Lee' / 'Smith, A., Jones, B.' / 'Smith A, Jones B' -> names."""
    text = re.sub(r"(?!(?<=\s)\s)\s+(?:et al\.?|and others)\s*+$", "",  # tried from a run's first space only
                  text.strip().rstrip(",:;"))
    inverted = list(INVERTED_RE.finditer(text))
    if inverted and sum(m.end() - m.start() for m in inverted) > 0.8 * len(text):
        return [f"{m['given'].strip()} {m['surname'].strip()}" for m in inverted]
    text = text.rstrip(".")
    names = re.split(r",\s*(?:and\s+|&\s*)?|(?!(?<=\s)\s)(?:\s+and\s+|\s+&\s+)", text)
    return [n.strip() for n in names if len(n.strip()) > 1 and not n.strip().isdigit()]


def looks_like_names(text: str) -> bool:
    """An author list: short, and its lower-case words are only name particles and connectives."""
    lower = [w for w in re.findall(r"\b[a-z][\w'’]*", text) if w not in NAME_WORDS]
    return len(text) < 400 and len(lower) <= 1


def parse_fields(raw: str) -> dict:
    """Authors, title, year, venue, DOI and arXiv id from one entry's text (marker removed)."""
    doi = DOI_RE.search(raw)
    arxiv = ARXIV_RE.search(raw)
    year = YEAR_RE.search(raw)
    fields = {"doi": doi[1].rstrip(".,;)") if doi else None, "arxiv_id": arxiv[1] if arxiv else None,
              "year": int(year[1]) if year else None, "authors": [], "title": None, "venue": None}
    quoted = QUOTED_RE.search(raw)
    if quoted:  # IEEE: A. Author, B. Author, "Title," Venue, 2003.
        fields["authors"] = split_authors(raw[:quoted.start()])
        fields["title"] = quoted["title"].strip(" ,.")
        fields["venue"] = raw[quoted.end():].strip(" ,.") or None
        return fields
    colon = re.match(r"^(?P<a>[^:]{3,300}?(?:[A-Z]\.|et al\.)):\s+(?P<rest>.+)$", raw)
    if colon:  # LNCS: Auer, C., Dolfi, M.: Title. Venue (2022)
        fields["authors"] = split_authors(colon["a"])
        parts = sentences(colon["rest"])
        fields["title"] = parts[0].rstrip(".") if parts else None
        fields["venue"] = " ".join(parts[1:]) or None
        return fields
    head = AUTHORS_YEAR_RE.match(raw)
    if head and looks_like_names(head["a"]):  # ACL / APA: Authors. 2018. Title. Venue.  Authors (2018). ...
        rest = sentences(head["rest"])
        fields["authors"] = split_authors(head["a"])
        fields["title"] = rest[0].rstrip(".") if rest else None
        fields["venue"] = " ".join(rest[1:]) or None
        return fields
    parts = sentences(raw)
    fields["authors"] = split_authors(parts[0]) if len(parts) > 1 else []
    fields["title"] = parts[1].rstrip(".") if len(parts) > 1 else None
    fields["venue"] = " ".join(parts[2:]) or None
    return fields


def body_lines(lines: list[Line]) -> list[Line]:
    """The list's lines: those set much smaller than the list itself (footnotes that fell into the section) and
    those mostly set much larger (display type: a running head the page furniture rule missed, the title of
    supplementary material appended after the bibliography) are no entry's. A line is as large as its largest
    type: authors set in small capitals ('CHANDRA, T.', the capitals at full size, the rest smaller) make most of
    an entry's first line small, and it is no footnote."""
    if not lines:
        return []
    size = Counter(round(l.size * 2) / 2 for l in lines).most_common(1)[0][0]
    return [l for l in lines if size - 0.8 < _type_size(l) and l.size <= size + _DISPLAY and l.text.strip()]


_DISPLAY = 2.0  # points over the list's type from which a line is display type, not part of an entry


def _type_size(line: Line) -> float:
    return max((s.size for s in line.spans if s.text.strip()), default=line.size)


def by_columns(lines: list[Line]) -> list[Line]:
    """Reading order of a list set in side-by-side columns: on each page, lines whose horizontal
    extents overlap form a column; columns left to right, lines top to bottom. A page whose lines
    do not fall into disjoint columns keeps the order it came in."""
    out = []
    for page in dict.fromkeys(l.page for l in lines):
        own = [l for l in lines if l.page == page]
        spans: list[list[float]] = []
        for x0, x1 in sorted((l.bbox[0], l.bbox[2]) for l in own):
            if spans and x0 < spans[-1][1] - 1:
                spans[-1][1] = max(spans[-1][1], x1)
            else:
                spans.append([x0, x1])
        spans = [s for s in spans if s[1] - s[0] >= 60]  # a narrow band of markers ("[12]") is no column
        if len(spans) < 2:
            out += own
            continue
        col = lambda l: next((i for i, s in enumerate(spans) if l.bbox[0] <= s[1]), len(spans) - 1)
        out += sorted((replace(l, column=col(l)) for l in own), key=lambda l: (l.column, l.bbox[1]))
    return out


# The labelled statements journals print after the references (Frontiers, PLOS, BMC): 'Conflict of Interest
# Statement: The authors declare ...', 'Received: 17 May 2013; accepted: ...', 'Citation: ...', 'Copyright (c) 2013'.
_BACK_MATTER = re.compile(r"^(?:(?:conflicts? of interest|competing interests?|received|accepted|published online|"
                          r"citation|funding|author contributions|data availability)\b[^:]{0,30}:|copyright\s*©)",
                          re.I)


def before_back_matter(lines: list[Line]) -> list[Line]:
    """The list up to the publisher's labelled statements that may follow it in the same column (an entry never
    opens with such a label)."""
    end = next((i for i, line in enumerate(lines) if i and _BACK_MATTER.match(line.text)), len(lines))
    return lines[:end]


def parse_references(lines: list[Line], sha256: str) -> list[Reference]:
    """The bibliography's entries in order, with their marker, raw text, parsed fields and place."""
    lines = before_back_matter(by_columns(sorted(body_lines(lines), key=lambda l: l.page)))  # never back a page
    starts = numbered_starts(lines) or keyed_starts(lines) or layout_starts(lines)
    out = []
    for n, (a, b) in enumerate(entry_bounds(starts, len(lines)), 1):
        own = lines[a:b]
        raw = join([l.text for l in own])
        m = (MARKER_RE.match(raw) if marker_number(own[0].text) is not None else None) or KEY_RE.match(raw)
        marker = m.group(0).strip() if m else None
        text = raw[m.end():] if m else raw
        first = [l for l in own if l.page == own[0].page]
        box = (min(l.bbox[0] for l in first), min(l.bbox[1] for l in first),
               max(l.bbox[2] for l in first), max(l.bbox[3] for l in first))
        out.append(Reference(id=element_id("reference", sha256, n, own[0].page, round(box[0], 1), round(box[1], 1)),
                             ordinal=n, marker=marker, raw=text, page=own[0].page, bbox=box, **parse_fields(text)))
    return out

"""Bibliographic metadata from the first page as printed: title, authors, abstract, keywords, ids.

The PDF's own metadata is only a hint: producers fill it with "Microsoft Word - x.doc",
"untitled" or "(anonymous)".
"""

from __future__ import annotations

import re

from extractors.body import Placed
from extractors.model import Author, Box, Line, Metadata, PageLayout
from extractors.pubyear import publication_year
from extractors.sections import Heading, body_size
from extractors.text import ABSTRACT_NAMES, join_lines

_NOT_TITLE = re.compile(r"arxiv|proceedings|journal|vol\.|volume|doi|https?:|www\.|©|\(c\)|copyright|preprint|"
                        r"submitted|received|accepted|published|issn|conference|workshop|letters?\b|"
                        r"research article|original article|review article|open access|magazine|front cover|technical report", re.I)
_JUNK_META_TITLE = re.compile(r"^\(?(untitled|anonymous|microsoft word|title|document\d*|paper|slide \d+)\b|"
                              r"\.(docx?|tex|dvi|pdf|ps)$", re.I)
_AFFILIATION = re.compile(r"universit|institut|department|dept\.|laborator|\blab\b|school|college|cent(er|re)\b|"
                          r"research|corporation|\binc\b|ltd|gmbh|academy|hospital|faculty|foundation|"
                          r"\b(google|microsoft|ibm|allen|facebook|meta ai|street|road|avenue|city|usa|china|germany|"
                          r"france|italy|japan|uk|canada|india|spain|poland|ireland)\b", re.I)
# "Member, IEEE": a run of spaces is tried from its comma or its first space only (a start inside the run
# matches only where the run's start does), so a line of spaces costs one pass
_MEMBERSHIP = re.compile(r"(?!(?<=[\s,])\s),?\s*\b(?:(?:student|senior|life)\s+)?(?:member|fellow),?\s*ieee\b", re.I)
# An address starts where its run of address characters starts, and a grouped one ("{a,b}@x.org") lists at
# most 200 characters: a long line with no "@", or of unclosed braces, costs one pass
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++|\{[^}]{1,200}+\}@[\w.-]++|\([^)]{1,200}+\)@[\w.-]++")
_NAME_WORD = re.compile(r"^(?:[A-Z][\w'’\-]*\.?|[A-Z]\.(?:-?[A-Z]\.)?|van|von|der|den|de|da|di|du|la|le|del|bin|al|y)$")
# trailing marks match from the first of a run only, so a long run that does not end the line costs one pass
_MARKS = re.compile(r"(?<![\d*†‡§¶⋆♠♣♢♦♥∗,])[\d*†‡§¶⋆♠♣♢♦♥∗,]++$|^[\d*†‡§¶⋆♠♣♢♦♥∗]++")
_ABSTRACT_WORD = rf"({ABSTRACT_NAMES}|summary)"
_ABSTRACT_HEAD = re.compile(_ABSTRACT_WORD, re.I)
_ABSTRACT_RUNIN = re.compile(rf"^\s*{_ABSTRACT_WORD}\s*[—–:.\-]\s*", re.I)
_KEYWORDS = re.compile(r"^\s*(keywords?|key words|index terms)\s*[—–:.\-]?\s*", re.I)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s,;\"'<>]+[^\s,;.\"'<>)])")
_ARXIV = re.compile(r"arxiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)", re.I)
_VENUE = re.compile(r"(proceedings of [^.,;]+|in:? [A-Z][^.;]*(?:conference|workshop|symposium)[^.;]*)", re.I)


def valid_meta_title(title: str | None) -> bool:
    return bool(title) and len(title.strip()) >= 8 and not _JUNK_META_TITLE.search(title.strip())


def extract_metadata(first: PageLayout, lines: list[Line], heads: list[Heading], placed: list[Placed],
                     text: str, pdf_meta: dict, toc: list | None = None) -> Metadata:
    """`first` is page 1's layout; `lines`/`placed` the body lines and their spans in `text`;
    `pdf_meta` and `toc` (the PDF's metadata and outline) are used only when page 1 has no title."""
    page_lines = first.lines
    stop = _front_end(page_lines, heads)
    title_lines = _title_lines(page_lines[:stop], first.height)
    if title_lines and _size(title_lines[0]) < body_size(lines) + 0.5:
        title_lines = []  # no line set larger than the body: this page has no title (an excerpt)
    title = join_lines([l.text for l in title_lines]) if title_lines else None
    if title is None:  # only then do the PDF's own outline and metadata get a say
        outline = toc[0][1].strip() if toc and toc[0][0] == 1 else None
        meta_title = pdf_meta.get("title") if valid_meta_title(pdf_meta.get("title")) else None
        title = next((t for t in (outline, meta_title) if t and not _NOT_TITLE.search(t)), None)
    after = page_lines.index(title_lines[-1]) + 1 if title_lines else 0
    stop_y = page_lines[stop].bbox[1] if stop < len(page_lines) else first.height
    authors = _authors([l for n, l in enumerate(page_lines[after:], after)
                        if (n < stop or l.bbox[3] <= stop_y + 1) and l not in title_lines])
    abstract, box = _abstract(heads, placed, text)
    page_text = "\n".join(l.text for l in page_lines)
    doi = _first(_DOI, page_text) or _first(_DOI, pdf_meta.get("subject") or "")
    return Metadata(
        title=title,
        title_box=Box(page=1, bbox=_union([l.bbox for l in title_lines])) if title_lines else None,
        authors=authors,
        abstract=abstract,
        abstract_box=box,
        keywords=_keywords(page_lines),
        doi=doi,
        arxiv_id=_first(_ARXIV, page_text),
        year=publication_year(first, body_size(lines), doi),
        venue=_first(_VENUE, page_text),
    )


def _union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _first(pattern: re.Pattern, text: str) -> str | None:
    m = pattern.search(text)
    return m.group(1).strip() if m else None


def _front_end(lines: list[Line], heads: list[Heading]) -> int:
    """Index in page 1's lines where the front matter ends: the first heading or abstract."""
    marks = {(h.page, h.bbox[1]) for h in heads if h.page == 1 and not h.by_style}
    for i, line in enumerate(lines):
        if (1, line.bbox[1]) in marks or _ABSTRACT_RUNIN.match(line.text) and len(line.text) > 30:
            return i
    return min(len(lines), 40)


def _title_lines(lines: list[Line], height: float) -> list[Line]:
    """The run of largest-font lines in the upper half of page 1."""
    candidates = [l for l in lines if sum(c.isalpha() for c in l.text) >= 4 and not _NOT_TITLE.search(l.text)
                  and not _EMAIL.search(l.text) and l.bbox[1] < 0.5 * height and _size(l) >= 4]
    if not candidates:
        return []
    biggest = max(_size(l) for l in candidates)
    start = next(l for l in candidates if _size(l) >= biggest - 0.5)
    run = [start]
    for line in lines[lines.index(start) + 1:]:
        prev = run[-1]
        if abs(_size(line) - _size(start)) > 0.6 or line.bbox[1] - prev.bbox[3] > 1.2 * _size(start) or len(run) >= 6:
            break
        run.append(line)
    return run


def _size(line: Line) -> float:
    return max((s.size for s in line.spans if any(c.isalpha() for c in s.text)), default=line.size)


def _authors(lines: list[Line]) -> list[Author]:
    """Names from the lines between title and abstract; affiliation and email lines are attached."""
    names: list[str] = []
    affiliations: list[str] = []
    emails: list[str] = []
    for line in lines:
        text = _author_text(line)
        found = _EMAIL.findall(text)
        if found:
            emails.extend(found)
            continue
        if _AFFILIATION.search(text) or _ABSTRACT_RUNIN.match(text):
            affiliations.append(text)
            continue
        parsed = _names(text)
        if parsed:
            names.extend(parsed)
    plain = [e for e in emails if not e.startswith(("{", "("))]
    return [Author(name=n, affiliations=affiliations[:1] if len(set(affiliations)) == 1 else [],
                   email=plain[i] if len(plain) == len(names) else None) for i, n in enumerate(names)]


def _author_text(line: Line) -> str:
    """The line with superscript marks (affiliation letters, daggers) and wide gaps turned into
    commas: "Kyle Lo†∗ Lucy Lu Wang†" -> "Kyle Lo, Lucy Lu Wang,"."""
    size = _size(line)
    out = ""
    prev = None
    for span in line.spans:
        small = span.size < 0.8 * size
        if prev is not None and (small or span.bbox[0] - prev.bbox[2] > 1.5 * size):
            out += ", "
        if not small:
            out += span.text if not out or out.endswith((" ", ", ")) or span.text.startswith(" ") or \
                prev is None or span.bbox[0] - prev.bbox[2] < 0.15 * size else " " + span.text
        prev = span
    out = re.sub(r"\[[^\]]*\]|\ufffd", ",", _MEMBERSHIP.sub(",", out))  # ORCID ids, unknown marks, "Member, IEEE"
    return " ".join(out.split())


def _names(text: str) -> list[str]:
    """Person names from an author line ("A. Smith, B. Jones and C. Lee"), or [] if it is not one."""
    # marks after a name; a run of spaces or of marks is tried from its start only (a later start matches only
    # where the run's start does), so a long run costs one pass
    text = re.sub(r"(?!(?<=\s)\s)(?![\d*†‡§¶⋆♠♣♢♦♥∗](?<=[\d*†‡§¶⋆♠♣♢♦♥∗]{2}))"
                  r"\s*+[\d*†‡§¶⋆♠♣♢♦♥∗]++(?:,[\d*†‡§¶⋆♠♣♢♦♥∗]++)*(?=\s|,|$)", "", text)
    parts = [p.strip() for p in re.split(r",|;|\band\b|&|\s{3,}|·", text) if p.strip(" .")]
    names = []
    for part in parts:
        part = _MARKS.sub("", part).strip()
        words = part.split()
        if not 2 <= len(words) <= 5 or not all(_NAME_WORD.match(w) for w in words):
            return []
        if not words[-1][0].isupper() or sum(len(w) for w in words) < 4:
            return []
        names.append(" ".join(words))
    return names


def _abstract(heads: list[Heading], placed: list[Placed], text: str) -> tuple[str | None, Box | None]:
    """Text after an Abstract heading (or a run-in "Abstract—") up to the next heading; without
    either, the first long paragraph before the first section."""
    head = next((h for h in heads if h.front and _ABSTRACT_HEAD.match(h.title)), None)
    following = None
    start = None
    if head is not None:
        first = max(head.lines) + 1
        start = next((p for p in placed if p.index >= first), None)
        following = next((h for h in heads if min(h.lines) > max(head.lines)), None)
    else:
        for p in placed:
            if p.line.page > 2:
                break
            if _ABSTRACT_RUNIN.match(p.line.text):
                start = p
                break
        if start is not None:
            following = next((h for h in heads if min(h.lines) > start.index), None)
    if start is None:
        return _first_long_paragraph(heads, placed, text)
    end_index = min(following.lines) if following else start.index + 60
    chosen = [p for p in placed if start.index <= p.index < end_index and not _KEYWORDS.match(p.line.text)]
    keep = []
    for p in chosen:
        if _KEYWORDS.match(p.line.text) or p.line.size < start.line.size - 1.0:
            break
        keep.append(p)
    if not keep:
        return None, None
    body = text[keep[0].start:keep[-1].end]
    body = _ABSTRACT_RUNIN.sub("", body, count=1).strip()
    return " ".join(body.split()), Box(page=keep[0].line.page, bbox=_union([p.line.bbox for p in keep if p.line.page == keep[0].line.page]))


_ABSTRACT_PART = re.compile(r"^(background|context|objectives?|aims?|purpose|methods?|design|setting|results?|findings|"
                            r"conclusions?|interpretation|significance)\s*:", re.I)


def _first_long_paragraph(heads: list[Heading], placed: list[Placed], text: str) -> tuple[str | None, Box | None]:
    """An abstract printed without a heading: the first paragraph of prose on page 1 before the first section
    (at least 300 characters of sentences; abstracts are often set a point or two smaller than the body), with
    the parts of a structured abstract that follow it (Background: ..., Methods: ..., Conclusions: ...)."""
    first_section = min((min(h.lines) for h in heads if not h.front), default=None)
    paragraphs: dict[int, list[Placed]] = {}
    for p in placed:
        if first_section is not None and p.index >= first_section or p.line.page > 1:
            break
        paragraphs.setdefault(p.paragraph, []).append(p)
    size = body_size([p.line for p in placed])
    groups = list(paragraphs.values())
    for n, group in enumerate(groups):
        if group[0].line.size < size - 1.6:
            continue
        if _ABSTRACT_PART.match(group[0].line.text):
            while n + 1 < len(groups) and _ABSTRACT_PART.match(groups[n + 1][0].line.text):
                group = group + groups[n + 1]
                n += 1
        body = " ".join(text[group[0].start:group[-1].end].split())
        if len(body) >= 300 and body.endswith(".") and ". " in body:
            return body, Box(page=1, bbox=_union([p.line.bbox for p in group]))
    return None, None


def _keywords(lines: list[Line]) -> list[str]:
    for i, line in enumerate(lines):
        m = _KEYWORDS.match(line.text)
        if m and len(line.text) > m.end() + 2:
            rest = line.text[m.end():]
            if i + 1 < len(lines) and not rest.rstrip().endswith(".") and lines[i + 1].size == line.size:
                rest = join_lines([rest, lines[i + 1].text])
            return [k.strip(" .") for k in re.split(r"[,;·•]", rest) if k.strip(" .")]
    return []



"""Section headings and the section tree, from font statistics, numbering and position.

A heading is a line that stands alone (not a run-in "Training data. We ..."), set apart from the
body font (bold, larger, capitals or small caps, italic for numbered sub-levels) and either
numbered in sequence (1, 2.1, A.1, IV, B.), or named like a known section (References,
Acknowledgments, ...), or set in exactly the style of such a heading, or in a style the document
gives several stand-alone lines that each open a paragraph (its own unnumbered sub-heading style).
A numbered heading may also be set run-in ("2.1. Data sources. We ..."): number and emphasised
title, then the paragraph in the body font. Lines of a printed table of contents (a page number
flush right on their row) are not headings.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from extractors.body import Placed
from extractors.model import BBox, Box, Line, Section, Span, element_id
from extractors.ocr_labels import PROSE_CHARS
from extractors.references import AUTHOR_START_RE, right_edges
from extractors.text import ABSTRACT_NAMES, FLOAT_LABEL, MATH_FONT, REFERENCES, REFERENCES_NAMES, UNKNOWN, join_lines

# A glyph its font names no character for (UNKNOWN) after a number's space and before its title is a separator the
# font draws, such as a fixed space ('1.1 \ufffdOur Contribution'): a title is read from its first letter (a title
# whose own first letter is such a glyph loses it, as it would be unreadable anyway).
_DIGIT_NUM = re.compile(rf"^(?P<num>\d{{1,2}}(?:\.\d{{1,2}}){{0,3}})(?P<dot>\.?)(?P<sep>(?:\s+{UNKNOWN})?\s*)"
                        r"(?P<title>[^\W\d_].*)$")
_APPENDIX_LABEL = re.compile(r"^(?:appendix|appendices)(?:\s+[A-Z0-9](?:\.\d+)*)?[.:]?$", re.I)
_LETTER_NUM = re.compile(r"^(?:appendix\s+)?(?P<num>[A-Z](?:\.\d{1,2}){0,3})(?P<dot>[.:]?)\s+(?P<title>\S.*)$", re.I)
_ROMAN_NUM = re.compile(r"^(?P<num>[IVX]{1,5})(?P<dot>\.?)\s+(?P<title>[^\W\d_].*)$")
_KNOWN = re.compile(
    rf"^({REFERENCES_NAMES}|bibliography|literature cited|acknowledge?ments?|appendix(?: [a-z])?|appendices|"
    r"introduction|conclusions?|concluding remarks|related work|discussion|methods?|materials and methods|"
    r"results|results and discussion|background|limitations?|ethics statement|ethical considerations|"
    r"broader impacts?|author contributions|funding|competing interests|conflicts? of interest|"
    r"data availability|supplementary (?:material|information)|supplemental information|future work|"
    r"summary|declarations?)$", re.I)
_ABSTRACT = re.compile(rf"^({ABSTRACT_NAMES})\b", re.I)
_FRONT = re.compile(rf"^({ABSTRACT_NAMES}|keywords?|key words|index terms|categories and subject descriptors|"
                    r"general terms|ccs concepts|acm reference format)\b", re.I)
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10,
          "XI": 11, "XII": 12, "XIII": 13, "XIV": 14, "XV": 15}
# An unnumbered paper's top level is the style of its bibliography's heading when this many headings of its body
# are set in it too: a style it shares only with the back matter's headings says less than prominence does
_TOP_STYLE_SHARED = 2
_LOOK_BACK = 4  # lines looked back over for the one above a heading, past marks in the margin left of it...
_MARK_CHARS = 3  # ...of at most this many characters
_BACK_MATTER = re.compile(r"^(acknowledge?ments?|notes|endnotes|funding|competing interests|conflicts? of interest|"
                          r"author contributions|data availability|declarations?|ethics statement|appendix.*|"
                          r"appendices|supplementary (?:material|information))$", re.I)


@dataclass
class Heading:
    lines: list[int]  # indices into the body lines: the heading may wrap
    number: str | None
    title: str
    level: int
    page: int
    bbox: BBox
    front: bool = False  # Abstract, Keywords: front matter, not a section
    fixed: bool = False  # level given by the PDF outline
    by_style: bool = False  # found only by sharing the style of other headings
    by_model: bool = False  # a line the layout model calls a section header, passing the checks of _hinted
    run_in: bool = False  # set at the start of its paragraph's first line: the line is body text too
    printed: bool = True  # False: a section's start no heading marks (a bibliography closing the paper without one)
    style: tuple = field(default=())


def body_size(lines: list[Line]) -> float:
    """The font size carrying most characters: the body text."""
    sizes = Counter()
    for line in lines:
        sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _measured_body_size(lines: list[Line], size: float) -> float:
    """The median size of the characters set in the body size `size` (sizes are grouped by the half point): OCR
    measures a line's size to a fraction of a point, and one paper's headings, a point below its body text, fell
    below the small-print cut when the body's 9.86 pt was taken as 10."""
    held = sorted((line.size, len(line.text)) for line in lines if round(line.size * 2) / 2 == size and line.text)
    half, seen = sum(n for _, n in held) / 2, 0
    for measured, n in held:
        seen += n
        if seen >= half:
            return measured
    return size


def _caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _size(line: Line) -> float:
    """The largest letter size on the line: small caps set most letters smaller."""
    return max((s.size for s in line.spans if any(map(str.isalpha, s.text))), default=line.size)


def _style(line: Line, title: str) -> tuple:
    small_caps = bool(re.search(r"cmcsc|smallcaps|caps", line.font, re.I))
    return round(_size(line) * 2) / 2, line.bold, line.italic, _caps(title) or small_caps


def _uniform(line: Line) -> bool:
    """Every word of the line in one weight and slant: not a run-in heading followed by body
    text. Spans without letters (a plain section number, a footnote mark), math variables
    (one or two italic or math-font letters) and names in capitals (a system's name in small caps,
    which most fonts cut in one weight only: '2.2 Type Checking with HMM-T') do not count."""
    for s in line.spans:
        letters = sum(map(str.isalpha, s.text))
        if not letters or letters <= 2 and (s.italic or MATH_FONT.match(s.font)) or _caps_name(s, line):
            continue
        if s.bold != line.bold or s.italic != line.italic:
            return False
    return True


def _caps_name(span: Span, line: Line) -> bool:
    """Whether `span` is a name in capitals set lighter than its bold or italic line (small caps in a bold heading),
    not a bold lead in capitals before regular text ('2.1. DATA SOURCES. We ...', a run-in heading)."""
    return (span.text.isupper() and len(span.text.split()) <= 2 and not span.bold and not span.italic
            and (line.bold or line.italic))


def _run_in(line: Line) -> tuple[str, tuple] | None:
    """(heading text, its style) of a numbered heading set run-in: the number, a title in bold or italic ending
    with a period or colon, then the paragraph in the line's body font ("2.1. Data sources. We ..."). Short
    upright pieces inside the title are math set in roman ("CN", "log") and do not end it."""
    end = None
    titled: list = []
    for n, s in enumerate(line.spans):
        letters = sum(map(str.isalpha, s.text))
        if s.bold or s.italic:
            titled += [s] if letters > 2 else []
            if titled and s.text.rstrip().endswith((".", ":")):
                end = n + 1
        elif letters and (end is not None or letters > 3):
            break
    if end is None or end == len(line.spans):
        return None
    text = " ".join(" ".join(s.text for s in line.spans[:end]).split())
    first = titled[0]
    return text, (round(first.size * 2) / 2, first.bold, first.italic, _caps(text))


def _toc_entry(lines: list[Line], i: int) -> bool:
    """A printed table of contents: the line's row ends, far to its right, in a page number."""
    line = lines[i]
    for j in range(max(0, i - 3), min(len(lines), i + 4)):
        other = lines[j]
        if (j != i and other.page == line.page and other.column == line.column
                and other.bbox[0] > line.bbox[2] + 4 * line.size
                and other.text.strip().isdigit() and len(other.text.strip()) <= 4
                and min(line.bbox[3], other.bbox[3]) - max(line.bbox[1], other.bbox[1]) > 0.5 * (line.bbox[3] - line.bbox[1])):
            return True
    return False


def _standalone_styles(lines: list[Line], size: float, in_floats: set[int]) -> set[tuple]:
    """Styles the document gives at least two short stand-alone lines, each with space above and a paragraph
    in the body font right below (its first line under the heading's start and about full to the column's
    edge, ragged right or justified): the document's own (often unnumbered) heading styles, such as bold
    body-size sub-headings under upper-case section headings."""
    right = right_edges(lines)
    count: Counter = Counter()
    for i, line in enumerate(lines[:-1]):
        text, nxt = line.text.strip(), lines[i + 1]
        bare = _clean_title(text)
        if (i in in_floats or not 2 <= len(bare) <= 80 or len(bare.split()) > 10 or not bare[:1].isupper()
                or text.endswith((".", ",", ";")) or not _uniform(line) or _numbering(text, False)):
            continue
        style = _style(line, bare)
        if (_distinct(style, size, False) and _gap_above(lines, i)
                and line.bbox[2] < right[(line.page, line.column)] - 1.5 * size
                and nxt.page == line.page and nxt.column == line.column and not nxt.bold
                and abs(nxt.size - size) < 0.6 and nxt.bbox[2] >= right[(nxt.page, nxt.column)] - 4 * size
                and nxt.bbox[1] >= line.bbox[3] - 0.3 * size and abs(nxt.bbox[0] - line.bbox[0]) < 3 * size):
            count[style] += 1
    return {style for style, n in count.items() if n >= 2}


def _small_label(line: Line, text: str, roman_doc: bool, right: float, measure: float, in_float: bool) -> bool:
    """A heading that journals set below the body size: a front-matter label (ABSTRACT), or a section heading in
    capitals named like a known section, or numbered and centred in its column (AAS journals set 'REFERENCES' and
    '1. INTRODUCTION' so, two points below the body). A numbered line in small capitals flush left is a footnote's,
    and capitals that small inside a figure or table ('RESULTS' in a flowchart's box) are its own."""
    if _FRONT.match(text):
        return True
    if in_float:
        return False
    numbered = _numbering(text, roman_doc)
    title = numbered[2] if numbered else text
    centred = abs((line.bbox[0] + line.bbox[2]) / 2 - (right - measure / 2)) <= line.size
    return _caps(title) and bool(_KNOWN.match(_clean_title(title)) or numbered and centred)


def _distinct(style: tuple, size: float, numbered: bool) -> bool:
    fsize, bold, italic, caps = style
    return bold or caps or fsize >= size + 0.9 or (numbered and italic)


def _numbering(text: str, roman_doc: bool) -> tuple[str, str, str] | None:
    """(scheme, number, title) for a numbered heading line; scheme is digit, letter or roman."""
    if roman_doc and (m := _ROMAN_NUM.match(text)) and m["num"] in _ROMAN:
        return "roman", m["num"], m["title"]
    m = _DIGIT_NUM.match(text)
    if m and (m["sep"] or "." in m["num"] + m["dot"]) and m["title"][0].isupper():
        return "digit", m["num"], m["title"]
    m = _LETTER_NUM.match(text)
    if m and m["title"][0].isupper() and (m["dot"] or "." in m["num"] or text.lower().startswith("appendix")
                                          or len(m["title"]) > 1):
        return "letter", m["num"].upper(), m["title"]
    return None


def _clean_title(title: str) -> str:
    return title.strip().rstrip(".:").strip()


@dataclass(frozen=True)
class OutlineEntry:
    """Headings the PDF outline names by one title: each entry names one heading, so a line of body text that
    reads as the title later on ('catch trials).' ending a paragraph) is none."""
    level: int
    page: int  # of the first entry: outline pages are often off, so it only bounds where to look
    count: int = 1


def outline_levels(toc: list) -> dict[str, OutlineEntry]:
    """heading key -> its OutlineEntry from the PDF outline, when it has at least three entries.
    A lone shallowest first entry is the paper's title; levels count from the next depth."""
    entries = []
    front_level = None  # entries under Abstract (structured abstracts) are not sections
    for lvl, title, page, *_ in toc or []:
        if front_level is not None and lvl > front_level:
            continue
        front_level = lvl if _FRONT.match(title.strip()) else None
        if front_level is None and _key(title):
            entries.append((lvl, _key(title), page))
    if entries and sum(1 for e in entries if e[0] == entries[0][0]) == 1 and all(e[0] > entries[0][0] for e in entries[1:]):
        entries = entries[1:]
    if len(entries) < 3:
        return {}
    top = min(e[0] for e in entries)
    out: dict[str, OutlineEntry] = {}
    for lvl, key, page in entries:
        out[key] = replace(out[key], count=out[key].count + 1) if key in out else OutlineEntry(lvl - top + 1, page)
    return out


def _key(text: str) -> str:
    """Heading text compared without numbering, case and punctuation."""
    text = re.sub(r"^\s*(?:[A-Z]|\d+|[IVX]+)(?:\.\d+)*\.?\s+", "", text.strip())
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def find_headings(lines: list[Line], in_floats: set[int] = frozenset(),
                  outline: dict[str, OutlineEntry] | None = None, hinted: set[int] = frozenset()) -> list[Heading]:
    """Headings in reading order (front-matter ones like Abstract flagged `front`). Lines in
    `in_floats` (inside figure/table regions) can only be numbered or named headings: a region
    that reaches over a heading must not hide it, but table cells must not borrow a heading style.
    `outline` (from outline_levels) names headings outright: a line whose text is an outline
    entry of its page, not yet found as often as the outline names it, is a heading at the outline's level.
    `hinted` lines (the layout model's section headers, see extractors/escalation.py) are headings when they look
    like one by _hinted's checks."""
    outline = outline or {}
    size = body_size(lines)
    small_print = _measured_body_size(lines, size) - 1.2  # a line below this is no heading...
    roman_doc = sum(1 for line in lines if (m := _ROMAN_NUM.match(line.text.strip())) and m["num"] in ("II", "III")
                    and _distinct(_style(line, m["title"]), size, True)) >= 1
    right = right_edges(lines)
    measure = _measures(lines)
    recurring = _standalone_styles(lines, size, in_floats)
    heads: list[Heading] = []
    top: int | None = None  # current top-level number
    seen_top = in_refs = in_list = False  # in_list: from the References heading to the next heading
    front_y: float | None = None  # top of the Abstract heading on page 1
    # above the abstract on page 1 stand the title and the authors' addresses ('1 University Station C0500'), whose
    # numbers are no section's
    abstract_top = min((line.bbox[1] for line in lines if line.page == 1 and _ABSTRACT.match(line.text.strip())),
                       default=None)
    styles: dict[tuple, Counter] = defaultdict(Counter)
    taken: set[int] = set()
    named: Counter[str] = Counter()  # headings found of each outline title
    for i, line in enumerate(lines):
        if i in taken:
            continue
        text = line.text.strip()
        column = (line.page, line.column)
        if len(text) < 2 or len(text) > 160 or _size(line) < small_print and not (
                _size(line) >= small_print - 1.3  # ...but a label that may be set smaller still
                and _small_label(line, text, roman_doc, right[column], measure[column], i in in_floats)):
            continue
        bare = _clean_title(text)
        entry = outline.get(key := _key(bare))
        in_outline = entry.level if entry and line.page >= entry.page - 1 and named[key] < entry.count else None
        run_in = None
        if not in_outline and not _uniform(line):
            run_in = _run_in(line)
            if run_in is None:
                continue
            text = run_in[0]
        short = line.bbox[2] < right[(line.page, line.column)] - 1.5 * size
        gap_ok = _gap_above(lines, i) or bool(heads) and heads[-1].lines[-1] == i - 1
        numbered = _numbering(text, roman_doc)
        if run_in and not (numbered and gap_ok):
            continue  # only a numbered heading is set run-in; bold lead words of a paragraph are not headings
        if _toc_entry(lines, i):
            continue
        if (numbered or seen_top or _KNOWN.match(bare) or _FRONT.match(bare)) and _shares_row(lines, i, i in in_floats):
            continue  # table cells share their row; headings stand alone
        head: Heading | None = None
        if numbered and in_list and (run_in or AUTHOR_START_RE.match(numbered[2])
                                     or top is None and numbered[0] != "letter" and not in_outline):
            # a bibliography's entry, its authors in bold ('1. Agogue, H., M. Brink, and'), or in a paper whose
            # sections have no numbers, a line numbered in digits or Roman numerals ('1. World Health Organization.')
            numbered = None
        if numbered and not run_in and not in_outline and _runs_on(lines, i, size, measure[(line.page, line.column)]):
            numbered = None  # a numbered paragraph ('5. The coefficients are extracted by computing a' / 'linear ...')
        if numbered and (gap_ok or short) and not (abstract_top is not None and line.page == 1
                                                   and line.bbox[3] <= abstract_top):
            scheme, number, title = numbered
            style = run_in[1] if run_in else _style(line, title)
            if _distinct(style, size, True) and len(title.split()) <= 18 and not title.rstrip().endswith(","):
                level = _level(scheme, number, roman_doc, in_refs)
                value = _top_value(scheme, number)
                ok = False
                if scheme == "letter":
                    ok = seen_top and (level == 1 and (number[0] == "A" or any(
                        h.number and h.number[0] == chr(ord(number[0]) - 1) for h in heads))
                                       or level > 1 and (roman_doc or in_refs or any(
                                           h.number == number.split(".")[0] for h in heads)))
                elif level == 1:
                    ok = (top is None and value <= 2) or (top is not None and top < value <= top + 3)
                else:
                    ok = top is not None and value in (top, top + 1)
                if ok:
                    if level == 1 and scheme != "letter":
                        top = value
                    seen_top = True
                    head = Heading([i], number, _clean_title(title), level, line.page, line.bbox, style=style,
                                   run_in=bool(run_in))
        if head is None and (level := in_outline):
            number = numbered[1] if numbered else None
            title = _clean_title(numbered[2]) if numbered else bare
            head = Heading([i], number, title, level, line.page, line.bbox, style=_style(line, title), fixed=True)
            seen_top = True
        if head is None and gap_ok and (_KNOWN.match(bare) or _FRONT.match(bare) and len(bare) < 40):
            style = _style(line, bare)
            if _distinct(style, size, False) or line.italic:
                front = bool(_FRONT.match(bare))
                head = Heading([i], None, bare, 0, line.page, line.bbox, front=front, style=style)
                seen_top = seen_top or not front
        in_front = front_y is not None and line.page == 1 and line.bbox[1] < front_y  # beside the abstract
        if head is None and seen_top and gap_ok and short and styles and i not in in_floats and not in_front:
            style = _style(line, bare)
            if ((style in styles or style in recurring) and _distinct(style, size, False) and len(bare.split()) <= 10
                    and bare[:1].isupper() and not text.endswith((".", ",", ";")) and not _FRONT.match(bare)):
                head = Heading([i], None, bare, 0, line.page, line.bbox, style=style, by_style=True)
        if (head is None and i in hinted and gap_ok and i not in in_floats and not in_front
                and not _shares_row(lines, i) and not _above_body(lines, i, size)):
            head = _hinted(line, i, text, bare, numbered, size, roman_doc, in_refs)
            seen_top = seen_top or head is not None
        if head is None:
            continue
        if in_outline:
            named[key] += 1
        if not head.run_in:
            _absorb_wrapped(lines, head, taken, size, measure[(line.page, line.column)])
        if not head.front and not head.run_in:  # a run-in title's font also sets lead words that are no heading
            if head.number is not None or head.fixed:
                styles[head.style][head.level] += 1
            elif head.style not in styles:
                styles[head.style][0] += 1
        in_list = bool(REFERENCES.match(head.title))
        in_refs = in_refs or in_list
        if head.front and head.page == 1 and front_y is None:
            front_y = head.bbox[1]
        heads.append(head)
    _assign_unnumbered_levels(heads, styles)
    return heads


def _above_body(lines: list[Line], i: int, size: float) -> bool:
    """The line is on the first page above its running text: title, authors, banner, which a layout model may call
    section headers too (bold author names are set like headings)."""
    return lines[i].page == 1 and not any(o.page == 1 and abs(o.size - size) < 0.6 and len(o.text) > 40
                                          for o in lines[:i])


def _hinted(line: Line, i: int, text: str, bare: str, numbered: tuple[str, str, str] | None, size: float,
            roman_doc: bool, in_refs: bool) -> Heading | None:
    """A line the layout model calls a section header, kept when the rules' basic checks agree: a few words,
    numbered or capitalised, not ending like a sentence or a label ("Sentence:"), not a caption, and set apart
    from the body unless it is numbered (a numbered sub-heading may be set in the body's type or only in another
    typeface; the number, the line standing alone and the model's word are the evidence then). Unnumbered, its
    level comes from its style like any unnumbered heading's."""
    title = _clean_title(numbered[2]) if numbered else bare
    style = _style(line, title)
    if ((numbered is None and not _distinct(style, size, False)) or len(title.split()) > 12
            or not (numbered or title[:1].isupper()) or text.endswith((".", ",", ";", ":")) or FLOAT_LABEL.match(bare)):
        return None
    level = _level(numbered[0], numbered[1], roman_doc, in_refs) if numbered else 0
    return Heading([i], numbered[1] if numbered else None, title, level, line.page, line.bbox,
                   style=style, by_model=True)


def unsure_numbered(lines: list[Line], heads: list[Heading], in_floats: set[int] = frozenset()) -> list[int]:
    """Lines numbered as a sub-heading of a heading the rules found ("3.1 Tight Examples" after "3 Analysis"),
    standing alone with space above, that the rules did not take: they take a numbered line only when its type is
    set apart (bold, capitals, larger), and a sub-heading set in the body's weight (perhaps in another typeface)
    looks to them like a numbered paragraph. extractors/escalation.py asks the layout model about these."""
    numbers = {h.number for h in heads if h.number}
    taken = {i for h in heads for i in h.lines}
    out = []
    for i, line in enumerate(lines):
        if i in taken or i in in_floats:
            continue
        text = line.text.strip()
        numbered = _numbering(text, False)
        if numbered is None or numbered[0] != "digit" or "." not in numbered[1] or numbered[1] in numbers:
            continue
        if (numbered[1].rsplit(".", 1)[0] in numbers and len(numbered[2].split()) <= 12
                and not text.endswith((".", ",", ";", ":")) and _uniform(line) and _gap_above(lines, i)
                and not _shares_row(lines, i)):
            out.append(i)
    return out


def _shares_row(lines: list[Line], i: int, anywhere: bool = False) -> bool:
    """Whether another line of the same page and column sits on this line's row nearby (table
    cells do; a margin note level with a heading does not count), or anywhere on it: inside a table's region, its
    cells stand far apart ('Group', 'A GI', 'A No GI': a header row, not an appendix). A speck (_speck) is no
    cell (OCR reads one of a heading's ink as ';' beside it), while a cell's tick or dash is."""
    line = lines[i]
    x0, y0, x1, y1 = line.bbox
    reach = float("inf") if anywhere else 4 * line.size
    for j in range(max(0, i - 6), min(len(lines), i + 7)):
        other = lines[j]
        if j == i or other.page != line.page or other.column != line.column or _speck(other, line):
            continue
        ox0, oy0, ox1, oy1 = other.bbox
        if max(ox0 - x1, x0 - ox1) < reach and min(y1, oy1) - max(y0, oy0) > 0.5 * min(y1 - y0, oy1 - oy0):
            return True
    return False


def _speck(other: Line, line: Line) -> bool:
    """Whether `other`, beside `line`, is a speck rather than a cell of its row: a few marks without letters or
    digits, under half the line's height or narrower than a quarter of it (a stop or colon OCR boxed from the
    row above to the line's foot); a table's dashes and ticks are as wide as they are high or wider."""
    text = other.text.strip()
    height = line.bbox[3] - line.bbox[1]
    return len(text) <= 3 and not any(c.isalnum() for c in text) \
        and (other.bbox[3] - other.bbox[1] < 0.5 * height or other.bbox[2] - other.bbox[0] < 0.25 * height)


def drop_lines(lines: list[Line], heads: list[Heading], drop: set[int]) -> tuple[list[Line], list[Heading]]:
    """The lines without `drop` (float regions), headings kept, heading indices renumbered."""
    keep_heads = {i for h in heads for i in h.lines}
    kept = [i for i in range(len(lines)) if i not in drop or i in keep_heads]
    new = {old: n for n, old in enumerate(kept)}
    for h in heads:
        h.lines = [new[i] for i in h.lines]
    return [lines[i] for i in kept], heads


def _runs_on(lines: list[Line], i: int, size: float, measure: float) -> bool:
    """Whether the line, upright in regular weight and filling its column's measure, runs on into the next line of
    its column as body text does: right below it, in the body's size, upright and regular, starting in lower case
    (a heading ends its line; a long heading wraps in its own type)."""
    line = lines[i]
    if i + 1 >= len(lines) or line.bold or line.italic or line.bbox[2] - line.bbox[0] < measure - 1.5 * size:
        return False
    nxt = lines[i + 1]
    return (nxt.page == line.page and nxt.column == line.column and nxt.text[:1].islower() and not nxt.bold
            and not nxt.italic
            and abs(_size(nxt) - size) < 0.6 and 0 <= nxt.bbox[1] - line.bbox[3] < 0.8 * size)


def _gap_above(lines: list[Line], i: int) -> bool:
    """A heading has white space above it, or starts a column or page. A mark of a few characters ending left of
    where the heading starts (in the margin: a speck OCR read as 'L' or ':') is not above it."""
    if i == 0:
        return True
    line = lines[i]
    prev = next((p for p in reversed(lines[max(0, i - _LOOK_BACK):i]) if not _margin_mark(p, line)), lines[i - 1])
    if prev.page != line.page or prev.column != line.column:
        return True
    return line.bbox[1] - prev.bbox[3] >= 0.35 * line.size or prev.bbox[3] > line.bbox[3]


def _margin_mark(other: Line, line: Line) -> bool:
    return len(other.text.strip()) <= _MARK_CHARS and other.bbox[2] <= line.bbox[0] and other.page == line.page


def _top_value(scheme: str, number: str) -> int:
    head = number.split(".")[0]
    if scheme == "roman":
        return _ROMAN[head]
    if scheme == "letter":
        return ord(head[0]) - ord("A") + 1
    return int(head)


def _level(scheme: str, number: str, roman_doc: bool, in_refs: bool) -> int:
    depth = number.count(".") + 1
    if scheme == "letter" and roman_doc and not in_refs:
        return depth + 1  # IEEE: A., B. are subsections of I., II.
    return depth


def _absorb_wrapped(lines: list[Line], head: Heading, taken: set[int], size: float, measure: float) -> None:
    """A long heading wraps: take the following lines set in the same style right below it. A line breaks near
    the column's measure, where the next word does not fit; a line below one that filled less than half of it is
    a heading of its own ('Introduction' over its first sub-section 'HCI and smartphones', set alike). An
    appendix's label takes its title on the next line ('APPENDIX' over 'MEAN ADMISSION DELAY')."""
    last = lines[head.lines[-1]]
    j = head.lines[-1] + 1
    while j < len(lines) and len(head.lines) < 3:
        nxt = lines[j]
        text = nxt.text.strip()
        style = _style(nxt, text)
        same = (nxt.page == last.page and nxt.column == last.column and _uniform(nxt)
                and style[:3] == head.style[:3] and (style[3] or not head.style[3])  # "METHODS" + "Cell Culture"
                and _distinct(style, size, head.number is not None)
                and -0.3 * nxt.size <= nxt.bbox[1] - last.bbox[3] < 0.6 * nxt.size and not head.title.endswith(".")
                and _numbering(text, False) is None and not _KNOWN.match(text) and not _FRONT.match(text)
                and (_APPENDIX_LABEL.match(head.title) or last.bbox[2] - last.bbox[0] >= 0.5 * measure))
        if not same:
            break
        head.lines.append(j)
        head.title = join_lines([head.title, _clean_title(text)])
        head.bbox = (min(head.bbox[0], nxt.bbox[0]), head.bbox[1], max(head.bbox[2], nxt.bbox[2]), nxt.bbox[3])
        taken.add(j)
        last = nxt
        j += 1


def _measures(lines: list[Line]) -> dict[tuple[int, int], float]:
    """The width of each (page, column)'s running text: the median width of its lines of prose (the longest lines
    when it has none), which fill the column but for a paragraph's last line."""
    widths: dict[tuple[int, int], list[float]] = defaultdict(list)
    longest: dict[tuple[int, int], float] = defaultdict(float)
    for line in lines:
        key, width = (line.page, line.column), line.bbox[2] - line.bbox[0]
        longest[key] = max(longest[key], width)
        if len(line.text) >= PROSE_CHARS:
            widths[key].append(width)
    return {key: statistics.median(widths[key]) if widths[key] else width for key, width in longest.items()}


def _assign_unnumbered_levels(heads: list[Heading], styles: dict[tuple, Counter]) -> None:
    """Unnumbered headings take the level of numbered headings in their style; in a document
    without numbering the style of the bibliography's heading, a top-level section's, is level 1 when other
    headings share it and no more prominent style sets as many (a summary box's title may be set larger; a journal
    that sets its sections larger may set References as its sub-headings), else the most prominent style; the
    others are level 2."""
    numbered = {style: max((lv for lv in counts if lv), key=lambda lv: counts[lv])
                for style, counts in styles.items() if any(lv for lv in counts)}
    loose = [h for h in heads if h.number is None and not h.front and h.style not in numbered]
    body = Counter(h.style for h in loose if not REFERENCES.match(h.title) and not _BACK_MATTER.match(h.title))
    bibliography = next((h.style for h in loose if REFERENCES.match(h.title)), None)
    prominent = max({h.style for h in loose}, key=_prominence) if loose else None
    top = (bibliography if bibliography and body[bibliography] >= _TOP_STYLE_SHARED
           and not any(_prominence(s) > _prominence(bibliography) and n >= body[bibliography] for s, n in body.items())
           else prominent)
    for h in heads:
        if h.number is not None or h.fixed:
            continue
        if h.style in numbered:
            h.level = numbered[h.style]
        elif numbered or h.front or h.style == top or REFERENCES.match(h.title):
            h.level = 1
        else:
            h.level = 2


def _prominence(style: tuple) -> tuple:
    """How a heading style stands out: size, then capitals, then weight."""
    return style[0], style[3], style[1]


def build_sections(heads: list[Heading], placed: list[Placed], text_length: int, sha256: str) -> list[Section]:
    """Sections with parents, page spans and the char range of their own body text (up to the
    next heading of any level; a run-in heading's body starts with its line, which holds the paragraph's
    first words)."""
    by_index = {p.index: p for p in placed}
    sections: list[Section] = []
    stack: list[Section] = []
    for n, head in enumerate(heads):
        if head.front:
            continue
        last = by_index[head.lines[-1]]
        following = next((h for h in heads[n + 1:]), None)
        end = by_index[following.lines[0]].start if following else text_length
        body = [p for p in placed if last.end < p.start < end] or [last]
        while stack and stack[-1].level >= head.level:
            stack.pop()
        section = Section(
            id=element_id("section", sha256, len(sections), head.title), number=head.number, title=head.title,
            level=head.level, parent_id=stack[-1].id if stack else None, ordinal=len(sections),
            page_start=head.page, page_end=max(p.line.page for p in body), box=Box(page=head.page, bbox=head.bbox),
            char_start=by_index[head.lines[0]].start if head.run_in else min(end, last.end + 2), char_end=end,
            printed=head.printed)
        sections.append(section)
        stack.append(section)
    return sections

"""The publication year as the paper prints it on page 1: its journal or conference line, copyright line, arXiv
stamp, received/accepted dates, or a DOI that encodes a year; None when page 1 prints none of these.

Page 1 also carries years that are not the paper's: citations in the introduction, a dataset's year in a
footnote. So a year counts only inside one of these statements, and the statements rank by how closely they
date the publication itself: the venue (journal issue, proceedings, conference, publication date) first, as a
copyright line can be the previous year's (online-first, or a template not updated); then the copyright line;
then the arXiv stamp (the date of that version); then the latest of the received/accepted dates (a lower
bound); then the DOI. Among statements of one rank the first in reading order wins, the journal line at the
head of the page before a footnote. The PDF's creation date is not the paper's and is not used.
"""

from __future__ import annotations

import re

from extractors.model import Line, PageLayout

VENUE, COPYRIGHT, STAMP, MILESTONE, DOI = range(5)  # the ranks, best first

_YEAR = r"(19[5-9]\d|20[0-4]\d)"
# a year standing alone: not inside a number, an id ("CoNLL-2003", "…/97") or a page range ("2001–2010")
_LONE_YEAR = rf"(?<![\w/.–-]){_YEAR}\b(?![/.]?\d|\s*[-–]\s*\d)"
_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?")
# "5 June 2017", "June 5, 2017", "June 2017", "2017-06-05", "5/6/2017" or the year alone
_DATE = (rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+|{_MONTH},?\s+|"
         rf"\d{{1,2}}[./]\d{{1,2}}[./])?{_YEAR}\b")
_DATE_RANGE = re.compile(rf"\b{_MONTH}\s+\d{{1,2}}\s*[-–]\s*(?:{_MONTH}\s+)?\d{{1,2}},?\s+{_YEAR}|"
                         rf"\b\d{{1,2}}\s*[-–]\s*\d{{1,2}}\s+{_MONTH},?\s+{_YEAR}", re.I)

# the venue, anywhere on the page: statements no prose sentence is worded like
_PROCEEDINGS = re.compile(rf"\bproceedings\b[^\n]{{0,250}}?{_LONE_YEAR}", re.I)
_PUBLISHED = re.compile(rf"\bpublished(?:\s+online)?:?\s+(?:on\s+)?{_DATE}", re.I)
# the venue in the page's apparatus only (heads, feet, margins, small type): lines that name a venue ...
_VENUE_WORD = re.compile(r"\b(?:conference|proceedings|workshop|symposium|congress|journal|transactions|letters|"
                         r"published|to\s+appear|appearing|accepted\s+(?:at|to|in|by)|findings)\b", re.I)
# ... or cite an issue: "26:1, 147–154", "Vol. 7, No. 5", "12 (2011) 2493-2537" (years blanked first) ...
_ISSUE = re.compile(r"\bvol(?:ume)?\.?\s*\d+|\bno\.\s*\d+|\b\d+\s*:\s*\d+\b|\b\d+\s*\(\s*\d+\s*\)|"
                    r"\bpp\.\s*\d+|\b\d+\s*[-–]\s*\d+\b", re.I)
# ... or are one: volume (year) first page or article number, "2188 (2022) 012011" under the journal's name
_CITATION = re.compile(rf"\b\d{{1,5}}\s*\({_YEAR}\)\s*[a-z]?\d", re.I)
_ANY_YEAR = re.compile(_LONE_YEAR)
# the copyright line: "© 2013 Association", "Copyright 2004 ACM", "c⃝2020", "© The Author(s) 2019", "…/97$10.00 © 1997 IEEE"
_COPYRIGHT = re.compile(rf"(?:©|ⓒ|c⃝|⃝|\(c\)|\bcopyright\b)[^\d\n]{{0,60}}+{_YEAR}\b|\$\s?\d+\.\d\d\s*©?\s*{_YEAR}\b",
                        re.I)
# the arXiv stamp: "arXiv:1810.04805v2 [cs.CL] 24 May 2019", "arXiv:hep-ph/9412269v1 8 Dec 1994"; without its date the
# stamp's id says year and month
_ARXIV_STAMP = re.compile(rf"arxiv:\s*(?:(\d{{2}})\d{{2}}\.\d{{4,5}}|[a-z\-]+(?:\.[a-z]{{2}})?/(\d{{2}})\d{{5}})"
                          rf"(?:v\d+)?\s*(?:\[[\w.\-]{{1,20}}\]\s*(?:{_DATE})?|{_DATE})", re.I)
# the milestones: "Received 9 May 2013; accepted 18 Sep 2013", "Manuscript received September 1, 1996", "Date: March 2015"
_MILESTONE = re.compile(rf"\b(?:received|revised|accepted|submitted|date:)(?:\s+for\s+publication)?"
                        rf"(?:\s+in\s+(?:revised|final)\s+form)?:?\s+(?:on\s+)?{_DATE}", re.I)
# the paper's DOI: "10.1016/j.cell.2019.01.001", "10.18653/v1/2020.acl-main.207", Springer/Nature
# "10.1007/s10994-019-05855-6"
_DOI_YEAR = re.compile(rf"(?<=[./]){_YEAR}(?=[.\-])|/s\d{{4,5}}-0(\d\d)-")


def publication_year(first: PageLayout, body_size: float, doi: str | None) -> int | None:
    """The year page 1 states the paper was published, by the ranks of this module's docstring.
    `body_size` is the document's body font size, which tells prose from the page's apparatus."""
    found: dict[int, int] = {}  # rank -> year
    head = [line for line in first.furniture if line.bbox[1] < first.height / 2]
    foot = [line for line in first.furniture if line.bbox[1] >= first.height / 2]
    for line in head:  # running heads and stamps come before the body in reading order, feet after it
        _venue(line.text, len(line.text), True, found)
        _others(line.text, found)
    lines = first.lines
    for n, line in enumerate(lines):
        # a statement may run onto the next line ("Proceedings of the 28th Inter-" / "national ..., 2011")
        text = line.text if n + 1 == len(lines) else f"{line.text} {lines[n + 1].text}"
        _venue(text, len(line.text), _apparatus(line, first.height, body_size), found)
        _others(line.text, found)
    for line in foot:
        _venue(line.text, len(line.text), True, found)
        _others(line.text, found)
    m = _DOI_YEAR.search(doi or "")
    if m:
        found[DOI] = int(m[1]) if m[1] else 2000 + int(m[2])
    return found[min(found)] if found else None


def _apparatus(line: Line, height: float, body_size: float) -> bool:
    """Heads, feet and small type (footnotes, margin notes), where venue lines are printed; not the prose."""
    middle = (line.bbox[1] + line.bbox[3]) / 2
    return line.size < body_size - 0.5 or not 0.1 * height < middle < 0.9 * height


def _venue(text: str, own: int, apparatus: bool, found: dict[int, int]) -> None:
    """The venue's year from `text`, a line (its first `own` characters) and the next; the statement must start
    on the line itself, so the next line's own statement is read where it stands."""
    if VENUE in found:
        return
    for pattern in (_PROCEEDINGS, _PUBLISHED):
        m = pattern.search(text)
        if m and m.start() < own:
            found[VENUE] = int(m[m.lastindex])
            return
    line = text[:own]
    if apparatus and (_VENUE_WORD.search(line) or _DATE_RANGE.search(line) or _CITATION.search(line)
                      or _ISSUE.search(_ANY_YEAR.sub(" ", line))):
        m = _ANY_YEAR.search(line)
        if m:
            found[VENUE] = int(m[1])


def _others(line: str, found: dict[int, int]) -> None:
    """Copyright, arXiv stamp and milestone years from one line; of the milestones the latest counts."""
    if COPYRIGHT not in found:
        m = _COPYRIGHT.search(line)
        if m:
            found[COPYRIGHT] = int(m[1] or m[2])
    if STAMP not in found:
        m = _ARXIV_STAMP.search(line)
        if m:
            found[STAMP] = int(m[3]) if m[3] else _id_year(m[1], m[2])
    for m in _MILESTONE.finditer(line):
        found[MILESTONE] = max(found.get(MILESTONE, 0), int(m[1]))


def _id_year(new: str | None, old: str | None) -> int:
    """The year of an arXiv id: "1810.04805" (since 2007) is 2018, "hep-ph/9412269" is 1994."""
    yy = int(new if new is not None else old)
    return 2000 + yy if new is not None or yy < 91 else 1900 + yy

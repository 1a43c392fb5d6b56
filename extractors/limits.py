"""Caps on what one untrusted PDF may make the parser do, checked as early as each can be: the file's size before
it is read, the page count and JavaScript once it is open, page sizes and line lengths once the layout is read.

Time and memory are bounded by the worker process the parse runs in (kg/workers/sandbox.py); these caps refuse early,
with a message that names the cap, what a process limit would only stop late and bluntly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from extractors.errors import ActiveContentError, ParseLimitError
from extractors.model import PageLayout

if TYPE_CHECKING:  # kg.settings imports this module, and every `kg` command kg.settings: MuPDF only where a parse runs
    import pymupdf


_JAVASCRIPT = re.compile(r"/(?:JS|JavaScript)\b")  # an action's script, or the document's named scripts


@dataclass(frozen=True)
class ParseLimits:
    """None: no cap (the corpus benchmarks parse trusted files); kg.settings gives the caps of every other parse."""

    max_bytes: int | None = None
    max_pages: int | None = None
    max_page_points: float | None = None
    max_line_chars: int | None = None
    max_ocr_pages: int | None = None  # pages OCR reads per paper (scanned, or for glyphs without a character)
    ocr_cache: Path | None = None  # where OCR readings are kept for the next parse of the same page (None: nowhere)


def _refuse(message: str, setting: str) -> ParseLimitError:
    return ParseLimitError(message, hint=f"raise {setting} if this file is trusted and the machine can take it")


def check_size(path: Path, limits: ParseLimits) -> None:
    if limits.max_bytes is not None and (size := path.stat().st_size) > limits.max_bytes:
        raise _refuse(f"{path.name} has {size:,} bytes, more than the {limits.max_bytes:,} the parser accepts",
                      "PAPERKG_PARSE_MAX_BYTES")


def check_document(doc: pymupdf.Document, name: str, limits: ParseLimits) -> None:
    """Page count, then JavaScript: no viewer of ours runs it, but a paper has no use for it either, and a file
    that carries it is more likely built to attack a reader than to be read."""
    if limits.max_pages is not None and doc.page_count > limits.max_pages:
        raise _refuse(f"{name} has {doc.page_count:,} pages, more than the {limits.max_pages:,} the parser accepts",
                      "PAPERKG_PARSE_MAX_PAGES")
    if any(_JAVASCRIPT.search(source) for source in _object_sources(doc)):
        raise ActiveContentError(f"{name} carries JavaScript, which paperkg does not accept",
                                 hint="print the paper to a new PDF without scripts and ingest that")


def _object_sources(doc: pymupdf.Document) -> Iterator[str]:
    """The source of every object MuPDF can load. An entry of the cross-reference table that leads nowhere (into an
    object stream that does not hold it: a slip some producers make) names an object no reader can load, so no
    script either; viewers pass over it, and so does the parse."""
    for xref in range(1, doc.xref_length()):
        try:
            yield doc.xref_object(xref, compressed=True)
        except RuntimeError:
            continue


def check_layout(pages: list[PageLayout], name: str, limits: ParseLimits) -> None:
    """Page sizes and line lengths: past these the layout rules (columns, captions, headings) mean nothing, and
    the text rules' cost grows with the line."""
    for page in pages:
        side = max(page.width, page.height)
        if limits.max_page_points is not None and side > limits.max_page_points:
            raise _refuse(f"{name}: page {page.page} is {side:,.0f} pt on its longer side, more than the "
                          f"{limits.max_page_points:,.0f} pt the parser accepts", "PAPERKG_PARSE_MAX_PAGE_POINTS")
        longest = max((len(line.text) for line in page.lines), default=0)
        if limits.max_line_chars is not None and longest > limits.max_line_chars:
            raise _refuse(f"{name}: page {page.page} has a line of {longest:,} characters, more than the "
                          f"{limits.max_line_chars:,} the parser accepts", "PAPERKG_PARSE_MAX_LINE_CHARS")

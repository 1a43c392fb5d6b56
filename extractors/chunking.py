"""Structure-aligned chunks: text chunks never cross a section boundary and split at paragraph,
then sentence boundaries; every figure, table and equation is a chunk of its own."""

from __future__ import annotations

import hashlib
import re

from extractors.body import Placed
from extractors.model import Box, Chunk, Equation, Float, Section, element_id

MAX_CHARS = 1500
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[\"'0-9])")


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) cut into spans of at most MAX_CHARS: at sentence ends, else at spaces."""
    if end - start <= MAX_CHARS:
        return [(start, end)]
    cuts = [m.end() for m in _SENTENCE_END.finditer(text, start, end)] + [end]  # match offsets are absolute
    out: list[tuple[int, int]] = []
    begin = prev = start
    for cut in cuts:
        if cut - begin > MAX_CHARS and prev > begin:
            out.append((begin, prev))
            begin = prev
        while cut - begin > MAX_CHARS:  # one sentence longer than a chunk
            space = text.rfind(" ", begin + 1, begin + MAX_CHARS)
            stop = space if space > begin else begin + MAX_CHARS
            out.append((begin, stop))
            begin = stop
        prev = cut
    if end > begin:
        out.append((begin, end))
    return [(a + len(text[a:b]) - len(text[a:b].lstrip()), b - len(text[a:b]) + len(text[a:b].rstrip()))
            for a, b in out if text[a:b].strip()]


def _paragraph_spans(placed: list[Placed], start: int, end: int) -> list[tuple[int, int]]:
    spans: dict[int, list[int]] = {}
    for p in placed:
        if start <= p.start < end:
            span = spans.setdefault(p.paragraph, [p.start, p.end])
            span[1] = max(span[1], p.end)
    return sorted((a, min(b, end)) for a, b in spans.values())


def _boxes(placed: list[Placed], start: int, end: int) -> tuple[list[Box], list[int]]:
    """Line boxes of the span merged per page and column, in reading order, with the offset (in the span's
    text) where each box's text begins: a sentence's page is then read off, not estimated."""
    merged: dict[tuple[int, int], list[float]] = {}
    first: dict[tuple[int, int], int] = {}
    for p in placed:
        if p.end > start and p.start < end:
            key = (p.line.page, p.line.column)
            b = p.line.bbox
            m = merged.setdefault(key, list(b))
            m[0], m[1], m[2], m[3] = min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3])
            first[key] = min(first.get(key, p.start), p.start)
    keys = sorted(merged, key=lambda k: (first[k], k))
    return ([Box(page=k[0], bbox=tuple(merged[k])) for k in keys],
            [max(0, first[k] - start) for k in keys])


def _chunk(kind: str, text: str, start: int, end: int, section: Section | None, paths: dict,
           placement: tuple[list[Box], list[int]], sha256: str, element: str | None = None) -> Chunk:
    body = text[start:end]
    boxes, box_starts = placement
    pages = [b.page for b in boxes] or [section.page_start if section else 1]
    return Chunk(id=element_id("chunk", sha256, kind, start, end), kind=kind, text=body,
                 section_id=section.id if section else None, section_path=paths.get(section.id, []) if section else [],
                 page_start=min(pages), page_end=max(pages), boxes=boxes, box_starts=box_starts,
                 char_start=start, char_end=end,
                 content_hash=hashlib.sha256(body.encode()).hexdigest(), element_id=element)


def section_paths(sections: list[Section]) -> dict[str, list[str]]:
    by_id = {s.id: s for s in sections}
    paths: dict[str, list[str]] = {}
    for s in sections:
        path, cur = [], s
        while cur is not None:
            path.append(cur.title)
            cur = by_id.get(cur.parent_id) if cur.parent_id else None
        paths[s.id] = path[::-1]
    return paths


def chunk_document(text: str, body_end: int, front_end: int, placed: list[Placed], sections: list[Section],
                   elements: list[tuple[str, Float | Equation, int, int]], sha256: str) -> list[Chunk]:
    """Text chunks over text[:body_end] by section (text[:front_end] is the front matter before
    the first heading); `elements` are (kind, element, start, end) spans of figure/table/equation
    texts appended after the body."""
    paths = section_paths(sections)
    bounds = [(0, front_end, None)]
    for n, s in enumerate(sections):
        bounds.append((s.char_start, s.char_end if n + 1 < len(sections) else body_end, s))
    chunks: list[Chunk] = []
    for start, end, section in bounds:
        if start >= end:
            continue
        current: list[tuple[int, int]] = []
        for a, b in _paragraph_spans(placed, start, end):
            for piece in _pieces(text, a, b):
                if current and piece[1] - current[0][0] > MAX_CHARS:
                    chunks.append(_chunk("text", text, current[0][0], current[-1][1], section, paths,
                                         _boxes(placed, current[0][0], current[-1][1]), sha256))
                    current = []
                current.append(piece)
        if current:
            chunks.append(_chunk("text", text, current[0][0], current[-1][1], section, paths,
                                 _boxes(placed, current[0][0], current[-1][1]), sha256))
    by_id = {s.id: s for s in sections}
    for kind, element, start, end in elements:
        section = by_id.get(element.section_id) if element.section_id else None
        chunks.append(_chunk(kind, text, start, end, section, paths, ([Box(page=element.page, bbox=element.bbox)], [0]),
                             sha256, element.id))
    return chunks

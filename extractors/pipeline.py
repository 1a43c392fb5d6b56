"""parse_pdf: one PDF to one Document, every stage timed into the audit."""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

from extractors import EXTRACTOR_VERSION
from extractors.body import Placed, assemble, body_lines, in_regions
from extractors.chunking import chunk_document
from extractors.floats import find_floats
from extractors.font_weight import weigh_fonts
from extractors.layout import finish_layout, read_page
from extractors.limits import ParseLimits, check_layout
from extractors.metadata import extract_metadata
from extractors.ocr import ENGINE, OcrOutcome, ocr_missing_text
from extractors.equations import find_equations
from extractors.escalation import Escalator, heading_hints, model_equations
from extractors.mentions import find_mentions
from extractors.model import Audit, Chunk, Document, Float, Line, Metadata, Reference, Section, TextLine
from extractors.mupdf import pymupdf
from extractors.references import parse_references, unheaded_list
from extractors.section_kinds import assign_kinds
from extractors.sections import Heading, build_sections, drop_lines, find_headings, outline_levels
from extractors.summaries import summarize_sections
from extractors.tables import row_texts
from extractors.triage import open_pdf, profile, reading
from extractors.text import REFERENCES


class _Timer:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str):
        start = time.perf_counter()
        yield
        self.seconds[stage] = round(self.seconds.get(stage, 0.0) + time.perf_counter() - start, 4)


def _section_at(sections: list[Section], placed: list[Placed], page: int, y: float) -> str | None:
    """The section whose body holds the last body line above (page, y); a section no printed heading opens (a
    bibliography without one) holds no float: a figure set after it belongs where its place puts it in print."""
    sections = [s for s in sections if s.printed]
    before = [p for p in placed if p.line.page < page or p.line.page == page and p.line.bbox[1] <= y]
    if not before:
        return None
    offset = before[-1].start
    owner = None
    for s in sections:
        if s.char_start <= offset or s.page_start < page:
            owner = s.id if s.char_start <= offset else owner
    return owner


def _bibliography_headings(heads: list[Heading]) -> list[int]:
    """Indices of the printed headings that open a bibliography."""
    return [n for n, h in enumerate(heads) if h.printed and not h.front and REFERENCES.match(h.title)]


def _unheaded_bibliography(lines: list[Line], heads: list[Heading]) -> list[Line]:
    """The lines of a numbered list closing a paper that has no References heading (references.unheaded_list);
    [] when it has one."""
    if _bibliography_headings(heads):
        return []
    heading = {i for h in heads for i in h.lines}
    return unheaded_list([line for i, line in enumerate(lines) if i not in heading])


def _with_unprinted_heading(lines: list[Line], heads: list[Heading], listed: list[Line]) -> list[Heading]:
    """The headings and, when a bibliography closes the paper without a heading (`listed`), an unprinted one at its
    first line: the list is then a References section, as a printed heading would make it, so its chunks are read
    as a bibliography (venues cited, no entities or summaries from it) and not as the last section's prose."""
    if not listed:
        return heads
    at = next(i for i, line in enumerate(lines) if line is listed[0])
    head = Heading(lines=[at], number=None, title="References", level=1, page=listed[0].page, bbox=listed[0].bbox,
                   run_in=True, printed=False)
    return sorted([*heads, head], key=lambda h: h.lines[0])


def _bibliography(lines: list[Line], heads: list[Heading], listed: list[Line], sha256: str) -> list[Reference]:
    """The entries of the list under a References heading, up to the next heading (an appendix); of several such
    lists, the longest (a paper with supplementary material appended may close it with a short list of its own),
    the last of equally long ones. Without such a heading, the numbered list closing the paper (`listed`), else the
    lines after the last line that is only the word "References" (set in a style the paper uses nowhere else, so
    not taken for a heading), up to the next heading."""
    if ats := _bibliography_headings(heads):
        lists = [parse_references(lines[heads[at].lines[-1] + 1:heads[at + 1].lines[0] if at + 1 < len(heads)
                                        else len(lines)], sha256) for at in ats]
        return max(reversed(lists), key=len)
    word = max((i for i, line in enumerate(lines) if REFERENCES.match(line.text.strip())), default=None)
    if listed or word is None:
        return parse_references(listed, sha256)
    end = min((h.lines[0] for h in heads if h.lines[0] > word), default=len(lines))
    return parse_references(lines[word + 1:end], sha256)


def _warnings(ocr: OcrOutcome, limits: ParseLimits, metadata: Metadata, sections: list[Section],
              escalator: Escalator) -> list[str]:
    """What a reader of the audit should know about this parse."""
    out = ocr.warnings(limits.max_ocr_pages)
    if escalator.unavailable:
        out.append(f"the layout model failed ({escalator.unavailable[:200]}); the rules' headings and equations "
                   "stand on the pages they were unsure of")
    if not metadata.title:
        out.append("no title found on page 1")
    if not any(s.printed for s in sections):
        out.append("no section headings found; all text is front matter")
    if not metadata.abstract:
        out.append("no abstract found")
    return out


def _table_text(table: Float) -> str:
    """A table's chunk text: its caption, then one line per row with the header repeated, so the numbers
    printed only in the table are searchable and quotable as facts."""
    rows = row_texts(f"Table {table.label}", table.rows, table.reading_boxes())
    return "\n\n".join([f"Table {table.label}: {table.caption}", *rows])


def _mark_ocr(elements: list, ocr_pages: list[int]) -> list:
    """Sections (by their heading's box) and chunks (by any of their boxes) printed on a page OCR read, marked
    as such: their text is a recognition, not the file's own."""
    if not ocr_pages:
        return elements
    return [e.model_copy(update={"text_source": "ocr"})
            if any(b.page in ocr_pages for b in (e.boxes if isinstance(e, Chunk) else [e.box])) else e
            for e in elements]


def parse_pdf(path: str | Path, limits: ParseLimits = ParseLimits()) -> Document:
    """The Document of one PDF; `limits` refuses files over the caps before their cost is paid (see
    extractors/limits.py)."""
    path = Path(path)
    timer = _Timer()
    with timer("open"):
        doc, sha256 = open_pdf(path, limits)
    with timer("layout"), reading(path.name):
        pages = weigh_fonts(doc, [read_page(page) for page in doc])
    with timer("ocr"), reading(path.name):
        ocr = ocr_missing_text(doc, pages, limits.max_ocr_pages, limits.ocr_cache)
    pages = finish_layout(ocr.pages)
    check_layout(pages, path.name, limits)
    with timer("triage"):
        prof = profile(pages, path.name, ocr.read, ocr.unread(limits.max_ocr_pages))
    with timer("floats"):
        figures, tables = find_floats(pages, sha256)
        equations = find_equations(pages, sha256, figures + tables)
    escalator = Escalator(doc)
    with timer("escalation"):
        equations = model_equations(pages, sha256, equations, figures + tables, escalator)
    regions = [(f.page, f.bbox) for f in figures + tables] + [(e.page, e.bbox) for e in equations]
    with timer("sections"):
        lines = body_lines(pages, [(f.page, f.caption_bbox) for f in figures + tables])
        floating = in_regions(lines, regions)
        outline = outline_levels(doc.get_toc())
        heads = find_headings(lines, floating, outline)
    with timer("escalation"):
        if hinted := heading_hints(pages, lines, heads, floating, escalator):
            heads = find_headings(lines, floating, outline, hinted)
            for head in heads:
                if head.by_model:
                    escalator.added(head.page)
    with timer("sections"):
        first_section = min((h.lines[0] for h in heads if not h.front), default=len(lines))
        lines, heads = drop_lines(lines, heads, {i for i in floating if i > first_section})  # front matter stays
        listed = _unheaded_bibliography(lines, heads)
        heads = _with_unprinted_heading(lines, heads, listed)
        text, placed = assemble(lines, {i for h in heads if not h.run_in for i in h.lines})  # run-in: body too
        sections = assign_kinds(build_sections(heads, placed, len(text), sha256))
    with timer("metadata"):
        printed = [h for h in heads if h.printed]  # where the front matter ends is read from what is printed
        metadata = extract_metadata(pages[0], lines, printed, placed, text, doc.metadata or {}, doc.get_toc())
    with timer("references"):
        references = _bibliography(lines, heads, listed, sha256)
    body_end = len(text)
    with timer("chunking"):
        figures, tables, equations = (
            [f.model_copy(update={"section_id": _section_at(sections, placed, f.page, f.bbox[1])}) for f in group]
            for group in (figures, tables, equations))
        elements = []
        for kind, element, content in ([("figure", f, f"Figure {f.label}: {f.caption}") for f in figures]
                                       + [("table", t, _table_text(t)) for t in tables]
                                       + [("equation", e, e.text) for e in equations]):
            text += "\n\n"
            elements.append((kind, element, len(text), len(text) + len(content)))
            text += content
        first = next((h for h in heads if not h.front), None)
        front_end = next((p.start for p in placed if first and p.index == first.lines[0]), body_end)
        chunks = chunk_document(text, body_end, front_end, placed, sections, elements, sha256)
        sections, chunks = _mark_ocr(sections, ocr.read), _mark_ocr(chunks, ocr.read)
    with timer("summaries"):
        sections = summarize_sections(sections, chunks)
    versions = {"paperkg-extractors": EXTRACTOR_VERSION, "pymupdf": pymupdf.VersionBind}
    if ocr.read or ocr.filled:
        versions[f"ocr/{ENGINE}"] = pymupdf.VersionBind  # the engine MuPDF carries, hence PyMuPDF's version
    audit = Audit(sha256=sha256, page_count=doc.page_count, seconds_per_stage=timer.seconds,
                  extractor_versions=versions, warnings=_warnings(ocr, limits, metadata, sections, escalator),
                  page_warnings=ocr.warnings(limits.max_ocr_pages), escalations=escalator.audit())
    document = Document(sha256=sha256, file_name=path.name, page_count=doc.page_count, text=text,
                        metadata=metadata, sections=sections, figures=figures, tables=tables, equations=equations,
                        references=references, chunks=chunks, profile=prof, audit=audit,
                        lines=[TextLine(char_start=p.start, char_end=p.end, page=p.line.page, bbox=p.line.bbox)
                               for p in placed])
    with timer("mentions"):
        document.mentions = find_mentions(document)
    document.audit.seconds_per_stage = timer.seconds
    return document

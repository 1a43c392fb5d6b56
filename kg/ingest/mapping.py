"""Document → graph records: the paper, its authors, sections, chunks, floats, equations, references and
in-text mentions, each with provenance. Pure: no database, no clock (the writer stamps times).

Ids come from the document model (deterministic per PDF), so the same file always maps to the same
records and a re-ingest MERGEs every element onto itself. Authors are the exception: they are shared
across papers, so their id derives from the normalised name only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from extractors import EXTRACTOR_VERSION
from extractors.bbox import format_bbox
from extractors.model import Box, Chunk, Document, Section, element_id, paper_id
from extractors.semantic.canonical import normalize
from ontology.records import EdgeRecord, NodeRecord

PIPELINE_PREFIX = "paperkg-"  # extractors of this pipeline; any other `extractor` value is a person or tool
EXTRACTOR = f"{PIPELINE_PREFIX}extractors@{EXTRACTOR_VERSION}"
# The structure extractors do not score their output yet: 1.0 means "as extracted", not "certainly right".
STRUCTURE_CONFIDENCE = 1.0

# A title this short ("Attention", "Deep learning") may be two different works: such entries get no title key.
MIN_TITLE_WORDS = 3
# A "title" that is where the work appeared ("In Advances in Neural Information Processing Systems, 2017") is the
# reference parser's misreading, shared by every paper citing that venue: such entries get no title key.
_VENUE_AS_TITLE = re.compile(r"^in\s+(?:the\s+)?(?:\d+\w*\s+)?(?:proceedings|advances|conference|workshop|journal|"
                             r"transactions|annual|international|findings)\b")

_MENTION_TARGETS = {"figure": "Figure", "table": "Table", "equation": "Equation", "section": "Section",
                    "citation": "Reference"}


def author_id(name: str) -> str:
    """One Author node per normalised name (accents, case and punctuation folded), shared by all papers."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return element_id("author", "", " ".join(re.findall(r"[a-z0-9]+", folded)))


def _doi(doi: str | None) -> str | None:
    """DOIs are case-insensitive: stored in lower case so a bibliography entry finds the paper by equality."""
    return doi.strip().lower() if doi else None


def title_key(title: str | None) -> str | None:
    """A bibliography entry's title as a key that entries of other papers citing the same work share (stored as
    Reference.title_key, indexed, so related papers match entries by equality instead of reading them all); None
    for a title that cannot tell works apart."""
    key = normalize(title or "")
    return key if len(key.split()) >= MIN_TITLE_WORDS and not _VENUE_AS_TITLE.match(key) else None


def provenance(sha256: str | None, *, boxes: Iterable[Box] = (), chunks: Iterable[str] = (),
               confidence: float = STRUCTURE_CONFIDENCE, extractor: str = EXTRACTOR) -> dict:
    """The provenance properties every node and edge carries; `sha256` None for elements shared by papers.
    Confidence is clamped to [0, 1] and rounded to 4 decimals: extractors compute it from products of scores,
    whose last digits say nothing."""
    boxes = list(boxes)
    props = {"source_chunk_ids": list(dict.fromkeys(chunks)),
             "pages": sorted({b.page for b in boxes}),
             "bboxes": list(dict.fromkeys(format_bbox(b.page, b.bbox) for b in boxes)),
             "confidence": round(min(max(confidence, 0.0), 1.0), 4), "extractor": extractor,
             "verification_status": "auto"}
    if sha256:
        props["paper_sha256"] = sha256
    return props


@dataclass(frozen=True)
class CitationMatch:
    """A bibliography entry whose DOI is the DOI of a paper in the graph."""

    reference_id: str
    citing_sha256: str  # the paper whose bibliography holds the entry
    cited_sha256: str
    boxes: tuple[Box, ...] = ()


def map_document(doc: Document, embeddings: Mapping[str, Sequence[float]] | None = None
                 ) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """Every record of one paper. `embeddings` maps chunk id → vector (absent: chunks carry no embedding)."""
    sha, pid = doc.sha256, paper_id(doc.sha256)
    paper = ("Paper", pid)
    meta = doc.metadata
    chunk_of_element = {c.element_id: c.id for c in doc.chunks if c.element_id}
    nodes = [NodeRecord("Paper", pid, {
        "sha256": sha, "file_name": doc.file_name, "page_count": doc.page_count, "title": meta.title,
        "abstract": meta.abstract, "doi": _doi(meta.doi), "arxiv_id": meta.arxiv_id, "year": meta.year,
        **provenance(sha, boxes=[b for b in (meta.title_box, meta.abstract_box) if b])})]
    edges: list[EdgeRecord] = []

    def edge(type_: str, source: tuple[str, str], target: tuple[str, str], **props) -> None:
        edges.append(EdgeRecord(type_, *source, *target, props))

    byline = [Box(page=1, bbox=meta.title_box.bbox)] if meta.title_box and meta.title_box.page == 1 else []
    for position, author in enumerate(dict.fromkeys(a.name for a in meta.authors if a.name.strip()), start=1):
        aid = author_id(author)
        if any(n.id == aid for n in nodes):  # two spellings folding to one name: one author
            continue
        nodes.append(NodeRecord("Author", aid, {"name": author, **provenance(None)}))
        edge("HAS_AUTHOR", paper, ("Author", aid), position=position, **provenance(sha, boxes=byline))

    for s in doc.sections:
        nodes.append(NodeRecord("Section", s.id, {
            "title": s.title, "number": s.number, "level": s.level, "kind": s.kind, "core_kind": s.core_kind,
            "page_start": s.page_start, "page_end": s.page_end, "ordinal": s.ordinal, **_summary(s),
            "text_source": s.text_source, "printed": s.printed,
            **provenance(sha, boxes=[s.box])}))
        parent = ("Section", s.parent_id) if s.parent_id else None
        if parent:
            edge("HAS_SUBSECTION", parent, ("Section", s.id), **provenance(sha, boxes=[s.box]))
        else:
            edge("HAS_SECTION", paper, ("Section", s.id), **provenance(sha, boxes=[s.box]))

    previous: Chunk | None = None
    for c in doc.chunks:
        props = {"text": c.text, "kind": c.kind, "page_start": c.page_start, "page_end": c.page_end,
                 "char_start": c.char_start, "char_end": c.char_end, "content_hash": c.content_hash,
                 "text_source": c.text_source, **provenance(sha, boxes=c.boxes)}
        starts: dict[str, int] = {}  # aligned with the deduplicated `bboxes` of provenance
        for b, at in zip(c.boxes, c.box_starts):
            starts.setdefault(format_bbox(b.page, b.bbox), at)
        props["box_starts"] = list(starts.values())
        if embeddings and c.id in embeddings:
            props["embedding"] = [float(v) for v in embeddings[c.id]]
        nodes.append(NodeRecord("Chunk", c.id, props))
        owner = ("Section", c.section_id) if c.section_id else paper
        edge("HAS_CHUNK", owner, ("Chunk", c.id), **provenance(sha, boxes=c.boxes[:1]))
        if c.kind == "text":  # figure/table/equation chunks sit outside the reading order
            if previous is not None:
                edge("NEXT_CHUNK", ("Chunk", previous.id), ("Chunk", c.id), **provenance(sha))
            previous = c

    for label, floats in (("Figure", doc.figures), ("Table", doc.tables)):
        for f in floats:
            box = Box(page=f.page, bbox=f.bbox)
            chunk = [chunk_of_element[f.id]] if f.id in chunk_of_element else []
            nodes.append(NodeRecord(label, f.id, {
                "label": f.label, "caption": f.caption, "page": f.page, "bbox": format_bbox(f.page, f.bbox),
                **provenance(sha, boxes=[box], chunks=chunk)}))
            edge(f"HAS_{label.upper()}", paper, (label, f.id), **provenance(sha, boxes=[box], chunks=chunk))

    for e in doc.equations:
        box = Box(page=e.page, bbox=e.bbox)
        chunk = [chunk_of_element[e.id]] if e.id in chunk_of_element else []
        nodes.append(NodeRecord("Equation", e.id, {
            "label": e.label, "text": e.text, "page": e.page, "bbox": format_bbox(e.page, e.bbox),
            **provenance(sha, boxes=[box], chunks=chunk)}))
        edge("HAS_EQUATION", paper, ("Equation", e.id), **provenance(sha, boxes=[box], chunks=chunk))

    for r in doc.references:
        box = Box(page=r.page, bbox=r.bbox)
        nodes.append(NodeRecord("Reference", r.id, {
            "ordinal": r.ordinal, "raw": r.raw, "title": r.title, "title_key": title_key(r.title), "year": r.year,
            "doi": _doi(r.doi),
            **provenance(sha, boxes=[box])}))
        edge("HAS_REFERENCE", paper, ("Reference", r.id), **provenance(sha, boxes=[box]))

    edges += _mention_edges(doc)
    return nodes, edges


def _summary(section: Section) -> dict:
    """A section's summary as parallel lists (sentence, span, box); none at all for a section without one, as
    Neo4j cannot tell the type of an empty list."""
    if not section.summary:
        return {}
    return {"summary": [x.text for x in section.summary],
            "summary_starts": [x.char_start for x in section.summary],
            "summary_ends": [x.char_end for x in section.summary],
            "summary_bboxes": [format_bbox(x.page, x.bbox) for x in section.summary]}


def _mention_edges(doc: Document) -> list[EdgeRecord]:
    """One MENTIONS edge per (chunk, target), with the boxes of every mention it stands for."""
    grouped: dict[tuple[str, str, str], list[Box]] = {}
    for m in doc.mentions:
        label = _MENTION_TARGETS.get(m.kind)
        if label is None or m.target_id is None:
            continue
        chunk_id = m.chunk_id or (chunk.id if (chunk := doc.chunk_at(m.char_start)) else None)
        if chunk_id is None:
            continue
        grouped.setdefault((chunk_id, label, m.target_id), []).append(Box(page=m.page, bbox=m.bbox))
    return [EdgeRecord("MENTIONS", "Chunk", chunk, label, target,
                       provenance(doc.sha256, boxes=boxes, chunks=[chunk]))
            for (chunk, label, target), boxes in grouped.items()]


def citation_edges(matches: Iterable[CitationMatch]) -> list[EdgeRecord]:
    """REFERS_TO from each matched entry to the cited paper, and CITES between the two papers.

    Both belong to the citing paper (its sha256), whichever of the two papers was ingested last.
    """
    edges: dict[tuple, EdgeRecord] = {}
    for m in matches:
        if m.citing_sha256 == m.cited_sha256:
            continue
        cited = paper_id(m.cited_sha256)
        prov = provenance(m.citing_sha256, boxes=m.boxes)
        refers = EdgeRecord("REFERS_TO", "Reference", m.reference_id, "Paper", cited, prov)
        cites = EdgeRecord("CITES", "Paper", paper_id(m.citing_sha256), "Paper", cited, prov)
        edges.setdefault(refers.key, refers)
        edges.setdefault(cites.key, cites)
    return list(edges.values())

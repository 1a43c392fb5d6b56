"""Evidence as a picture: the region of the stored PDF page where a chunk or element is printed, clipped with a
margin and its boxes highlighted, rendered to PNG with PyMuPDF from the content-addressed file store.

The picture's size is bounded in pixels, not by the page: a PDF may declare a page of any size (up to
14,400 pt a side), and at the usual zoom a box that large would be a pixmap of gigabytes. A larger region is
rendered at a lower zoom instead, so it still shows, smaller."""

from __future__ import annotations

import math
import re

from extractors.bbox import parse_bbox
from kg.db.graph import Graph
from kg.errors import NotFoundError
from kg.db.filestore import PDFStore
from kg.read.queries import evidence_chunks, get_edge, get_node
from ontology.loader import Schema

MARGIN = 36.0  # points of context around the evidence
ZOOM = 2.0  # 144 dpi
HIGHLIGHT = (1.0, 0.85, 0.0)  # yellow, drawn translucent over the text


def evidence_boxes(graph: Graph, schema: Schema, element_id: str,
                   chunk_id: str | None = None) -> tuple[str, list[str]]:
    """(PDF SHA-256, boxes as "page:x0,y0,x1,y1") of a chunk, node or edge: its provenance boxes, else its bbox;
    for an edge, the boxes of its spans (in its passage `chunk_id` only, when given)."""
    try:
        holder = get_node(graph, schema, element_id)
    except NotFoundError:
        holder = get_edge(graph, element_id)
    p = holder["properties"]
    boxes = list(p.get("bboxes") or ([p["bbox"]] if p.get("bbox") else []))
    if "source_node" in holder:  # an edge keeps only its passage's first box; show where its span is printed
        passages = [c for c in edge_passages(graph, schema, holder) if chunk_id in (None, c["chunk_id"])]
        if chunk_id is not None and not passages:
            raise NotFoundError(f"{chunk_id!r} is not a passage of the edge {element_id!r}")
        spans = [box for chunk in passages for box in chunk["boxes"]]
        boxes = list(dict.fromkeys(spans)) or boxes
    if not p.get("paper_sha256") or not boxes:
        raise NotFoundError(f"{element_id!r} has no box on a page to show",
                            hint="elements shared across papers (entities, authors) have no page of their own; "
                                 "ask for one of their edges or source chunks")
    return p["paper_sha256"], boxes


def edge_passages(graph: Graph, schema: Schema, edge: dict) -> list[dict]:
    """The passages an edge (as kg.read.queries.get_edge returns it) rests on, each with `spans` (offsets in its text)
    and `boxes` (every box of the passage that those spans are printed in)."""
    ends = [edge["source_node"]["properties"], edge["target_node"]["properties"]]
    out = []
    for chunk in evidence_chunks(graph, schema, edge["id"]):
        spans = edge_spans(chunk["text"], chunk["char_start"], edge["properties"], ends)
        out.append({**chunk, "spans": spans, "boxes": span_boxes(chunk["bboxes"], chunk["box_starts"], spans)})
    return out


def edge_spans(text: str, char_start: int | None, edge: dict, ends: list[dict]) -> list[tuple[int, int]]:
    """Where in a passage an edge's claim is stated: the mention spans the edge keeps (offsets in the paper's
    text), else an end's definition sentence (a DEFINES edge rests on it), else where an end's name or an alias
    is written. Empty when none of these is in the passage."""
    starts, ends_at = edge.get("char_starts") or [], edge.get("char_ends") or []
    if starts and char_start is not None:
        kept = [(a - char_start, b - char_start) for a, b in zip(starts, ends_at) if 0 <= a - char_start < len(text)]
        if kept:
            return kept
    lowered = text.lower()
    for node in ends:
        definition = (node.get("definition") or "").strip().lower()
        if definition and (at := lowered.find(definition)) >= 0:
            return [(at, at + len(definition))]
    found = set()
    for node in ends:
        for name in [node.get("name"), *(node.get("aliases") or [])]:
            if name and name.strip():
                pattern = r"(?<!\w)" + re.escape(name.strip().lower()) + r"(?!\w)"
                found |= {(m.start(), m.end()) for m in re.finditer(pattern, lowered)}
    return sorted(found)


def span_boxes(bboxes: list[str], box_starts: list[int], spans: list[tuple[int, int]]) -> list[str]:
    """The boxes of a passage that hold any of the spans: box i holds the text from box_starts[i] to the next
    box's start. A passage without box_starts (ingested before extractors 0.4.2) gives none."""
    if len(box_starts) < len(bboxes) or not bboxes:
        return []
    bounds = sorted(set(box_starts[:len(bboxes)]))
    out = []
    for box, start in zip(bboxes, box_starts):
        end = next((b for b in bounds if b > start), math.inf)
        if any(a < end and b > start for a, b in spans):
            out.append(box)
    return out


def zoom_for(width: float, height: float, max_pixels: int) -> float:
    """ZOOM, or less where a region of width x height points would otherwise exceed max_pixels."""
    area = max(width, 1.0) * max(height, 1.0)
    return min(ZOOM, math.sqrt(max_pixels / area))


def render(pdf_path, boxes: list[str], max_pixels: int) -> bytes:
    """PNG of the first page the boxes are on, clipped around that page's boxes, which are highlighted; at most
    max_pixels pixels."""
    from extractors.mupdf import pymupdf  # here, not at module level: a native library of 100+ MB, which every API
    # worker would pay at start-up for a picture few requests ask for

    parsed = [parse_bbox(b) for b in boxes]
    page_no = parsed[0][0]
    on_page = [pymupdf.Rect(*box) for page, box in parsed if page == page_no]
    with pymupdf.open(pdf_path) as doc:
        if not 1 <= page_no <= doc.page_count:
            raise NotFoundError(f"the evidence is on page {page_no}, but the stored PDF has {doc.page_count} pages")
        page = doc[page_no - 1]
        for rect in on_page:
            annot = page.add_rect_annot(rect)
            annot.set_colors(stroke=HIGHLIGHT, fill=HIGHLIGHT)
            annot.set_opacity(0.3)
            annot.update()
        clip = pymupdf.Rect(on_page[0])
        for rect in on_page[1:]:
            clip |= rect
        clip = (clip + (-MARGIN, -MARGIN, MARGIN, MARGIN)) & page.rect
        if clip.is_empty:
            raise NotFoundError(f"the evidence's boxes lie outside page {page_no} of the stored PDF")
        zoom = zoom_for(clip.width, clip.height, max_pixels)
        return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, annots=True).tobytes("png")


def evidence_png(graph: Graph, schema: Schema, store: PDFStore, element_id: str, max_pixels: int,
                 chunk_id: str | None = None) -> bytes:
    sha, boxes = evidence_boxes(graph, schema, element_id, chunk_id)
    path = store.path(sha)
    if not path.exists():
        raise NotFoundError(f"the PDF of {element_id!r} (sha256 {sha[:12]}...) is not in the file store",
                            hint="re-ingest the PDF; the store keeps every ingested file under PAPERKG_DATA_DIR/pdfs")
    return render(path, boxes, max_pixels)

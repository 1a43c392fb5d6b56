"""Evidence as a picture: the region of the stored PDF page where a chunk or element is printed, clipped with a
margin and its boxes highlighted, rendered to PNG with PyMuPDF from the content-addressed file store.

The picture's size is bounded in pixels, not by the page: a PDF may declare a page of any size (up to
14,400 pt a side), and at the usual zoom a box that large would be a pixmap of gigabytes. A larger region is
rendered at a lower zoom instead, so it still shows, smaller."""

from __future__ import annotations

import math

from neo4j import Driver

from extractors.bbox import parse_bbox
from kg.errors import NotFoundError
from kg.filestore import PDFStore
from kg.queries import get_edge, get_node
from ontology.loader import Schema

MARGIN = 36.0  # points of context around the evidence
ZOOM = 2.0  # 144 dpi
HIGHLIGHT = (1.0, 0.85, 0.0)  # yellow, drawn translucent over the text


def evidence_boxes(driver: Driver, schema: Schema, element_id: str, database: str | None = None
                   ) -> tuple[str, list[str]]:
    """(PDF SHA-256, boxes as "page:x0,y0,x1,y1") of a chunk, node or edge: its provenance boxes, else its bbox."""
    try:
        holder = get_node(driver, schema, element_id, database)
    except NotFoundError:
        holder = get_edge(driver, element_id, database)
    p = holder["properties"]
    boxes = list(p.get("bboxes") or ([p["bbox"]] if p.get("bbox") else []))
    if not p.get("paper_sha256") or not boxes:
        raise NotFoundError(f"{element_id!r} has no box on a page to show",
                            hint="elements shared across papers (entities, authors) have no page of their own; "
                                 "ask for one of their edges or source chunks")
    return p["paper_sha256"], boxes


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


def evidence_png(driver: Driver, schema: Schema, store: PDFStore, element_id: str, max_pixels: int,
                 database: str | None = None) -> bytes:
    sha, boxes = evidence_boxes(driver, schema, element_id, database)
    path = store.path(sha)
    if not path.exists():
        raise NotFoundError(f"the PDF of {element_id!r} (sha256 {sha[:12]}...) is not in the file store",
                            hint="re-ingest the PDF; the store keeps every ingested file under PAPERKG_DATA_DIR/pdfs")
    return render(path, boxes, max_pixels)

"""The one text form of a box on a page that Neo4j stores and Cypher can read: "page:x0,y0,x1,y1".

Points are PDF points with PyMuPDF's top-left origin, rounded to 0.01. In Cypher:
`toInteger(split(b, ':')[0])` is the page, `[x IN split(split(b, ':')[1], ',') | toFloat(x)]` the box.
"""

from __future__ import annotations

from extractors.model import BBox


def format_bbox(page: int, bbox: BBox) -> str:
    return f"{page}:" + ",".join(f"{round(v, 2):g}" for v in bbox)


def parse_bbox(text: str) -> tuple[int, BBox]:
    page, _, coords = text.partition(":")
    x0, y0, x1, y1 = (float(v) for v in coords.split(","))
    return int(page), (x0, y0, x1, y1)

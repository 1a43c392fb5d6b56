"""The one text form of a box on a page that Neo4j stores and Cypher can read: "page:x0,y0,x1,y1".

Points are PDF points with PyMuPDF's top-left origin, rounded to 0.01. In Cypher:
`toInteger(split(b, ':')[0])` is the page, `[x IN split(split(b, ':')[1], ',') | toFloat(x)]` the box.
"""

from __future__ import annotations

import math
import re

from extractors.errors import InvalidBBoxError
from extractors.model import BBox

_NUMBER = r"-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?"  # the exponent: boxes stored before fixed-point formatting
_BBOX = re.compile(rf"(\d{{1,9}}):({_NUMBER}),({_NUMBER}),({_NUMBER}),({_NUMBER})")


def _point(v: float) -> str:
    """Fixed point with at most two decimals, so that a box on a large page keeps its 0.01 (the general format
    kept six significant digits: 14400.12 became 14400.1)."""
    return f"{round(v, 2):.2f}".rstrip("0").rstrip(".")


def format_bbox(page: int, bbox: BBox) -> str:
    return f"{page}:" + ",".join(_point(v) for v in bbox)


def parse_bbox(text: str) -> tuple[int, BBox]:
    """The page and box of a stored box; text of any other shape (or a page 0, or a coordinate too large for a
    float) is an InvalidBBoxError, which the API answers with a 422, not a ValueError that would be a 500."""
    m = _BBOX.fullmatch(text) if isinstance(text, str) else None
    if m is None or int(m[1]) < 1:
        raise InvalidBBoxError(f"not a box: {str(text)[:80]!r}", hint='a box is "page:x0,y0,x1,y1", page from 1')
    box = tuple(float(v) for v in m.groups()[1:])
    if not all(math.isfinite(v) for v in box):
        raise InvalidBBoxError(f"not a box: {text[:80]!r}", hint="a coordinate is too large")
    return int(m[1]), box

"""Table cells from laid-out lines: lines sharing a baseline band form a row, left to right.

PyMuPDF already splits a table row into one line per cell wherever the horizontal gap is wide, so
grouping lines by vertical overlap recovers rows cheaply (no `page.find_tables()`, which costs tens of
milliseconds a page).
"""

from __future__ import annotations

from extractors.model import Line


def table_rows(lines: list[Line]) -> list[list[str]]:
    """Rows of cell texts, top to bottom; a line joins a row when it overlaps the row's band by half."""
    rows: list[tuple[float, float, list[Line]]] = []
    for line in sorted(lines, key=lambda l: (l.bbox[1], l.bbox[0])):
        y0, y1 = line.bbox[1], line.bbox[3]
        if rows:
            r0, r1, members = rows[-1]
            if min(y1, r1) - max(y0, r0) > 0.5 * min(y1 - y0, r1 - r0):
                rows[-1] = (min(r0, y0), max(r1, y1), [*members, line])
                continue
        rows.append((y0, y1, [line]))
    return [[l.text.strip() for l in sorted(members, key=lambda l: l.bbox[0])] for _, _, members in rows]

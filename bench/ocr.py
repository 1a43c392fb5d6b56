"""Scoring of OCR against a text layer: how much of a page's printed text OCR recovers, and how many of a paper's
sections, numbered equations and figure and table regions a scanned copy still yields.

A text layer and OCR may read a page's columns and floats in different orders, and reading order is scored by
`kg bench structure`, not here: the texts are compared as sorted word sequences, so character accuracy counts
wrong, missing and extra characters only.
"""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from extractors.scoring import norm_label

_TITLE_MATCH = 90  # rapidfuzz ratio at which an OCR'd heading is the same heading (a misread letter or two)


def _sorted_words(text: str) -> str:
    return " ".join(sorted(text.split()))


def char_accuracy(ocr: str, truth: str) -> float:
    """1 - (character edits between the sorted word sequences) / (characters of the truth's), at least 0."""
    truth_words = _sorted_words(truth)
    if not truth_words:
        return 1.0 if not ocr.split() else 0.0
    return max(0.0, 1 - Levenshtein.distance(_sorted_words(ocr), truth_words) / len(truth_words))


def word_recall(ocr: str, truth: str) -> float:
    """Share of the truth's words (with repeats) that OCR read exactly."""
    want = Counter(truth.split())
    if not want:
        return 1.0
    return sum((Counter(ocr.split()) & want).values()) / sum(want.values())


def _title_key(title: str) -> str:
    return " ".join(re.findall(r"\w+", title.lower()))


def _titles_matched(ocr_titles: list[str], truth_titles: list[str]) -> int:
    """How many of the truth's section titles some OCR'd section title matches (each used once)."""
    left = [_title_key(t) for t in ocr_titles]
    found = 0
    for title in map(_title_key, truth_titles):
        best = max(range(len(left)), key=lambda n: fuzz.ratio(left[n], title), default=None)
        if best is not None and fuzz.ratio(left[best], title) >= _TITLE_MATCH:
            found += 1
            left.pop(best)
    return found


def section_recall(ocr_titles: list[str], truth_titles: list[str]) -> float:
    """Share of the truth's section titles that some OCR'd section title matches (each used once)."""
    return _titles_matched(ocr_titles, truth_titles) / len(truth_titles) if truth_titles else 1.0


def section_precision(ocr_titles: list[str], truth_titles: list[str]) -> float | None:
    """Share of the OCR'd section titles that match one of the truth's: the rest are lines taken for headings that
    the text layer's parse does not call headings (a figure's labels, a misread line). None without OCR'd titles:
    a scan that finds no sections says nothing of how precise it is (its recall says what it missed)."""
    return _titles_matched(ocr_titles, truth_titles) / len(ocr_titles) if ocr_titles else None


def label_recall(ocr_labels: list[str], truth_labels: list[str]) -> float:
    """Share of the truth's equation numbers (as printed: "(3)" == "3") that the OCR'd parse also numbers."""
    truth = {norm_label(label) for label in truth_labels}
    return len(truth & {norm_label(label) for label in ocr_labels}) / len(truth) if truth else 1.0


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over union of two boxes."""
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    both = w * h
    return both / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - both)


def regions_found(ocr_floats: list[tuple], truth_floats: list[tuple]) -> int:
    """How many of the truth's figures and tables, as (kind, label, page, box), the OCR'd parse places: the same
    kind and label on the same page, its region overlapping the truth's by at least half (intersection over
    union), so a region that is only the caption, or that swallows the text around the float, is not found."""
    left = list(ocr_floats)
    found = 0
    for kind, label, page, box in truth_floats:  # one to one: a region places one float, the one it overlaps most
        same = [n for n, (k, l, p, _) in enumerate(left) if (k, norm_label(l), p) == (kind, norm_label(label), page)]
        best = max(same, key=lambda n: _overlap(left[n][3], box), default=None)
        if best is not None and _overlap(left[best][3], box) >= 0.5:
            found += 1
            left.pop(best)
    return found


def rasterized(data: bytes, dpi: int, pages: set[int] | None = None) -> bytes:
    """The PDF with its pages (1-based `pages`, default all) replaced by pictures of themselves at `dpi`, as a
    scanner gives them: no text layer, same page size, so a box on the picture is where the words were printed."""
    from extractors.mupdf import pymupdf  # MuPDF: imported by the commands that parse only

    source = pymupdf.open(stream=data, filetype="pdf")
    out = pymupdf.open()
    for page in source:
        if pages is None or page.number + 1 in pages:
            picture = out.new_page(width=page.rect.width, height=page.rect.height)
            picture.insert_image(picture.rect, pixmap=page.get_pixmap(dpi=dpi))
        else:
            out.insert_pdf(source, from_page=page.number, to_page=page.number)
    return out.tobytes()

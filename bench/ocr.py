"""Scoring of OCR against a text layer: how much of a page's printed text OCR recovers, and how many of a paper's
sections and numbered equations a scanned copy still yields.

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


def section_recall(ocr_titles: list[str], truth_titles: list[str]) -> float:
    """Share of the truth's section titles that some OCR'd section title matches (each used once)."""
    if not truth_titles:
        return 1.0
    left = [_title_key(t) for t in ocr_titles]
    found = 0
    for title in map(_title_key, truth_titles):
        best = max(range(len(left)), key=lambda n: fuzz.ratio(left[n], title), default=None)
        if best is not None and fuzz.ratio(left[best], title) >= _TITLE_MATCH:
            found += 1
            left.pop(best)
    return found / len(truth_titles)


def label_recall(ocr_labels: list[str], truth_labels: list[str]) -> float:
    """Share of the truth's equation numbers (as printed: "(3)" == "3") that the OCR'd parse also numbers."""
    truth = {norm_label(label) for label in truth_labels}
    return len(truth & {norm_label(label) for label in ocr_labels}) / len(truth) if truth else 1.0


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

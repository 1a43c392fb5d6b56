"""The weight of fonts whose names do not tell it, measured from their ink.

Headings are told from body text by their type (extractors/sections.py), and a text layer says a font is bold by
its flags or its name ('Times-Bold', 'CMBX10', 'AdvTTaf7f9f4f.B'). Some typesetting systems name fonts by an
opaque code instead ('AdvPECFD36', 'Fk'), and a journal's bold sub-headings then read as body text. A bold face's
strokes are about half as thick again as its regular face's, so such a font is bold when its printed strokes,
relative to its size, are that much thicker than those of the paper's body font.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace
from functools import lru_cache

import numpy as np

from extractors.model import Line, PageLayout
from extractors.mupdf import pymupdf

# A bold face's strokes are about half as thick again as its regular face's at the same size (Times 1.48 as
# rendered); a font whose strokes are this much thicker than the body font's, at the same size, is bold.
BOLD_STROKE = 1.35
# A name says its typeface when it holds a word ('Times', 'Helvetica', 'Roman', 'bold') or is a TeX font's
# name (two to six capitals and the design size: 'CMR10', 'SFRM0800'); what is left is an opaque code.
_WORD = re.compile(r"[A-Z][a-z]{3,}|[a-z]{4,}")  # ...with a letter past 'f': 'AdvTTabcd1234' is hexadecimal
_TEX_NAME = re.compile(r"^[A-Z]{2,6}\d{1,4}$")
_SUBSET = re.compile(r"^[A-Z]{6}\+")  # the prefix of an embedded subset ('ELGKHA+AdvPECFD36')
# The median horizontal ink run, as a share of the size, of the bold faces of 80 papers measured 0.11-0.22 (Times,
# Helvetica and Arial bold 0.13-0.16) and of their regular faces' prose 0.05-0.11 (Helvetica 0.08-0.10)
_BOLD_STEM = 0.11
_SAMPLES = 8  # spans measured per font
_MAX_FONTS = 16  # opaque-named fonts weighed per paper, those setting most text first
_TALLEST = 3.0  # of its size: a span's box taller than this holds more than its letters and is not measured
_MAX_PIXELS = 2_000_000  # a span's box is rendered at _SCALE only up to this many pixels, else not measured
_MOSTLY_INK = 0.6  # a rendering this much ink is of a filled box (white letters on a dark cell), not of letters
_MIN_LETTERS = 3  # a span with fewer letters or digits is too little ink to measure
_SCALE = 4.0  # pixels per point of the rendered spans: a 10 pt regular stem spans about 3 pixels
_INK = 128  # grey level below which a pixel is ink


def ink_of(picture: pymupdf.Pixmap) -> np.ndarray:
    """The pixels of a grey `picture` (one byte each) that are ink: darker than mid-grey."""
    grey = np.frombuffer(picture.samples, dtype=np.uint8).reshape(picture.height, picture.stride)
    return grey[:, :picture.width] < _INK


def ink_runs(ink: np.ndarray) -> np.ndarray:
    """The lengths in pixels of the horizontal ink runs of `ink` (boolean, True where a pixel is ink): where a run
    crosses a letter's stem or bowl, the thickness of its stroke."""
    edges = np.diff(np.pad(ink, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    return np.nonzero(edges == -1)[1] - np.nonzero(edges == 1)[1]  # row by row, each run's end after its start


def stroke_width(ink: np.ndarray) -> float:
    """The mean width in pixels of the horizontal ink runs of `ink`, 0 when it holds no ink."""
    runs = ink_runs(ink)
    return float(runs.mean()) if runs.size else 0.0


@lru_cache(maxsize=1024)
def opaque(font: str) -> bool:
    """Whether a font's name is a code that says nothing of its face ('AdvPECFD36', 'Fk', 'AdvTT5bf2ac07'); a
    style suffix ('AdvTTaf7f9f4f.B') is read by the name rules of extractors/layout.py before this is asked."""
    name = _SUBSET.sub("", font)
    return not any(max(word.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) > "f" for word in _WORD.findall(name)) \
        and not _TEX_NAME.match(name)


def weigh_fonts(doc: pymupdf.Document, pages: list[PageLayout]) -> list[PageLayout]:
    """The text layer's pages with the spans of opaque-named fonts that print heavier than the body font marked
    bold; pages read by OCR have their weight measured already (extractors/ocr_type.py). Every span of every page
    passes here, so a paper without such a font costs one count of its characters."""
    chars: Counter[str] = Counter()
    flagged: set[str] = set()
    for layout in pages:
        for line in layout.lines:
            for span in line.spans:
                chars[span.font] += len(span.text)
                if span.bold:
                    flagged.add(span.font)
    if not chars:
        return pages
    body = chars.most_common(1)[0][0]
    unknown = sorted((font for font in chars if font != body and font not in flagged and opaque(font)),
                     key=lambda font: -chars[font])[:_MAX_FONTS]
    if not unknown or body in flagged:
        return pages
    samples = _samples(pages, {*unknown, body})
    shown: dict[int, pymupdf.DisplayList] = {}
    regular = _runs(doc, samples[body], shown)
    if not regular.size:
        return pages
    heavy = {font for font in unknown if _heavier(_runs(doc, samples[font], shown), regular)}
    return [_with_bold(layout, heavy) for layout in pages] if heavy else pages


def _samples(pages: list[PageLayout], fonts: set[str]) -> dict[str, list[tuple[int, tuple[float, ...], float]]]:
    """Up to _SAMPLES spans (page number, box, size) of each of `fonts` in upright lines, each with enough letters
    or digits to measure."""
    samples: dict[str, list[tuple[int, tuple[float, ...], float]]] = defaultdict(list)
    for layout in pages:
        for line in layout.lines:
            if line.vertical:
                continue
            for span in line.spans:
                x0, y0, x1, y1 = span.bbox
                if (span.font in fonts and len(samples[span.font]) < _SAMPLES and 0 < y1 - y0 <= _TALLEST * span.size
                        and (x1 - x0) * (y1 - y0) * _SCALE ** 2 <= _MAX_PIXELS
                        and sum(c.isalnum() for c in span.text) >= _MIN_LETTERS):
                    samples[span.font].append((layout.page, span.bbox, span.size))
    return samples


def _heavier(runs: np.ndarray, regular: np.ndarray) -> bool:
    """Whether a font whose strokes measure `runs` is a bold face beside a body font measuring `regular`: its
    strokes are thicker on average and its typical stroke is a bold one's. A sans-serif face has no hairlines and
    so thicker strokes on average than a serif body face of the same weight, but its typical stroke is no
    thicker."""
    return (runs.size > 0 and float(runs.mean()) >= BOLD_STROKE * float(regular.mean())
            and float(np.median(runs)) >= _BOLD_STEM)


def _runs(doc: pymupdf.Document, spans: list[tuple[int, tuple[float, ...], float]],
          shown: dict[int, pymupdf.DisplayList]) -> np.ndarray:
    """The horizontal ink runs of `spans` (page number, box, size) as rendered, each as a share of its size;
    `shown` keeps each page's display list, so a page sampled for several fonts is interpreted once."""
    runs = [np.empty(0)]
    for number, bbox, size in spans:
        page = doc[number - 1]
        if page.rotation or size <= 0:  # turned pages are left out: their spans are weighed on the upright ones
            continue
        if number not in shown:
            shown[number] = page.get_displaylist()
        picture = shown[number].get_pixmap(matrix=pymupdf.Matrix(_SCALE, _SCALE), clip=pymupdf.Rect(bbox),
                                           colorspace=pymupdf.csGRAY, alpha=False)
        ink = ink_of(picture)
        if ink.size and ink.mean() < _MOSTLY_INK:
            runs.append(ink_runs(ink) / (size * _SCALE))
    return np.concatenate(runs)


def _with_bold(layout: PageLayout, heavy: set[str]) -> PageLayout:
    if not any(span.font in heavy for line in layout.lines for span in line.spans):
        return layout
    return replace(layout, lines=[_line_with_bold(line, heavy) for line in layout.lines])


def _line_with_bold(line: Line, heavy: set[str]) -> Line:
    if not any(span.font in heavy for span in line.spans):
        return line
    spans = [replace(span, bold=True) if span.font in heavy else span for span in line.spans]
    return replace(line, bold=line.bold or line.font in heavy, spans=spans)

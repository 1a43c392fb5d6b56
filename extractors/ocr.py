"""OCR of the pages triage finds without a text layer, so a scanned paper still yields sections, chunks and
evidence, and of the pages whose text layer prints glyphs it names no character for (extractors/unmapped.py).

Tesseract reads a picture of the page as shown, through MuPDF (`Pixmap.pdfocr_tobytes`): its words come back as an
ordinary text page, in the page's coordinates as shown (upright, as layout reads every line), and go through the
same layout reading as a text layer, so every box downstream (sections, chunks, evidence crops) is where the words
are printed. MuPDF carries the engine; what a machine must add is Tesseract's English language data (Debian's
`tesseract-ocr-eng`, installed by `make install`). Without it the pages stay empty and the parse says so in its
warnings.

Only pages triage flags, and pages holding glyphs without a character when those are a noticeable share of the
paper, are read, at most `max_pages` of them per paper (the rest are named in the warnings), so the cost of an
untrusted file is bounded by the caps before the parse's own time limit; the same page at the same resolution
always reads the same. A text layer whose words are not joined into lines (each word a line of its own, as some
converters write it under the printed page) is no text to read: then every page is read by OCR, or, over the cap,
none, and triage refuses the paper saying why.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from extractors.font_weight import ink_of
from extractors.layout import read_page
from extractors.model import Line, PageLayout
from extractors.mupdf import pymupdf
from extractors.ocr_cache import cached_reading
from extractors.ocr_data import ENGINE, LANGUAGE, tessdata
from extractors.ocr_graphics import drawn_regions, ink_extent, ink_within
from extractors.ocr_labels import relabel
from extractors.ocr_lines import as_printed, with_dots
from extractors.ocr_rows import rows_read_again
from extractors.ocr_type import calibrated_capitals, capitals_ratios, common_sizes, typeset
from extractors.triage import lacks_text, unusable_text_layer
from extractors.unmapped import MIN_SHARE, fill_unmapped, unmapped_count, unmapped_share

DPI = 300  # Tesseract's own recommendation for body text; lower resolutions lose small print and subscripts
# The most pixels a page is rendered at for OCR (a letter page at DPI has about 8.4 million): a poster-sized page is
# read at a lower resolution, so one untrusted page cannot take gigabytes (the page size cap alone allows 5,000 pt).
MAX_PIXELS = 40_000_000
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_BULLET_FILL = 0.65  # share of its box a bullet's ink fills (a dot, a square); a letter's fills under half
# A Roman section number as OCR misreads it ("Il.", "fil.", "Iv."): I's strokes come out as l, |, i, f or t, and V,
# X in lower case. Only at the start of a line, before a title in capitals, where section numbers are; digits are
# left alone ("1. INTRODUCTION" is an Arabic number).
_ROMAN_MISREAD = re.compile(r"^([IVXlivx|ft]{1,4})(\.\s+)(?=[A-Z]{2})")
# 'VI.' read as 'VL' (the stop at an I's foot) before a title in capitals; no section is numbered XL or L
_ROMAN_DOT_AS_L = re.compile(r"^([IV]{1,3})L(?=\s+[A-Z][A-Z\s]+$)")
_ROMAN_LETTERS = str.maketrans({"l": "I", "i": "I", "|": "I", "f": "I", "t": "I", "v": "V", "x": "X"})


@dataclass
class OcrOutcome:
    """What OCR did to a paper's pages: the pages (OCR'd ones replaced), and which pages it read or left."""

    pages: list[PageLayout]
    read: list[int] = field(default_factory=list)  # 1-based pages whose text came from OCR
    over_cap: list[int] = field(default_factory=list)  # pages without text left unread: over the per-paper cap
    no_engine: list[int] = field(default_factory=list)  # pages without text left unread: no language data here
    layer_unusable: bool = False  # every page was to be read: the text layer's words are not joined into lines
    filled: list[int] = field(default_factory=list)  # pages whose glyphs without a character OCR read (unmapped.py)
    partly: list[int] = field(default_factory=list)  # of those, pages where some such glyphs stay unknown
    unfilled: list[int] = field(default_factory=list)  # pages whose such glyphs stay unknown: over the cap, no engine
    without_engine: bool = False  # this machine has no language data for OCR

    def warnings(self, max_pages: int | None) -> list[str]:
        why = ("which have no text layer" if not self.layer_unusable else
               "whose text layer is unusable (its words are not joined into lines)")
        read = [f"OCR ({ENGINE}, {LANGUAGE}) read {_pages(self.read)}, {why}: their text may hold recognition "
                "errors"] if self.read else []
        if self.filled:
            read.append(f"OCR ({ENGINE}, {LANGUAGE}) read the glyphs the text layer names no character for (such as "
                        f"digits in a font without a Unicode map) on {_pages(self.filled)}: those characters may "
                        "hold recognition errors")
        if self.partly:
            read.append(f"on {_pages(self.partly)} some glyphs the text layer names no character for stay U+FFFD "
                        "(unknown) in the text: OCR read nothing that lines up with them")
        if self.unfilled:
            why = (f"OCR needs Tesseract's {LANGUAGE} language data" if self.without_engine else
                   f"OCR reads at most {max_pages} pages per paper (PAPERKG_PARSE_MAX_OCR_PAGES)")
            read.append(f"{_pages(self.unfilled)} print glyphs the text layer names no character for: they stay "
                        f"U+FFFD (unknown) in the text, as {why}")
        return read + self.unread(max_pages)

    @property
    def _left(self) -> str:
        return "with an unusable text layer" if self.layer_unusable else "without a text layer"

    def unread(self, max_pages: int | None) -> list[str]:
        """Why pages to be read by OCR were left without text, for the warnings or a refusal."""
        out = []
        if self.over_cap:
            out.append(f"{_pages(self.over_cap)} {self._left} left unread: OCR reads at most {max_pages} "
                       "pages per paper (PAPERKG_PARSE_MAX_OCR_PAGES)")
        if self.no_engine:
            out.append(f"{_pages(self.no_engine)} {self._left} left unread: OCR needs Tesseract's "
                       f"{LANGUAGE} language data (`make system-deps`, or `apt-get install tesseract-ocr-{LANGUAGE}`, "
                       "or TESSDATA_PREFIX naming its folder)")
        return out


def _pages(numbers: list[int]) -> str:
    return f"page {numbers[0]}" if len(numbers) == 1 else f"pages {', '.join(map(str, numbers))}"


def ocr_missing_text(doc: pymupdf.Document, pages: list[PageLayout], max_pages: int | None,
                     cache: Path | None = None) -> OcrOutcome:
    """`pages` (as read from the text layer) with the text of those lacking one read by OCR, in page order up to
    `max_pages`; every page when the text layer is unusable, or none if they are more than `max_pages` (half a
    paper read by OCR beside a layer of loose words would be neither). Readings are kept in `cache`
    (extractors/ocr_cache.py) when one is given."""
    unusable = unusable_text_layer(pages)
    wanted = [page.page for page in pages if unusable or lacks_text(page)]
    unnamed = [] if unusable or unmapped_share(pages) < MIN_SHARE else \
        [page.page for page in pages if page.page not in wanted and unmapped_count(page)]
    if not wanted and not unnamed:
        return OcrOutcome(pages)
    folder = tessdata()
    if folder is None:
        return OcrOutcome(pages, no_engine=wanted, layer_unusable=unusable, unfilled=unnamed, without_engine=True)
    cap = len(wanted) + len(unnamed) if max_pages is None else max_pages
    read, over_cap = (wanted[:cap], wanted[cap:]) if not unusable or cap >= len(wanted) else ([], wanted)
    # the pages with the most such glyphs first, when the cap leaves room for only some
    room = max(0, cap - len(read))
    most = sorted(unnamed, key=lambda number: -unmapped_count(pages[number - 1]))
    filled, unfilled = sorted(most[:room]), sorted(most[room:])
    out = list(pages)
    ratios: list[float] = []
    for number in read:
        out[number - 1], found = _read(doc[number - 1], pages[number - 1], folder, cache)
        ratios += found
    out = common_sizes(with_dots(calibrated_capitals(out, read, ratios), read), read, DPI / 72)
    for number in filled:
        page = doc[number - 1]
        out[number - 1] = fill_unmapped(pages[number - 1], _textpage(page, _dpi(page), folder, cache))
    return OcrOutcome(out, read=read, over_cap=over_cap, layer_unusable=unusable, filled=filled,
                      partly=[n for n in filled if unmapped_count(out[n - 1])], unfilled=unfilled)


def _textpage(page: pymupdf.Page, dpi: int, folder: str, cache: Path | None) -> pymupdf.TextPage:
    """Tesseract's reading of the page as shown, its boxes in the page's coordinates as shown (upright, /Rotate
    applied). `Page.get_textpage_ocr` turns them back to the unrotated page but clips them to the page's shown size
    on the way, which loses the words of a turned page beyond its shorter side."""
    reading = _ocr_reading(page.get_pixmap(dpi=dpi), folder, cache)
    scale = page.rect.width / reading.rect.width
    textpage = reading.get_textpage(flags=_TEXT_FLAGS, matrix=pymupdf.Matrix(scale, scale))
    textpage.parent = weakref.proxy(page)  # MuPDF reads a text page only with the page it belongs to
    return textpage


def _read(page: pymupdf.Page, layout: PageLayout, folder: str, cache: Path | None) -> tuple[PageLayout, list[float]]:
    """The page's lines as Tesseract reads its rendering; its images and drawings stay as the page has them (a
    figure is still a figure), and the ink that is no word is drawn on it too (extractors/ocr_graphics.py). With
    them, the ratios of its capitals to its x band (extractors/ocr_type.py), which the whole paper's calibrate."""
    dpi = _dpi(page)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    ink = ink_of(pix)
    lines = as_printed(read_page(page, _textpage(page, dpi, folder, cache)).lines, page.rect.width, ink, dpi / 72)
    lines = rows_read_again(lines, ink, dpi / 72, lambda box: _words_alone(page, box, dpi, folder, cache))
    lines = typeset(lines, ink, dpi / 72)
    lines = relabel(lines, ink, dpi / 72, lambda box: _read_alone(page, box, dpi, folder, cache))
    return (replace(layout, lines=[_roman_number(_bullet(line, ink, dpi / 72)) for line in lines],
                    drawings=layout.drawings + drawn_regions(ink, lines, dpi / 72)),
            capitals_ratios(lines, ink, dpi / 72))


def _read_alone(page: pymupdf.Page, box: tuple[float, ...], dpi: int, folder: str, cache: Path | None) -> str:
    """Tesseract's reading of a box of the page cut out on its own (extractors/ocr_labels.py)."""
    return _reading_alone(page, box, dpi, folder, cache).get_text()


def _words_alone(page: pymupdf.Page, box: tuple[float, ...], dpi: int, folder: str, cache: Path | None
                 ) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The words Tesseract reads in a box of the page cut out on its own, each with its box on the page
    (extractors/ocr_rows.py)."""
    area = pymupdf.Rect(box) & page.rect  # what is rendered: the box cut to the page
    if area.is_empty:
        return []
    reading = _reading_alone(page, tuple(area), dpi, folder, cache)
    scale = area.width / reading.rect.width if reading.rect.width else 1.0
    return [(w[4], (area.x0 + w[0] * scale, area.y0 + w[1] * scale, area.x0 + w[2] * scale, area.y0 + w[3] * scale))
            for w in reading.get_text("words")]


def _reading_alone(page: pymupdf.Page, box: tuple[float, ...], dpi: int, folder: str, cache: Path | None
                   ) -> pymupdf.Page:
    picture = page.get_pixmap(dpi=dpi, clip=pymupdf.Rect(box))  # in colour: MuPDF's OCR reads no text in grey
    picture.set_origin(0, 0)  # nor in a picture placed away from the origin
    return _ocr_reading(picture, folder, cache)


def _ocr_reading(picture: pymupdf.Pixmap, folder: str, cache: Path | None) -> pymupdf.Page:
    """The page of the PDF Tesseract makes of `picture` (its text layer over it), from `cache` when it holds one."""
    data = cached_reading(cache, picture, f"{ENGINE} {pymupdf.VersionBind} {LANGUAGE}",
                          lambda: picture.pdfocr_tobytes(compress=True, language=LANGUAGE, tessdata=folder))
    return pymupdf.open(stream=data, filetype="pdf")[0]


def _dpi(page: pymupdf.Page) -> int:
    """DPI, or less for a page that would be more than MAX_PIXELS at DPI."""
    inches = page.rect.width * page.rect.height / 72 ** 2
    return min(DPI, int((MAX_PIXELS / inches) ** 0.5)) if inches > 0 else DPI


def _roman_number(line: Line) -> Line:
    """The line with a misread Roman section number at its start read as one (sections are found by their
    numbers in sequence, so one misread number loses the rest of the paper's): its I read as l, f or t, or its
    last I and the stop at its foot read as an L ('VL CONCLUSION')."""
    if m := _ROMAN_DOT_AS_L.match(line.text):
        read, number = m[0], m[1] + "I."
    elif (m := _ROMAN_MISREAD.match(line.text)) and not (m[1].isupper() and m[1].isalpha()):
        read, number = m[1], m[1].translate(_ROMAN_LETTERS)
    else:
        return line
    spans = line.spans
    if spans and spans[0].text.startswith(read):
        spans = [replace(spans[0], text=number + spans[0].text[len(read):]), *spans[1:]]
    return replace(line, text=number + line.text[len(read):], spans=spans)


def _bullet(line: Line, ink: np.ndarray, scale: float) -> Line:
    """The line with a list bullet Tesseract read as a letter ('•' as 'e', '■' as 'a') read as the bullet it is: a
    lone mark before the line's first word whose ink is a filled dot or square (solid in its middle, where even a
    bold letter has its hole), about as wide as high and no taller than a small letter. Read as a letter, it numbers
    the item like a lettered sub-heading ('A query string ...')."""
    if len(line.spans) < 2 or len(first := line.spans[0].text.strip()) != 1 or first.isdigit():
        return line
    box = ink_within(ink, line.spans[0].bbox, scale)[0]
    if (extent := ink_extent(box)) is None:
        return line
    top, left, bottom, right = extent
    high, wide = bottom - top, right - left
    mark = box[top:bottom, left:right]
    middle = mark[high // 3:high - high // 3, wide // 3:wide - wide // 3]  # a bold 'a' or 'e' has its hole here
    if not (mark.mean() >= _BULLET_FILL and middle.size and middle.all() and 0.7 <= wide / high <= 1.4
            and high <= 0.6 * line.size * scale):
        return line
    spans = [replace(line.spans[0], text=line.spans[0].text.replace(first, "•")), *line.spans[1:]]
    return replace(line, text=line.text.replace(first, "•", 1), spans=spans)

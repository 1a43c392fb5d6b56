"""Open a file as a PDF and say what kind of PDF it is, failing with a specific, actionable error.

Every failure here is an ExtractionError subclass so the CLI prints a message and a hint,
never a stack trace.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from collections import Counter
from pathlib import Path

from extractors.errors import CorruptPDFError, EmptyPDFError, EncryptedPDFError, NoTextLayerError, NotAPDFError
from extractors.limits import ParseLimits, check_document, check_size
from extractors.model import PageLayout, Profile
from extractors.mupdf import pymupdf

_MIN_CHARS_PER_PAGE = 200  # below this a page with an image is taken as scanned
# Prose is set in lines of several words; when most of a document's characters sit in one-word lines, its text
# layer does not carry lines or reading order (e.g. rotated two-up pages, words placed one by one), and every
# later stage would find nothing. Figure labels and table cells are one-word lines too, but a minority.
_MAX_ONE_WORD_SHARE = 0.5


def open_pdf(path: Path, limits: ParseLimits = ParseLimits()) -> tuple[pymupdf.Document, str]:
    """The opened document and the SHA-256 of its bytes."""
    try:
        check_size(path, limits)
        data = path.read_bytes()
    except OSError as exc:
        raise NotAPDFError(f"cannot read {path}: {exc.strerror}", hint="check the path and its permissions") from None
    if b"%PDF-" not in data[:1024]:
        raise NotAPDFError(f"{path.name} is not a PDF (no %PDF header)",
                           hint="pass a PDF file; convert other formats to PDF first")
    if b"%%EOF" not in data[-1024:]:  # where readers look for it; MuPDF would parse what is left without a word
        raise CorruptPDFError(f"{path.name} is truncated (it does not end with %%EOF)",
                              hint="download the PDF again; the copy is incomplete")
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (pymupdf.FileDataError, pymupdf.mupdf.FzErrorBase, RuntimeError, ValueError) as exc:
        raise CorruptPDFError(f"{path.name} is damaged and cannot be opened", details=str(exc),
                              hint="download the PDF again or repair it (e.g. `qpdf in.pdf out.pdf`)") from None
    if doc.needs_pass and not doc.authenticate(""):
        raise EncryptedPDFError(f"{path.name} is password-protected",
                                hint="decrypt it first, e.g. `qpdf --decrypt --password=... in.pdf out.pdf`")
    if doc.page_count == 0:
        raise EmptyPDFError(f"{path.name} has no pages", hint="the file is empty or truncated; get a complete copy")
    check_document(doc, path.name, limits)
    return doc, sha256


@contextmanager
def reading(name: str):
    """Turn MuPDF's errors while reading pages (a damaged file often opens fine and fails on its pages, e.g. on
    a cycle in its page tree) into a CorruptPDFError."""
    try:
        yield
    except (RuntimeError, pymupdf.FileDataError, pymupdf.mupdf.FzErrorBase) as exc:
        raise CorruptPDFError(f"{name} is damaged: a page cannot be read", details=str(exc),
                              hint="download the PDF again or repair it (e.g. `qpdf in.pdf out.pdf`)") from None


def _chars(page: PageLayout) -> int:
    return sum(len(line.text) for line in page.lines)


def lacks_text(page: PageLayout) -> bool:
    """A page printed as an image with (next to) no text layer: a scan, or a page exported as a picture."""
    return bool(page.images) and _chars(page) < _MIN_CHARS_PER_PAGE


def profile(pages: list[PageLayout], name: str, ocr_pages: list[int] = (), unread: list[str] = ()) -> Profile:
    """native / scanned / mixed from characters per page (`ocr_pages`, read by OCR, count as scanned); raises
    when there is no text at all, with `unread` (why OCR left pages unread) as the hint."""
    total = sum(_chars(page) for page in pages)
    if total < 20:
        raise NoTextLayerError(f"{name} has no text layer (it looks scanned)",
                               hint="; ".join(unread) or "run OCR first, e.g. `ocrmypdf in.pdf out.pdf`, then parse "
                                                          "the result")
    check_lines(pages, name, total, unread, read_by_ocr=len(ocr_pages) == len(pages))
    scanned = sum(1 for page in pages if page.page in ocr_pages or lacks_text(page))
    kind = "native" if scanned == 0 else "scanned" if scanned == len(pages) else "mixed"
    fonts = Counter()
    for page in pages:
        for line in page.lines:
            fonts[line.font] += len(line.text)
    columns = Counter(page.columns for page in pages).most_common(1)[0][0]
    return Profile(text_kind=kind, chars_per_page=round(total / len(pages), 1), columns=columns,
                   fonts=[font for font, _ in fonts.most_common(8)], ocr_pages=list(ocr_pages))


def _one_word_share(pages: list[PageLayout], total_chars: int) -> tuple[float, float]:
    """The share of the characters that sit in one-word lines, and of those the share set vertically."""
    one_word = [line for page in pages for line in page.lines if len(line.text.split()) <= 1]
    chars = sum(len(line.text) for line in one_word)
    vertical = sum(len(line.text) for line in one_word if line.vertical) / chars if chars else 0.0
    return chars / total_chars if total_chars else 0.0, vertical


def unusable_text_layer(pages: list[PageLayout]) -> bool:
    """Most of the text layer's characters are in one-word lines: its words are not joined into lines, so the
    printed page has to be read instead (extractors/ocr.py)."""
    return _one_word_share(pages, sum(_chars(page) for page in pages))[0] > _MAX_ONE_WORD_SHARE


def check_lines(pages: list[PageLayout], name: str, total_chars: int, unread: list[str] = (),
                read_by_ocr: bool = False) -> None:
    """Refuse a text whose words are not joined into lines, saying so, instead of parsing it into an empty
    document: a text layer OCR could not replace (`unread` says why), or pages whose OCR found no lines either."""
    share, vertical = _one_word_share(pages, total_chars)
    if share <= _MAX_ONE_WORD_SHARE:
        return
    if read_by_ocr:
        raise NoTextLayerError(f"{name} has no usable text: OCR of its pages gives {share:.0%} of the text in "
                               "one-word lines, so no lines, paragraphs or headings can be read",
                               hint="check that the file is a paper: its pages print words that do not form lines")
    why = " and most of it runs vertically (rotated pages)" if vertical > 0.5 else ""
    raise NoTextLayerError(f"{name} has no usable text layer: {share:.0%} of its text is in one-word lines{why}, "
                           "so no lines, paragraphs or headings can be read from it",
                           hint="; ".join(unread) or "run OCR over the pages, e.g. `ocrmypdf --force-ocr in.pdf "
                                                     "out.pdf`, then parse the result")

"""OCR readings kept on disk: the same picture gets the same reading without Tesseract, another picture never meets
it, a damaged file is read again, the folder stays within its size, and a folder that cannot be written costs only
time."""

from __future__ import annotations

import os

import pymupdf
import pytest

from bench.ocr import rasterized
from extractors import ocr_cache
from extractors.limits import ParseLimits
from extractors.ocr_cache import cached_reading
from extractors.pipeline import parse_pdf
from tests.pdf_factory import one_column_paper, write


def _picture(colour: int) -> pymupdf.Pixmap:
    picture = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 40, 20), False)
    picture.clear_with(colour)
    return picture


def _pdf(tag: str) -> bytes:
    return b"%PDF-1.7 " + tag.encode() + b"\n%%EOF\n"


class _Reader:
    def __init__(self, tag: str):
        self.tag, self.calls = tag, 0

    def __call__(self) -> bytes:
        self.calls += 1
        return _pdf(self.tag)


def test_the_same_picture_is_read_once_and_another_is_read_anew(tmp_path):
    first, again, other = _Reader("a"), _Reader("b"), _Reader("c")
    assert cached_reading(tmp_path, _picture(255), "eng", first) == _pdf("a")
    assert cached_reading(tmp_path, _picture(255), "eng", again) == _pdf("a") and again.calls == 0
    assert cached_reading(tmp_path, _picture(0), "eng", other) == _pdf("c") and other.calls == 1
    assert cached_reading(tmp_path, _picture(255), "deu", _Reader("d")) == _pdf("d")  # another engine reads anew
    assert not list(tmp_path.glob("*.part"))


def test_without_a_folder_every_call_reads():
    reader = _Reader("a")
    cached_reading(None, _picture(255), "eng", reader)
    cached_reading(None, _picture(255), "eng", reader)
    assert reader.calls == 2


def test_a_damaged_reading_is_read_again(tmp_path):
    cached_reading(tmp_path, _picture(255), "eng", _Reader("a"))
    [kept] = tmp_path.glob("*.pdf")
    kept.write_bytes(_pdf("a")[:12])  # cut short, as by a full disk
    reader = _Reader("b")
    assert cached_reading(tmp_path, _picture(255), "eng", reader) == _pdf("b") and reader.calls == 1
    assert kept.read_bytes() == _pdf("b")


def test_the_folder_keeps_the_readings_used_last_within_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr(ocr_cache, "MAX_BYTES", 2 * len(_pdf("x")))
    for n, colour in enumerate((0, 100, 200)):
        cached_reading(tmp_path, _picture(colour), "eng", _Reader(str(n)))
        for path in tmp_path.glob("*.pdf"):  # distinct times whatever the file system's resolution
            os.utime(path, (path.stat().st_mtime - 10, path.stat().st_mtime - 10))
    assert sorted(p.read_bytes() for p in tmp_path.glob("*.pdf")) == [_pdf("1"), _pdf("2")]


def test_a_folder_that_cannot_be_written_costs_only_time(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert cached_reading(blocked / "ocr", _picture(255), "eng", _Reader("a")) == _pdf("a")


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    data, _ = one_column_paper()
    return write(tmp_path_factory.mktemp("cache"), "scan.pdf", rasterized(data, 200, pages={1}))


def test_a_scanned_page_parsed_again_reads_the_same_without_tesseract(scan, tmp_path, monkeypatch):
    limits = ParseLimits(ocr_cache=tmp_path / "ocr")
    first = parse_pdf(scan, limits)
    assert first.profile.ocr_pages == [1] and len(list((tmp_path / "ocr").glob("*.pdf"))) == 1

    def no_engine(*args, **kwargs):
        raise AssertionError("Tesseract ran for a page it had read")

    monkeypatch.setattr(pymupdf.Pixmap, "pdfocr_tobytes", no_engine)
    again = parse_pdf(scan, limits)
    assert again.text == first.text and [s.title for s in again.sections] == [s.title for s in first.sections]

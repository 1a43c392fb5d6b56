"""The parser imports PyMuPDF without its ONNX layout model and pymupdf4llm (extractors/mupdf.py), in a fresh
interpreter as every parser process starts; both stay importable for `kg bench structure`'s baseline."""

from __future__ import annotations

import subprocess
import sys

import pytest

from extractors.mupdf import pymupdf, read_content
from tests.pdf_factory import one_column_paper, stored_rotated


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=120).stdout.strip()


def test_parsing_a_pdf_does_not_load_the_layout_model(tmp_path):
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(one_column_paper()[0])
    out = _run("import sys\nfrom extractors.pipeline import parse_pdf\n"
               f"doc = parse_pdf({str(pdf)!r})\n"
               "print(len(doc.chunks) > 0, 'pymupdf.layout' in sys.modules, 'pymupdf4llm' in sys.modules)")
    assert out == "True False False"


def test_pymupdf4llm_still_uses_the_layout_model_after_the_parser():
    out = _run("import extractors.pipeline\nimport pymupdf4llm\nimport pymupdf\n"
               "print(pymupdf4llm._use_layout, callable(pymupdf._get_layout))")
    assert out == "True True"


_PARSE = ("import json, sys\nfrom extractors.pipeline import parse_pdf\ndoc = parse_pdf(sys.argv[1])\n"
          "print(json.dumps([[c.text, str(c.boxes)] for c in doc.chunks]))")


def test_the_parse_is_the_same_as_with_pymupdf4llm_imported_first():
    """pymupdf4llm switches MuPDF's quad corrections off for the whole process when it is imported, which moves
    characters' boxes in some papers; the parser, which no longer imports it, sets the same switch itself."""
    from tests.conftest import SHARED

    pdf = str(SHARED / "corpus" / "cermine_example1.pdf")  # one whose text boxes the switch changes
    alone = subprocess.run([sys.executable, "-c", _PARSE, pdf], capture_output=True, text=True, check=True,
                           timeout=300).stdout
    after = subprocess.run([sys.executable, "-c", "import pymupdf4llm\n" + _PARSE, pdf], capture_output=True,
                           text=True, check=True, timeout=300).stdout
    assert alone == after and len(alone) > 1000


_GRAPHICS = ("fill-path", "stroke-path", "fill-image", "fill-imgmask")


def _drawn_page() -> bytes:
    """A page with text, stroked and filled paths, an image and an image mask."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Text the graphics log leaves out.", fontsize=11)
    page.draw_rect(pymupdf.Rect(72, 100, 200, 180), color=(0, 0, 0))
    page.draw_rect(pymupdf.Rect(220, 100, 300, 140), color=None, fill=(0.5, 0.5, 0.5))
    page.draw_line((72, 200), (400, 200))
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 4), False)
    page.insert_image(pymupdf.Rect(72, 220, 160, 264), pixmap=pix)
    mask = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 8, 4), False)
    page.insert_image(pymupdf.Rect(200, 220, 260, 250), pixmap=pymupdf.Pixmap(pix, mask))
    return doc.tobytes()


@pytest.mark.parametrize("rotation", [0, 90, 270])
def test_read_content_is_pymupdfs_text_page_and_bbox_log_without_text(rotation):
    """The parser's one reading of a page's content (extractors/mupdf.py) gives exactly the text of
    Page.get_textpage and the path and image boxes of Page.get_bboxlog, in its order and in the unturned page's
    coordinates, and leaves the page's rotation as it was."""
    data = stored_rotated(_drawn_page(), rotation) if rotation else _drawn_page()
    page = pymupdf.open(stream=data, filetype="pdf")[0]
    expected = [(kind, tuple(box)) for kind, box in page.get_bboxlog() if kind in _GRAPHICS]
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    textpage, got = read_content(page, flags)
    assert {kind for kind, _ in expected} >= {"fill-path", "stroke-path", "fill-image"}
    assert got == expected
    text = page.get_text("dict", textpage=textpage)
    assert "graphics log" in page.get_text() and text == page.get_text("dict", flags=flags)
    assert page.rotation == rotation

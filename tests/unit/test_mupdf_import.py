"""The parser imports PyMuPDF without its ONNX layout model and pymupdf4llm (extractors/mupdf.py), in a fresh
interpreter as every parser process starts; both stay importable for `kg bench structure`'s baseline."""

from __future__ import annotations

import subprocess
import sys

from tests.pdf_factory import one_column_paper


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

"""PyMuPDF, imported without its layout model and its Markdown helpers.

`import pymupdf` also imports pymupdf.layout, which loads an ONNX layout model through onnxruntime, and
pymupdf4llm, for its own to_markdown helpers, when they are installed (pymupdf 2 depends on both): most of the
import's time, in every process that parses (each sandboxed worker, `kg ingest`, the API). Nothing here calls
Page.get_layout, the one PyMuPDF function that uses the model, nor those helpers, so both are hidden while
PyMuPDF is first imported, and the global switches pymupdf4llm sets on import are set here instead. They stay
importable afterwards: pymupdf4llm (the baseline of `kg bench structure`) imports itself and the layout model when
asked.
"""

from __future__ import annotations

import sys

_HIDDEN = ("pymupdf.layout", "pymupdf4llm")


def _without_extras():
    hidden = [] if "pymupdf" in sys.modules else [name for name in _HIDDEN if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # importing it raises ImportError
    try:
        import pymupdf
    finally:
        for name in hidden:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]
    # What importing pymupdf4llm switched on for the whole process, and the parser's output was made (and scored)
    # with: characters' boxes as the font gives them, without MuPDF's corrections of their quads; MuPDF's own
    # error and warning messages not printed.
    pymupdf.TOOLS.unset_quad_corrections(True)
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    return pymupdf


pymupdf = _without_extras()

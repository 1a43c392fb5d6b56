"""PyMuPDF, imported without its layout model.

`import pymupdf` also imports pymupdf.layout when that package is installed (pymupdf 2 depends on it), which
loads an ONNX layout model through onnxruntime: most of the import's time, in every process that parses (each
sandboxed worker, `kg ingest`, the API). Nothing here calls Page.get_layout, the one PyMuPDF function that uses
it, so the model is hidden while PyMuPDF is first imported. pymupdf.layout stays importable afterwards:
pymupdf4llm (the baseline of `kg bench structure`) imports and activates it itself.
"""

from __future__ import annotations

import sys

_LAYOUT = "pymupdf.layout"


def _without_layout():
    hidden = _LAYOUT not in sys.modules and "pymupdf" not in sys.modules
    if hidden:
        sys.modules[_LAYOUT] = None  # type: ignore[assignment]  # `import pymupdf.layout` raises ImportError
    try:
        import pymupdf
    finally:
        if hidden and sys.modules.get(_LAYOUT, ...) is None:
            del sys.modules[_LAYOUT]
    return pymupdf


pymupdf = _without_layout()

"""PyMuPDF, imported without its layout model and its Markdown helpers.

`import pymupdf` also imports pymupdf.layout, which loads an ONNX layout model through onnxruntime, and
pymupdf4llm, for its own to_markdown helpers, when they are installed (pymupdf 2 depends on both): most of the
import's time, in every process that parses (each sandboxed worker, `kg ingest`, the API). The parser needs the
model only on the few pages its rules are unsure of (extractors/escalation.py, through layout_boxes below, which
loads it on first use) and never those helpers, so both are hidden while PyMuPDF is first imported, and the global
switches pymupdf4llm sets on import are set here instead. They stay importable afterwards: pymupdf4llm (the
baseline of `kg bench structure`) imports itself and the layout model when asked.
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


class LayoutModelError(Exception):
    """The layout model could not be loaded or run: onnxruntime out of memory (under the parse's limit), or
    failing otherwise."""


def _load_layout_model() -> None:
    """Import pymupdf.layout, which builds its ONNX sessions on import and sets the function Page.get_layout
    calls, with each session on one thread: onnxruntime's default is a thread per core, which on a machine whose
    cores are busy with other parses spends more CPU time on threads waiting for each other than it saves, and a
    parse is meant to use one core. Sessions made later (none are) would take onnxruntime's defaults again.
    The sessions log only fatal errors: a failure reaches the parse as a LayoutModelError, which says it in the
    parse's warnings, as MuPDF's own messages are kept quiet above."""
    if "pymupdf.layout" in sys.modules:
        return
    import onnxruntime

    made = onnxruntime.InferenceSession

    def one_thread(path, sess_options=None, *args, **kwargs):
        options = sess_options or onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.log_severity_level = 4
        return made(path, options, *args, **kwargs)

    onnxruntime.InferenceSession = one_thread
    try:
        import pymupdf.layout  # noqa: F401
    finally:
        onnxruntime.InferenceSession = made


def layout_boxes(page: pymupdf.Page) -> list[tuple[tuple[float, float, float, float], str]]:
    """The regions PyMuPDF's layout model finds on a page, each with its class ("section-header", "formula",
    "caption", "picture", "table", "text", ...), in the page's unturned coordinates (the model reads a page stored
    turned, /Rotate, as one block of text). The model is loaded on the first call only: it costs a process most
    of a second to load and a page a few tenths of a second to run, so the parser asks for it on the few pages its
    rules are unsure of. Raises LayoutModelError when the model cannot be loaded or run."""
    from onnxruntime.capi.onnxruntime_pybind11_state import Fail, RuntimeException

    try:
        _load_layout_model()
        page.get_layout()
    except (MemoryError, RuntimeException, Fail) as exc:
        raise LayoutModelError(str(exc) or type(exc).__name__) from None
    return [((x0, y0, x1, y1), kind) for x0, y0, x1, y1, kind in page.layout_information or ()]

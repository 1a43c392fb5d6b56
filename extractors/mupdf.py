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

from extractors.model import BBox

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


class _GraphicsDevice(pymupdf.mupdf.FzDevice2):
    """A MuPDF device that records the box of each path and image drawn, and nothing else. PyMuPDF's
    Page.get_bboxlog gives the same boxes but also calls back into Python for every run of text, which on a page
    of text is most of the calls and a tenth of a parse's time; text the parser reads from the text page."""

    def __init__(self) -> None:
        super().__init__()
        self.boxes: list[tuple[str, BBox]] = []
        self.use_virtual_fill_path()
        self.use_virtual_stroke_path()
        self.use_virtual_fill_image()
        self.use_virtual_fill_image_mask()

    def _add(self, kind: str, rect) -> None:
        self.boxes.append((kind, (rect.x0, rect.y0, rect.x1, rect.y1)))

    def fill_path(self, ctx, path, even_odd, ctm, *args) -> None:
        self._add("fill-path", pymupdf.mupdf.ll_fz_bound_path(path, None, ctm))

    def stroke_path(self, ctx, path, stroke, ctm, *args) -> None:
        self._add("stroke-path", pymupdf.mupdf.ll_fz_bound_path(path, stroke, ctm))

    def fill_image(self, ctx, image, ctm, *args) -> None:
        self._add("fill-image", pymupdf.mupdf.ll_fz_transform_rect(pymupdf.mupdf.fz_unit_rect, ctm))

    def fill_image_mask(self, ctx, image, ctm, *args) -> None:
        self._add("fill-imgmask", pymupdf.mupdf.ll_fz_transform_rect(pymupdf.mupdf.fz_unit_rect, ctm))


def read_content(page: pymupdf.Page, flags: int,
                 text: bool = True) -> tuple[pymupdf.TextPage | None, list[tuple[str, BBox]]]:
    """The page's text page (with `text`; None without: a page read by OCR has its text from elsewhere), with the
    words and places Page.get_textpage(flags) gives, and the box of each path ('fill-path', 'stroke-path') and image
    ('fill-image', 'fill-imgmask') it draws, in drawing order, as Page.get_bboxlog gives them without its text
    entries; both in the page's unturned coordinates. The page's content is interpreted once, into a display list
    that both readings replay: interpreting it is most of their cost, and running the page once for each made them
    a fifth slower. (The replay leaves out the space glyph some producers print at a line's end.)"""
    mupdf = pymupdf.mupdf
    turned = page.rotation
    if turned:  # MuPDF runs a page as shown; the parser's coordinates are those of the unturned page
        page.set_rotation(0)
    try:
        shown = page.get_displaylist()
    finally:
        if turned:
            page.set_rotation(turned)
    textpage = None
    if text:
        textpage = pymupdf.TextPage(shown.get_textpage(flags=flags))
        textpage.parent = page
    device = _GraphicsDevice()
    mupdf.fz_run_display_list(shown.this, device, mupdf.FzMatrix(), mupdf.FzRect(mupdf.FzRect.Fixed_INFINITE),
                              mupdf.FzCookie())
    mupdf.fz_close_device(device)
    return textpage, device.boxes

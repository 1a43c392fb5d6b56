"""What the extractors raise about a PDF they cannot turn into a document, or a box they cannot read."""

from __future__ import annotations

from ontology.errors import PaperKGError


class ExtractionError(PaperKGError):
    """A PDF that cannot be turned into a document; the hint says what to do with the file."""

    code = "EXTRACTION"


class NotAPDFError(ExtractionError):
    code = "NOT_A_PDF"


class EncryptedPDFError(ExtractionError):
    code = "ENCRYPTED_PDF"


class CorruptPDFError(ExtractionError):
    code = "CORRUPT_PDF"


class EmptyPDFError(ExtractionError):
    code = "EMPTY_PDF"


class NoTextLayerError(ExtractionError):
    code = "NO_TEXT_LAYER"


class ParseLimitError(ExtractionError):
    """A PDF over one of the parser's caps (bytes, pages, page size, characters per line, time, memory): the
    message names the cap and the hint the setting that raises it."""

    code = "PARSE_LIMIT"


class ActiveContentError(ExtractionError):
    """A PDF that carries JavaScript: paperkg never runs it, and refuses such files from untrusted hands."""

    code = "PDF_JAVASCRIPT"


class InvalidBBoxError(PaperKGError):
    """A stored box that is not "page:x0,y0,x1,y1" (a graph imported or edited by hand can hold any text)."""

    code = "INVALID_BBOX"

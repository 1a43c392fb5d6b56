"""A corpus of hostile and broken PDFs, generated (nothing is checked in), each with the error code the parser
must give it. The malformed-input tests and `kg bench robustness` take it from here."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymupdf

# the file names an upload may carry that are no file name (API only: no file system has them)
BAD_UPLOAD_NAMES = ["..", ".", "a\x00b.pdf", "bell\x07.pdf"]


_SENTENCES = ["We propose a method for recovering the structure of scientific papers.",
              "It is evaluated on a corpus of articles with known structure.",
              "Results show that careful rules recover headings, paragraphs and captions."]


def _prose(page: int) -> str:
    return " ".join(_SENTENCES[(page + i) % len(_SENTENCES)] for i in range(2))


def _open(*args) -> pymupdf.Document:
    """pymupdf.open(*args), MuPDF imported on first use: `kg` imports this module for every command (through
    `kg bench robustness`), and only the commands that make these files need MuPDF."""
    import pymupdf

    return pymupdf.open(*args)


def _paper() -> bytes:
    """A small valid paper, the base of the files broken after the fact (truncated, encrypted, scripted)."""
    doc = _open()
    for n in range(3):
        page = doc.new_page()
        page.insert_text((72, 72), "Rules Recover the Structure of Papers" if n == 0 else f"{n} Section", fontsize=14)
        page.insert_textbox((72, 100, 540, 720), " ".join(_prose(n + k) for k in range(12)), fontsize=10)
    return _save(doc)


def _save(doc: pymupdf.Document, **options) -> bytes:
    data = doc.tobytes(**options)
    doc.close()
    return data


def truncated() -> bytes:
    data = _paper()
    return data[: len(data) // 3]


def encrypted() -> bytes:
    import pymupdf

    doc = _open("pdf", _paper())
    return _save(doc, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret-user", owner_pw="secret-owner")


def _raw_pdf(objects: list[str], root: int = 1, prev_loop: bool = False) -> bytes:
    """A PDF written object by object, with a correct xref table (or one whose /Prev points at itself)."""
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    prev = f" /Prev {xref}" if prev_loop else ""
    out += f"trailer\n<< /Size {len(objects) + 1} /Root {root} 0 R{prev} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def zero_pages() -> bytes:
    return _raw_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"])


def xref_loop() -> bytes:
    """The trailer's /Prev names its own xref table, and the page tree names itself as its own kid."""
    return _raw_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"],
                    prev_loop=True)


def _text_pages(count: int, width: float = 612, height: float = 792) -> bytes:
    doc = _open()
    for n in range(count):
        page = doc.new_page(width=width, height=height)
        page.insert_text((72, height / 2), _prose(n), fontsize=11)
    return _save(doc)


def two_thousand_pages() -> bytes:
    return _text_pages(2000)


def huge_page() -> bytes:
    """14,400 pt, the largest page the PDF format allows."""
    return _text_pages(1, 14_400, 14_400)


def long_line(chars: int = 200_000) -> bytes:
    """One printed line of `chars` characters, squeezed (horizontal scaling) to fit the page."""
    text = ("word " * (chars // 5 + 1))[:chars]
    return _raw_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                     "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                     "/Resources << /Font << /F1 5 0 R >> >> >>",
                     f"<< /Length {len(text) + 40} >>\nstream\nBT /F1 10 Tf 0.05 Tz 20 700 Td ({text}) Tj ET\nendstream",
                     "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"], root=1)


def javascript() -> bytes:
    doc = _open("pdf", _paper())
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", "<< /S /JavaScript /JS (app.alert\\(1\\)) >>")
    return _save(doc)


def not_a_pdf() -> bytes:
    return b"<html><body>this is a web page saved with a .pdf name</body></html>\n"


# file name -> (bytes builder, the error code the parser gives it)
MALFORMED = {
    "truncated.pdf": (truncated, "CORRUPT_PDF"),
    "encrypted.pdf": (encrypted, "ENCRYPTED_PDF"),
    "zero-pages.pdf": (zero_pages, "EMPTY_PDF"),
    "xref-loop.pdf": (xref_loop, "CORRUPT_PDF"),
    "two-thousand-pages.pdf": (two_thousand_pages, "PARSE_LIMIT"),
    "huge-page.pdf": (huge_page, "PARSE_LIMIT"),
    "long-line.pdf": (long_line, "PARSE_LIMIT"),
    "javascript.pdf": (javascript, "PDF_JAVASCRIPT"),
    "not-a-pdf.pdf": (not_a_pdf, "NOT_A_PDF"),
}


def write_corpus(folder) -> dict:
    """Every malformed PDF into `folder`; returns {path: expected error code}."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (build, code) in MALFORMED.items():
        path = folder / name
        path.write_bytes(build())
        out[path] = code
    return out

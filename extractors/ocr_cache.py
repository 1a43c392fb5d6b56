"""OCR readings kept on disk, so that a paper parsed again (re-ingested after an upgrade, uploaded twice) does not
pay Tesseract's seconds per page again.

A reading is kept under the SHA-256 of what Tesseract was shown (the page's picture: its pixels, size and colour
channels) and of what read it (`engine`: the engine's version and language), so the same picture always gets the
same reading, as OCR itself would give, and another picture never meets it. Files are written whole or not at all
(a temporary file renamed), a file that is not a whole PDF is read again, and the folder is kept under MAX_BYTES by
removing the readings used longest ago, so no input can fill the disk through it. A folder that cannot be written
(read-only, full) only costs the reading's time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from extractors.mupdf import pymupdf

MAX_BYTES = 512 * 2**20  # about 2,500 pages' readings


def cached_reading(folder: Path | None, picture: pymupdf.Pixmap, engine: str, read: Callable[[], bytes]) -> bytes:
    """The PDF `read()` makes of `picture` (its OCR text layer over it), from `folder` when it holds one."""
    if folder is None:
        return read()
    digest = hashlib.sha256(picture.samples_mv)
    digest.update(f"|{picture.w}x{picture.h}x{picture.n}|{engine}".encode())
    path = folder / f"{digest.hexdigest()}.pdf"
    try:
        data = path.read_bytes()
        if data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]:
            os.utime(path)  # used now: trimming removes the readings used longest ago
            return data
    except OSError:
        pass
    data = read()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.stem}.{os.getpid()}.part")
        partial.write_bytes(data)
        os.replace(partial, path)
        _trim(folder)
    except OSError:
        pass
    return data


def _trim(folder: Path) -> None:
    """Remove the readings used longest ago until the folder holds at most MAX_BYTES."""
    sizes = []
    for path in folder.glob("*.pdf"):
        try:
            stat = path.stat()
        except OSError:  # removed by another process meanwhile
            continue
        sizes.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in sizes)
    for _, size, path in sorted(sizes):
        if total <= MAX_BYTES:
            break
        path.unlink(missing_ok=True)
        total -= size

"""The content-addressed store of ingested PDFs: data_dir/pdfs/<sha[:2]>/<sha>.pdf.

The graph keeps only the SHA-256; the bytes stay here so evidence (page, box) can be shown later.
Writes are atomic (temporary file, then rename), so a crash never leaves a half-written PDF.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

_BLOCK = 1 << 20


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in blocks so memory stays flat for any size."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


class PDFStore:
    def __init__(self, data_dir: Path):
        self.root = Path(data_dir) / "pdfs"

    def path(self, sha256: str) -> Path:
        return self.root / sha256[:2] / f"{sha256}.pdf"

    def put(self, source: Path, sha256: str) -> Path:
        """Copy `source` in under its hash; a no-op when it is already there."""
        target = self.path(sha256)
        if target.exists():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out, open(source, "rb") as src:
                shutil.copyfileobj(src, out, _BLOCK)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    def remove(self, sha256: str) -> bool:
        path = self.path(sha256)
        if not path.exists():
            return False
        path.unlink()
        return True

"""The content-addressed store of ingested PDFs: data_dir/pdfs/<sha[:2]>/<sha>.pdf.

The graph keeps only the SHA-256; the bytes stay here so evidence (page, box) can be shown later.
Writes are atomic (temporary file, then rename), so a crash never leaves a half-written PDF.

Files and graph stay consistent: ingestion stores a PDF only after its paper's transaction committed, a
file is removed only when no paper refers to it, and files no paper refers to (left by a crash, or by older
versions that stored before writing) are collected. Each of those runs under one lock on the store, shared by
every process, so a removal that has checked the graph cannot delete a file that a paper committed meanwhile
has just stored: that store waits for the lock and then copies the file again.

The lock is a POSIX record lock (lockf) on data_dir/pdfs/.lock, taken under a lock of the process's own threads.
A lock of flock's kind belongs to the open file, which a forked process shares: a parser worker forked while
the store was locked would keep it locked for its whole life, and the next store would wait for ever. A record
lock belongs to the process that took it: children never hold it, and a process that dies releases it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

_BLOCK = 1 << 20
_CHECK_BATCH = 256  # files checked against the graph per call of `referenced`

# (sha256 of stored files) -> those that a paper in the graph refers to
Referenced = Callable[[list[str]], set[str]]

# Record locks exclude processes, not the threads of one process: those take this lock first.
_threads = threading.Lock()


def _new_thread_lock() -> None:
    """A forked child gets a free lock: the thread of the parent that may have held it does not exist there."""
    global _threads
    _threads = threading.Lock()


os.register_at_fork(after_in_child=_new_thread_lock)


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

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with _threads, open(self.root / ".lock", "a") as handle:
            fcntl.lockf(handle, fcntl.LOCK_EX)  # released when the file is closed, also by a process that dies
            yield

    def put(self, source: Path, sha256: str) -> Path:
        """Copy `source` in under its hash; a no-op when it is already there."""
        target = self.path(sha256)
        with self._locked():
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

    def remove_unreferenced(self, sha256: str, referenced: Referenced) -> bool:
        """Remove the file unless a paper refers to it; whether it was removed."""
        path = self.path(sha256)
        with self._locked():
            if not path.exists() or referenced([sha256]):
                return False
            path.unlink()
        return True

    def collect_orphans(self, referenced: Referenced) -> int:
        """Remove every file no paper refers to, and temporary files of copies that never finished; how many
        PDFs were removed."""
        removed = 0
        with self._locked():  # a .part seen under the lock belongs to no running copy: put holds the lock
            for part in self.root.glob("*/*.part"):
                part.unlink(missing_ok=True)
            files = self.root.glob("*/*.pdf")
            while batch := {path.stem: path for path in islice(files, _CHECK_BATCH)}:
                kept = referenced(list(batch))
                for sha, path in batch.items():
                    if sha not in kept:
                        path.unlink(missing_ok=True)
                        removed += 1
        return removed

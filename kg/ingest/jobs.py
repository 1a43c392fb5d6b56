"""Background ingestion jobs for PDF uploads: one worker thread handing them one at a time to an ingestion
process (IngestProcess), so uploads queue instead of competing with queries for the cores. Jobs live in memory
(a restart forgets them; the graph keeps what was written).

Both the queue and the memory are bounded: an upload finding `max_queued` jobs already waiting is refused
(BusyError, before its file is spooled to disk), and only the last `history` finished jobs are remembered."""

from __future__ import annotations

import shutil
import signal
import tempfile
import threading
import uuid
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Callable

from extractors.model import paper_id
from kg.db import store
from kg.db.graph import Graph
from kg.errors import BusyError, DatabaseUnavailable, Failure, InvalidFileNameError, NotFoundError, ServerError
from kg.ingest.pipeline import Ingestor
from kg.workers.process_pool import RespawningPool, WorkerDied
from kg.workers.sandbox import lower_priority
from kg.settings import Settings

# (path of the uploaded PDF) -> (paper id, why it failed or None): how a job ingests; injected so tests can use it
# too. It may also raise: the job fails with the exception's code.
IngestFn = Callable[[Path], tuple[str | None, Failure | None]]


@dataclass
class Job:
    id: str
    file_name: str
    status: str  # queued | running | succeeded | failed
    created_at: str
    finished_at: str | None = None
    paper_id: str | None = None
    error: str | None = None
    error_code: str | None = None  # of a failed job: the code an API error body gives the same failure


class JobRegistry:
    def __init__(self, ingest: IngestFn, max_queued: int = 16, history: int = 1000):
        self._ingest, self._max_queued, self._history = ingest, max_queued, history
        self._jobs: dict[str, Job] = {}
        self._finished: deque[str] = deque()  # ids of finished jobs, oldest first
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paperkg-ingest")
        self._dir = Path(tempfile.mkdtemp(prefix="paperkg-uploads-"))

    def submit(self, file_name: str, data) -> Job:
        """Queue an upload (a binary file object) for ingestion; the PDF is spooled to disk first."""
        _check_name(file_name)
        job = Job(id=uuid.uuid4().hex, file_name=file_name, status="queued", created_at=_now())
        with self._lock:
            if sum(j.status == "queued" for j in self._jobs.values()) >= self._max_queued:
                raise BusyError(f"{self._max_queued} uploads are already waiting for ingestion",
                                hint="retry when GET /jobs/{id} shows earlier uploads done; PAPERKG_JOBS_MAX_QUEUED "
                                     "sets the bound")
            self._jobs[job.id] = job  # counted from here, so that concurrent uploads cannot all pass the check
        path = self._dir / job.id / file_name  # the name the paper keeps (_check_name made it a plain name)
        try:
            path.parent.mkdir()
            with open(path, "wb") as out:
                shutil.copyfileobj(data, out)
        except BaseException:
            shutil.rmtree(path.parent, ignore_errors=True)
            with self._lock:
                del self._jobs[job.id]
            raise
        self._pool.submit(self._run, job, path)
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise NotFoundError(f"no job with id {job_id!r}", hint="job ids are returned by POST /papers")
        return Job(**asdict(job))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        shutil.rmtree(self._dir, ignore_errors=True)

    def _run(self, job: Job, path: Path) -> None:
        self._set(job, status="running")
        try:
            paper_id, failure = self._ingest(path)
        except Exception as exc:  # a job must end in a state a client can read, whatever went wrong
            paper_id, failure = None, Failure.of(exc)
        finally:
            shutil.rmtree(path.parent, ignore_errors=True)
        self._set(job, status="failed" if failure else "succeeded", paper_id=paper_id, finished_at=_now(),
                  error=failure.reason if failure else None, error_code=failure.code if failure else None)
        self._forget_old(job)

    def _forget_old(self, finished: Job) -> None:
        with self._lock:
            self._finished.append(finished.id)
            while len(self._finished) > self._history:
                del self._jobs[self._finished.popleft()]

    def _set(self, job: Job, **changes) -> None:
        with self._lock:
            for key, value in changes.items():
                setattr(job, key, value)


def _check_name(file_name: str) -> None:
    """The upload's name becomes a file in the spool folder and the paper's file_name: it must be one plain name
    ('..' would be the folder above, a NUL byte no name at all)."""
    if (file_name in ("", ".", "..") or any(c in file_name for c in "/\\") or len(file_name) > 255
            or any(ord(c) < 32 or ord(c) == 127 for c in file_name)):
        raise InvalidFileNameError(f"{file_name!r} is not a plain file name",
                                   hint="upload the PDF under a name without path separators or control characters")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class IngestProcess:
    """The API's IngestFn: kg.ingest.pipeline with one parser process, so that no upload can take the API down (its
    time, memory and size are bounded by the PAPERKG_PARSE_* settings), into the configured database, run in a process
    of its own at the background priority (PAPERKG_PARSE_NICE) rather than in the API's.

    In the API process the writer's Python work (resolving, reconciling, packing a paper's rows) held the
    interpreter lock that every lookup needs, and forking the parser copied the API process. Lowering the job
    thread's priority would not help: a thread the kernel lets wait while it holds the lock makes every request
    wait with it. Spawned on the first upload and kept for the next; if it dies (killed, out of memory), the job
    fails and the next upload starts a new one."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.pool = RespawningPool(1, _start_ingest_process, (settings,))

    def __call__(self, path: Path) -> tuple[str | None, Failure | None]:
        try:
            return self.pool.call(_ingest_upload, path)
        except WorkerDied:
            raise ServerError("the ingestion process died while ingesting the upload",
                              hint="the server log has the reason (out of memory?); the next upload starts a new "
                                   "process") from None

    def close(self) -> None:
        self.pool.close()


_process: dict = {}


def _start_ingest_process(settings: Settings) -> None:
    """The ingestion process lowers its own priority; its parser processes then add nothing more (parse_nice 0),
    so that both run at the configured niceness, not twice as low."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which then shuts this process down
    lower_priority(settings.parse_nice)
    driver = store.connect_api(settings)
    Finalize(driver, driver.close, exitpriority=10)
    _process.update(settings=settings.model_copy(update={"parse_nice": 0}),
                    graph=Graph(driver, settings.neo4j_database))


def _ingest_upload(path: Path) -> tuple[str | None, Failure | None]:
    report = Ingestor(_process["settings"], _process["graph"], workers=1).run([path])
    if report.stopped:  # only the database stops a run
        raise DatabaseUnavailable(report.stopped)
    outcome = report.papers[0]
    failure = Failure(outcome.error_code, outcome.reason) if outcome.status == "failed" else None
    return (paper_id(outcome.sha256) if outcome.sha256 else None), failure

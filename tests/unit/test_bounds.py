"""The server's bounds that need no database: the ingestion job queue and its history, the admission of
questions, the evidence picture's pixels, and the PDF store's consistency rules."""

from __future__ import annotations

import asyncio
import io
import threading
from pathlib import Path

import pymupdf
import pytest

from kg.errors import BusyError, DatabaseUnavailable, NotFoundError
from kg.read.evidence import render
from kg.db.filestore import PDFStore
from kg.ingest.jobs import JobRegistry
from kg.qa.admission import Admission


# ------------------------------------------------------------------ ingestion jobs

class Gate:
    """An IngestFn that holds each job until the test lets it go."""

    def __init__(self):
        self.started, self.go = threading.Semaphore(0), threading.Event()

    def __call__(self, path: Path):
        self.started.release()
        assert self.go.wait(30)
        return "paper_x", None


def test_an_upload_beyond_the_queue_is_refused_before_it_is_spooled():
    gate = Gate()
    jobs = JobRegistry(gate, max_queued=2)
    try:
        running = jobs.submit("a.pdf", io.BytesIO(b"%PDF-a"))
        assert gate.started.acquire(timeout=30)  # the first job is running: it no longer waits
        waiting = [jobs.submit(f"{n}.pdf", io.BytesIO(b"%PDF-b")) for n in "bc"]
        with pytest.raises(BusyError):
            jobs.submit("d.pdf", io.BytesIO(b"%PDF-d"))
        assert sorted(p.name for p in jobs._dir.iterdir()) == sorted([running.id] + [j.id for j in waiting])
        gate.go.set()
        for job in [running, *waiting]:
            _wait_done(jobs, job.id)
        assert jobs.submit("e.pdf", io.BytesIO(b"%PDF-e")).status == "queued"  # room again
    finally:
        gate.go.set()
        jobs.close()


def _wait_done(jobs: JobRegistry, job_id: str) -> None:
    for _ in range(3000):
        if jobs.get(job_id).finished_at is not None:
            return
        threading.Event().wait(0.01)
    raise AssertionError(f"job {job_id} did not finish")


def test_only_the_last_finished_jobs_are_remembered():
    jobs = JobRegistry(lambda path: ("paper_x", None), max_queued=50, history=3)
    try:
        ids = []
        for n in range(6):
            ids.append(jobs.submit(f"{n}.pdf", io.BytesIO(b"%PDF-")).id)
            _wait_done(jobs, ids[-1])
        for old in ids[:3]:
            with pytest.raises(NotFoundError):
                jobs.get(old)
        assert [jobs.get(i).status for i in ids[3:]] == ["succeeded"] * 3
    finally:
        jobs.close()


def _raises(error: Exception):
    def ingest(path: Path):
        raise error
    return ingest


@pytest.mark.parametrize("error, code", [(DatabaseUnavailable("cannot reach Neo4j"), "DATABASE_UNAVAILABLE"),
                                         (RuntimeError("a bug"), "INTERNAL")])
def test_a_job_whose_ingestion_raises_fails_with_the_code_the_api_gives_that_error(error, code):
    """A job ends in a state a client can read whatever its ingestion raised: a PaperKGError keeps its code (an
    error body of the API would carry the same), anything else is INTERNAL, as the API's 500 body."""
    jobs = JobRegistry(_raises(error))
    try:
        job = jobs.submit("a.pdf", io.BytesIO(b"%PDF-a"))
        _wait_done(jobs, job.id)
        done = jobs.get(job.id)
        assert (done.status, done.error_code, done.paper_id) == ("failed", code, None)
        assert str(error) in done.error
    finally:
        jobs.close()


# ------------------------------------------------------------------ questions

def test_questions_beyond_concurrency_and_queue_get_busy():
    async def scenario():
        admission = Admission(concurrency=2, queue=1, timeout_s=30)
        release, running, peak = asyncio.Event(), [0], [0]

        async def work():
            running[0] += 1
            peak[0] = max(peak[0], running[0])
            await release.wait()
            running[0] -= 1
            return "answer"

        admitted = [asyncio.create_task(admission.run(work)) for _ in range(3)]  # two answered, one waiting
        for _ in range(1000):
            if running[0] == 2 and admission._waiting == 1:
                break
            await asyncio.sleep(0.01)
        with pytest.raises(BusyError):
            await admission.run(work)
        release.set()
        assert await asyncio.gather(*admitted) == ["answer"] * 3
        assert peak[0] == 2
        assert await admission.run(work) == "answer"  # the queue is empty again

    asyncio.run(scenario())


def test_a_question_past_its_time_is_refused_but_keeps_its_slot_until_its_work_ends():
    async def scenario():
        admission = Admission(concurrency=1, queue=0, timeout_s=0.2)
        release = asyncio.Event()

        async def stuck():
            await release.wait()
            return "late"

        with pytest.raises(BusyError, match="not answered within"):
            await admission.run(stuck)
        with pytest.raises(BusyError):  # its work still runs: no second question starts beside it
            await admission.run(stuck)
        release.set()
        await asyncio.sleep(0.05)

        async def quick():
            return "ok"

        assert await admission.run(quick) == "ok"

    asyncio.run(scenario())


# ------------------------------------------------------------------ evidence pictures

@pytest.mark.parametrize("side", [14_400.0, 3_000.0])
def test_evidence_picture_is_bounded_in_pixels_whatever_the_page_size(tmp_path, side):
    pdf = pymupdf.open()
    pdf.new_page(width=side, height=side).insert_text((72, 120), "a page as large as PDF allows")
    pdf.save(tmp_path / "big.pdf")
    png = render(tmp_path / "big.pdf", [f"1:0,0,{side:g},{side:g}"], max_pixels=1_000_000)
    image = pymupdf.Pixmap(png)
    assert image.width * image.height <= 1_000_000 and image.width >= 900  # smaller, but still shown


def test_evidence_picture_of_a_page_the_pdf_does_not_have_is_not_found(tmp_path):
    pdf = pymupdf.open()
    pdf.new_page()
    pdf.save(tmp_path / "one.pdf")
    with pytest.raises(NotFoundError):
        render(tmp_path / "one.pdf", ["7:0,0,100,100"], max_pixels=1_000_000)


# ------------------------------------------------------------------ the PDF store

def _stored(store: PDFStore, tmp_path: Path, sha: str) -> Path:
    source = tmp_path / f"{sha}.src"
    source.write_bytes(b"%PDF-" + sha.encode())
    return store.put(source, sha)


def test_orphan_collection_keeps_exactly_the_files_papers_refer_to(tmp_path):
    store = PDFStore(tmp_path / "data")
    shas = [c * 64 for c in "abcdef"]
    for sha in shas:
        _stored(store, tmp_path, sha)
    stale = store.path(shas[0]).parent / "x.part"
    stale.write_bytes(b"half a copy")  # from a copy whose process died
    asked: list[list[str]] = []

    def referenced(batch: list[str]) -> set[str]:
        asked.append(batch)
        return set(batch) & {shas[1], shas[4]}

    assert store.collect_orphans(referenced) == 4
    assert sorted(p.stem for p in store.root.glob("*/*.pdf")) == [shas[1], shas[4]]
    assert not stale.exists() and sorted(s for batch in asked for s in batch) == shas


def test_a_file_is_removed_only_when_no_paper_refers_to_it(tmp_path):
    store = PDFStore(tmp_path / "data")
    kept, gone = _stored(store, tmp_path, "a" * 64), _stored(store, tmp_path, "b" * 64)
    assert not store.remove_unreferenced("a" * 64, lambda shas: set(shas))
    assert store.remove_unreferenced("b" * 64, lambda shas: set())
    assert kept.exists() and not gone.exists()
    assert not store.remove_unreferenced("c" * 64, lambda shas: set())  # nothing there

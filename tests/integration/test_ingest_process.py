"""The API's uploads are ingested in a process of their own (kg.ingest.jobs.IngestProcess), not in the API process, at
the background priority PAPERKG_PARSE_NICE sets, its parser processes at that same priority; and a dead ingestion
process costs one job, not every upload after it."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from kg.errors import ServerError
from kg.db.filestore import file_sha256
from kg.ingest.jobs import IngestProcess
from extractors.model import paper_id
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, value  # noqa: F401

NICE = 4


def _niceness(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return found


@pytest.fixture
def ingestion(ingest_settings):
    process = IngestProcess(ingest_settings.model_copy(update={"parse_nice": NICE}))
    yield process
    process.close()


def test_an_upload_is_ingested_in_a_background_process_and_its_parser_at_its_priority(ingestion, driver):
    own = _niceness(0)
    assert own + NICE <= 19, "the test process already runs at too low a priority"
    result, parsers = {}, {}
    worker = threading.Thread(target=lambda: result.update(outcome=ingestion(SAMPLE_A)))
    worker.start()
    while worker.is_alive():  # the parser processes exist only while a paper is parsed: watch for them
        for pid in ingestion.pool.pids():
            for child in _children(pid):
                try:
                    parsers[child] = _niceness(child)
                except OSError:
                    pass
        time.sleep(0.02)
    worker.join()
    expected = paper_id(file_sha256(SAMPLE_A))
    assert result["outcome"] == (expected, None)  # no failure
    assert value(driver, "MATCH (p:Paper {id: $id}) RETURN count(p)", id=expected) == 1
    [pid] = ingestion.pool.pids()
    assert pid != os.getpid() and _niceness(pid) == own + NICE
    assert _niceness(0) == own  # the API's own priority is left as it was
    assert parsers and set(parsers.values()) == {own + NICE}, parsers


def test_a_dead_ingestion_process_fails_one_upload_and_the_next_starts_a_new_one(ingestion):
    assert ingestion(SAMPLE_A) == (paper_id(file_sha256(SAMPLE_A)), None)
    [pid] = ingestion.pool.pids()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(ServerError, match="ingestion process died"):
        for _ in range(100):  # until the pool has seen its process die
            ingestion(SAMPLE_A)
            time.sleep(0.05)
    assert ingestion(SAMPLE_B) == (paper_id(file_sha256(SAMPLE_B)), None)
    assert ingestion.pool.pids() != [pid]

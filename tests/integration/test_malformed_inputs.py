"""Malformed and hostile PDFs through `kg ingest` and the upload API: each gets its clear error, the API keeps
answering, and nothing of them is left in the graph or on disk."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from bench.malformed_pdfs import BAD_UPLOAD_NAMES, write_corpus
from kg.workers.sandbox import WORKER_DIED
from kg.settings import Settings
from tests.integration.test_ingest_process import _children
from tests.ingest_support import SAMPLE_A, ingest_settings, kg_ingest_json, value  # noqa: F401
from tests.pdf_factory import one_column_paper

pytestmark = pytest.mark.integration


def _stored_pdfs(settings: Settings) -> list:
    """Every file in the PDF store but its lock (kg/db/filestore.py), unfinished copies included."""
    root = settings.data_dir / "pdfs"
    return sorted(p for p in root.rglob("*") if p != root / ".lock") if root.exists() else []


def test_kg_ingest_reports_each_malformed_pdf_and_keeps_the_good_one(ingest_settings, driver, tmp_path,
                                                                     monkeypatch):
    folder = tmp_path / "papers"
    corpus = write_corpus(folder)
    (folder / SAMPLE_A.name).write_bytes(SAMPLE_A.read_bytes())
    result = kg_ingest_json(ingest_settings, monkeypatch, folder)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    outcomes = {p["path"]: p for p in report["papers"]}
    assert outcomes[str(folder / SAMPLE_A.name)]["status"] == "ingested"
    for path, code in corpus.items():
        outcome = outcomes[str(path)]
        assert outcome["status"] == "failed" and outcome["reason"].startswith(path.name), outcome
        assert outcome["error_code"] == code, outcome
    assert value(driver, "MATCH (p:Paper) RETURN collect(p.file_name)") == [SAMPLE_A.name]
    assert value(driver, "MATCH (r:IngestRun {status: 'failed'}) RETURN count(r)") == len(corpus)
    assert [p.name for p in _stored_pdfs(ingest_settings) if p.is_file()] == [
        f"{outcomes[str(folder / SAMPLE_A.name)]['sha256']}.pdf"]


def _with_admin(settings: Settings) -> tuple[Settings, dict]:
    """Settings with an admin key and its header: uploads may need a key (issue 23, item 1)."""
    from kg.auth.apikeys import entry, new_key

    key = new_key()
    return settings.model_copy(update={"api_keys": entry("test-admin", "admin", key)}), {"X-API-Key": key}


def _job_end(client: TestClient, job_id: str) -> dict:
    deadline = time.time() + 240
    while (state := client.get(f"/jobs/{job_id}").json())["status"] in ("queued", "running"):
        assert time.time() < deadline, state
        time.sleep(0.2)
    return state


def test_uploads_of_malformed_pdfs_fail_alone_and_the_api_keeps_answering(ingest_settings, driver, tmp_path):
    settings, headers = _with_admin(ingest_settings.model_copy(update={"qa_vectors": False}))
    corpus = write_corpus(tmp_path / "malformed")
    with TestClient(create_app(settings), base_url="http://localhost") as client:  # the Host a loopback API answers
        spool = client.app.state.jobs._dir
        for path, code in corpus.items():
            response = client.post("/papers", files={"file": (path.name, path.read_bytes(), "application/pdf")},
                                   headers=headers)
            if code == "NOT_A_PDF":  # known at once: refused before a job exists
                assert response.status_code == 422 and response.json()["error"]["code"] == code
                continue
            assert response.status_code == 202, response.text
            state = _job_end(client, response.json()["id"])
            assert state["status"] == "failed" and state["error"].startswith(path.name), state
            assert state["error_code"] == code, state  # what programs branch on, as in the API's error bodies
            assert client.get("/health").status_code == 200
        for name in BAD_UPLOAD_NAMES:
            # by hand: httpx would percent-encode a NUL byte in the name, and a browser or script need not
            raw = (b'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="' + name.encode()
                   + b'"\r\nContent-Type: application/pdf\r\n\r\n' + SAMPLE_A.read_bytes() + b"\r\n--b0undary--\r\n")
            response = client.post("/papers", content=raw, headers={
                **headers, "Content-Type": "multipart/form-data; boundary=b0undary"})
            assert response.status_code == 422, (name, response.text)
            assert response.json()["error"]["code"] == "INVALID_FILE_NAME"
        assert client.get("/health").json()["status"] == "ok"
        assert list(spool.iterdir()) == []
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 0
    assert value(driver, "MATCH (r:IngestRun {status: 'failed'}) RETURN count(r)") == len(corpus) - 1
    assert [p for p in _stored_pdfs(settings) if p.is_file()] == []


def _upload(client: TestClient, headers: dict, name: str, data: bytes) -> dict:
    """The final state of the job of one upload."""
    response = client.post("/papers", files={"file": (name, data, "application/pdf")}, headers=headers)
    assert response.status_code == 202, response.text
    return _job_end(client, response.json()["id"])


def test_an_upload_over_the_parse_time_fails_with_the_code_of_the_bound(ingest_settings, driver):
    """The sandbox's clock (kg/workers/sandbox.py) stops the parse: no paper is parsed, mapped and validated within a
    hundredth of a second."""
    settings, headers = _with_admin(ingest_settings.model_copy(update={"qa_vectors": False, "parse_timeout_s": 0.01}))
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        state = _upload(client, headers, "paper.pdf", one_column_paper()[0])
        assert client.get("/health").json()["status"] == "ok"
    assert (state["status"], state["error_code"]) == ("failed", "PARSE_LIMIT"), state
    assert "PAPERKG_PARSE_TIMEOUT_S" in state["error"]  # the setting that bound is
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 0


def _parser_processes(pid: int) -> list[int]:
    """The children of the ingestion process `pid` that parse: all but multiprocessing's resource tracker."""
    found = []
    for child in _children(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as handle:
                if b"resource_tracker" not in handle.read():
                    found.append(child)
        except OSError:  # gone meanwhile
            continue
    return found


def test_an_upload_whose_parser_process_dies_fails_with_the_crash_code(ingest_settings, driver, corpus_dir):
    """The parser processes of the API's ingestion process are killed from outside with SIGKILL, as a segfault in
    a native library or the OOM killer would end them, each time (the sandbox retries once)."""
    settings, headers = _with_admin(ingest_settings.model_copy(update={"qa_vectors": False}))
    done = threading.Event()

    def kill_parsers(ingestion) -> None:
        while not done.is_set():
            for pid in ingestion.pool.pids():  # the ingestion process; its children parse
                for child in _parser_processes(pid):
                    try:
                        os.kill(child, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            time.sleep(0.01)

    with TestClient(create_app(settings), base_url="http://localhost") as client:
        killer = threading.Thread(target=kill_parsers, args=(client.app.state.jobs._ingest,))
        killer.start()
        try:
            state = _upload(client, headers, "paper.pdf", (corpus_dir / "sp_smola10.pdf").read_bytes())
        finally:
            done.set()
            killer.join()
        assert client.get("/health").json()["status"] == "ok"
    assert (state["status"], state["error_code"], state["error"]) == ("failed", "PARSER_CRASHED", WORKER_DIED), state
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 0
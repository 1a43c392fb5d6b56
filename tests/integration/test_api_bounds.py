"""The API's bounds against the real app and a real Neo4j (issue 23, item 5): request bodies (413 before the body
is read), the upload queue (429), questions (429), exports (422) and evidence pictures (pixels), each refusal
with the error body."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from dataclasses import replace
from urllib.parse import urlsplit

import pymupdf
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.db.filestore import PDFStore
from kg.db.graph import Graph
from kg.settings import Settings
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.curation_support import API_KEYS, as_role
from tests.live_api import served
from tests.pdf_factory import one_column_paper
from tests.sample_graph import SHA_A, sample_graph

BOUNDS = {"upload_max_bytes": 300_000, "request_max_bytes": 4096, "jobs_max_queued": 1, "ask_concurrency": 1,
          "ask_queue": 0, "export_max_elements": 50, "evidence_max_pixels": 1_000_000, "qa_vectors": False}
BIG_PAGE = 3000.0  # points: at the usual 2x zoom a full-page box would be 36 million pixels


@pytest.fixture
def bounded(schema_db, neo4j_settings, tmp_path) -> Settings:
    """The sample graph, with chunk_a1's box covering a page of BIG_PAGE points stored under paper_a's hash, and
    an app whose bounds are small enough to reach."""
    nodes, edges = sample_graph()
    nodes = [replace(n, props={**n.props, "bboxes": [f"1:0,0,{BIG_PAGE:g},{BIG_PAGE:g}"]}) if n.id == "chunk_a1" else n
             for n in nodes]
    assert write_graph(Graph(schema_db), nodes, edges, get_schema()).ok
    pdf = pymupdf.open()
    pdf.new_page(width=BIG_PAGE, height=BIG_PAGE).insert_text((72, 120), "a very large page")
    pdf.save(tmp_path / "a.pdf")
    PDFStore(tmp_path / "data").put(tmp_path / "a.pdf", SHA_A)
    return neo4j_settings.model_copy(update={"data_dir": tmp_path / "data", "api_keys": API_KEYS, **BOUNDS})


def response_of(sock: socket.socket) -> tuple[int, dict, dict]:
    """(status, headers, JSON body) of the one response on a raw connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection without a response: {data!r}"
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(rest) < int(headers["content-length"]):
        rest += sock.recv(65536)
    return int(lines[0].split()[1]), headers, json.loads(rest)


def error_of(status: int, body: dict, expected_status: int, code: str) -> None:
    assert status == expected_status, body
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code


# ------------------------------------------------------------------ request bodies

def test_an_upload_declared_too_large_is_refused_before_its_body_is_sent(bounded):
    with served(bounded) as url, socket.create_connection(("127.0.0.1", urlsplit(url).port), timeout=20) as sock:
        sock.sendall(b"POST /papers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                     b"Content-Length: 10000000000\r\n\r\n")  # 10 GB announced, not one byte of it sent
        status, headers, body = response_of(sock)
    error_of(status, body, 413, "PAYLOAD_TOO_LARGE")
    assert "300,000" in body["error"]["message"] and "PAPERKG_UPLOAD_MAX_BYTES" in body["error"]["details"]["hint"]


def test_a_chunked_upload_is_cut_off_at_the_bound(bounded):
    chunk = b"x" * 65536
    with served(bounded) as url, socket.create_connection(("127.0.0.1", urlsplit(url).port), timeout=20) as sock:
        sock.sendall(b"POST /papers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        part = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n'
                b"Content-Type: application/pdf\r\n\r\n%PDF-1.7\n")
        sock.sendall(b"%x\r\n%s\r\n" % (len(part), part))  # a well-formed start: only its size is wrong
        try:
            for _ in range(64):  # 4 MB at most; the bound is 300 kB
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading: what the bound is for
        status, _, body = response_of(sock)
    error_of(status, body, 413, "PAYLOAD_TOO_LARGE")


def test_a_json_body_over_its_bound_gets_413(bounded):
    with TestClient(create_app(bounded), base_url="http://localhost") as client:
        response = client.post("/cypher", json={"query": "RETURN $x", "parameters": {"x": "y" * 10_000}})
        error_of(response.status_code, response.json(), 413, "PAYLOAD_TOO_LARGE")
        assert client.post("/cypher", json={"query": "RETURN 1 AS one"}).json()["rows"] == [{"one": 1}]


# ------------------------------------------------------------------ the upload queue

def test_uploads_beyond_the_queue_get_429_and_the_accepted_ones_finish(bounded):
    data, _ = one_column_paper()
    with TestClient(create_app(bounded), base_url="http://localhost") as client:
        answers = [client.post("/papers", files={"file": (f"p{n}.pdf", data, "application/pdf")},
                               headers=as_role("curator")) for n in range(4)]
        refused = [a for a in answers if a.status_code == 429]
        accepted = [a.json()["id"] for a in answers if a.status_code == 202]
        assert refused and len(accepted) <= 2 and len(accepted) + len(refused) == 4  # one running, one waiting
        error_of(429, refused[0].json(), 429, "BUSY")
        assert int(refused[0].headers["retry-after"]) > 0
        deadline = time.monotonic() + 240
        for job_id in accepted:
            while (state := client.get(f"/jobs/{job_id}").json())["status"] in ("queued", "running"):
                assert time.monotonic() < deadline, state
                time.sleep(0.2)
            assert state["status"] == "succeeded", state


# ------------------------------------------------------------------ questions

class HeldFirst:
    """The app's question answerer, but its first question waits until the test lets it go."""

    def __init__(self, qa):
        self.qa, self.entered, self.go, self.calls = qa, threading.Event(), threading.Event(), 0

    async def ask(self, question, paper_id, top_k):
        self.calls += 1
        if self.calls == 1:
            self.entered.set()
            await asyncio.to_thread(self.go.wait, 60)
        return await self.qa.ask(question, paper_id, top_k)

    def close(self):
        self.qa.close()


def test_a_question_beyond_concurrency_and_queue_gets_429(bounded):
    question = {"question": "Which datasets does paper_a use?"}
    with TestClient(create_app(bounded), base_url="http://localhost") as client:
        held = client.app.state.qa = HeldFirst(client.app.state.qa)
        first: dict = {}
        thread = threading.Thread(target=lambda: first.update(response=client.post("/ask", json=question)))
        thread.start()
        try:
            assert held.entered.wait(60)
            second = client.post("/ask", json=question)
            error_of(second.status_code, second.json(), 429, "BUSY")
            assert "retry-after" in second.headers
        finally:
            held.go.set()
            thread.join(60)
        assert first["response"].status_code == 200
        assert client.post("/ask", json=question).status_code == 200  # its slot is free again


# ------------------------------------------------------------------ exports and evidence

def test_an_export_over_its_bound_gets_422_and_a_smaller_one_works(bounded):
    with TestClient(create_app(bounded), base_url="http://localhost") as client:
        for fmt in ("json", "csv-papers", "html"):
            response = client.get(f"/export/{fmt}")
            error_of(response.status_code, response.json(), 422, "LIMIT_EXCEEDED")
            assert "PAPERKG_EXPORT_MAX_ELEMENTS" in response.json()["error"]["details"]["hint"]
        small = client.get("/export/json", params={"paper_id": "paper_b"})
        assert small.status_code == 200 and {n["id"] for n in small.json()["nodes"]} >= {"paper_b", "chunk_b1"}


def test_evidence_picture_of_a_huge_page_stays_within_its_pixels(bounded):
    with TestClient(create_app(bounded), base_url="http://localhost") as client:
        response = client.get("/evidence/chunk_a1.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    image = pymupdf.Pixmap(response.content)
    assert image.width * image.height <= 1_000_000 and image.width == image.height

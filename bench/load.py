"""Concurrent clients against a running API (`kg serve`): /ask and node lookups, p50/p95/p99 and errors per
endpoint; alone ("idle") and while uploads and a re-ingest write to the graph ("writes"). Used by
scripts/qa_load.py, the load test and `kg bench robustness` (`load_phase`).

The clients speak plain HTTP/1.1 over keep-alive connections (asyncio streams), not through an HTTP library:
the load runs on the cores it measures, and httpx took about six times this client's CPU per request.

Bounded and local by construction: each client sends a fixed number of requests, every phase stops after
`max_seconds`, and only a loopback address is accepted, so this cannot be pointed at someone else's server.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from bench.api_server import LiveAPI, settings_env
from kg.settings import Settings

Request = tuple[str, str, dict | None]  # (endpoint kind, path, JSON body for a POST)
KINDS = ("ask", "node", "locate", "coverage", "review", "queue", "verify")
PLANNED = ("ask", "node")  # the kinds `plans` sends: the load idle and under writes


def loopback_address(url: str) -> tuple[str, int]:
    """(host, port) of `url`; ValueError unless its host is a loopback address."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"{url}: load is only sent to this machine (127.0.0.1, ::1, localhost)")
    return host, parts.port or 80


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary(ms: list[float], errors: list[str]) -> dict:
    if not ms:
        return {"n": 0, "errors": len(errors)}
    return {"n": len(ms), "errors": len(errors),
            **{f"p{q}_ms": round(percentile(ms, q / 100), 1) for q in (50, 95, 99)}, "max_ms": round(max(ms), 1)}


class Connection:
    """One keep-alive HTTP/1.1 connection; responses are read by their Content-Length (the API always sends it)."""

    def __init__(self, host: str, port: int, headers: dict[str, str] | None = None):
        self.host, self.port = host, port
        self.headers = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, body: dict | None = None, timeout: float = 30) -> tuple[int, bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        return await self.send_bytes(method, path, data, "application/json" if body is not None else None, timeout)

    async def send_bytes(self, method: str, path: str, data: bytes, content_type: str | None,
                         timeout: float = 30) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
                + (f"Content-Type: {content_type}\r\n" if content_type else "") + self.headers + "\r\n")
        self.writer.write(head.encode() + data)
        return await asyncio.wait_for(self._response(), timeout)

    async def _response(self) -> tuple[int, bytes]:
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def _send(connection: Connection, request: Request) -> str | None:
    """The request sent; an error text when it failed (status other than 200, or no response at all)."""
    _, path, body = request
    try:
        status, _ = await connection.send("POST" if body else "GET", path, body)
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
        connection.close()  # a broken connection is opened again by the next request
        return f"{path} {type(exc).__name__}"
    return None if status == 200 else f"{path} {status}"


def plans(questions: list[dict], node_ids: list[str], clients: int, per_client: int, kinds: str = "mixed"
          ) -> list[list[Request]]:
    """Each client sends /ask (a question body) and GET /nodes/{id}: alternately (`kinds` "mixed"), or only one
    of them ("ask", "node")."""
    out = []
    for c in range(clients):
        plan = []
        for i in range(per_client):
            n = c * per_client + i
            ask = kinds == "ask" or (kinds == "mixed" and i % 2 == 0)
            plan.append(("ask", "/ask", questions[n % len(questions)]) if ask
                        else ("node", f"/nodes/{node_ids[n % len(node_ids)]}", None))
        out.append(plan)
    return out


async def phases(host: str, port: int, headers: dict[str, str], requests: dict[str, list[Request]],
                 clients: int = 8, per_client: int = 20, max_seconds: float = 120) -> dict:
    """One phase per kind of `requests`: `clients` connections send that kind's requests at once, each `per_client`
    of them (different ones while there are enough) or until `max_seconds`, after one untimed request per client
    (plans cached; changes are not repeated to warm up, each one is measured). A kind's slowness then does not
    fall on the others' figures."""
    out = {}
    for kind, of_kind in requests.items():
        connections = [Connection(host, port, headers) for _ in range(clients)]
        try:
            if kind != "verify":
                await asyncio.gather(*(_send(c, of_kind[-1 - i % len(of_kind)]) for i, c in enumerate(connections)))
                for c in connections:  # the server closes a connection idle for 5 s: each opens afresh
                    c.close()
            work = [[of_kind[(c * per_client + i) % len(of_kind)] for i in range(per_client)] for c in range(clients)]
            report = await measure(connections, work, max_seconds)
        finally:
            for c in connections:
                c.close()
        out[kind] = {**report[kind], "wall_s": report["wall_s"], "error_samples": report["error_samples"],
                     "load_average": report["load_average"]}
    return out


async def warm_up(connections: list[Connection], questions: list[dict], node_ids: list[str]) -> None:
    """One /ask and one lookup per client, untimed: connections open, question processes ready, queries planned.
    The server closes a connection left idle for 5 s (uvicorn's keep-alive), as one whose question was answered
    first may be while the others wait for theirs on a busy machine: each is opened afresh for its lookup."""
    await asyncio.gather(*(c.send("POST", "/ask", questions[i % len(questions)], timeout=300)
                           for i, c in enumerate(connections)))
    for c in connections:
        c.close()
    await asyncio.gather(*(c.send("GET", f"/nodes/{node_ids[i % len(node_ids)]}") for i, c in enumerate(connections)))


async def measure(connections: list[Connection], work: list[list[Request]], max_seconds: float,
                  until: asyncio.Future | None = None) -> dict:
    """Every client's plan at once (again and again until `until` is done, if given); a summary per endpoint
    kind, with a few error texts."""
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    errors: dict[str, list[str]] = {k: [] for k in KINDS}
    deadline = time.perf_counter() + max_seconds

    async def client(connection: Connection, plan: list[Request]) -> None:
        sent = 0
        while time.perf_counter() < deadline and (sent < len(plan) or (until is not None and not until.done())):
            request = plan[sent % len(plan)]
            start = time.perf_counter()
            error = await _send(connection, request)
            times[request[0]].append((time.perf_counter() - start) * 1000)
            if error:
                errors[request[0]].append(error)
            sent += 1

    began = time.perf_counter()
    await asyncio.gather(*(client(c, plan) for c, plan in zip(connections, work)))
    report = {k: summary(times[k], errors[k]) for k in KINDS if times[k] or errors[k]}
    report.update(wall_s=round(time.perf_counter() - began, 1),
                  error_samples=sorted({e for k in KINDS for e in errors[k]})[:5],
                  load_average=[round(x, 2) for x in os.getloadavg()])
    return report


async def idle_load(host: str, port: int, questions: list[dict], node_ids: list[str], clients: int = 8,
                    per_client: int = 40, max_seconds: float = 300, kinds: str = "mixed") -> dict:
    """The load alone: `clients` connections warmed up, then every client's plan at once (`measure`)."""
    connections = [Connection(host, port) for _ in range(clients)]
    try:
        await warm_up(connections, questions, node_ids)
        return await measure(connections, plans(questions, node_ids, clients, per_client, kinds), max_seconds)
    finally:
        for c in connections:
            c.close()


def multipart(file_name: str, data: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with one `file` field, and its content type."""
    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{file_name}"\r\n'
            f"Content-Type: application/pdf\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


async def upload_and_wait(connection: Connection, file_name: str, data: bytes, max_seconds: float) -> dict:
    """POST /papers, then GET /jobs/{id} until the job ended; the job's last state (or the refusal)."""
    body, content_type = multipart(file_name, data)
    status, answer = await connection.send_bytes("POST", "/papers", body, content_type, timeout=max_seconds)
    if status != 202:
        return {"file_name": file_name, "status": "refused", "error": f"{status} {answer[:200]!r}"}
    job = json.loads(answer)
    deadline = time.perf_counter() + max_seconds
    while job["status"] in ("queued", "running") and time.perf_counter() < deadline:
        await asyncio.sleep(0.5)
        job = json.loads((await connection.send("GET", f"/jobs/{job['id']}", timeout=max_seconds))[1])
    return job


@dataclass
class Writes:
    """What runs beside the clients in the "writes" phase: PDFs uploaded one after the other through the API,
    and a command (e.g. `kg ingest --force FILE`) re-ingesting papers in a process of its own."""

    uploads: Sequence[tuple[str, bytes]]
    reingest: Sequence[str]
    env: dict[str, str] | None = None  # the re-ingest's environment (default: this process's)
    headers: dict[str, str] | None = None  # the uploads' (a key that may upload)


async def under_writes(host: str, port: int, questions: list[dict], node_ids: list[str], writes: Writes,
                       clients: int = 8, per_client: int = 40, max_seconds: float = 300) -> dict:
    """The same load measured idle, then while `writes` run; each phase's summary, the uploads' jobs and the
    re-ingest's exit status. In the write phase the clients go on until the writes are done."""
    connections = [Connection(host, port) for _ in range(clients)]
    try:
        await warm_up(connections, questions, node_ids)
        work = plans(questions, node_ids, clients, per_client)
        idle = await measure(connections, work, max_seconds)
        reingest = await asyncio.create_subprocess_exec(*writes.reingest, stdout=asyncio.subprocess.DEVNULL,
                                                        stderr=asyncio.subprocess.PIPE, env=writes.env)
        uploader = Connection(host, port, writes.headers)

        async def uploads() -> list[dict]:
            try:
                return [await upload_and_wait(uploader, name, data, max_seconds) for name, data in writes.uploads]
            finally:
                uploader.close()

        uploading = asyncio.ensure_future(uploads())
        reingesting = asyncio.ensure_future(reingest.communicate())
        busy = await measure(connections, work, max_seconds, until=asyncio.gather(uploading, reingesting))
        jobs = await uploading
        _, stderr = await asyncio.wait_for(reingesting, max_seconds)
    finally:
        for c in connections:
            c.close()
    return {"idle": idle, "writes": busy, "jobs": jobs, "reingest_exit": reingest.returncode,
            "reingest_stderr": stderr.decode(errors="replace")[-2000:]}


QUESTIONS = ("Which datasets does the paper use?", "Which methods does the paper propose?",
             "What are the main results?")


def load_phase(api: LiveAPI, settings: Settings, uploads: Sequence[Path], reingest: Path, clients: int,
               per_client: int, max_seconds: float) -> dict:
    """`kg bench robustness`'s load: questions about each paper in the graph and lookups of the papers' nodes, idle
    and while `uploads` go through the API (curator key) and `kg ingest --force` re-ingests `reingest`; the p95
    under writes over the idle p95 of each endpoint, and every error (failed requests, failed writes)."""
    host, port = loopback_address(api.url)
    papers = httpx.get(f"{api.url}/papers", params={"limit": 200}, timeout=60).json()["items"]
    if not papers:
        raise ValueError("the load needs papers in the graph")
    node_ids = [p["id"] for p in papers]
    questions = [{"question": q, "paper_id": pid} for pid in node_ids for q in QUESTIONS]
    writes = Writes([(p.name, p.read_bytes()) for p in uploads],
                    [sys.executable, "-m", "cli", "ingest", "--force", "--workers", "1", "--no-embed", str(reingest)],
                    env=settings_env(settings), headers=api.headers("curator"))
    report = asyncio.run(under_writes(host, port, questions, node_ids, writes, clients, per_client, max_seconds))
    idle, busy = report["idle"], report["writes"]
    failed_writes = [job for job in report["jobs"] if job.get("status") != "succeeded"]
    report["p95_ratio"] = {kind: round(busy[kind]["p95_ms"] / idle[kind]["p95_ms"], 2)
                           if idle.get(kind, {}).get("p95_ms") and busy.get(kind, {}).get("p95_ms") else None
                           for kind in PLANNED}
    report["errors"] = (sum(phase.get(kind, {}).get("errors", 0) for phase in (idle, busy) for kind in PLANNED)
                        + len(failed_writes) + (report["reingest_exit"] != 0))
    report.update(clients=clients, per_client=per_client, papers_in_graph=len(papers))
    return report

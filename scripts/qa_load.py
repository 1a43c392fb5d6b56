"""Latency of the running API (`kg serve`) under concurrent clients (8 by default): /ask and node lookups,
p50/p95/p99 and error counts per endpoint, with the machine's load average at start and end (a busy machine
makes the figures say little about the code).

The clients speak plain HTTP/1.1 over keep-alive connections (asyncio streams), not through an HTTP library:
the load runs on the cores it measures, and httpx took about 1.6 ms of CPU per request there (0.5 s for a
320-request run), this client about 0.25 ms. Its CPU time is in the report (client_cpu_s).

Bounded: each client sends a fixed number of requests, and the whole run stops after --max-seconds.
Questions come from the gold files' qa items (scoped to their paper when it is in the graph) and node ids
from GET /papers, so the load looks like real use. Before timing, every client sends one /ask and one node
lookup, so each question process has loaded its query embedder and both queries are planned. Usage (docs/benchmarks.md, QA latency):
    python scripts/qa_load.py --url http://127.0.0.1:8000 --gold ../shared/gold --corpus ../shared/corpus
By default each client alternates the two (`--kinds mixed`); `--kinds ask` or `--kinds node` times one alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

from kg.filestore import file_sha256
from kg.mapping import paper_id
from kg.qa.bench import gold_items

Request = tuple[str, str, dict | None]  # (endpoint kind, path, JSON body for a POST)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary(ms: list[float], errors: int) -> dict:
    if not ms:
        return {"n": 0, "errors": errors}
    return {"n": len(ms), "errors": errors, **{f"p{q}_ms": round(percentile(ms, q / 100), 1) for q in (50, 95, 99)},
            "max_ms": round(max(ms), 1)}


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


class Connection:
    """One keep-alive HTTP/1.1 connection; responses are read by their Content-Length (the API always sends it)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, body: dict | None = None, timeout: float = 30) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
                + ("Content-Type: application/json\r\n" if body is not None else "") + "\r\n")
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


async def send(connection: Connection, request: Request) -> str | None:
    """The request sent; an error text when it failed (status other than 200, or no response at all)."""
    _, path, body = request
    try:
        status, _ = await connection.send("POST" if body else "GET", path, body)
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
        connection.close()  # a broken connection is opened again by the next request
        return f"{path} {type(exc).__name__}"
    return None if status == 200 else f"{path} {status}"


async def client_loop(connection: Connection, requests: list[Request], times: dict, errors: dict, deadline: float):
    for request in requests:
        if time.perf_counter() > deadline:
            return
        start = time.perf_counter()
        error = await send(connection, request)
        times[request[0]].append((time.perf_counter() - start) * 1000)
        if error:
            errors[request[0]].append(error)


def plans(questions: list[dict], node_ids: list[str], clients: int, per_client: int, kinds: str
          ) -> list[list[Request]]:
    """Each client sends /ask (a gold question with its paper) and GET /nodes/{paper id}: alternately
    (`kinds` "mixed"), or only one of them ("ask", "node")."""
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


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--gold", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--per-client", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=300)
    parser.add_argument("--kinds", choices=["mixed", "ask", "node"], default="mixed",
                        help="mixed: every client alternates /ask and a node lookup (the default, the harder case: "
                             "lookups wait behind /ask work); ask or node: that endpoint alone")
    args = parser.parse_args()

    url = urlsplit(args.url)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    first = Connection(host, port)
    status, data = await first.send("GET", "/papers?limit=200")
    first.close()
    if status != 200:
        raise SystemExit(f"GET /papers at {args.url} answered {status}")
    papers = json.loads(data)["items"]
    in_graph = {p["id"] for p in papers}
    questions = [{"question": item["question"], "paper_id": pid}
                 for file, item in gold_items(args.gold)
                 if (pid := paper_id(file_sha256(args.corpus / file))) in in_graph]
    node_ids = [p["id"] for p in papers]
    if not questions:
        raise SystemExit(f"no paper of a gold question is in the graph behind {args.url} "
                         "(check --gold and --corpus, and that the corpus is ingested)")
    work = plans(questions, node_ids, args.clients, args.per_client, args.kinds)
    connections = [Connection(host, port) for _ in range(args.clients)]
    # Before timing, each client sends one /ask and one node lookup: every connection is open, every question
    # process has answered once, and the server has planned both kinds of query.
    await asyncio.gather(*(c.send("POST", "/ask", questions[i % len(questions)], timeout=300)
                           for i, c in enumerate(connections)))
    await asyncio.gather(*(c.send("GET", f"/nodes/{node_ids[i % len(node_ids)]}") for i, c in enumerate(connections)))
    times: dict[str, list[float]] = {"ask": [], "node": []}
    errors: dict[str, list[str]] = {"ask": [], "node": []}
    load_start = load_average()
    deadline = time.perf_counter() + args.max_seconds
    began, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(client_loop(c, plan, times, errors, deadline) for c, plan in zip(connections, work)))
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    for c in connections:
        c.close()
    report = {kind: summary(times[kind], len(errors[kind])) for kind in times if times[kind] or errors[kind]}
    report.update(kinds=args.kinds, papers_in_graph=len(in_graph), questions=len(questions), clients=args.clients,
                  wall_s=round(wall, 1), client_cpu_s=round(cpu, 2), load_average_start=load_start,
                  load_average_end=load_average(), cpus=os.cpu_count(),
                  error_samples=sorted({e for kind in errors for e in errors[kind]})[:5])
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    asyncio.run(main())

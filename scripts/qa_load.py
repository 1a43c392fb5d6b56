"""Latency of the running API (`kg serve`) under concurrent clients (8 by default): /ask and node lookups,
p50/p95/p99 and error counts per endpoint, with the machine's load average at start and end (a busy machine
makes the figures say little about the code).

Bounded: each client sends a fixed number of requests, and the whole run stops after --max-seconds.
Questions come from the gold files' qa items (scoped to their paper when it is in the graph) and node ids
from GET /papers, so the load looks like real use. Before timing, every client sends one /ask,
so each server worker has loaded its query embedder. Usage (docs/benchmarks.md, QA latency):
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

import httpx

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


async def send(http: httpx.AsyncClient, request: Request) -> str | None:
    """The request sent; an error text when it failed (status other than 200, or no response at all)."""
    _, path, body = request
    try:
        response = await (http.post(path, json=body) if body else http.get(path))
    except httpx.HTTPError as exc:
        return f"{path} {type(exc).__name__}"
    return None if response.status_code == 200 else f"{path} {response.status_code}"


async def client_loop(http: httpx.AsyncClient, requests: list[Request], times: dict, errors: dict, deadline: float):
    for request in requests:
        if time.perf_counter() > deadline:
            return
        start = time.perf_counter()
        error = await send(http, request)
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

    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    async with httpx.AsyncClient(base_url=args.url, timeout=30, limits=limits) as http:
        papers = (await http.get("/papers", params={"limit": 200})).json()["items"]
        in_graph = {p["id"] for p in papers}
        questions = [{"question": item["question"], "paper_id": pid}
                     for file, item in gold_items(args.gold)
                     if (pid := paper_id(file_sha256(args.corpus / file))) in in_graph]
        node_ids = [p["id"] for p in papers]
        if not questions:
            raise SystemExit(f"no paper of a gold question is in the graph behind {args.url} "
                             "(check --gold and --corpus, and that the corpus is ingested)")
        work = plans(questions, node_ids, args.clients, args.per_client, args.kinds)
        warm = httpx.Timeout(300)
        await asyncio.gather(*(http.post("/ask", json=questions[c % len(questions)], timeout=warm)
                               for c in range(args.clients)))  # loads each worker's embedder before timing
        times: dict[str, list[float]] = {"ask": [], "node": []}
        errors: dict[str, list[str]] = {"ask": [], "node": []}
        load_start = load_average()
        deadline = time.perf_counter() + args.max_seconds
        began = time.perf_counter()
        await asyncio.gather(*(client_loop(http, plan, times, errors, deadline) for plan in work))
        wall = time.perf_counter() - began
    report = {kind: summary(times[kind], len(errors[kind])) for kind in times if times[kind] or errors[kind]}
    report.update(kinds=args.kinds, papers_in_graph=len(in_graph), questions=len(questions), clients=args.clients,
                  wall_s=round(wall, 1), load_average_start=load_start, load_average_end=load_average(),
                  cpus=os.cpu_count(), error_samples=sorted({e for kind in errors for e in errors[kind]})[:5])
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    asyncio.run(main())

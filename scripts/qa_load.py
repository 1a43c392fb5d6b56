"""Latency of the running API (`kg serve`) under 8 concurrent clients: /ask and node lookups, p50/p95.

Bounded: each client sends a fixed number of requests, and the whole run stops after --max-seconds.
Questions come from the gold files' qa items (scoped to their paper when it is in the graph) and node ids
from GET /papers, so the load looks like real use. Usage:
    python scripts/qa_load.py --url http://127.0.0.1:8000 --gold ../shared/gold --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

import httpx

from kg.filestore import file_sha256
from kg.mapping import paper_id
from kg.qa.bench import gold_items


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


async def client_loop(http: httpx.AsyncClient, requests: list[tuple[str, str, dict | None]], out: dict, deadline: float):
    for kind, path, body in requests:
        if time.perf_counter() > deadline:
            return
        start = time.perf_counter()
        response = await (http.post(path, json=body) if body else http.get(path))
        out.setdefault(kind, []).append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            out.setdefault("errors", []).append(f"{path} {response.status_code}")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--gold", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--per-client", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=300)
    args = parser.parse_args()

    async with httpx.AsyncClient(base_url=args.url, timeout=30) as http:
        papers = (await http.get("/papers", params={"limit": 200})).json()["items"]
        in_graph = {p["id"] for p in papers}
        questions = [{"question": item["question"], "paper_id": pid}
                     for file, item in gold_items(args.gold)
                     if (pid := paper_id(file_sha256(args.corpus / file))) in in_graph]
        node_ids = [p["id"] for p in papers]
        await http.post("/ask", json=questions[0], timeout=300)  # load the query embedder before timing
        plans = []
        for c in range(args.clients):
            plan = []
            for i in range(args.per_client):
                n = c * args.per_client + i
                plan.append(("ask", "/ask", questions[n % len(questions)]) if i % 2 == 0
                            else ("node", f"/nodes/{node_ids[n % len(node_ids)]}", None))
            plans.append(plan)
        results: dict[str, list] = {}
        deadline = time.perf_counter() + args.max_seconds
        began = time.perf_counter()
        await asyncio.gather(*(client_loop(http, plan, results, deadline) for plan in plans))
        wall = time.perf_counter() - began
    report = {kind: {"n": len(ms), "p50_ms": round(statistics.median(ms), 1), "p95_ms": round(percentile(ms, 0.95), 1)}
              for kind, ms in results.items() if kind != "errors"}
    report["errors"] = len(results.get("errors", []))
    report["papers_in_graph"] = len(in_graph)
    report["clients"] = args.clients
    report["wall_s"] = round(wall, 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    asyncio.run(main())

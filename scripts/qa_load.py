"""Latency of the running API (`kg serve`) under concurrent clients (8 by default): /ask and node lookups,
p50/p95/p99 and error counts per endpoint, with the machine's load average (a busy machine makes the figures say
little about the code). The clients are bench/load.py's: plain HTTP/1.1, and their CPU time is in the report.

Bounded: each client sends a fixed number of requests, the whole run stops after --max-seconds, and only a
loopback URL is accepted. Questions come from the gold files' qa items (scoped to their paper when it is in the
graph) and node ids from GET /papers, so the load looks like real use. Usage (docs/benchmarks.md):
    python scripts/qa_load.py --url http://127.0.0.1:8000 --gold ../shared/gold --corpus ../shared/corpus
By default each client alternates the two (`--kinds mixed`); `--kinds ask` or `--kinds node` times one alone.
With `--out DIR` the report is also written as DIR/latency-<UTC time>.json with the commit and machine.
With `--upload PDF` (repeatable) and `--reingest PDF`, the load is measured idle and then again while those PDFs
are uploaded through the API (with the curator key in PAPERKG_API_KEY) and `kg ingest --force` re-ingests the
other one (same PAPERKG_* settings as the server), and the report has both.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

from bench.load import Connection, Writes, idle_load, loopback_address, under_writes
from bench.qa import gold_items
from bench.stamp import commit, dated, header, write_json
from extractors.model import paper_id
from kg.db.filestore import file_sha256


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
    parser.add_argument("--upload", type=Path, action="append", default=[], help="a PDF uploaded during the load")
    parser.add_argument("--reingest", type=Path, help="a PDF `kg ingest --force` re-ingests during the load")
    parser.add_argument("--out", type=Path, help="also write the report as OUT/latency-<UTC time>.json")
    args = parser.parse_args()

    try:
        host, port = loopback_address(args.url)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
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
    load_start, cpu = [round(x, 2) for x in os.getloadavg()], time.process_time()
    if args.upload or args.reingest:
        if not args.reingest:
            raise SystemExit("--upload needs --reingest too: the write phase runs both")
        key = os.environ.get("PAPERKG_API_KEY")  # uploads need a curator key (an environment variable: not in ps)
        writes = Writes([(p.name, p.read_bytes()) for p in args.upload],
                        [sys.executable, "-m", "cli", "ingest", "--force", "--workers", "1", str(args.reingest)],
                        headers={"X-API-Key": key} if key else None)
        report = await under_writes(host, port, questions, node_ids, writes, args.clients, args.per_client,
                                    args.max_seconds)
    else:
        report = await idle_load(host, port, questions, node_ids, args.clients, args.per_client, args.max_seconds,
                                 args.kinds)
    report.update(kinds=args.kinds, papers_in_graph=len(in_graph), questions=len(questions), clients=args.clients,
                  client_cpu_s=round(time.process_time() - cpu, 2), load_average_start=load_start, cpus=os.cpu_count())
    if args.out:
        report = {**header(), "commit": commit(), "url": args.url, **report}
        print(f"report: {write_json(dated(args.out, 'latency'), report)}", file=sys.stderr)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    asyncio.run(main())

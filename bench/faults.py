"""Fault injection: Neo4j killed (SIGKILL) in the middle of a paper's write transaction, once an earlier paper of the
run committed; then started again. What the run reported committed is compared with what the graph holds
after recovery, every other paper is checked for leftovers, and a plain `kg ingest` of the same files must finish
the rest."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.api_server import settings_env
from bench.neo4j import kill_neo4j
from kg.db import store
from kg.db.graph import Graph
from kg.db.filestore import file_sha256
from kg.ingest.papers import WriteObserver
from kg.ingest.pipeline import Ingestor
from kg.ingest.runs import Run
from kg.ingest.writer import WriterOptions
from kg.db.localserver import LocalNeo4j
from kg.settings import Settings

_PAPERS = "MATCH (p:Paper) RETURN p.sha256 AS sha"
_ANY_IN_GRAPH = "MATCH (p:Paper) WHERE p.sha256 IN $shas RETURN count(p) > 0 AS any"
# what a paper that did not commit may have left: anything of its own but the failed-run record of the ledger
_LEFT_OF = "MATCH (n) WHERE n.paper_sha256 = $sha AND NOT n:IngestRun RETURN count(n) AS n"


def neo4j_killed_mid_ingest(server: LocalNeo4j, settings: Settings, files: list[Path],
                            timeout_s: float = 1800) -> dict:
    """The report of the phase. `settings` reach `server`, whose graph holds none of `files` yet; at least two files
    are needed."""
    shas = {path.name: file_sha256(path) for path in files}
    killed: list[int] = []

    with store.open_graph(settings, max_transaction_retry_time=2.0) as graph, store.open_graph(settings) as watcher:
        class KillOnceAPaperCommitted(WriteObserver):
            # Papers are written two at a time (kg.ingest.tuned_writer.TunedWriter), and the second one writes all but
            # its own new nodes only once the first committed. So the first write statement seen after a paper of the
            # run is in the graph belongs to a transaction still open: killed there, it cannot have committed.
            def sent(self, run: Run, statement: int) -> None:
                if not killed and watcher.write(_ANY_IN_GRAPH, shas=list(shas.values()))[0]["any"]:
                    killed.append(kill_neo4j(server))

        with _quiet("neo4j"):  # the driver's warnings of a lost server are what the phase provokes
            run = Ingestor(settings, graph, workers=1, embed=False,
                           writer=WriterOptions(observer=KillOnceAPaperCommitted())).run(files)
    reported = {Path(p.path).name: p.status for p in run.papers}
    server.start()  # recovery from the transaction log
    with store.open_graph(settings) as graph:
        in_graph = {r["sha"] for r in graph.write(_PAPERS)}
        partial = _partial(graph, shas, in_graph)
    rerun = subprocess.run([sys.executable, "-m", "cli", "ingest", "--json", "--workers", "1", "--no-embed",
                            *map(str, files)], env=settings_env(settings), capture_output=True, text=True,
                           timeout=timeout_s)
    second = {Path(p["path"]).name: p["status"] for p in json.loads(rerun.stdout)["papers"]} if rerun.stdout else {}
    with store.open_graph(settings) as graph:
        after = {r["sha"] for r in graph.write(_PAPERS)}
        partial_after = _partial(graph, shas, after)
    # papers are written one after the other, in input order: the first not in the graph is the one cut off
    cut = next((name for name, sha in shas.items() if sha not in in_graph), None) if killed else None
    return {"papers": list(shas), "killed": bool(killed), "stopped": run.stopped, "cut_mid_write": cut,
            "reported": reported,
            "reported_committed": sorted(name for name, status in reported.items() if status == "ingested"),
            "in_graph_after_restart": sorted(name for name, sha in shas.items() if sha in in_graph),
            "partial_papers_after_restart": partial,
            "next_ingest": {"exit_status": rerun.returncode, "papers": second,
                            "stderr": rerun.stderr[-1000:] if rerun.returncode else ""},
            "in_graph_after_next_ingest": sorted(name for name, sha in shas.items() if sha in after),
            "partial_papers_after_next_ingest": partial_after}


@contextmanager
def _quiet(logger: str) -> Iterator[None]:
    log = logging.getLogger(logger)
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        log.setLevel(level)


def _partial(graph: Graph, shas: dict[str, str], in_graph: set[str]) -> list[str]:
    """Files not in the graph as papers of which some node is in it all the same."""
    return sorted(name for name, sha in shas.items() if sha not in in_graph and graph.write(_LEFT_OF, sha=sha)[0]["n"])

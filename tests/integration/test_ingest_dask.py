"""`kg ingest --executor dask`: papers parsed on a local Dask cluster of separate worker processes make the graph the
local parser pool makes; a Dask worker killed while it holds a paper has the paper parsed again elsewhere; a
missing extra and an unreachable scheduler are clear errors."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kg.ingest.dask_workers
from cli.main import app
from kg.db.graph import Graph
from kg.ingest.dask_workers import ExecutorUnavailable, dask_executor
from kg.db.dump import checksum
from kg.ingest.pipeline import Ingestor
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, value  # noqa: F401
from tests.neo4j_harness import free_port

PAPERS = ("sp_mooney05.pdf", "sp_mono04.pdf", "sp_bunescu-acl07.pdf")  # three small real papers of the corpus


def _graph(driver, database) -> tuple[int, int, str]:
    nodes = value(driver, "MATCH (n) WHERE NOT n:IngestRun RETURN count(n)")
    edges = value(driver, "MATCH ()-[r]->() RETURN count(r)")
    return nodes, edges, checksum(Graph(driver, database))


def test_a_local_dask_cluster_writes_the_graph_the_local_pool_writes(ingest_settings, driver, corpus_dir, tmp_path):
    files = [corpus_dir / name for name in PAPERS]
    db = ingest_settings.neo4j_database
    local = Ingestor(ingest_settings, Graph(driver), workers=2).run(files)
    assert local.ok and local.count("ingested") == 3 and local.embeddings != "embeddings@off"
    expected = _graph(driver, db)
    driver.execute_query("MATCH (n) DETACH DELETE n")
    settings = ingest_settings.model_copy(update={"data_dir": tmp_path / "dask-data"})
    report = Ingestor(settings, Graph(driver), workers=2, executor=dask_executor()).run(files)
    assert report.ok and [(p.path, p.status) for p in report.papers] == [(str(f), "ingested") for f in files]
    assert expected[0] > 100 and expected[1] > 100  # three whole papers: sections, chunks, entities
    assert _graph(driver, db) == expected  # the chunks' vectors too: the checksum covers every property
    assert value(driver, "MATCH (c:Chunk) WHERE c.embedding IS NULL RETURN count(c)") == 0
    assert value(driver, "MATCH (p:Paper)-[:GENERATED_BY]->(r:IngestRun {status: 'succeeded', invocation: $run}) "
                         "RETURN count(DISTINCT r.paper_sha256)", run=report.invocation) == 3  # the ledger, as today
    assert sorted(p.name for p in (settings.data_dir / "pdfs").rglob("*.pdf")) == sorted(
        f"{p.sha256}.pdf" for p in report.papers)


def _kill_own_worker_on(name: str, marker: str) -> None:
    """Run on each Dask worker: from now on, the first worker to get the paper `name` writes its pid to `marker`
    and kills its own process with SIGKILL (as the OOM killer or a lost machine would end it) before parsing."""
    real = kg.ingest.dask_workers._prepare_on_worker

    def prepare_or_die(token, initargs, limits, *args):
        if os.path.basename(args[0]) == name and not os.path.exists(marker):
            Path(marker).write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return real(token, initargs, limits, *args)

    kg.ingest.dask_workers._prepare_on_worker = prepare_or_die


def test_a_dask_worker_killed_mid_paper_has_the_paper_parsed_again_elsewhere(ingest_settings, driver, corpus_dir,
                                                                            tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    for source in [SAMPLE_A, SAMPLE_B, *(corpus_dir / name for name in PAPERS)]:
        shutil.copy(source, folder / source.name)
    victim, marker = PAPERS[1], tmp_path / "killed-worker.pid"
    start = dask_executor()
    workers_at_start: list[dict] = []

    def armed(*args):
        executor = start(*args)
        workers_at_start.append(executor.client.run(os.getpid))
        executor.client.run(_kill_own_worker_on, victim, str(marker))
        return executor

    report = Ingestor(ingest_settings, Graph(driver), workers=2, embed=False, executor=armed).run([folder])
    assert marker.exists(), "no worker was killed"
    assert int(marker.read_text()) in workers_at_start[0].values()  # a Dask worker process, not a parser of its own
    assert [(p.path, p.reason) for p in report.papers if p.status != "ingested"] == [] and report.ok
    assert report.count("ingested") == 5 == value(driver, "MATCH (p:Paper) RETURN count(p)")
    assert value(driver, "MATCH (r:IngestRun {status: 'failed'}) RETURN count(r)") == 0


def test_papers_go_to_the_workers_of_a_running_scheduler_whose_workers_may_start_processes(ingest_settings, driver):
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.worker.daemon": True}), LocalCluster(
            n_workers=1, processes=True, dashboard_address=None, scheduler_port=0) as daemonic:
        with pytest.raises(ExecutorUnavailable, match="daemonic processes"):
            Ingestor(ingest_settings, Graph(driver), workers=1, embed=False,
                     executor=dask_executor(daemonic.scheduler_address)).run([SAMPLE_A])
    with dask.config.set({"distributed.worker.daemon": False}), LocalCluster(
            n_workers=1, processes=True, dashboard_address=None, scheduler_port=0) as cluster:
        report = Ingestor(ingest_settings, Graph(driver), workers=1, embed=False,
                          executor=dask_executor(cluster.scheduler_address)).run([SAMPLE_A, SAMPLE_B])
    assert report.ok and [(p.path, p.status) for p in report.papers] == [(str(SAMPLE_A), "ingested"),
                                                                         (str(SAMPLE_B), "ingested")]
    assert value(driver, "MATCH (p:Paper) RETURN count(p)") == 2


def test_kg_ingest_with_the_dask_executor_reports_each_paper_as_a_local_run_does(cli_env, schema_db, monkeypatch,
                                                                                tmp_path):
    monkeypatch.setenv("PAPERKG_DATA_DIR", str(tmp_path / "data"))
    args = ["ingest", str(SAMPLE_A), str(SAMPLE_B), "--json", "--no-embed", "--workers", "2", "--executor", "dask"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and [(p["path"], p["status"]) for p in report["papers"]] == [
        (str(SAMPLE_A), "ingested"), (str(SAMPLE_B), "ingested")]
    again = CliRunner().invoke(app, args)  # the ledger says both are in the graph: nothing is parsed again
    assert again.exit_code == 0 and json.loads(again.stdout)["unchanged"] == 2


def test_without_dask_installed_the_dask_executor_is_a_clear_error(cli_env, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError, as uninstalled
    result = CliRunner().invoke(app, ["ingest", str(SAMPLE_A), "--executor", "dask"])
    assert result.exit_code == 1 and isinstance(result.exception, ExecutorUnavailable)
    assert "not installed" in result.exception.message and "[distributed]" in result.exception.hint


def test_an_unreachable_scheduler_is_a_clear_error(cli_env, schema_db, monkeypatch, tmp_path):
    monkeypatch.setenv("PAPERKG_DATA_DIR", str(tmp_path / "data"))
    address = f"tcp://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(app, ["ingest", str(SAMPLE_A), "--executor", "dask", "--scheduler", address])
    assert result.exit_code == 1 and isinstance(result.exception, ExecutorUnavailable)
    assert f"cannot reach the Dask scheduler at {address}" in result.exception.message
    assert value(schema_db, "MATCH (p:Paper) RETURN count(p)") == 0

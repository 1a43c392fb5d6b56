"""`kg ingest --executor dask`: the per-paper work (parse, chunk, embed, map, semantic, validate:
kg.ingest.pipeline.prepare) on the workers of a Dask distributed cluster, while `kg ingest` keeps its one ordered
writer, its progress and its ledger. Dask (not Ray) because it only needs to run one function per paper with retries on
lost workers, which its futures and scheduler do with pure-Python packages of a few MB (docs/deployment.md, *Parsing on
a cluster*).

Each Dask worker parses in sandboxed processes of its own (kg.ingest.pipeline.LocalWorkers: the same code, time and
memory limits as a local run), so a crafted PDF costs its paper and never the Dask worker. A Dask worker that dies while
it holds a paper (killed, out of memory, its machine lost) has the paper re-run on another worker once: the
scheduler's `allowed-failures`, which a local cluster sets to 1; a second death fails the paper alone with the code
a local parser process dying twice gives (PARSER_CRASHED).

The workers read the PDFs by their path: on a cluster of several machines the files must be at the same path on
each of them (a shared file system), and each worker needs paperkg installed at the same version.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from kg.errors import Failure, ParserCrashError
from kg.ingest.pipeline import ExecutorFactory, LocalWorkers, ParseExecutor, Prepared
from kg.workers.sandbox import WORKER_DIED, SandboxLimits
from kg.settings import Settings
from ontology.errors import PaperKGError

EXTRA = "distributed"  # pyproject.toml's optional extra that brings dask[distributed]
_CONNECT_TIMEOUT_S = 10  # a scheduler that does not answer by then is taken as unreachable
# A local cluster's settings, for as long as it runs (a worker its nanny restarts reads them again): a paper survives
# one worker death, and workers are not daemonic processes, which multiprocessing forbids to start the sandbox's.
_LOCAL_CLUSTER = {"distributed.scheduler.allowed-failures": 1, "distributed.worker.daemon": False}


class ExecutorUnavailable(PaperKGError):
    """The parse executor asked for cannot run: its package is not installed, or its scheduler cannot be reached."""

    code = "EXECUTOR_UNAVAILABLE"


def dask_executor(scheduler: str | None = None) -> ExecutorFactory:
    """A factory for Ingestor(executor=...): Dask workers of the scheduler at `scheduler` (tcp://HOST:PORT), or of a
    local cluster of separate processes, one per `--workers`, when None. Checks now that Dask is installed, so that
    `kg ingest` says so before it hashes anything; the cluster is reached or started once there is a paper to parse."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise ExecutorUnavailable(
            f"--executor dask needs Dask distributed, which is not installed ({exc})",
            hint=f"pip install -c constraints.txt -e '.[{EXTRA}]' (or pip install 'paperkg[{EXTRA}]')") from None

    def start(workers: int, initargs: tuple, settings: Settings) -> ParseExecutor:
        return DaskWorkers(scheduler, max(1, workers), initargs, SandboxLimits.of(settings))
    return start


class DaskWorkers:
    """A ParseExecutor on Dask: one future per paper, named by its file, run by `_prepare_on_worker`."""

    def __init__(self, scheduler: str | None, workers: int, initargs: tuple, limits: SandboxLimits):
        import dask
        from distributed import Client, LocalCluster

        self.token = uuid.uuid4().hex  # this run's parser pools on the workers (a remote cluster may serve others)
        self.initargs, self.limits = initargs, limits
        self._resources = ExitStack()  # what close() ends, in reverse order: client, cluster, settings
        if scheduler is None:
            self._resources.enter_context(dask.config.set(_LOCAL_CLUSTER))
            cluster = self._resources.enter_context(
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                             scheduler_port=0, silence_logs=logging.ERROR))
            self.client = self._resources.enter_context(Client(cluster))
        else:
            try:
                self.client = self._resources.enter_context(Client(scheduler, timeout=_CONNECT_TIMEOUT_S))
            except (OSError, TimeoutError) as exc:
                raise ExecutorUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {exc}",
                                          hint="start one with `dask scheduler` and workers with "
                                               "`DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker ADDRESS "
                                               "--nthreads 1`, or leave out --scheduler for a local cluster") from None
            daemonic = sorted(w for w, flag in self.client.run(_daemonic).items() if flag)
            if daemonic:
                self._resources.close()
                raise ExecutorUnavailable(f"the Dask workers {', '.join(daemonic)} are daemonic processes, which "
                                          "cannot start the parser processes that limit each paper",
                                          hint="start them with DASK_DISTRIBUTED__WORKER__DAEMON=False")
        self.capacity = sum(self.client.nthreads().values())
        if not self.capacity:
            self._resources.close()
            raise ExecutorUnavailable(f"the Dask scheduler at {scheduler} has no workers",
                                      hint="start them with `dask worker ADDRESS` (docs/deployment.md)")

    def submit(self, *args) -> Any:
        path, sha = args[0], args[1]
        return self.client.submit(_prepare_on_worker, self.token, self.initargs, self.limits, *args,
                                  key=f"paperkg-parse-{Path(path).name}-{sha[:16]}-{self.token}", pure=False)

    def result(self, handle: Any, args: tuple) -> Prepared | Failure:
        from distributed import KilledWorker

        try:
            return handle.result()
        except KilledWorker as exc:  # its workers died on it more often than the scheduler allows
            return Failure.of(ParserCrashError(WORKER_DIED, details=str(exc)))
        finally:
            handle.release()

    def close(self) -> None:
        try:
            self.client.run(_stop_parsers, self.token)
        except OSError:  # a worker being restarted: its parsers ended with it
            pass
        self._resources.close()


# ------------------------------------------------------------------ on the Dask worker

_parsers: dict[str, LocalWorkers] = {}  # run token -> this worker's sandboxed parser processes
_parsers_lock = threading.Lock()


def _prepare_on_worker(token: str, initargs: tuple, limits: SandboxLimits, *args) -> Prepared | Failure:
    """kg.ingest.pipeline.prepare(*args) in this worker's sandboxed processes, started on its first paper of the run
    (one per worker thread) and kept for the next."""
    from distributed import get_worker

    with _parsers_lock:
        parsers = _parsers.get(token)
        if parsers is None:
            parsers = _parsers[token] = LocalWorkers(get_worker().state.nthreads, initargs, limits)
    return parsers.result(parsers.submit(*args), args)


def _daemonic() -> bool:
    return multiprocessing.current_process().daemon


def _stop_parsers(token: str) -> None:
    with _parsers_lock:
        parsers = _parsers.pop(token, None)
    if parsers is not None:
        parsers.close()

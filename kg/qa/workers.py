"""Where a server answers questions and checks claims: in its own process, or in worker processes of their own.

An answer costs many times the Python CPU of a node lookup (it ranks sentences). In one process the two
share one interpreter lock, so under concurrent questions a lookup waited behind question work for the lock
at every step it took; with the questions in separate processes the operating system shares the cores
between them and the lookups instead. Each worker process opens its own
driver and loads its own query embedder; what crosses the process boundary is the question and the answer
as a plain dict, and errors pickled as they were raised (the API maps them to their status as for its own).
"""

from __future__ import annotations

import asyncio
import signal
import threading
from multiprocessing.util import Finalize
from typing import Any

from kg.db import store
from kg.db.graph import Graph
from kg.errors import ServerError
from kg.workers.process_pool import RespawningPool, WorkerDied
from kg.qa.engine import ask
from kg.qa.llm import rewriter
from kg.qa.retrieval import query_embedder
from kg.qa.verify import verify
from kg.settings import Settings
from ontology.loader import get_schema

_worker: dict[str, Any] = {}


class _LazyEmbedder:
    """The query embedder, loaded on the first question (a table or a model to load); None without the embedder."""

    def __init__(self, settings: Settings):
        self.settings, self._lock, self._loaded, self._fn = settings, threading.Lock(), False, None

    def __call__(self):
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    self._fn = query_embedder(self.settings)
                    self._loaded = True
        return self._fn


class InlineQA:
    """Questions answered in this process, on the server's thread pool (PAPERKG_QA_PROCESSES=0)."""

    def __init__(self, settings: Settings, graph: Graph):
        self.settings, self.graph = settings, graph
        self.embed, self.rewrite = _LazyEmbedder(settings), rewriter(settings)

    async def ask(self, question: str, paper_id: str | None, top_k: int) -> dict[str, Any]:
        return await asyncio.to_thread(self.answer, question, paper_id, top_k)

    def answer(self, question: str, paper_id: str | None, top_k: int) -> dict[str, Any]:
        """The answer as a plain dict; also what a question process runs (_ask)."""
        return ask(self.graph, get_schema(), question, paper_id, top_k, embed=self.embed(),
                   rewrite=self.rewrite).as_dict()

    async def verify(self, claim: str, paper_id: str | None) -> dict[str, Any]:
        return await asyncio.to_thread(self.check, claim, paper_id)

    def check(self, claim: str, paper_id: str | None) -> dict[str, Any]:
        """The verdict on a claim as a plain dict; also what a question process runs (_verify)."""
        return verify(self.graph, get_schema(), claim, paper_id, embed=self.embed()).as_dict()

    def close(self) -> None:
        return None


class ProcessQA:
    """Questions answered by `processes` worker processes (spawned, not forked: the server has threads)."""

    def __init__(self, settings: Settings, processes: int):
        self.pool = RespawningPool(processes, _init_worker, (settings,))

    async def start(self) -> None:
        """Start the workers now (each loads its embedder as it starts), so that questions do not wait for that."""
        await self.pool.warm()

    async def ask(self, question: str, paper_id: str | None, top_k: int) -> dict[str, Any]:
        return await self._run(_ask, question, paper_id, top_k)

    async def verify(self, claim: str, paper_id: str | None) -> dict[str, Any]:
        return await self._run(_verify, claim, paper_id)

    async def _run(self, work, *args: Any) -> dict[str, Any]:
        try:
            return await self.pool.call_async(work, *args)
        except WorkerDied:  # killed, out of memory: the pool has new workers; ask once more
            pass
        try:
            return await self.pool.call_async(work, *args)
        except WorkerDied:
            raise ServerError("a question process died while answering, twice",
                              hint="the server log has the reason (out of memory?); the next question starts "
                                   "new processes") from None

    def close(self) -> None:
        self.pool.close(wait=True)


def question_answerer(settings: Settings, graph: Graph) -> InlineQA | ProcessQA:
    return ProcessQA(settings, settings.qa_processes) if settings.qa_processes else InlineQA(settings, graph)


def _init_worker(settings: Settings) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which then shuts its workers down
    driver = store.connect_api(settings)
    Finalize(driver, driver.close, exitpriority=10)
    qa = InlineQA(settings, Graph(driver, settings.neo4j_database))
    qa.embed()  # loaded now, as the worker starts, not on its first question
    _worker["qa"] = qa


def _ask(question: str, paper_id: str | None, top_k: int) -> dict[str, Any]:
    return _worker["qa"].answer(question, paper_id, top_k)


def _verify(claim: str, paper_id: str | None) -> dict[str, Any]:
    return _worker["qa"].check(claim, paper_id)

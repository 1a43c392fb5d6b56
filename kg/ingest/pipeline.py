"""`kg ingest`: PDFs → graph. Worker processes parse, chunk, embed, map and validate; this process hashes,
skips unchanged files, writes each paper in one transaction (kg.ingest.writer) and, once it committed, stores the
PDF (a failed write leaves no file behind; a file missing after a crash in between is stored by the next run).

Memory stays bounded: files are discovered lazily, hashed in blocks, and at most a few papers are in
flight between the workers and the writer at any time.
"""

from __future__ import annotations

import os
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from itertools import chain, islice
from pathlib import Path
from typing import Any, Protocol

from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired

from extractors import domains
from extractors.limits import ParseLimits
from extractors.model import paper_id
from extractors.semantic import EXTRACTOR as SEMANTIC_EXTRACTOR
from extractors.semantic import nlp
from kg import embeddings
from kg.db import store
from kg.db.graph import Graph
from kg.ingest.components import Component, PaperState, in_order, run_components
from kg.ingest.domains import TAGGER
from kg.ingest.domains import records as domain_records
from kg.errors import UNEXPECTED, ConflictError, DatabaseUnavailable, Failure
from kg.db.filestore import PDFStore, file_sha256
from kg.ingest.mapping import EXTRACTOR, map_document
from kg.ingest.papers import PaperWrite, papers_present, unchanged
from kg.ingest.runs import Run, invocation_id
from kg.workers.sandbox import Sandbox, SandboxLimits
from kg.db.schema import init_schema
from kg.settings import Settings
from kg.ingest.validation import Rejection, validate_batch
from kg.ingest.write import write_graph
from kg.ingest.writer import PaperWriter, WriterOptions, open_writer
from ontology.errors import PaperKGError
from ontology.loader import Schema, get_schema
from ontology.records import EdgeRecord, NodeRecord

STAGES = ("hash", "parse", "chunk", "embed", "map", "semantic", "domains", "validate", "write")
EMBEDDINGS_OFF = "embeddings@off"
_HASH_BATCH = 256  # files hashed and checked against the graph per query
# Papers handed to the parsers ahead of the one the writer waits for, per parser. Results come back in input order,
# so one slow paper (ten times the median is common: a long appendix, a table-heavy paper) idles the other parsers
# once they have parsed everything handed out after it (`kg bench fanout`: 2 parsers 1.5x as fast as one with 2
# ahead each, 1.9x with 8). A parsed paper waiting its turn holds about 35 KB per page.
_AHEAD_PER_PARSER = 8


@dataclass
class PaperOutcome:
    path: str
    status: str  # ingested | unchanged | failed
    sha256: str | None = None
    pages: int = 0
    reason: str | None = None
    error_code: str | None = None  # of a failed paper: the code the API gives the same failure (kg.errors)
    nodes_written: int = 0
    edges_written: int = 0
    nodes_deleted: int = 0
    edges_deleted: int = 0
    kept: int = 0  # proposed elements left as a curator had them
    contested: int = 0  # curated elements the extraction disagreed with (docs/curation.md, Contested elements)
    rejections: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # pages without a text layer: read by OCR, or left unread


@dataclass
class IngestReport:
    invocation: str
    embeddings: str  # the model's name@version, or why embeddings are off
    papers: list[PaperOutcome] = field(default_factory=list)
    rejection_examples: dict[str, list[str]] = field(default_factory=dict)  # reason -> a few messages
    stopped: str | None = None  # why the run ended before all files were done
    wall_seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(p.status == status for p in self.papers)

    @property
    def ok(self) -> bool:
        return self.stopped is None and self.count("failed") == 0

    def totals(self) -> dict:
        rejections: Counter = Counter()
        stages: Counter = Counter()
        for p in self.papers:
            rejections.update(p.rejections)
            stages.update(p.seconds)
        return {"ingested": self.count("ingested"), "unchanged": self.count("unchanged"),
                "failed": self.count("failed"), "pages": sum(p.pages for p in self.papers),
                "nodes_written": sum(p.nodes_written for p in self.papers),
                "edges_written": sum(p.edges_written for p in self.papers),
                "kept_human": sum(p.kept for p in self.papers),
                "contested": sum(p.contested for p in self.papers), "rejections": dict(rejections),
                "seconds_per_stage": {s: round(stages.get(s, 0.0), 3) for s in STAGES}}

    def as_json(self) -> dict:
        return {"invocation": self.invocation, "ok": self.ok, "embeddings": self.embeddings, "stopped": self.stopped,
                "wall_seconds": round(self.wall_seconds, 3), **self.totals(),
                "rejection_examples": self.rejection_examples, "papers": [asdict(p) for p in self.papers]}


# ------------------------------------------------------------------ worker side

@dataclass
class Prepared:
    """One paper ready to write: validated records stamped with its run (which names the components that failed
    alone, if any)."""

    run: Run
    pages: int
    nodes: list[NodeRecord]
    edges: list[EdgeRecord]
    rejections: list[Rejection]
    seconds: dict[str, float]
    warnings: list[str]


_worker: dict = {}


def _init_worker(embedding_dim: int, embed: bool, cache_dir: Path, embedder: str, seeds: domains.Seeds,
                 mention_tagger: bool = False) -> None:
    """Load the schema, the spaCy pipelines (the trained mention tagger when it is on), the embeddings and the
    domain tagger (which embeds its seed phrases) once per process, before the sandbox's memory limit applies
    (kg/workers/sandbox.py), and build the components that use them."""
    from extractors.semantic import tagger  # imports spaCy: parser processes only, not every `kg` command

    nlp.load()
    model = embeddings.load_embedder(embedding_dim, cache_dir=cache_dir, kind=embedder) if embed else None
    domain_tagger = domains.Tagger(seeds, model.embed if model else None)
    _worker["components"] = components(get_schema(), model, embeddings.installed_version(embedder) if model else None,
                                       domain_tagger, tagger.load() if mention_tagger else None)


def components(schema: Schema, embedder: embeddings.Embedder | None, embedder_version: str | None,
               domain_tagger: domains.Tagger, mention_tagger: Any) -> list[Component]:
    """The ingest pipeline, in order: parse (and chunk), embed (when an embedder is given), map the structure,
    extract entities and results (issue 6), tag research domains (issue 30), validate and stamp with the run.
    kg.ingest.components says which may fail alone, and why."""
    from extractors.pipeline import parse_pdf  # the worker's import, not the writer's
    from extractors.semantic.extract import extract_semantics
    from kg.ingest.semantic_mapping import map_semantics

    def parse(state: PaperState) -> None:
        state.doc = parse_pdf(state.path, state.limits)

    def embed(state: PaperState) -> None:
        chunks = state.doc.chunks
        state.vectors = dict(zip((c.id for c in chunks), embedder.embed([c.text for c in chunks])))

    def map_structure(state: PaperState) -> None:
        state.nodes, state.edges = map_document(state.doc, state.vectors)

    def semantic(state: PaperState) -> None:
        nodes, edges = map_semantics(state.doc, extract_semantics(state.doc, mention_tagger).annotations)
        state.nodes, state.edges = state.nodes + nodes, state.edges + edges

    def tag_domains(state: PaperState) -> None:
        doc = state.doc
        tagged = domain_records(doc.sha256, paper_id(doc.sha256),
                                domain_tagger.tag_paper(domains.passages_of(doc, state.vectors)), domain_tagger.seeds)
        state.nodes, state.edges = state.nodes + tagged[0], state.edges + tagged[1]

    def validate(state: PaperState) -> None:
        run = state.run
        batch = validate_batch([run.stamped(n, schema) for n in state.nodes],
                               [run.stamped(e, schema) for e in state.edges], schema)
        state.nodes, state.edges, state.rejections = batch.nodes, batch.edges, batch.rejections

    # map and domains use the vectors when embed ran and succeeded, and do without them otherwise
    return in_order([
        Component("parse", EXTRACTOR, ("pdf",), ("document",), True, parse),
        *([Component("embed", embedder_version, ("document",), ("vectors",), False, embed)] if embedder else []),
        Component("map", None, ("document",), ("records",), True, map_structure),
        Component("semantic", SEMANTIC_EXTRACTOR, ("document",), ("records",), False, semantic),
        Component("domains", TAGGER, ("document",), ("records",), False, tag_domains),
        Component("validate", None, ("records",), ("validated records",), True, validate)])


def prepare(path: str, sha: str, run: Run, limits: ParseLimits) -> Prepared | Failure:
    """Run the components on one PDF; a bad PDF (or a required component's failure) gives a Failure, not an
    exception, so that nothing of it has to cross the process boundary but its code and text."""
    state = PaperState(path, limits, run)
    try:
        done = run_components(_worker["components"], state)
    except MemoryError:  # the sandbox's address-space limit: kg.workers.sandbox reports it
        raise
    except Exception as exc:  # a PDF that breaks the parser fails alone, whatever the library raised
        return Failure.of(exc)
    doc = state.doc
    if doc.sha256 != sha:
        return Failure(ConflictError.code, f"the file changed while it was being ingested (sha256 {sha[:12]} "
                                           f"became {doc.sha256[:12]})")
    seconds = done.seconds
    seconds["chunk"] = doc.audit.seconds_per_stage.get("chunking", 0.0)  # parse_pdf chunks too: its own stage
    seconds["parse"] -= seconds["chunk"]
    warnings = [*doc.audit.page_warnings,
                *(f"{f.component} failed, the paper is written without it: {f.error}" for f in done.failures)]
    return Prepared(run=run.without(done.failures), pages=doc.page_count, nodes=state.nodes, edges=state.edges,
                    rejections=state.rejections, seconds=seconds, warnings=warnings)


class ParseExecutor(Protocol):
    """What runs `prepare` for the ingest loop: this process (_Inline), the local sandbox pool (LocalWorkers) or
    Dask's workers (kg.ingest.dask_workers). The loop submits papers in input order and takes their results in the same
    order, so one writer sees them as the files were given, whoever parsed them."""

    capacity: int  # papers parsed at once: the loop keeps _AHEAD_PER_PARSER times as many in flight, no more

    def submit(self, *args) -> Any: ...

    def result(self, handle: Any, args: tuple) -> Prepared | Failure: ...

    def close(self) -> None: ...


# How Ingestor gets its executor once it knows there is something to parse: (processes, _init_worker's arguments,
# settings) -> executor. Starting workers costs seconds, so a run whose files are all unchanged starts none.
ExecutorFactory = Callable[[int, tuple, Settings], ParseExecutor]


def local_executor(workers: int, initargs: tuple, settings: Settings) -> ParseExecutor:
    """The default: `workers` sandboxed processes on this machine, or none (workers=0: parse inline)."""
    return _Inline(initargs) if workers == 0 else LocalWorkers(workers, initargs, SandboxLimits.of(settings))


class _Inline:
    """Runs each paper on submit, in this process and without the sandbox's time and memory limits (workers=0:
    tests and debugging only; neither `kg ingest` nor the API parses this way)."""

    capacity = 0

    def __init__(self, initargs: tuple):
        _init_worker(*initargs)

    def submit(self, *args) -> Future:
        future: Future = Future()
        future.set_result(prepare(*args))
        return future

    def result(self, future: Future, args: tuple) -> Prepared | Failure:
        return future.result()

    def close(self) -> None:
        return None


class LocalWorkers:
    """The parser processes (kg.workers.sandbox): a paper over the time or memory limit, or whose process dies, fails
    alone with the reason, and the run goes on. Dask's workers each run one of these too (kg.ingest.dask_workers), so
    that a PDF parsed on another machine meets the same limits."""

    def __init__(self, count: int, initargs: tuple, limits: SandboxLimits):
        self.capacity = count
        self.sandbox = Sandbox(count, limits, _init_worker, initargs)

    def submit(self, *args) -> Future:
        return self.sandbox.submit(prepare, *args)

    def result(self, future: Future, args: tuple) -> Prepared | Failure:
        try:
            return self.sandbox.result(future, prepare, args, Path(args[0]).name)
        except PaperKGError as exc:
            return Failure.of(exc)

    def close(self) -> None:
        self.sandbox.stop()


# ------------------------------------------------------------------ writer side

def discover(paths: Iterable[Path]) -> Iterator[Path]:
    """PDF files under each path (recursively, sorted per folder), lazily; a file path is taken as given."""
    for path in map(Path, paths):
        if path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(".pdf"):
                        yield Path(folder) / name
        else:
            yield path


class Ingestor:
    """One `kg ingest` invocation: its settings, its graph, its report. `on_written` receives the records of each
    paper once they are committed (kg bench ingest writes them again to time the writer on real papers).
    `executor` makes what parses the papers (local_executor, or kg.ingest.dask_workers.dask_executor's); whatever it is,
    this process writes them, one paper per transaction, in input order, with the writer `writer` asks for
    (kg.ingest.writer)."""

    def __init__(self, settings: Settings, graph: Graph, *, workers: int = 2, force: bool = False,
                 embed: bool = True, on_paper: Callable[[PaperOutcome], None] | None = None,
                 on_written: Callable[[Prepared], None] | None = None, executor: ExecutorFactory = local_executor,
                 writer: WriterOptions = WriterOptions()):
        self.settings, self.graph, self.workers, self.force = settings, graph, workers, force
        self.executor, self.writer_options = executor, writer
        self.on_paper, self.on_written = on_paper, on_written
        self.schema = get_schema()
        self.store = PDFStore(settings.data_dir)
        model = embeddings.installed_version(settings.embedder) if embed else None
        self.embed = model is not None
        self.versions = [EXTRACTOR, SEMANTIC_EXTRACTOR, TAGGER, model or EMBEDDINGS_OFF]
        self.seeds = domains.Seeds.load(settings.domain_seeds)  # a broken seeds file stops the run before any parse
        now = datetime.now(timezone.utc)
        off = embeddings.off_reason(settings.embedder) if embed else "embeddings off (--no-embed)"
        self.report = IngestReport(invocation=invocation_id(now), embeddings=model or off)

    def run(self, paths: Iterable[Path]) -> IngestReport:
        began = time.perf_counter()
        try:
            store.require_supported(store.server_info(self.graph.driver).version)
            init_schema(self.graph, self.schema, self.settings.embedding_dim)
            writer = open_writer(self.graph, self.schema, self.writer_options)
            in_flight: deque = deque()
            try:
                with closing(self.parsed(paths)) as papers:
                    for path, sha, run, prepared in papers:
                        in_flight.append(self._submit(writer, path, sha, run, prepared))  # outcomes in input order
                        if len(in_flight) >= writer.depth:
                            self._finish_first(in_flight)
                while in_flight:
                    self._finish_first(in_flight)
            finally:
                writer.close()
                self._written_anyway(in_flight)
        except (ServiceUnavailable, SessionExpired, DatabaseUnavailable) as exc:
            error = exc if isinstance(exc, DatabaseUnavailable) else store.friendly_error(exc, self.settings)
            self.report.stopped = (f"{error.message}: what was being written is rolled back; papers already "
                                   "written stay; run the same command again to finish the rest")
        self.report.wall_seconds = time.perf_counter() - began
        return self.report

    def parsed(self, paths: Iterable[Path]) -> Iterator[tuple[Path, str, Run, Prepared | Failure]]:
        """Every new file under `paths` parsed, mapped and validated by the parser processes, in input order (unchanged
        files and repeats are reported, not yielded); the processes stop when the generator is closed."""
        todo = self._todo(discover(paths))
        # Each parser process loads the spaCy pipelines and the embeddings first, a second or more of CPU: no
        # more of them than there are papers to parse, none for a run whose papers are all unchanged.
        first = list(islice(todo, max(1, self.workers)))
        if not first:
            return
        if self.settings.semantic_tagger:  # a missing model stops the run before any worker starts
            from extractors.semantic.tagger import check_installed

            check_installed()
        initargs = (self.settings.embedding_dim, self.embed, self.settings.cache_dir, self.settings.embedder,
                    self.seeds, self.settings.semantic_tagger)
        if self.embed and self.workers:  # loaded (distilled on first use) here: forked workers inherit it, others
            # (Dask's, on this machine) read the distilled table from the cache instead of distilling it at once
            embeddings.load_embedder(self.settings.embedding_dim, cache_dir=self.settings.cache_dir,
                                     kind=self.settings.embedder)
        executor = self.executor(min(self.workers, len(first)), initargs, self.settings)
        try:
            yield from self._prepared(executor, chain(first, todo))
        finally:
            executor.close()

    def _outcome(self, outcome: PaperOutcome) -> None:
        self.report.papers.append(outcome)
        if self.on_paper:
            self.on_paper(outcome)

    def _todo(self, files: Iterator[Path]) -> Iterator[tuple[Path, str, float]]:
        """Files to parse, with their sha256 and hashing time; unchanged files and repeats are reported here."""
        seen: dict[str, Path] = {}
        while batch := list(islice(files, _HASH_BATCH)):
            hashed = []
            for path in batch:
                began = time.perf_counter()
                try:
                    hashed.append((path, file_sha256(path), time.perf_counter() - began))
                except OSError as exc:
                    self._outcome(PaperOutcome(str(path), "failed", reason=f"cannot read: {exc.strerror or exc}",
                                               error_code=UNEXPECTED))
            done = set() if self.force else unchanged(self.graph, [sha for _, sha, _ in hashed], self.versions)
            for path, sha, seconds in hashed:
                if sha in done:
                    self.store.put(path, sha)  # a no-op, unless a crash came between its commit and its file
                if sha in seen or sha in done:
                    reason = f"same file as {seen[sha]}" if sha in seen else None
                    self._outcome(PaperOutcome(str(path), "unchanged", sha256=sha, reason=reason,
                                               seconds={"hash": seconds}))
                else:
                    seen[sha] = path
                    yield path, sha, seconds

    def _prepared(self, executor: ParseExecutor, todo: Iterator[tuple[Path, str, float]]):
        """Results in submission order with at most _AHEAD_PER_PARSER papers per parser in flight (bounded memory)."""
        pending: deque = deque()
        limit = _AHEAD_PER_PARSER * max(1, executor.capacity)
        for path, sha, hash_seconds in todo:
            run = Run(sha256=sha, invocation=self.report.invocation, started_at=datetime.now(timezone.utc),
                      extractors=self.versions)
            args = (str(path), sha, run, self.settings.parse_limits)
            pending.append((path, sha, run, hash_seconds, args, executor.submit(*args)))
            while len(pending) >= limit:
                yield self._result(executor, pending.popleft())
        while pending:
            yield self._result(executor, pending.popleft())

    @staticmethod
    def _result(executor: ParseExecutor, item):
        path, sha, run, hash_seconds, args, handle = item
        prepared = executor.result(handle, args)
        if isinstance(prepared, Prepared):
            prepared.seconds["hash"] = hash_seconds
        return path, sha, run, prepared

    def _submit(self, writer: PaperWriter, path: Path, sha: str, run: Run, prepared: Prepared | Failure) -> tuple:
        if isinstance(prepared, Prepared) and prepared.run.failed and papers_present(self.graph, [sha]):
            # written without a component, it would lose what that component added before: the paper keeps its graph
            prepared = Failure(UNEXPECTED, "; ".join(prepared.run.failed) + ": the paper in the graph is left as it was")
        if isinstance(prepared, Failure):  # not parsed: nothing to write
            return path, sha, run, prepared, None, None
        self._examples(prepared.rejections)
        outcome = PaperOutcome(str(path), "ingested", sha256=sha, pages=prepared.pages, seconds=prepared.seconds,
                               rejections=dict(Counter(r.reason.value for r in prepared.rejections)),
                               warnings=prepared.warnings)
        future = writer.submit(prepared.run, prepared.nodes, prepared.edges, rejected=len(prepared.rejections))
        return path, sha, run, prepared, outcome, future

    def _finish(self, path: Path, sha: str, run: Run, prepared: Prepared | Failure, outcome: PaperOutcome | None,
                future: Future | None) -> None:
        if isinstance(prepared, Failure):
            self._fail(path, sha, run, prepared, {})
            return
        try:
            written: PaperWrite = future.result()
        except (Neo4jError, PaperKGError, ValueError) as exc:  # not the driver's ServiceUnavailable: that stops the run
            self._fail(path, sha, run, Failure.of(exc, "not written: "), prepared.seconds, prepared.pages)
            return
        self.store.put(path, sha)  # after the commit: the store holds the files of papers in the graph
        # its own time: not the wait for the paper written before it
        outcome.seconds["write"] = sum(seconds for part, seconds in written.seconds.items() if part != "wait")
        self._examples(written.rejections)
        outcome.rejections = dict(Counter(outcome.rejections) + Counter(r.reason.value for r in written.rejections))
        outcome.nodes_written, outcome.edges_written = written.nodes_written, written.edges_written
        outcome.nodes_deleted, outcome.edges_deleted, outcome.kept = written.nodes_deleted, written.edges_deleted, written.kept
        outcome.contested = written.contested
        if self.on_written:
            self.on_written(prepared)
        self._outcome(outcome)

    def _finish_first(self, in_flight: deque) -> None:
        """The oldest paper in flight finished; it leaves the queue only then, so that a paper whose write the
        database cut off is still there for _written_anyway to report."""
        self._finish(*in_flight[0])
        in_flight.popleft()

    def _written_anyway(self, in_flight: deque) -> None:
        """After a run stopped: the papers still in flight that committed are reported as ingested, the others as
        failed (not recorded in the ledger: the database is what stopped the run)."""
        for path, sha, run, prepared, outcome, future in in_flight:
            error = None if future is None else future.exception()
            if future is not None and error is None:
                self._finish(path, sha, run, prepared, outcome, future)
            else:
                failure = (prepared if future is None
                           else Failure.of(store.friendly_error(error, self.settings), "not written: "))
                self._outcome(PaperOutcome(str(path), "failed", sha256=sha, reason=failure.reason,
                                           error_code=failure.code, pages=getattr(prepared, "pages", 0)))

    def _fail(self, path: Path, sha: str, run: Run, failure: Failure, seconds: dict, pages: int = 0) -> None:
        """Report the paper as failed and leave a failed IngestRun in the ledger (nothing else of it is written)."""
        write_graph(self.graph, [run.node("failed", error=failure.reason)], [], self.schema)
        self._outcome(PaperOutcome(str(path), "failed", sha256=sha, pages=pages, reason=failure.reason,
                                   error_code=failure.code, seconds=seconds))

    def _examples(self, rejections: list[Rejection]) -> None:
        for r in rejections:
            examples = self.report.rejection_examples.setdefault(r.reason.value, [])
            if len(examples) < 3:
                examples.append(r.message)


def ingest(paths: Iterable[Path], settings: Settings, **options) -> IngestReport:
    """Ingest every PDF under `paths` into the configured Neo4j (see Ingestor for the options)."""
    with store.open_graph(settings) as graph:
        return Ingestor(settings, graph, **options).run(paths)

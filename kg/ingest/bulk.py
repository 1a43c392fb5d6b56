"""`kg ingest --bulk`: a first load of a whole folder through Neo4j's own importer (`neo4j-admin database import
full`) instead of one transaction per paper.

The papers go through the same parse, semantic and validation stages (kg.ingest.pipeline's parser processes), and the
graph they make is the one the transactional writer (kg.ingest.papers) makes of the same files, in the same order, on an
empty database: entities resolved against those of the papers before (kg.ingest.entities), citations matched by DOI both
ways, shared nodes and edges merged as MERGE would (first created_at, later automatic properties over earlier ones),
edges without an end rejected, one IngestRun per file. GraphImage keeps in memory only what later papers can
change (shared nodes, edges between them, DOIs); each paper's own elements go straight to CSV files typed by the
ontology. The importer needs its database stopped, and Neo4j Community has one user database: so the local server
(`kg db start`) is stopped for the import and started again, and the database must hold no graph unless the
caller asks to replace it. Constraints and indexes are then made by kg.db.schema, as for any ingest.

The importer cannot store an empty list, which the transactional writer stores (provenance without chunks, say), and it
reads a file whose fields may hold line breaks (chunk text does) on one thread, finding where each row ends, while it
splits other files among its threads at line ends. So no field is written with a line break: they become the control
characters LINE_BREAK_ESCAPES names, which the extractors' text does not hold (a text holding both is refused, which
fails its paper). One pass of Cypher after the import sets the empty lists and puts the line breaks back; the
elements it must change carry the number of their fix (FixKinds: which lists are empty, which properties held line
breaks) in a marker property, nodes also FIX_LABEL, so the pass finds them by label or relationship type.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from kg.db import store
from kg.db.graph import Graph
from kg.ingest.entities import EntityIndex, KnownEntity, entity_labels, resolve_checked
from kg.errors import ConfigurationError, Failure, ServerError
from kg.ingest.pipeline import ExecutorFactory, IngestReport, Ingestor, PaperOutcome, local_executor
from kg.db.localserver import LocalNeo4j
from kg.ingest.mapping import CitationMatch, citation_edges
from kg.ingest.papers import PaperWrite, stored_boxes
from kg.ingest.reconcile import Existing, reconcile
from kg.ingest.runs import Run
from kg.db.schema import VERSION_LABEL, init_schema
from kg.ingest.validation import validate_batch
from kg.ingest.write import distinct, missing_endpoints, stamp
from ontology.loader import PropertySpec, Schema
from ontology.records import EdgeRecord, NodeRecord

FIX_LABEL = "PaperKGBulkFix"  # a node the pass after the import changes; removed by the pass
FIX = "paperkg_bulk_fix"  # the number of an element's fix (FixKinds); removed by the pass
ARRAY_DELIMITER = "\x1f"  # the unit separator: no text the extractors keep has it (refused if one does)
LINE_BREAK_ESCAPES = {"\n": "\x1e", "\r": "\x1d"}  # record and group separators, put back by the pass
_ESCAPE = str.maketrans(LINE_BREAK_ESCAPES)
_IMPORT_TYPES = {"string": "string", "integer": "long", "float": "double", "boolean": "boolean", "datetime": "datetime"}

_HAS_GRAPH = f"MATCH (n) WHERE NOT n:`{VERSION_LABEL}` RETURN count(n) > 0 AS has"
_FIX_BATCH = 10_000
_IMPORT_DONE = re.compile(r"IMPORT DONE in ([^.]+)\.")  # e.g. "IMPORT DONE in 1m 9s 453ms."
_DURATION = re.compile(r"(\d+)(ms|s|m|h)\b")
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


class BulkFormatError(ValueError):
    """A value the importer's CSV cannot carry as the transactional writer would store it."""


# ------------------------------------------------------------------ CSV files typed by the ontology

def _column_type(spec: PropertySpec) -> str:
    return _IMPORT_TYPES[spec.datatype] + ("[]" if spec.many else "")


def _escaped(text: str, name: str, breaks: list[str]) -> str:
    """`text` without line breaks (their escapes instead; `name` then added to `breaks`)."""
    if "\n" in text or "\r" in text:
        if any(escape in text for escape in LINE_BREAK_ESCAPES.values()):
            raise BulkFormatError(f"a value of property {name!r} holds line breaks and the control characters "
                                  "U+001D or U+001E that stand for them in the importer's CSV")
        breaks.append(name)
        return text.translate(_ESCAPE)
    return text


def _list_field(values: list, name: str, datatype: str, breaks: list[str]) -> str:
    """A non-empty list as one field. Float lists (a chunk's embedding: hundreds of numbers, most of a load's
    bytes) need no checks: a float's repr never holds the delimiter, a quote or a line break."""
    if datatype == "float":
        return ARRAY_DELIMITER.join(map(repr, map(float, values)))
    if datatype == "boolean":
        return ARRAY_DELIMITER.join("true" if v else "false" for v in values)
    if datatype == "datetime":
        return ARRAY_DELIMITER.join(v.isoformat() for v in values)
    joined = ARRAY_DELIMITER.join(map(str, values))
    if joined.count(ARRAY_DELIMITER) != len(values) - 1:
        raise BulkFormatError(f"a value of list property {name!r} holds the control character U+001F")
    if datatype == "string":
        return '"' + _escaped(joined, name, breaks).replace('"', '""') + '"'
    return joined


def _fields(props: dict[str, Any], columns: dict[str, tuple[int, bool, str]]) -> tuple[list[str], list[str], list[str]]:
    """The CSV fields of `props` in the order of `columns` (name: position, many, datatype; absent: an empty field),
    the names of its empty lists and of its properties whose line breaks were escaped, each sorted. It runs for every
    element of a load, so it goes over the properties an element has (about half of its columns) without a call per
    field."""
    fields = [""] * len(columns)
    empty: list[str] = []
    breaks: list[str] = []
    for name, value in props.items():
        column = columns.get(name)
        if column is None or value is None:
            continue
        position, many, datatype = column
        if many:
            if value:
                fields[position] = _list_field(value, name, datatype, breaks)
            else:
                empty.append(name)
        elif datatype == "string":
            fields[position] = '"' + _escaped(str(value), name, breaks).replace('"', '""') + '"'
        elif datatype == "datetime":
            fields[position] = value.isoformat()
        elif datatype == "float":
            fields[position] = repr(float(value))
        elif datatype == "boolean":
            fields[position] = "true" if value else "false"
        else:
            fields[position] = str(value)
    if len(empty) > 1:
        empty.sort()
    if len(breaks) > 1:
        breaks.sort()
    return fields, empty, breaks


class FixKinds:
    """What the pass after the import changes on an element (its empty lists, its properties with line breaks put
    back), numbered as they first occur, with the owners (label or relationship type) that have each."""

    def __init__(self):
        self.numbers: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
        self.owners: dict[tuple[str, str], set[int]] = {}  # ("node"|"edge", label or type) -> fix numbers

    def number(self, kind: str, owner: str, empty: list[str], breaks: list[str]) -> int:
        fix = self.numbers.setdefault((tuple(empty), tuple(breaks)), len(self.numbers))
        self.owners.setdefault((kind, owner), set()).add(fix)
        return fix

    def changes(self, fix: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return next(key for key, number in self.numbers.items() if number == fix)


def _id(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise BulkFormatError(f"the id {value!r} holds a line break")
    return '"' + value.replace('"', '""') + '"'


class CsvGraph:
    """Node files per label and relationship files per (type, source label, target label), each with its header
    (`id:ID(Label)`, `:START_ID(Label)`, `name:type[]` ...) from the ontology: ids are unique per label, as the
    constraints of kg.db.schema say, so each label is its own id space. No field holds a line break, so the importer
    splits every file among its threads."""

    def __init__(self, schema: Schema, folder: Path, *, compressed: bool = False):
        self.schema, self.folder, self.compressed = schema, folder, compressed
        self.fixes = FixKinds()
        self._files: dict[tuple, tuple[Path, TextIO]] = {}
        self._columns: dict[tuple[str, str], dict[str, tuple[int, bool, str]]] = {}
        self.nodes = self.relationships = 0

    def _specs(self, kind: str, name: str) -> list[PropertySpec]:
        owner = (self.schema.nodes.get(name) or self.schema.ledger[name]) if kind == "node" \
            else self.schema.relationships[name]
        return [spec for key, spec in sorted(owner.properties.items()) if key != "id"]

    def _owner_columns(self, kind: str, name: str) -> dict[str, tuple[int, bool, str]]:
        if (kind, name) not in self._columns:
            self._columns[(kind, name)] = {s.name: (i, s.many, s.datatype)
                                           for i, s in enumerate(self._specs(kind, name))}
        return self._columns[(kind, name)]

    def _file(self, key: tuple) -> TextIO:
        if key not in self._files:
            if key[0] == "node":
                label = key[1]
                name, head, tail = f"nodes-{label}.csv", [f"id:ID({label})"], [":LABEL"]
            else:
                _, type_, source, target = key
                name, tail = f"rels-{type_}-{source}-{target}.csv", []
                head = [f":START_ID({source})", f":END_ID({target})"]
            path = self.folder / (name + ".gz" if self.compressed else name)
            # gzip's fastest level: most of what it saves (a quarter of the size or less), for little of its time
            out = (gzip.open(path, "wt", compresslevel=1, encoding="utf-8", newline="") if self.compressed
                   else open(path, "w", encoding="utf-8", newline=""))
            typed = [f"{s.name}:{_column_type(s)}" for s in self._specs(key[0], key[1])]
            out.write(",".join(head + typed + [f"{FIX}:long"] + tail) + "\n")
            self._files[key] = (path, out)
        return self._files[key][1]

    def node_rows(self, nodes: Iterable[NodeRecord]) -> list[tuple[tuple, str]]:
        """Each node's file key and CSV line, built before any is written (a refused value fails its paper only)."""
        rows = []
        for node in nodes:
            fields, empty, breaks = _fields(node.props, self._owner_columns("node", node.label))
            if empty or breaks:
                fix = self.fixes.number("node", node.label, empty, breaks)
                line = [_id(node.id), *fields, str(fix), FIX_LABEL]
            else:
                line = [_id(node.id), *fields, "", ""]
            rows.append((("node", node.label), ",".join(line) + "\n"))
        return rows

    def edge_rows(self, edges: Iterable[EdgeRecord]) -> list[tuple[tuple, str]]:
        rows = []
        for edge in edges:
            fields, empty, breaks = _fields(edge.props, self._owner_columns("edge", edge.type))
            fix = str(self.fixes.number("edge", edge.type, empty, breaks)) if empty or breaks else ""
            line = [_id(edge.source_id), _id(edge.target_id), *fields, fix]
            rows.append((("edge", edge.type, edge.source_label, edge.target_label), ",".join(line) + "\n"))
        return rows

    def write(self, rows: list[tuple[tuple, str]]) -> None:
        for key, line in rows:
            self._file(key).write(line)
            if key[0] == "node":
                self.nodes += 1
            else:
                self.relationships += 1

    def close(self) -> list[str]:
        """Close the files; the importer's --nodes/--relationships arguments for them."""
        args = []
        for key, (path, out) in self._files.items():
            out.close()
            args.append(f"--nodes={key[1]}={path}" if key[0] == "node" else f"--relationships={key[1]}={path}")
        return sorted(args)


# ------------------------------------------------------------------ the graph of the transactional writer, as files

def _merged(current: Any, new: Any) -> Any:
    """A shared node or edge proposed again, as the writer's MERGE leaves it: a curated one unchanged, else the new
    properties over the old ones (None removes one, as `+=` does), the first created_at kept."""
    if current is None:
        return new
    if (current.props.get("verification_status") or "auto") != "auto":
        return current
    props = {**current.props, **{k: v for k, v in new.props.items() if k != "created_at"}}
    return replace(current, props=props)


class GraphImage:
    """The graph the ingest's writers (kg.ingest.writer) make of papers new to an empty database, one after the other,
    written as CSV: a paper's own elements (its sha256's, not entities) when it is added, the shared ones at close()."""

    def __init__(self, schema: Schema, csv: CsvGraph):
        self.schema, self.csv = schema, csv
        self.entities = EntityIndex()
        self.shared_nodes: dict[tuple[str, str], NodeRecord] = {}
        self.shared_edges: dict[tuple[str, str, str], EdgeRecord] = {}
        self.papers_by_doi: dict[str, list[str]] = {}
        self.references_by_doi: dict[str, list[tuple[str, str, list[str]]]] = {}  # (reference id, citing sha, bboxes)
        self.paper_ids: set[str] = set()
        self.reference_ids: set[str] = set()  # those with a DOI: the only ends another paper's edges reach

    def add(self, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], rejected: int) -> PaperWrite:
        """The paper's validated, stamped records resolved, linked and merged as the writers would; its IngestRun.
        Raises BulkFormatError, having changed nothing, when a value cannot go into the importer's CSV."""
        sha, result = run.sha256, PaperWrite()
        if any(n.label in entity_labels() for n in nodes):
            nodes, edges = resolve_checked(self.schema, run, nodes, edges, self.entities)
        citations = validate_batch([], [run.stamped(e, self.schema) for e in self._citations(sha, nodes)], self.schema)
        plan = reconcile(nodes, edges + citations.edges, Existing())  # nothing of a new paper exists yet
        result.rejections += citations.rejections
        written_nodes = [node for _, node in distinct(plan.nodes, lambda n: (n.label, n.id))]
        present = {(n.label, n.id) for n in written_nodes}
        written_edges, missing = [], []
        for indices, edge in distinct(plan.edges, lambda e: e.key):
            if all(self._exists(end, present) for end in ((edge.source_label, edge.source_id),
                                                          (edge.target_label, edge.target_id))):
                written_edges.append(edge)
            else:
                missing += [plan.edges[i] for i in indices]
        result.rejections += missing_endpoints(missing)
        result.nodes_written, result.edges_written = len(written_nodes), len(written_edges)
        ledger = validate_batch([run.node("succeeded", nodes_written=result.nodes_written,
                                          edges_written=result.edges_written,
                                          rejected=rejected + len(result.rejections))],
                                [run.stamped(run.generated_edge(), self.schema)], self.schema)
        if ledger.rejections:  # the ledger is ours: a refusal here is a bug, not data to skip
            raise ValueError(f"the ontology refuses the run record: {ledger.rejections[0].message}")

        own = {(n.label, n.id) for n in written_nodes if n.props.get("paper_sha256") == sha
               and n.label not in entity_labels()} | {(n.label, n.id) for n in ledger.nodes}
        own_nodes = [n for n in written_nodes + ledger.nodes if (n.label, n.id) in own]
        own_edges = [e for e in written_edges + ledger.edges
                     if (e.source_label, e.source_id) in own or (e.target_label, e.target_id) in own]
        shared_nodes = [n for n in written_nodes if (n.label, n.id) not in own]
        shared_edges = [e for e in written_edges
                        if (e.source_label, e.source_id) not in own and (e.target_label, e.target_id) not in own]
        rows = self.csv.node_rows(own_nodes) + self.csv.edge_rows(own_edges)
        self.csv.node_rows(shared_nodes)  # built only to refuse a value now rather than at close()
        self.csv.edge_rows(shared_edges)

        self.csv.write(rows)
        for node in shared_nodes:
            self.shared_nodes[(node.label, node.id)] = _merged(self.shared_nodes.get((node.label, node.id)), node)
        for edge in shared_edges:
            self.shared_edges[edge.key] = _merged(self.shared_edges.get(edge.key), edge)
        for node in written_nodes:
            if node.label in entity_labels():  # as kg.ingest.entities.catalog_update tells the writer's catalog
                self.entities.add(KnownEntity(node.label, node.id, node.props.get("name") or "",
                                              tuple(node.props.get("aliases") or ()),
                                              node.props.get("verification_status") == "rejected"))
            elif node.label == "Paper":
                self.paper_ids.add(node.id)
                if node.props.get("doi"):
                    self.papers_by_doi.setdefault(node.props["doi"], []).append(sha)
            elif node.label == "Reference" and node.props.get("doi"):
                self.reference_ids.add(node.id)
                self.references_by_doi.setdefault(node.props["doi"], []).append(
                    (node.id, sha, node.props.get("bboxes") or []))
        return result

    def add_failed(self, run: Run, reason: str) -> None:
        """The failed IngestRun kg.ingest.pipeline records for a paper that was not written."""
        node = stamp(run.node("failed", error=reason), self.schema, datetime.now(timezone.utc))
        self.csv.write(self.csv.node_rows([node]))

    def close(self) -> list[str]:
        """Write the shared elements; the importer's arguments for every file."""
        self.csv.write(self.csv.node_rows(self.shared_nodes.values()) + self.csv.edge_rows(self.shared_edges.values()))
        return self.csv.close()

    def _citations(self, sha: str, nodes: list[NodeRecord]) -> list[EdgeRecord]:
        """kg.ingest.papers._citations against the papers added before: this paper's entries citing them by DOI, and
        their entries citing this paper's DOI."""
        matches = [CitationMatch(n.id, sha, cited, stored_boxes(n.props.get("bboxes")))
                   for n in nodes if n.label == "Reference" and n.props.get("doi")
                   for cited in self.papers_by_doi.get(n.props["doi"], [])]
        doi = next((n.props.get("doi") for n in nodes if n.label == "Paper"), None)
        if doi:
            matches += [CitationMatch(reference, citing, sha, stored_boxes(bboxes))
                        for reference, citing, bboxes in self.references_by_doi.get(doi, [])]
        return citation_edges(matches)

    def _exists(self, end: tuple[str, str], present: set[tuple[str, str]]) -> bool:
        """Whether an edge's end is in the graph: written with the paper, shared, or another paper's node that
        citations reach. Edges of the extractors reach no other paper's nodes but those."""
        label, node_id = end
        return (end in present or end in self.shared_nodes or (label == "Paper" and node_id in self.paper_ids)
                or (label == "Reference" and node_id in self.reference_ids))


# ------------------------------------------------------------------ the load

@dataclass
class BulkReport:
    ingest: IngestReport
    nodes: int = 0
    relationships: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # parse (to CSV), import, lists, schema

    @property
    def import_elements_per_s(self) -> float:
        return (self.nodes + self.relationships) / self.seconds["import"] if self.seconds.get("import") else 0.0

    def as_json(self) -> dict:
        return {**self.ingest.as_json(), "bulk": {
            "nodes": self.nodes, "relationships": self.relationships,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "import_elements_per_s": round(self.import_elements_per_s)}}


class BulkIngestor(Ingestor):
    """kg.ingest.pipeline's parser processes and report, with a GraphImage instead of the transactional writer. Every
    file is new (the graph is empty or being replaced), so none is skipped as unchanged."""

    def __init__(self, settings, graph, **options):
        super().__init__(settings, graph, force=True, **options)
        self.stored: list[tuple[Path, str]] = []  # the files to keep in the PDF store once the import succeeded

    def write_csv(self, paths: Iterable[Path], image: GraphImage) -> list[str]:
        with closing(self.parsed(paths)) as papers:
            for path, sha, run, prepared in papers:
                self._add(image, path, sha, run, prepared)
        return image.close()

    def _add(self, image: GraphImage, path: Path, sha: str, run: Run, prepared) -> None:
        if not isinstance(prepared, Failure):
            began = time.perf_counter()
            try:
                written = image.add(prepared.run, prepared.nodes, prepared.edges, len(prepared.rejections))
            except BulkFormatError as exc:
                prepared = Failure.of(exc, "not written: ")
            else:
                self._examples(prepared.rejections + written.rejections)
                seconds = {**prepared.seconds, "write": time.perf_counter() - began}
                self._outcome(PaperOutcome(
                    str(path), "ingested", sha256=sha, pages=prepared.pages, seconds=seconds,
                    nodes_written=written.nodes_written, edges_written=written.edges_written, warnings=prepared.warnings,
                    rejections=dict(Counter(r.reason.value for r in prepared.rejections + written.rejections))))
                self.stored.append((path, sha))
                return
        image.add_failed(run, prepared.reason)
        self._outcome(PaperOutcome(str(path), "failed", sha256=sha, pages=getattr(prepared, "pages", 0),
                                   reason=prepared.reason, error_code=prepared.code))


def _local_server(settings) -> LocalNeo4j:
    """The importer writes the database files of the local server `kg db` manages: any other server is refused."""
    local = {f"bolt://127.0.0.1:{settings.bolt_port}", f"bolt://localhost:{settings.bolt_port}",
             f"neo4j://127.0.0.1:{settings.bolt_port}", f"neo4j://localhost:{settings.bolt_port}"}
    if settings.uri not in local:
        raise ConfigurationError(f"a bulk load writes the files of the local Neo4j (`kg db start`), but "
                                 f"PAPERKG_NEO4J_URI points at {settings.uri}",
                                 hint="unset PAPERKG_NEO4J_URI to load the local server, or use `kg ingest` "
                                      "without --bulk for another server")
    return LocalNeo4j(settings)


def bulk_load(paths: Iterable[Path], settings, *, replace: bool = False, workers: int = 2, embed: bool = True,
              on_paper=None, executor: ExecutorFactory = local_executor, compressed: bool = False) -> BulkReport:
    """Parse every PDF under `paths` into CSV, stop the local server, import the CSV into its database with
    neo4j-admin, start it again, set the empty lists, make the constraints and indexes, store the PDFs. A database
    holding a graph is refused unless `replace` (its graph is then lost: the import overwrites the database).
    `compressed`: the CSV gzip-compressed, for a disk that would not hold it plain beside the database."""
    server = _local_server(settings)
    server.start()
    folder = settings.data_dir / "bulk"
    with store.open_graph(settings) as graph:
        store.require_supported(store.server_info(graph.driver).version)
        if not replace and graph.read(_HAS_GRAPH)[0]["has"]:
            raise ConfigurationError("the database already holds a graph: a bulk load would overwrite it",
                                     hint="ingest into it with `kg ingest` (no --bulk), or pass --replace to "
                                          "discard the graph and load these files instead")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        folder.chmod(0o700)  # the text of the papers, as readable as the database's own files
        ingestor = BulkIngestor(settings, graph, workers=workers, embed=embed, on_paper=on_paper, executor=executor)
        began = time.perf_counter()
        csv = CsvGraph(ingestor.schema, folder, compressed=compressed)
        files = ingestor.write_csv(paths, GraphImage(ingestor.schema, csv))
        parsed = time.perf_counter() - began
    if not files:  # no PDF: nothing to import, and the server stays up
        shutil.rmtree(folder, ignore_errors=True)
        return BulkReport(ingestor.report, seconds={"parse": parsed})
    report = BulkReport(ingestor.report, nodes=csv.nodes, relationships=csv.relationships,
                        seconds={"parse": parsed, **import_files(server, settings, ingestor.schema, folder, files,
                                                                    csv.fixes)})
    for path, sha in ingestor.stored:
        ingestor.store.put(path, sha)
    shutil.rmtree(folder, ignore_errors=True)
    report.ingest.wall_seconds = sum(report.seconds.values())
    return report


def import_files(server: LocalNeo4j, settings, schema: Schema, folder: Path, files: list[str],
                 fixes: FixKinds) -> dict[str, float]:
    """Stop the server, import the CSV `files` (CsvGraph.close's arguments) into its database, start it again,
    make the `fixes` the CSV could not carry (fix_elements) and the constraints and indexes; the seconds of each
    step (the vector index's also apart, within those of the schema)."""
    database = settings.neo4j_database or "neo4j"
    seconds: dict[str, float] = {}
    try:
        server.stop()
        began = time.perf_counter()
        # No file is read as multi-line (CsvGraph writes no line break in a field), so the importer splits each among
        # its threads. Its multi-line modes would not do: v1 parses all files on one thread, and v2 guesses where
        # rows end by scanning back from a buffer's end, which refused real chunk text ("CR outside a text cell").
        # Twice as many threads as cores (the default is one per core): its stages wait on each other and on the
        # disk, so with one thread per core the cores idled part of the time (bench/results/notes-2026-12.md).
        done = server.admin(["database", "import", "full", database, "--overwrite-destination=true",
                             "--array-delimiter=U+001F", f"--threads={2 * (os.cpu_count() or 1)}",
                             f"--report-file={folder / 'import.report'}", *files])
        seconds["import"] = time.perf_counter() - began
        reported = _IMPORT_DONE.search(done.stdout)
        if reported:  # the importer's own time: without its JVM's start and its checks of the files
            seconds["import_tool"] = sum(float(n) * _UNITS[unit] for n, unit in _DURATION.findall(reported[1]))
        if done.returncode != 0:
            raise ServerError("neo4j-admin could not import the graph; the database may be incomplete",
                              hint="`kg db reset` empties it; then run the bulk load again",
                              details=(done.stdout + done.stderr)[-3000:])
    finally:
        server.start()
    with store.connect(settings) as driver:
        graph = Graph(driver, database)
        began = time.perf_counter()
        fix_elements(graph, schema, fixes)
        seconds["lists"] = time.perf_counter() - began
        began = time.perf_counter()
        built = init_schema(graph, schema, settings.embedding_dim)
        seconds["schema"] = time.perf_counter() - began
        if "vector indexes" in built.seconds:
            seconds["vector_index"] = built.seconds["vector indexes"]
    return seconds


def fix_elements(graph: Graph, schema: Schema, fixes: FixKinds) -> None:
    """Set the empty lists the importer could not store and put back the line breaks escaped in the CSV, one owner
    (label or relationship type) and fix at a time, so each statement sets constants rather than deciding per
    element; then remove the markers."""
    escapes = {"lf_escape": LINE_BREAK_ESCAPES["\n"], "cr_escape": LINE_BREAK_ESCAPES["\r"], "lf": "\n", "cr": "\r"}
    for (kind, name), numbers in sorted(fixes.owners.items()):
        owner = (schema.nodes.get(name) or schema.ledger[name]) if kind == "node" else schema.relationships[name]
        for fix in sorted(numbers):
            empty, breaks = fixes.changes(fix)
            sets = [f"x.`{n}` = []" for n in empty]
            for n in breaks:
                restore = "replace(replace({}, $lf_escape, $lf), $cr_escape, $cr)"
                sets.append(f"x.`{n}` = " + (f"[s IN x.`{n}` | {restore.format('s')}]" if owner.properties[n].many
                                             else restore.format(f"x.`{n}`")))
            if kind == "node":
                match = f"MATCH (x:`{name}`:`{FIX_LABEL}`)" + (f" WHERE x.`{FIX}` = {fix}" if len(numbers) > 1 else "")
                remove = f"x:`{FIX_LABEL}`, x.`{FIX}`"
            else:
                match, remove = f"MATCH ()-[x:`{name}`]->() WHERE x.`{FIX}` = {fix}", f"x.`{FIX}`"
            with graph.write_session() as session:  # CALL IN TRANSACTIONS: an auto-commit transaction
                session.run(f"{match} CALL (x) {{ SET {', '.join(sets)} REMOVE {remove} }} "
                            f"IN TRANSACTIONS OF {_FIX_BATCH} ROWS", escapes).consume()

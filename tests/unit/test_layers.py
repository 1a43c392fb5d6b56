"""The product's layers import in one direction (ontology <- extractors <- kg <- api, cli; bench beside api and cli),
and no two modules import each other, directly or round a loop. Every import counts, at module level or inside a
function: an import moved into a function still ties the two modules together, it only hides the tie until run.
The source is read with `ast`, not imported, so a violation is reported even in a module that would fail to load."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ontology", "extractors", "kg", "api", "cli", "bench")
# What each package may import besides itself (tests and scripts may import anything).
ALLOWED = {
    "ontology": set(),
    "extractors": {"ontology"},
    "kg": {"ontology", "extractors"},
    "api": {"ontology", "extractors", "kg"},
    "cli": {"ontology", "extractors", "kg"},
    "bench": {"ontology", "extractors", "kg"},
}
# Inside kg, the bottom subpackages may import only what is below them: kg.db reaches Neo4j and the PDF store
# for everyone, kg.workers runs work in processes of its own for everyone, kg.auth holds the API's keys, and
# kg.read reads through kg.db (users' Cypher in kg.workers); none of them may import ingestion, qa, curation,
# export or find. kg.errors and kg.settings are shared by all of kg.
# kg.ingest writes through kg.db and parses in kg.workers; of the read side it takes only a paper's name
# (kg.read.queries.resolve_paper, for delete and re-tagging), of curation only the label of its events (whose
# edits a re-ingest keeps), so qa, curation and export may build on ingestion but it never builds on them.
# kg.find (search, related papers, locate) builds on read, qa's text analysis and curation's hidden set, for the
# API and CLI. An entry is a subpackage or a single module.
KG_ALLOWED = {
    "kg.db": {"kg.errors", "kg.settings"},
    "kg.workers": {"kg.errors", "kg.settings"},
    "kg.auth": {"kg.errors", "kg.settings"},
    "kg.read": {"kg.db", "kg.workers", "kg.errors", "kg.settings"},
    "kg.ingest": {"kg.db", "kg.workers", "kg.read.queries", "kg.curation.cypher", "kg.embeddings", "kg.errors",
                  "kg.settings"},
    "kg.find": {"kg.db", "kg.read", "kg.qa", "kg.curation.hidden", "kg.errors", "kg.settings"},
}
BENCH_COMMANDS = "cli.bench"  # cli/bench*.py, the `kg bench ...` commands: the one place the product reaches bench


def _modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, int]]:
    """(imported module, line) for every import in the file; `from a import b` is a.b when b is a module."""
    found = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found += [(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base, node.lineno) for a in node.names]
    return sorted(set(found), key=lambda item: (item[1], item[0]))


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}


def _kg_subpackage(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _within(module: str, allowed: set[str]) -> bool:
    return any(module == entry or module.startswith(entry + ".") for entry in allowed)


def _may_import(importer: str, imported: str) -> bool:
    own, other = importer.split(".")[0], imported.split(".")[0]
    inside = _kg_subpackage(importer)
    if inside in KG_ALLOWED and other == "kg" and not _within(imported, KG_ALLOWED[inside] | {inside}):
        return False
    if other not in PACKAGES or other == own or other in ALLOWED[own]:
        return True
    return other == "bench" and importer.startswith(BENCH_COMMANDS)


def layer_violations(imports: dict[str, list[tuple[str, int]]]) -> list[str]:
    return [f"{MODULES[m].relative_to(ROOT)}:{line} imports {target}"
            for m, found in sorted(imports.items()) for target, line in found if not _may_import(m, target)]


def import_cycles(imports: dict[str, list[tuple[str, int]]]) -> list[list[str]]:
    """One cycle per strongly connected group of modules (Tarjan), as the path a -> b -> ... -> a."""
    graph = {m: sorted({t for t, _ in found if t in imports and t != m}) for m, found in imports.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # recursion depth is bounded by the module count (a few hundred)
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while (w := stack.pop()) != v:
                group.add(w)
            if group:
                groups.append(group | {v})

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: dict[str, list[str]], group: set[str]) -> list[str]:
    """A shortest loop from the group's first module back to itself, through the group only (breadth first)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in graph[v]:
                if w == start:
                    return paths[v] + [start]
                if w in group and w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no loop through {start}")  # a strongly connected group always has one


def test_every_package_is_found():
    """The checks below are only as good as the module list: each package is there with its submodules."""
    for package in PACKAGES:
        assert package in MODULES and sum(m.startswith(package + ".") for m in MODULES) >= 2, package
    assert "kg.curation.operations" in MODULES and "extractors.semantic.patterns" in MODULES


def test_layers_import_in_one_direction():
    violations = layer_violations(IMPORTS)
    assert not violations, "imports against the layer order:\n" + "\n".join(violations)


def test_no_import_cycles():
    cycles = import_cycles(IMPORTS)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


# ------------------------------------------------------------------ the checks themselves can fail

def _fake(**imports: list[str]) -> dict[str, list[tuple[str, int]]]:
    return {m: [(t, 1) for t in targets] for m, targets in imports.items()}


@pytest.mark.parametrize("importer, imported", [
    ("ontology.loader", "kg.errors"), ("extractors.model", "kg.records"), ("kg.db.store", "api.app"),
    ("kg.db.store", "bench.neo4j"), ("api.app", "cli.main"), ("api.app", "bench.load"), ("cli.ingest", "bench.load"),
    ("bench.load", "api.app"), ("extractors.triage", "api.errors"),
    ("kg.db.store", "kg.read.queries"), ("kg.db.schema", "kg.ingest.papers"), ("kg.read.queries", "kg.ingest.papers"),
    ("kg.read.coverage", "kg.qa.graph"), ("kg.db.localserver.server", "kg.curation.hidden"),
    ("kg.workers.sandbox", "kg.db.store"), ("kg.workers.process_pool", "kg.qa.workers"),
    ("kg.db.store", "kg.workers.sandbox"), ("kg.read.queries", "kg.ingest.write"),
    ("kg.workers.sandbox", "kg.ingest.pipeline"),
    ("kg.ingest.papers", "kg.curation.operations"), ("kg.ingest.delete", "kg.read.coverage"),
    ("kg.ingest.pipeline", "kg.qa.retrieval"), ("kg.ingest.write", "kg.export.json_graph"), ("kg.ingest.delete", "kg"),
    ("kg.read.cypher_workers", "kg.find.search"), ("kg.ingest.domains", "kg.find.related"),
    ("kg.find.search", "kg.ingest.write"), ("kg.find.related", "kg.curation.operations"),
    ("kg.auth.apikeys", "kg.db.store"), ("kg.auth.access", "kg.read.queries"),
])
def test_an_upward_import_is_reported(importer, imported):
    assert layer_violations({importer: [(imported, 7)]}) == [f"{MODULES[importer].relative_to(ROOT)}:7 imports {imported}"]


@pytest.mark.parametrize("importer, imported", [
    ("kg.db.store", "ontology.loader"), ("api.app", "kg.db.store"), ("cli.bench_robustness", "bench.robustness"),
    ("bench.load", "kg.db.store"), ("kg.db.store", "neo4j"), ("extractors.model", "extractors.triage"),
    ("kg.read.queries", "kg.db.store"), ("kg.read.evidence", "kg.read.queries"), ("kg.db.store", "kg.errors"),
    ("kg.ingest.papers", "kg.read.queries"), ("kg.qa.graph", "kg.db.store"),
    ("kg.ingest.papers", "kg.curation.cypher"), ("kg.ingest.pipeline", "kg.embeddings"),
    ("kg.ingest.jobs", "kg.workers.process_pool"), ("kg.curation.operations", "kg.ingest.papers"),
    ("kg.export.json_graph", "kg.ingest.write"), ("kg.read.cypher_workers", "kg.workers.sandbox"),
    ("kg.find.locate", "kg.qa.graph"), ("kg.find.related", "kg.curation.hidden"), ("kg.find.search", "kg.read.queries"),
    ("kg.auth.access", "kg.auth.apikeys"), ("api.auth", "kg.auth.access"),
    ("kg.workers.sandbox", "kg.settings"), ("kg.qa.workers", "kg.workers.process_pool"),
])
def test_an_allowed_import_passes(importer, imported):
    assert layer_violations({importer: [(imported, 1)]}) == []


def test_a_cycle_is_reported_as_its_path():
    imports = _fake(**{"kg.a": ["kg.b"], "kg.b": ["kg.c", "kg.d"], "kg.c": ["kg.a"], "kg.d": [], "kg.e": ["kg.e"]})
    assert import_cycles(imports) == [["kg.a", "kg.b", "kg.c", "kg.a"]]
    assert import_cycles(_fake(**{"kg.a": ["kg.b"], "kg.b": ["kg.c"], "kg.c": []})) == []


def test_a_function_level_import_counts(tmp_path):
    """An import inside a function (or under `if TYPE_CHECKING:`) ties modules as much as one at the top."""
    source = tmp_path / "mod.py"
    source.write_text("import os\n\ndef f():\n    from kg.errors import PaperKGError\n\nif False:\n    import api.app\n")
    assert _imports("extractors.mod", source) == [("os", 1), ("kg.errors", 4), ("api.app", 7)]

"""Neo4j constraints and indexes derived from the ontology, and the node recording which ontology version
they were made for. All schema Cypher lives here.

`init_schema` is idempotent: it creates what is missing, and on a newer ontology version of the same major
version it drops the indexes the old version made and the new one no longer has. A newer database, another
major version or another embedding size is refused with a message saying what to do.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from kg.db import store
from kg.db.graph import Graph
from kg.errors import SchemaVersionError
from kg.settings import Settings
from ontology.loader import Schema, get_schema

VERSION_LABEL = "PaperKGSchema"  # not an ontology label: the graph's schema metadata, written only here
_VERSION_ID = "paperkg"

_READ_VERSION = f"MATCH (v:{VERSION_LABEL} {{id: $id}}) RETURN v {{.*}} AS v"
_WRITE_VERSION = f"""
MERGE (v:{VERSION_LABEL} {{id: $id}})
SET v.version = $version, v.version_iri = $version_iri, v.embedding_dim = $embedding_dim,
    v.managed = $managed, v.definitions = $definitions, v.applied_at = datetime()
"""
_CONSTRAINTS = "SHOW CONSTRAINTS YIELD name RETURN name"
_INDEXES = "SHOW INDEXES YIELD name RETURN name"
# Indexes made over a bulk load's graph are built from all of it: at 10,000 papers with chunk vectors that takes
# minutes, so the wait is long; it ends as soon as they are online, and an index that fails ends it with an error.
_AWAIT = "CALL db.awaitIndexes(3600)"
_EMPTY = "MATCH (n) RETURN count(n) = 0 AS empty"


@dataclass(frozen=True)
class Statement:
    name: str
    cypher: str


@dataclass
class InitReport:
    action: str  # created | unchanged | repaired | migrated
    version: str
    previous_version: str | None = None
    created: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # building the constraints and indexes, vector ones apart


def plan(schema: Schema, embedding_dim: int) -> list[Statement]:
    """The CREATE ... IF NOT EXISTS statements the ontology calls for; names are all from the schema."""
    statements = []
    for label, cls in {**schema.nodes, **schema.ledger}.items():
        name = f"paperkg_{label.lower()}_id"
        statements.append(Statement(name, f"CREATE CONSTRAINT `{name}` IF NOT EXISTS "
                                                 f"FOR (n:`{label}`) REQUIRE n.id IS UNIQUE"))
        for prop in cls.indexed:
            name = f"paperkg_{label.lower()}_{prop}"
            statements.append(Statement(name, f"CREATE INDEX `{name}` IF NOT EXISTS "
                                               f"FOR (n:`{label}`) ON (n.`{prop}`)"))
    for rel in schema.relationships.values():
        for prop in rel.indexed:
            name = f"paperkg_rel_{rel.type.lower()}_{prop}"
            statements.append(Statement(name, f"CREATE INDEX `{name}` IF NOT EXISTS "
                                               f"FOR ()-[r:`{rel.type}`]-() ON (r.`{prop}`)"))
    for index in schema.indexes:
        labels = "|".join(f"`{label}`" for label in index.labels)
        if index.kind == "fulltext":
            props = ", ".join(f"n.`{prop}`" for prop in index.properties)
            cypher = f"CREATE FULLTEXT INDEX `{index.name}` IF NOT EXISTS FOR (n:{labels}) ON EACH [{props}]"
        else:
            # Unquantized: with Neo4j's default quantization the index misses some of a question's exact nearest
            # chunks, and without it writes were not measurably slower (bench/results/notes-2026-12.md).
            cypher = (f"CREATE VECTOR INDEX `{index.name}` IF NOT EXISTS FOR (n:{labels}) ON n.`{index.properties[0]}` "
                      f"OPTIONS {{indexConfig: {{`vector.dimensions`: {int(embedding_dim)}, "
                      f"`vector.similarity_function`: '{index.similarity}', `vector.quantization.enabled`: false}}}}")
        statements.append(Statement(index.name, cypher))
    return statements


def init_schema(graph: Graph, schema: Schema, embedding_dim: int) -> InitReport:
    planned = {s.name: s.cypher for s in plan(schema, embedding_dim)}
    recorded = recorded_version(graph)
    previous = recorded["version"] if recorded else None
    # A record written before definitions were tracked knows names only: take them as currently defined.
    known = recorded.get("definitions") if recorded else None
    before = (dict(zip(recorded["managed"], known)) if known else {n: planned.get(n) for n in recorded["managed"]}
              ) if recorded else {}
    _check_compatible(recorded, schema.version, planned, before, embedding_dim)

    constraints = _names(graph, _CONSTRAINTS)
    dropped = sorted(name for name, cypher in before.items() if planned.get(name) != cypher)  # gone or redefined
    for name in dropped:
        kind = "CONSTRAINT" if name in constraints else "INDEX"
        graph.write(f"DROP {kind} `{name}` IF EXISTS")  # a name we created
    existing = (constraints | _names(graph, _INDEXES)) - set(dropped)
    created = [name for name in planned if name not in existing]
    vectors = {index.name for index in schema.indexes if index.kind == "vector"}
    seconds = {}
    # the vector indexes after the others: over a loaded graph they take longest, and their time is reported apart
    for phase, names in (("indexes", [n for n in created if n not in vectors]),
                         ("vector indexes", [n for n in created if n in vectors])):
        if names:
            began = time.perf_counter()
            for name in names:
                graph.write(planned[name])
            graph.write(_AWAIT)
            seconds[phase] = round(time.perf_counter() - began, 2)
    if recorded is None or previous != schema.version or not known:
        graph.write(_WRITE_VERSION, id=_VERSION_ID, version=schema.version, version_iri=str(schema.version_iri),
                    embedding_dim=embedding_dim, managed=list(planned), definitions=list(planned.values()))
    action = ("created" if recorded is None else "migrated" if previous != schema.version
              else "repaired" if created else "unchanged")
    return InitReport(action=action, version=schema.version, previous_version=previous, created=created,
                      dropped=dropped, seconds=seconds)


def init_configured(settings: Settings, *, on_start: bool = False) -> InitReport | None:
    """`kg db init`: init_schema against the configured database. `kg db start` (on_start) runs it only on an empty
    database or one an older minor ontology version made, whose indexes it brings up to date (the queries of this
    version rely on them); a database it would refuse is left for the command that uses it to report."""
    schema = get_schema()
    with store.open_graph(settings) as graph:
        if on_start and not is_empty(graph) and not _behind(recorded_version(graph), schema.version,
                                                            settings.embedding_dim):
            return None
        return init_schema(graph, schema, settings.embedding_dim)


# The reads below decide what init_schema writes, so they go to the leader (graph.write), which a reader may lag.

def recorded_version(graph: Graph) -> dict[str, Any] | None:
    records = graph.write(_READ_VERSION, id=_VERSION_ID)
    return records[0]["v"] if records else None


def is_empty(graph: Graph) -> bool:
    """No nodes at all (so no schema-version node either): a database `kg db start` should initialise."""
    return graph.write(_EMPTY)[0]["empty"]


def _names(graph: Graph, show: str) -> set[str]:
    return {r["name"] for r in graph.write(show)}


def _check_compatible(recorded: dict[str, Any] | None, version: str, planned: dict[str, str], before: dict[str, str],
                      embedding_dim: int) -> None:
    if recorded is None:
        return
    previous = recorded["version"]
    if _semver(previous) > _semver(version):
        raise SchemaVersionError(
            f"the database was initialised with ontology {previous}, newer than this paperkg's {version}",
            hint="upgrade paperkg, or point PAPERKG_NEO4J_URI at another database")
    if _semver(previous)[0] != _semver(version)[0]:
        raise SchemaVersionError(
            f"the database holds a graph of ontology {previous}; this paperkg writes ontology {version}, "
            "a new major version whose data the old graph does not satisfy",
            hint="re-ingest into a fresh database (`kg db reset`, then `kg db start`)")
    if recorded["embedding_dim"] != embedding_dim:
        raise SchemaVersionError(
            f"the chunk vector index has {recorded['embedding_dim']} dimensions but PAPERKG_EMBEDDING_DIM is "
            f"{embedding_dim}",
            hint=f"set PAPERKG_EMBEDDING_DIM={recorded['embedding_dim']}, or re-ingest into a fresh database "
                 "with the new embedding model")
    if previous == version and before != planned:
        raise SchemaVersionError(
            f"the ontology's indexes changed but its version is still {version}",
            hint="bump owl:versionInfo and owl:versionIRI in ontology/paperkg.ttl, then run `kg db init`")


def _behind(recorded: dict[str, Any] | None, version: str, embedding_dim: int) -> bool:
    """An older minor version of the same major and embedding size: one init_schema migrates."""
    if recorded is None or recorded["embedding_dim"] != embedding_dim:
        return False
    old, new = _semver(recorded["version"]), _semver(version)
    return old[0] == new[0] and old < new


def _semver(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))

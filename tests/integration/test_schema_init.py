"""`kg db init`: constraints and indexes from the ontology, idempotent, versioned."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app
from kg.db import store
from kg.db.graph import Graph
from kg.errors import SchemaVersionError
from kg.db.localserver import LocalNeo4j
from kg.db.schema import init_schema, plan, recorded_version
from kg.settings import get_settings
from ontology.loader import ONTOLOGY_FILE, SHAPES_FILE, get_schema, load_schema
from tests.neo4j_harness import TEST_PASSWORD, discard_neo4j, local_settings


def index_names(driver) -> dict[str, str]:
    return {r["name"]: r["type"] for r in driver.execute_query("SHOW INDEXES YIELD name, type").records}


CURRENT = get_schema().version  # the variants below are the next minor version and a new major one (2.0.0)


def ontology_variant(tmp_path, version: str, drop_captions: bool = False, authors_unsearchable: bool = False):
    text = ONTOLOGY_FILE.read_text().replace(f'"{CURRENT}"', f'"{version}"').replace(f"ontology/{CURRENT}",
                                                                                   f"ontology/{version}")
    if drop_captions:
        text = text.replace("pkg:captionsIndex a pkg:FulltextIndex", "pkg:captionsIndex a owl:Thing")
    if authors_unsearchable:
        text = text.replace("pkg:onClass pkg:Entity , pkg:Author ;", "pkg:onClass pkg:Entity ;")
    path = tmp_path / f"paperkg-{version}.ttl"
    path.write_text(text)
    return load_schema(path, SHAPES_FILE)


def test_init_creates_everything_then_is_a_no_op(empty_db):
    schema = get_schema()
    first = init_schema(Graph(empty_db), schema, 384)
    assert first.action == "created" and set(first.created) == {s.name for s in plan(schema, 384)}
    assert set(first.seconds) == {"indexes", "vector indexes"}  # the vector index built after the others, timed apart
    indexes = index_names(empty_db)
    assert indexes["entity_names"] == "FULLTEXT" and indexes["chunk_text"] == "FULLTEXT"
    assert indexes["chunk_embedding"] == "VECTOR" and indexes["paperkg_paper_doi"] == "RANGE"
    # what the needs-attention queue seeks, on every curatable label and relationship type
    assert indexes["paperkg_chunk_verification_status"] == indexes["paperkg_rel_mentions_contested_at"] == "RANGE"
    constraints = {r["name"]: (r["labelsOrTypes"], r["properties"]) for r in
                   empty_db.execute_query("SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties").records}
    assert constraints["paperkg_method_id"] == (["Method"], ["id"]) and len(constraints) == len(schema.labels) + 2
    assert constraints["paperkg_curationevent_id"] == (["CurationEvent"], ["id"])  # the curation ledger
    assert constraints["paperkg_curator_id"] == (["Curator"], ["id"])
    config = empty_db.execute_query("SHOW INDEXES YIELD name, options WHERE name = 'chunk_embedding' "
                                    "RETURN options.indexConfig AS c").records[0]["c"]
    assert config["vector.dimensions"] == 384
    assert config["vector.quantization.enabled"] is False  # quantized, it found 0.895 of the exact top 10
    recorded = recorded_version(Graph(empty_db))
    assert (recorded["version"], recorded["embedding_dim"]) == (CURRENT, 384)

    second = init_schema(Graph(empty_db), schema, 384)
    assert (second.action, second.created, second.dropped, second.seconds) == ("unchanged", [], [], {})
    assert index_names(empty_db) == indexes
    assert recorded_version(Graph(empty_db))["applied_at"] == recorded["applied_at"]


def test_kg_db_init_twice(empty_db, cli_env):
    first = CliRunner().invoke(app, ["db", "init"])
    assert first.exit_code == 0, first.output
    assert f"ontology {CURRENT}, created; {len(plan(get_schema(), 384))} created, 0 dropped" in first.stdout
    second = CliRunner().invoke(app, ["db", "init"])
    assert f"ontology {CURRENT}, unchanged; 0 created, 0 dropped" in second.stdout


def test_init_repairs_a_dropped_index(empty_db):
    init_schema(Graph(empty_db), get_schema(), 384)
    empty_db.execute_query("DROP INDEX chunk_text")
    report = init_schema(Graph(empty_db), get_schema(), 384)
    assert (report.action, report.created) == ("repaired", ["chunk_text"])


def test_record_without_definitions_is_repaired_not_a_crash(empty_db):
    """Databases initialised before index definitions were recorded still open."""
    init_schema(Graph(empty_db), get_schema(), 384)
    empty_db.execute_query("MATCH (v:PaperKGSchema) REMOVE v.definitions")
    empty_db.execute_query("DROP INDEX chunk_text")
    report = init_schema(Graph(empty_db), get_schema(), 384)
    assert (report.action, report.created, report.dropped) == ("repaired", ["chunk_text"], [])


def test_minor_version_migrates_and_newer_database_is_refused(empty_db, tmp_path):
    init_schema(Graph(empty_db), get_schema(), 384)
    major, minor, _ = CURRENT.split(".")
    next_minor = f"{major}.{int(minor) + 1}.0"
    newer = ontology_variant(tmp_path, next_minor, drop_captions=True, authors_unsearchable=True)
    report = init_schema(Graph(empty_db), newer, 384)
    assert (report.action, report.previous_version) == ("migrated", CURRENT)
    assert (report.dropped, report.created) == (["captions", "entity_names"], ["entity_names"])
    assert "captions" not in index_names(empty_db)
    labels = empty_db.execute_query("SHOW INDEXES YIELD name, labelsOrTypes WHERE name = 'entity_names' "
                                    "RETURN labelsOrTypes").records[0][0]
    assert "Author" not in labels and "Method" in labels
    assert recorded_version(Graph(empty_db))["version"] == next_minor
    with pytest.raises(SchemaVersionError, match=f"newer than this paperkg's {CURRENT}"):
        init_schema(Graph(empty_db), get_schema(), 384)


def test_major_version_and_embedding_size_changes_are_refused(empty_db, tmp_path):
    init_schema(Graph(empty_db), get_schema(), 384)
    with pytest.raises(SchemaVersionError, match="new major version") as err:
        init_schema(Graph(empty_db), ontology_variant(tmp_path, "2.0.0"), 384)
    assert "kg db reset" in err.value.hint
    with pytest.raises(SchemaVersionError, match="384 dimensions but PAPERKG_EMBEDDING_DIM is 768"):
        init_schema(Graph(empty_db), get_schema(), 768)
    assert recorded_version(Graph(empty_db))["version"] == CURRENT


def test_changed_indexes_without_version_bump_are_refused(empty_db, tmp_path):
    init_schema(Graph(empty_db), get_schema(), 384)
    for change in ({"drop_captions": True}, {"authors_unsearchable": True}):
        with pytest.raises(SchemaVersionError, match=f"still {CURRENT}"):
            init_schema(Graph(empty_db), ontology_variant(tmp_path, CURRENT, **change), 384)


def test_kg_db_start_initialises_an_empty_database_once(tmp_path, monkeypatch):
    settings = local_settings(tmp_path / "data")
    for name, value in {"PAPERKG_DATA_DIR": settings.data_dir, "PAPERKG_BOLT_PORT": settings.bolt_port,
                        "PAPERKG_HTTP_PORT": settings.http_port, "PAPERKG_NEO4J_PASSWORD": TEST_PASSWORD,
                        "PAPERKG_NEO4J_HEAP": "512m", "PAPERKG_NEO4J_PAGECACHE": "128m"}.items():
        monkeypatch.setenv(name, str(value))
    get_settings.cache_clear()
    try:
        first = CliRunner().invoke(app, ["db", "start"])
        assert first.exit_code == 0, first.output
        assert f"Graph schema: ontology {CURRENT}, created" in first.stdout
        with store.connect(settings) as driver:
            assert recorded_version(Graph(driver))["version"] == CURRENT
        second = CliRunner().invoke(app, ["db", "start"])
        assert "already running" in second.stdout and "Graph schema" not in second.stdout
        # a database an older minor version made, which lacked an index: a start brings it up to date
        major, minor, _ = CURRENT.split(".")
        older = f"{major}.{int(minor) - 1}.0"
        with store.connect(settings) as driver:
            driver.execute_query("MATCH (v:PaperKGSchema) SET v.version = $older", older=older)
            driver.execute_query("DROP INDEX paperkg_chunk_verification_status")
        third = CliRunner().invoke(app, ["db", "start"])
        assert f"Graph schema: ontology {CURRENT} (was {older}), migrated; 1 created, 0 dropped" in third.stdout
        with store.connect(settings) as driver:
            assert "paperkg_chunk_verification_status" in index_names(driver)
    finally:
        discard_neo4j(LocalNeo4j(settings))
        get_settings.cache_clear()

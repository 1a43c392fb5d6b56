"""`kg db init`: constraints and indexes from the ontology, idempotent, versioned."""

from __future__ import annotations

import pytest

from kg.errors import SchemaVersionError
from kg.schema import init_schema, plan, recorded_version
from ontology.loader import ONTOLOGY_FILE, SHAPES_FILE, get_schema, load_schema


def index_names(driver) -> dict[str, str]:
    return {r["name"]: r["type"] for r in driver.execute_query("SHOW INDEXES YIELD name, type").records}


def ontology_variant(tmp_path, version: str, drop_captions: bool = False):
    text = ONTOLOGY_FILE.read_text().replace('"1.0.0"', f'"{version}"').replace("ontology/1.0.0", f"ontology/{version}")
    if drop_captions:
        text = text.replace("pkg:captionsIndex a pkg:FulltextIndex", "pkg:captionsIndex a owl:Thing")
    path = tmp_path / f"paperkg-{version}.ttl"
    path.write_text(text)
    return load_schema(path, SHAPES_FILE)


def test_init_creates_everything_then_is_a_no_op(empty_db):
    schema = get_schema()
    first = init_schema(empty_db, schema, 384)
    assert first.action == "created" and set(first.created) == {s.name for s in plan(schema, 384)}
    indexes = index_names(empty_db)
    assert indexes["entity_names"] == "FULLTEXT" and indexes["chunk_text"] == "FULLTEXT"
    assert indexes["chunk_embedding"] == "VECTOR" and indexes["paperkg_paper_doi"] == "RANGE"
    constraints = {r["name"]: (r["labelsOrTypes"], r["properties"]) for r in
                   empty_db.execute_query("SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties").records}
    assert constraints["paperkg_method_id"] == (["Method"], ["id"]) and len(constraints) == len(schema.labels)
    dims = empty_db.execute_query("SHOW INDEXES YIELD name, options WHERE name = 'chunk_embedding' "
                                  "RETURN options.indexConfig['vector.dimensions'] AS d").records[0]["d"]
    assert dims == 384
    recorded = recorded_version(empty_db)
    assert (recorded["version"], recorded["embedding_dim"]) == ("1.0.0", 384)

    second = init_schema(empty_db, schema, 384)
    assert (second.action, second.created, second.dropped) == ("unchanged", [], [])
    assert index_names(empty_db) == indexes
    assert recorded_version(empty_db)["applied_at"] == recorded["applied_at"]


def test_init_repairs_a_dropped_index(empty_db):
    init_schema(empty_db, get_schema(), 384)
    empty_db.execute_query("DROP INDEX chunk_text")
    report = init_schema(empty_db, get_schema(), 384)
    assert (report.action, report.created) == ("repaired", ["chunk_text"])


def test_minor_version_migrates_and_newer_database_is_refused(empty_db, tmp_path):
    init_schema(empty_db, get_schema(), 384)
    newer = ontology_variant(tmp_path, "1.1.0", drop_captions=True)
    report = init_schema(empty_db, newer, 384)
    assert (report.action, report.previous_version, report.dropped) == ("migrated", "1.0.0", ["captions"])
    assert "captions" not in index_names(empty_db)
    assert recorded_version(empty_db)["version"] == "1.1.0"
    with pytest.raises(SchemaVersionError, match="newer than this paperkg's 1.0.0"):
        init_schema(empty_db, get_schema(), 384)


def test_major_version_and_embedding_size_changes_are_refused(empty_db, tmp_path):
    init_schema(empty_db, get_schema(), 384)
    with pytest.raises(SchemaVersionError, match="new major version") as err:
        init_schema(empty_db, ontology_variant(tmp_path, "2.0.0"), 384)
    assert "kg db reset" in err.value.hint
    with pytest.raises(SchemaVersionError, match="384 dimensions but PAPERKG_EMBEDDING_DIM is 768"):
        init_schema(empty_db, get_schema(), 768)
    assert recorded_version(empty_db)["version"] == "1.0.0"


def test_changed_indexes_without_version_bump_are_refused(empty_db, tmp_path):
    init_schema(empty_db, get_schema(), 384)
    same_version = ontology_variant(tmp_path, "1.0.0", drop_captions=True)
    with pytest.raises(SchemaVersionError, match="still 1.0.0"):
        init_schema(empty_db, same_version, 384)

"""write_in_transaction on a real Neo4j: statements split into batches, elements proposed twice written once as
MERGE made them (later properties over earlier ones, the first created_at), edges to a node that does not exist
reported, and the CREATE path (new nodes) giving the same graph as the MERGE path."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from kg.db.graph import Graph
from kg.db.schema import init_schema
from kg.ingest.write import write_in_transaction
from ontology.loader import get_schema
from ontology.records import EdgeRecord, NodeRecord

EARLY = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)
LATE = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def section(n: int, title: str, created: datetime) -> NodeRecord:
    return NodeRecord("Section", f"section_t{n}", {"title": title, "created_at": created, "verification_status": "auto"})


def sub(source: int, target: int, confidence: float, created: datetime = EARLY) -> EdgeRecord:
    return EdgeRecord("HAS_SUBSECTION", "Section", f"section_t{source}", "Section", f"section_t{target}",
                      {"confidence": confidence, "created_at": created, "verification_status": "auto"})


NODES = [section(1, "one", EARLY), section(2, "two", EARLY), section(3, "three", EARLY), section(2, "two again", LATE)]
EDGES = [sub(1, 2, 0.5), sub(1, 3, 0.6), sub(1, 2, 0.9, LATE), sub(1, 9, 0.7), sub(3, 2, 0.8)]


def graph(driver) -> tuple[list, list]:
    nodes = driver.execute_query("MATCH (s:Section) RETURN s.id AS id, s.title AS title, s.created_at AS created "
                                 "ORDER BY id").records
    edges = driver.execute_query("MATCH (a:Section)-[r:HAS_SUBSECTION]->(b:Section) RETURN a.id AS a, b.id AS b, "
                                 "r.confidence AS confidence, r.created_at AS created ORDER BY a, b").records
    return [tuple(r.values()) for r in nodes], [tuple(r.values()) for r in edges]


@pytest.mark.parametrize("created", [True, False], ids=["create", "merge"])
def test_batches_write_repeated_elements_once_and_report_missing_endpoints(empty_db, created):
    init_schema(Graph(empty_db), get_schema(), 8)
    new = frozenset((n.label, n.id) for n in NODES) if created else frozenset()
    sent = []
    with empty_db.session() as session:
        nodes, edges, missing = session.execute_write(write_in_transaction, NODES, EDGES, new=new, batch_size=2,
                                                      on_statement=sent.append)
    assert (nodes, edges) == (3, 3)
    assert [(e.source_id, e.target_id) for e in missing] == [("section_t1", "section_t9")]
    # nodes in 2 statements of at most 2 rows; of the 4 distinct edges, the 3 between written nodes in 2 and the one
    # to a node not written here (looked up by its id, and not found) in 1
    assert sent == [1, 2, 3, 4, 5]
    found_nodes, found_edges = graph(empty_db)
    assert [(i, t) for i, t, _ in found_nodes] == [("section_t1", "one"), ("section_t2", "two again"),
                                                  ("section_t3", "three")]
    assert {c.to_native() for _, _, c in found_nodes} == {EARLY}  # the first version's created_at
    assert [(a, b, c) for a, b, c, _ in found_edges] == [("section_t1", "section_t2", 0.9),
                                                         ("section_t1", "section_t3", 0.6),
                                                         ("section_t3", "section_t2", 0.8)]
    assert {c.to_native() for *_, c in found_edges} == {EARLY}


def test_edges_to_nodes_this_write_did_not_write_are_found_by_id(empty_db):
    """An edge end written by the same call is looked up by its element id, any other by its id: an edge from a new
    node to one already in the graph (and back) is written, one to a node in neither is reported missing."""
    init_schema(Graph(empty_db), get_schema(), 8)
    with empty_db.session() as session:
        session.execute_write(write_in_transaction, [section(9, "nine", EARLY)], [])
        nodes, edges, missing = session.execute_write(
            write_in_transaction, [section(1, "one", EARLY), section(2, "two", EARLY)],
            [sub(1, 2, 0.5), sub(1, 9, 0.6), sub(9, 2, 0.7), sub(2, 8, 0.8)],
            new=frozenset({("Section", "section_t1"), ("Section", "section_t2")}))
    assert (nodes, edges) == (2, 3)
    assert [(e.source_id, e.target_id) for e in missing] == [("section_t2", "section_t8")]
    _, found_edges = graph(empty_db)
    assert [(a, b, c) for a, b, c, _ in found_edges] == [("section_t1", "section_t2", 0.5),
                                                         ("section_t1", "section_t9", 0.6),
                                                         ("section_t9", "section_t2", 0.7)]


def test_edges_to_nodes_an_earlier_call_wrote_are_found_by_their_element_id(empty_db):
    """Two calls in one transaction sharing `element_ids` (a paper's own nodes, then the rest): the second call's
    edges to the first call's nodes are matched by element id, as if one call had written them all."""
    init_schema(Graph(empty_db), get_schema(), 8)
    sent: list[str] = []

    def write(tx) -> tuple[int, int, list[EdgeRecord]]:
        run = tx.run
        tx.run = lambda query, **params: sent.append(query) or run(query, **params)
        ends: dict[tuple[str, str], str] = {}
        write_in_transaction(tx, [section(1, "one", EARLY), section(2, "two", EARLY)], [sub(1, 2, 0.5)],
                             element_ids=ends)
        assert set(ends) == {("Section", "section_t1"), ("Section", "section_t2")}
        sent.clear()
        return write_in_transaction(tx, [section(3, "three", EARLY)], [sub(1, 3, 0.6), sub(3, 2, 0.7)],
                                    element_ids=ends)

    with empty_db.session() as session:
        assert session.execute_write(write)[:2] == (1, 2)
    edge_statements = [q for q in sent if "HAS_SUBSECTION" in q]
    assert edge_statements and all("{id: row" not in q for q in edge_statements)  # no id-index seek of an end
    _, found_edges = graph(empty_db)
    assert [(a, b) for a, b, _, _ in found_edges] == [("section_t1", "section_t2"), ("section_t1", "section_t3"),
                                                      ("section_t3", "section_t2")]


def test_new_edges_of_several_types_share_one_statement_and_keep_their_types_and_properties(empty_db):
    """New edges take their type from their row (kg.ingest.write._CREATE_EDGE): one statement text for every type whose
    ends the call wrote (Neo4j parses and plans each text once per server start), each edge with its own type and
    only the properties it carries, a type's own ones (MENTIONS' char spans) included."""
    init_schema(Graph(empty_db), get_schema(), 8)
    chunk = NodeRecord("Chunk", "chunk_t1", {"text": "a chunk", "verification_status": "auto"})
    nodes = [section(1, "one", EARLY), section(2, "two", EARLY), chunk]
    mentions = EdgeRecord("MENTIONS", "Chunk", "chunk_t1", "Section", "section_t2",
                          {"char_starts": [3], "char_ends": [8], "confidence": 0.4, "verification_status": "auto"})
    has_chunk = EdgeRecord("HAS_CHUNK", "Section", "section_t1", "Chunk", "chunk_t1",
                           {"confidence": 1.0, "verification_status": "auto"})
    sent: list[str] = []

    def write(tx):
        run = tx.run
        tx.run = lambda query, **params: sent.append(query) or run(query, **params)
        return write_in_transaction(tx, nodes, [sub(1, 2, 0.5), has_chunk, mentions],
                                    new=frozenset((n.label, n.id) for n in nodes), schema=get_schema())

    with empty_db.session() as session:
        assert session.execute_write(write)[:2] == (3, 3)
    assert len([q for q in sent if "]->(t)" in q]) == 1
    found = empty_db.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS type, b.id AS b, r.confidence AS confidence, "
        "r.char_starts AS starts, r.char_ends AS ends, r.created_at AS created ORDER BY type").records
    assert [tuple(r.values()) for r in found] == [
        ("section_t1", "HAS_CHUNK", "chunk_t1", 1.0, None, None, None),
        ("section_t1", "HAS_SUBSECTION", "section_t2", 0.5, None, None, EARLY),
        ("chunk_t1", "MENTIONS", "section_t2", 0.4, [3], [8], None)]


def test_new_nodes_of_several_labels_share_one_statement_and_keep_their_labels(empty_db):
    """New nodes take their label from their row (kg.ingest.write._CREATE_NODES), as new edges take their type; nodes
    that may exist already are MERGEd by label, each label a statement of its own (its id index finds them)."""
    init_schema(Graph(empty_db), get_schema(), 8)
    auto = {"verification_status": "auto"}
    new_nodes = [section(1, "one", EARLY), NodeRecord("Chunk", "chunk_t1", {"text": "a chunk", **auto}),
                 NodeRecord("Figure", "figure_t1", {"label": "Figure 1", **auto})]
    shared = [NodeRecord("Method", "method_t1", {"name": "routing", **auto}),
              NodeRecord("Dataset", "dataset_t1", {"name": "corpus", **auto})]
    sent: list[str] = []

    def write(tx):
        run = tx.run
        tx.run = lambda query, **params: sent.append(query) or run(query, **params)
        return write_in_transaction(tx, new_nodes + shared, [], new=frozenset((n.label, n.id) for n in new_nodes),
                                    schema=get_schema())

    with empty_db.session() as session:
        assert session.execute_write(write) == (5, 0, [])
    assert len([q for q in sent if "CREATE (n:" in q]) == 1 and len([q for q in sent if "MERGE (n:" in q]) == 2
    found = empty_db.execute_query("MATCH (n) WHERE n.id ENDS WITH '_t1' RETURN labels(n) AS labels, n.id AS id "
                                   "ORDER BY id").records
    assert [(r["labels"], r["id"]) for r in found] == [
        (["Chunk"], "chunk_t1"), (["Dataset"], "dataset_t1"), (["Figure"], "figure_t1"),
        (["Method"], "method_t1"), (["Section"], "section_t1")]


def test_new_edges_to_nodes_found_by_id_are_grouped_by_that_end_s_label(empty_db):
    """An end the call did not write is matched by its label's id index, so new edges to such ends share a statement
    per label, whatever their types; each edge reaches the node of its own label."""
    init_schema(Graph(empty_db), get_schema(), 8)
    method = NodeRecord("Method", "method_t1", {"name": "routing", "verification_status": "auto"})
    dataset = NodeRecord("Dataset", "dataset_t1", {"name": "corpus", "verification_status": "auto"})
    with empty_db.session() as session:
        session.execute_write(write_in_transaction, [method, dataset], [])
    chunk = NodeRecord("Chunk", "chunk_t1", {"text": "a chunk", "verification_status": "auto"})
    auto = {"verification_status": "auto"}
    edges = [EdgeRecord("MENTIONS", "Chunk", "chunk_t1", "Method", "method_t1", auto),
             EdgeRecord("MENTIONS", "Chunk", "chunk_t1", "Dataset", "dataset_t1", auto),
             EdgeRecord("USES", "Chunk", "chunk_t1", "Method", "method_t1", auto),
             EdgeRecord("EVALUATES_ON", "Chunk", "chunk_t1", "Dataset", "dataset_t1", auto)]
    sent: list[str] = []

    def write(tx):
        run = tx.run
        tx.run = lambda query, **params: sent.append(query) or run(query, **params)
        return write_in_transaction(tx, [chunk], edges, new=frozenset({("Chunk", "chunk_t1")}), schema=get_schema())

    with empty_db.session() as session:
        assert session.execute_write(write) == (1, 4, [])
    assert sorted(q.split("MATCH (t:")[1].split("`")[1] for q in sent if "]->(t)" in q) == ["Dataset", "Method"]
    found = empty_db.execute_query("MATCH (:Chunk)-[r]->(b) RETURN type(r) AS type, labels(b)[0] AS label, b.id AS id "
                                   "ORDER BY type, id").records
    assert [tuple(r.values()) for r in found] == [
        ("EVALUATES_ON", "Dataset", "dataset_t1"), ("MENTIONS", "Dataset", "dataset_t1"),
        ("MENTIONS", "Method", "method_t1"), ("USES", "Method", "method_t1")]


def test_create_with_the_ontology_s_property_names_stores_what_merge_stores(empty_db):
    """The CREATE path names every property the ontology declares and takes each from the row or `$shared`: zero,
    false-like and empty values are stored, a null one is not, and every stored value and type is the MERGE path's."""
    init_schema(Graph(empty_db), get_schema(), 8)

    def nodes(prefix: str) -> list[NodeRecord]:
        rows = [{"title": "", "level": 0, "pages": [], "confidence": 0.0, "number": None, "ordinal": 1},
                {"title": "b", "level": 0, "pages": [], "confidence": 0.0, "number": "2", "ordinal": 2},
                {"title": "c", "level": 0, "pages": [3], "confidence": 1, "ordinal": 3}]
        return [NodeRecord("Section", f"{prefix}{i}", {**row, "created_at": EARLY, "verification_status": "auto"})
                for i, row in enumerate(rows)]

    def edges(prefix: str) -> list[EdgeRecord]:
        return [EdgeRecord("HAS_SUBSECTION", "Section", f"{prefix}0", "Section", f"{prefix}{i}",
                           {"confidence": 0.0, "pages": [], "source_chunk_ids": [], "created_at": EARLY})
                for i in (1, 2)]

    created, merged = "section_c", "section_m"
    with empty_db.session() as session:
        session.execute_write(write_in_transaction, nodes(created), edges(created), schema=get_schema(),
                              new=frozenset(("Section", n.id) for n in nodes(created)))
        session.execute_write(write_in_transaction, nodes(merged), edges(merged), schema=get_schema())
    stored = {r["id"]: (r["node"], r["edges"]) for r in empty_db.execute_query(
        "MATCH (s:Section) OPTIONAL MATCH (s)-[r:HAS_SUBSECTION]->(t) "
        "RETURN s.id AS id, properties(s) AS node, collect([t.id, properties(r)]) AS edges").records}
    first = stored[f"{created}0"][0]
    assert first["title"] == "" and first["level"] == 0 and first["pages"] == [] and first["confidence"] == 0.0
    assert "number" not in first and isinstance(stored[f"{created}2"][0]["confidence"], int)
    for i in range(3):
        node_c, edges_c = stored[f"{created}{i}"]
        node_m, edges_m = stored[f"{merged}{i}"]
        assert {**node_c, "id": None} == {**node_m, "id": None}
        assert sorted(((t[len(created):], p) for t, p in edges_c if t), key=str) == \
            sorted(((t[len(merged):], p) for t, p in edges_m if t), key=str)  # collect() order is the store's

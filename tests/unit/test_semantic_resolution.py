"""Canonical resolution against entities already in the graph (kg.entities.resolve, pure)."""

from __future__ import annotations

from extractors.semantic.canonical import entity_id
from dataclasses import replace

from kg.entities import KnownEntity, resolve
from kg.records import EdgeRecord, NodeRecord

PROV = {"source_chunk_ids": ["c1"], "pages": [2], "bboxes": ["2:1,2,3,4"], "extractor": "paperkg-semantic@0.1.0",
        "verification_status": "auto", "paper_sha256": "b" * 64, "confidence": 0.8}


def _paper(label: str, name: str, aliases=()) -> tuple[NodeRecord, EdgeRecord]:
    node = NodeRecord(label, entity_id(label, name), {"name": name, "aliases": list(aliases), "confidence": 0.8})
    return node, EdgeRecord("USES", "Paper", "paper_b", label, node.id, PROV)


def test_an_alias_in_the_graph_reuses_the_existing_node_and_moves_the_edges():
    known = [KnownEntity("Method", "method_old", "Sparse Routing Attention", ("SRA",))]
    node, edge = _paper("Method", "sparse routing attention")
    assert resolve([node], [edge], known)[1] == [replace(edge, target_id="method_old")]
    known = [KnownEntity("Method", "method_old", "Sparse Routing Attention", ("SRA",))]
    node, edge = _paper("Method", "SRA")
    nodes, edges = resolve([node], [edge], known)
    assert nodes == []  # the graph's node stays as it is
    assert [(e.type, e.target_id) for e in edges] == [("USES", "method_old")]


def test_genuinely_different_names_stay_apart_without_candidates():
    known = [KnownEntity("Method", "m1", "BERT"), KnownEntity("Method", "m2", "ResNet-50"),
             KnownEntity("Dataset", "d1", "RoBERTa")]
    for name in ("RoBERTa", "ResNet-101"):
        node, edge = _paper("Method", name)
        nodes, edges = resolve([node], [edge], known)
        assert nodes == [node] and edges == [edge]


def test_an_uncertain_spelling_gets_a_same_as_candidate_with_evidence():
    known = [KnownEntity("Method", "m1", "Contriever")]
    node, edge = _paper("Method", "Contreiver")
    nodes, edges = resolve([node], [edge], known)
    assert nodes == [node]
    same_as = [e for e in edges if e.type == "SAME_AS"]
    assert [(e.source_id, e.target_id) for e in same_as] == [(node.id, "m1")]
    assert same_as[0].props["source_chunk_ids"] == ["c1"] and same_as[0].props["confidence"] == 0.54


def test_labels_never_cross():
    node, edge = _paper("Dataset", "BERT")
    assert resolve([node], [edge], [KnownEntity("Method", "m1", "BERT")]) == ([node], [edge])

"""Canonical resolution against entities already in the graph (kg.ingest.entities.resolve, pure)."""

from __future__ import annotations

import random
import string
from dataclasses import replace

from extractors.semantic.canonical import entity_id, match_key

from kg.ingest.entities import EntityIndex, KnownEntity, _candidates, resolve
from ontology.records import EdgeRecord, NodeRecord

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


def test_a_name_two_entities_carry_resolves_to_the_one_not_rejected_whatever_their_order():
    # a curator's merge rejects the duplicate and gives its name to the survivor as an alias: both carry it
    duplicate = KnownEntity("Method", "method_a", "SRA", rejected=True)
    survivor = KnownEntity("Method", "method_b", "Sparse Routing Attention", ("SRA",))
    node, edge = _paper("Method", "SRA")
    for known in ([duplicate, survivor], [survivor, duplicate]):
        assert [e.target_id for e in resolve([node], [edge], known)[1]] == ["method_b"]
        index = EntityIndex()
        for entity in known:  # as a catalog learns them, one by one
            index.add(entity)
        assert [e.target_id for e in resolve([node], [edge], index)[1]] == ["method_b"]
    twins = [KnownEntity("Method", "method_z", "SRA"), KnownEntity("Method", "method_y", "S.R.A.", ("SRA",))]
    assert {resolve([node], [edge], known)[1][0].target_id for known in (twins, twins[::-1])} == {"method_y"}


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


def _every_pair(nodes, edges, known):
    """The resolution as first written: each new entity's names against every known entity of its label; a name
    several entities carry goes to the one not rejected, then of the smallest id."""
    by_key = {}
    for k in sorted(known, key=lambda k: (k.rejected, k.id), reverse=True):
        by_key.update({(k.label, match_key(n)): k for n in (k.name, *k.aliases) if n})
    out, remap, same_as = [], {}, []
    for node in nodes:
        names = [node.props.get("name", ""), *node.props.get("aliases", [])]
        match = next((by_key[(node.label, match_key(n))] for n in names if (node.label, match_key(n)) in by_key), None)
        if match is not None:
            remap[(node.label, node.id)] = match
            continue
        out.append(node)
        same_as += _candidates(node, names, [k for k in known if k.label == node.label], edges)
    moved = [replace(e, source_id=remap.get((e.source_label, e.source_id), KnownEntity("", e.source_id, "")).id,
                     target_id=remap.get((e.target_label, e.target_id), KnownEntity("", e.target_id, "")).id)
             for e in edges]
    return out, moved + same_as


def test_candidates_are_every_known_entity_with_an_uncertain_spelling_among_thousands():
    """The prefilter that spares comparing every pair in Python must not lose one: the whole result, candidates
    in order with their confidence, is the one that compares every pair of names."""
    rng = random.Random(7)
    stems = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 11))) for _ in range(300)]

    def variant(stem: str) -> str:  # a near spelling: one letter changed, added or dropped, or a number
        i = rng.randrange(len(stem))
        return rng.choice([stem[:i] + rng.choice(string.ascii_lowercase) + stem[i + 1:], stem[:i] + "x" + stem[i:],
                           stem[:i] + stem[i + 1:], f"{stem}-{rng.randint(1, 3)}", stem.upper()])

    labels = ("Method", "Dataset")
    known = [KnownEntity(rng.choice(labels), f"k{i}", variant(rng.choice(stems)),
                         tuple(variant(rng.choice(stems)) for _ in range(rng.randint(0, 2)))) for i in range(3000)]
    # keys at a ratio of exactly 85, the candidate threshold (34 of 40 characters in common)
    known.append(KnownEntity("Method", "edge", "abcdefghijklmnopqrst"))
    proposed = [_paper("Method", "abcdefghijklmnopqxyz")]
    proposed += [_paper(rng.choice(labels), variant(rng.choice(stems)),
                        [variant(rng.choice(stems)) for _ in range(rng.randint(0, 2))]) for _ in range(60)]
    nodes, edges = [n for n, _ in proposed], [e for _, e in proposed]
    expected = _every_pair(nodes, edges, known)
    assert sum(e.type == "SAME_AS" for e in expected[1]) > 20  # real candidates, so the comparison means something
    assert ("SAME_AS", "edge") in {(e.type, e.target_id) for e in expected[1]}
    assert resolve(nodes, edges, known) == expected

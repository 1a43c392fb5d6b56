"""bench/synth.py: synthetic papers for the scale benchmarks, made of the two papers of the hand-made sample graph.
They must follow from the seed, be papers of their own (ids, DOIs), share entities as the vocabulary says, cite
only papers made before them, and go through the bulk writer's GraphImage, which turns those citations into CITES."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from datetime import datetime, timezone

import pytest

from bench.synth import SynthConfig, Synthesizer, Template, word
from extractors.model import paper_id
from kg.ingest.bulk import CsvGraph, GraphImage
from kg.ingest.entities import entity_labels
from kg.ingest.runs import Run
from ontology.loader import get_schema
from tests.sample_graph import SHA_A, SHA_B, sample_graph


def templates() -> list[Template]:
    """Each sample paper with the shared nodes, stamped by a run of its own; the sample's own citation edges left
    out (the writer makes those from DOIs)."""
    schema, (nodes, edges) = get_schema(), sample_graph()
    out = []
    for sha in (SHA_A, SHA_B):
        run = Run(sha, "ingest_test", datetime(2026, 12, 1, tzinfo=timezone.utc), ["test@1"])
        mine = [n for n in nodes if n.props.get("paper_sha256") in (sha, None)]
        ids = {(n.label, n.id) for n in mine}
        own_edges = [e for e in edges if e.type not in ("CITES", "REFERS_TO") and e.props.get("paper_sha256") == sha
                     and (e.source_label, e.source_id) in ids and (e.target_label, e.target_id) in ids]
        out.append(Template(run, [run.stamped(n, schema) for n in mine], [run.stamped(e, schema) for e in own_edges]))
    return out


def made(config: SynthConfig):
    synthesizer = Synthesizer(templates(), config)
    return list(synthesizer.papers()), synthesizer.stats


def test_the_same_seed_makes_the_same_papers_and_another_seed_others():
    first, _ = made(SynthConfig(30, seed=7))
    again, _ = made(SynthConfig(30, seed=7))
    other, _ = made(SynthConfig(30, seed=8))
    assert [(p.run.sha256, p.nodes, p.edges) for p in first] == [(p.run.sha256, p.nodes, p.edges) for p in again]
    assert [p.nodes for p in first] != [p.nodes for p in other]


def cited_papers(config: SynthConfig) -> list:
    """Papers made of templates with six references each, so that a paper cites several earlier ones."""
    out = []
    for t in templates():
        reference = next(n for n in t.nodes if n.label == "Reference")
        extra = [replace(reference, id=f"{reference.id}-{k}") for k in range(5)]
        out.append(Template(t.run, t.nodes + extra, t.edges))
    return list(Synthesizer(out, config).papers())


def _digest_in_a_process(hash_seed: str) -> str:
    code = ("import hashlib; from tests.unit.test_synth import cited_papers; from bench.synth import SynthConfig; "
            "papers = cited_papers(SynthConfig(60, seed=7, cite_share=0.9)); "
            "print(hashlib.sha256(repr([(p.nodes, p.edges) for p in papers]).encode()).hexdigest())")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": hash_seed},
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_same_seed_makes_the_same_papers_in_another_process():
    """A benchmark run is compared with the next one: nothing may follow the process's string hashing."""
    assert _digest_in_a_process("1") == _digest_in_a_process("2")


def test_each_paper_is_a_paper_of_its_own():
    papers, stats = made(SynthConfig(40, seed=1))
    assert stats.papers == 40 and len({p.run.sha256 for p in papers}) == 40
    own_ids = Counter((n.label, n.id) for p in papers for n in p.nodes
                      if n.props.get("paper_sha256") == p.run.sha256)
    assert own_ids and max(own_ids.values()) == 1  # no element of a paper's own is another paper's
    for i, paper in enumerate(papers):
        (node,) = [n for n in paper.nodes if n.label == "Paper"]
        assert node.id == paper_id(paper.run.sha256) and node.props["sha256"] == paper.run.sha256
        assert node.props["doi"] == f"10.5555/paperkg-synth.1.{i}"
        present = {(n.label, n.id) for n in paper.nodes}
        for edge in paper.edges:  # edges stay within the paper's records
            assert {(edge.source_label, edge.source_id), (edge.target_label, edge.target_id)} <= present
            assert edge.props.get("paper_sha256") in (paper.run.sha256, None)
        assert all(n.props.get("run_id") in (None, paper.run.id) for n in paper.nodes)


def test_chunk_text_is_rotated_at_a_word_boundary():
    original = {n.props["text"] for t in templates() for n in t.nodes if n.label == "Chunk"}
    papers, _ = made(SynthConfig(20, seed=3))
    texts = [n.props["text"] for p in papers for n in p.nodes if n.label == "Chunk"]
    assert any(t not in original for t in texts)
    words = {frozenset(t.split()) for t in original}
    assert all(frozenset(t.split()) in words for t in texts)  # the same words, wrapped around


def test_the_vocabulary_controls_how_much_papers_share():
    def entities(vocabulary: int) -> tuple[Counter, float]:
        papers, stats = made(SynthConfig(200, seed=2, vocabulary=vocabulary))
        distinct = Counter(label for label, _ in {(n.label, n.props["name"]) for p in papers for n in p.nodes
                                                  if n.label in entity_labels()})
        return distinct, stats.as_json()["entity_reuse_share"]

    small, small_share = entities(3)
    large, large_share = entities(100_000)
    assert max(small.values()) <= 3
    assert sum(large.values()) > 5 * sum(small.values())
    assert small_share > 0.9 > large_share


def test_made_up_names_are_not_near_spellings_of_each_other():
    from extractors.semantic.canonical import close_spellings, match_key

    words = [match_key(word(rank)) for rank in range(2000)]
    assert len(set(words)) == 2000
    assert close_spellings(words[:50], words) == set(range(50))  # each close only to itself


def test_citations_reach_earlier_papers_through_the_writer(tmp_path):
    papers, stats = made(SynthConfig(60, seed=4, cite_share=0.5))
    index = {f"10.5555/paperkg-synth.4.{i}": i for i in range(len(papers))}
    for i, paper in enumerate(papers):
        cited = [index[n.props["doi"]] for n in paper.nodes if n.label == "Reference" and n.props.get("doi") in index]
        assert all(j < i for j in cited)
    assert stats.citations > 0

    image = GraphImage(get_schema(), CsvGraph(get_schema(), tmp_path))
    written = [image.add(p.run, p.nodes, p.edges, 0) for p in papers]
    image.close()
    assert all(w.nodes_written for w in written)
    cites = sum(1 for line in (tmp_path / "rels-CITES-Paper-Paper.csv").read_text().splitlines()[1:])
    assert cites == stats.citations


@pytest.mark.parametrize("bad", [SynthConfig(0), SynthConfig(5, vocabulary=0)])
def test_a_config_that_makes_no_corpus_is_refused(bad):
    with pytest.raises(ValueError):
        list(Synthesizer(templates(), bad).papers())

"""The writer resolves a paper's entities through an EntityCatalog (kg.ingest.entities) instead of reading every entity
of the graph per paper. The graph must be the one full reads make, and the catalog must see what others changed in
between: a curator's edit, another writer's entity."""

from __future__ import annotations

import pytest

from kg.curation.operations import Curation
from kg.db.dump import canonical_dump
from kg.db.graph import Graph
from kg.ingest.tuned_writer import TunedWriter
from kg.ingest.writer import ReferenceWriter
from ontology.loader import get_schema
from tests.ingest_support import (SAMPLE_A, SAMPLE_B, clear, ingest_settings, prepared, value,  # noqa: F401
                                  without)

LEDGER = ("IngestRun", "PaperKGSchema")
# Corpus papers that name some of the same methods, datasets and tasks (two are one paper in two files).
CORPUS_PAPERS = ("latex_1911.02782.pdf", "pm_2020.acl-main.447.pdf", "s2orc_2020.acl-main.207.pdf", "sp_aimag10.pdf",
                 "latex_2305.03393.pdf", "pm_papermage.pdf")


def _written_tuned(driver, papers) -> TunedWriter:
    tuned = TunedWriter(Graph(driver), get_schema())
    futures = [tuned.submit(p.run, p.nodes, p.edges, rejected=len(p.rejections)) for p in papers]
    tuned.close()
    for future in futures:
        future.result()
    return tuned


def test_papers_resolved_through_the_catalog_make_the_graph_of_full_reads(ingest_settings, driver, corpus_dir):
    papers = prepared(ingest_settings, driver, [corpus_dir / name for name in CORPUS_PAPERS])
    tuned = _written_tuned(driver, papers)
    through_catalog = canonical_dump(Graph(driver), skip_labels=LEDGER)
    shared = value(driver, "MATCH (p:Paper)-->(n:Method|Dataset|Metric|Task|Concept) "
                           "WITH n, count(DISTINCT p) AS papers WHERE papers > 1 RETURN count(n)")
    assert shared >= 3  # later papers resolve to earlier papers' entities: the catalog's answers matter
    assert tuned.catalog.full_reads == 1  # the first paper read the graph's entities, the others used memory
    clear(driver)

    reference = ReferenceWriter(Graph(driver), get_schema())
    for p in papers:  # no catalog: each paper reads every entity of the graph
        reference.write(p.run, p.nodes, p.edges, rejected=len(p.rejections))
    assert canonical_dump(Graph(driver), skip_labels=LEDGER) == through_catalog


def _curator_gives_an_alias(driver) -> str:
    cur = Curation(Graph(driver), get_schema(), "alice")
    pg19 = value(driver, "MATCH (d:Dataset {name: 'PG-19'}) RETURN d.id")
    cur.edit(cur.node_ref(pg19), {"aliases": ["LongBench"]})
    return pg19


def _another_writer_creates_it(driver) -> str:
    driver.execute_query("CREATE (:Dataset {id: 'dataset_elsewhere', name: 'Long Bench Suite', "
                         "aliases: ['LongBench']})")
    return "dataset_elsewhere"


@pytest.mark.parametrize("change", [_curator_gives_an_alias, _another_writer_creates_it])
def test_the_catalog_sees_what_changed_between_two_papers(ingest_settings, driver, change):
    """Sample B names the dataset LongBench, which the graph learns between the two papers (an alias a curator
    adds, or an entity another writer creates); B must resolve to that node, not create its own."""
    first, second = prepared(ingest_settings, driver, [SAMPLE_A, SAMPLE_B])
    tuned = TunedWriter(Graph(driver), get_schema())
    tuned.submit(first.run, first.nodes, first.edges).result()
    known_as_longbench = change(driver)
    tuned.submit(second.run, second.nodes, second.edges).result()
    tuned.close()

    assert value(driver, "MATCH (d:Dataset {name: 'LongBench'}) RETURN count(d)") == 0
    assert value(driver, "MATCH (:Paper {sha256: $sha})-[r]->(:Dataset {id: $id}) RETURN count(r)",
                 sha=second.run.sha256, id=known_as_longbench) >= 1
    assert tuned.catalog.full_reads == 2


def test_an_entity_the_catalog_remembers_but_another_writer_deleted_is_not_linked_to(ingest_settings, driver):
    """Between two papers another writer deletes the method both samples name and creates an entity of its own:
    the counts the catalog checks are as they were, but the second paper must not be resolved to the node that is
    gone (its edges would lose their end): it is resolved again from the graph, and writes the method anew."""
    first, second = prepared(ingest_settings, driver, [SAMPLE_A, SAMPLE_B])
    tuned = TunedWriter(Graph(driver), get_schema())
    tuned.submit(first.run, first.nodes, first.edges).result()
    entities = "MATCH (n:Method|Dataset|Metric|Task|Concept) RETURN count(n)"
    before = value(driver, entities)
    deleted = driver.execute_query("MATCH (m:Method {name: 'Sparse Routing Attention'}) DETACH DELETE m")
    assert deleted.summary.counters.nodes_deleted == 1
    driver.execute_query("CREATE (:Concept {id: 'concept_elsewhere', name: 'Elsewhere'})")
    assert value(driver, entities) == before  # what the catalog checks has not changed
    written = tuned.submit(second.run, second.nodes, second.edges).result()
    tuned.close()

    assert written.rejections == []
    assert value(driver, "MATCH (:Paper {sha256: $sha})-[r]->(:Method {name: 'Sparse Routing Attention'}) "
                         "RETURN count(r)", sha=second.run.sha256) >= 1
    assert tuned.catalog.full_reads == 2


def test_re_ingests_through_the_catalog_make_the_graph_of_full_reads(ingest_settings, driver):
    """A, B, then A again without its metric (perplexity, named by A alone: an orphan the re-ingest removes), A
    as it was (perplexity created again), B again unchanged: the graph of full reads, and the catalog read the
    graph's entities only twice, at the first paper and after the orphan went."""
    a, b = prepared(ingest_settings, driver, [SAMPLE_A, SAMPLE_B])
    versions = [a, b, without(a, "Metric"), a, b]
    tuned = TunedWriter(Graph(driver), get_schema())
    for paper in versions:
        tuned.submit(paper.run, paper.nodes, paper.edges).result()
        if paper is versions[2]:
            assert value(driver, "MATCH (m:Metric {name: 'perplexity'}) RETURN count(m)") == 0
    tuned.close()
    through_catalog = canonical_dump(Graph(driver), skip_labels=LEDGER)
    assert tuned.catalog.full_reads == 2
    clear(driver)

    reference = ReferenceWriter(Graph(driver), get_schema())
    for paper in versions:
        reference.write(paper.run, paper.nodes, paper.edges)
    assert canonical_dump(Graph(driver), skip_labels=LEDGER) == through_catalog

"""The pure parts of ingestion: Document → records, and the re-ingestion rules."""

from __future__ import annotations

from dataclasses import replace

from extractors.model import Audit, Author, Box, Chunk, Document, Float, Mention, Metadata, Profile, Section, paper_id
from kg.ingest.mapping import EXTRACTOR, author_id, map_document
from kg.ingest.reconcile import Existing, State, reconcile
from kg.ingest.validation import validate_batch
from kg.ingest.write import stamp
from ontology.loader import get_schema
from ontology.records import EdgeRecord, NodeRecord
from tests.sample_graph import NOW

SHA = "c" * 64


def _doc() -> Document:
    box = Box(page=1, bbox=(72, 100, 300, 120))
    sec = Section(id="sec_1", number="1", title="Introduction", level=1, parent_id=None, ordinal=1,
                  kind="Introduction", page_start=1, page_end=1, box=box, char_start=0, char_end=40)
    sub = sec.model_copy(update={"id": "sec_11", "number": "1.1", "title": "Scope", "level": 2, "parent_id": "sec_1",
                                 "ordinal": 2, "kind": "Other"})
    chunks = [Chunk(id=f"chunk_{i}", kind="text", text=f"text {i}", section_id=s, section_path=[], page_start=1,
                    page_end=1, boxes=[box], char_start=i * 20, char_end=i * 20 + 19, content_hash=str(i))
              for i, s in enumerate(["sec_1", "sec_11"])]
    fig = Float(id="fig_1", kind="figure", label="1", caption="A plot.", page=1, bbox=(72, 200, 500, 400),
                caption_bbox=(72, 380, 500, 400))
    chunks.append(Chunk(id="chunk_f", kind="figure", text="Figure 1: A plot.", section_id="sec_1", section_path=[],
                        page_start=1, page_end=1, boxes=[Box(page=1, bbox=fig.bbox)], char_start=50, char_end=67,
                        content_hash="f", element_id="fig_1"))
    mentions = [Mention(kind="figure", text="Figure 1", target_label="1", target_id="fig_1", page=1,
                        bbox=(80, 100, 120, 110), char_start=n, char_end=n + 3) for n in (2, 5)]
    mentions.append(Mention(kind="table", text="Table 9", target_label="9", target_id=None, page=1,
                            bbox=(80, 100, 120, 110), char_start=3, char_end=6))
    return Document(sha256=SHA, file_name="x.pdf", page_count=1, text="t" * 70,
                    metadata=Metadata(title="T", authors=[Author(name="Zoë Ünal"), Author(name="zoe unal"),
                                                          Author(name="Bo Kim")], doi="10.1/ABC"),
                    sections=[sec, sub], figures=[fig], chunks=chunks, mentions=mentions,
                    profile=Profile(text_kind="native", chars_per_page=70, columns=1),
                    audit=Audit(sha256=SHA, page_count=1))


def test_document_maps_to_valid_records_with_provenance():
    nodes, edges = map_document(_doc(), {"chunk_0": [0.5] * 384})
    schema = get_schema()
    batch = validate_batch([stamp(n, schema, NOW) for n in nodes], [stamp(e, schema, NOW) for e in edges], schema)
    assert batch.rejections == []
    by_id = {n.id: n for n in nodes}
    paper = by_id[paper_id(SHA)]
    assert (paper.props["doi"], paper.props["paper_sha256"], paper.props["extractor"]) == ("10.1/abc", SHA, EXTRACTOR)
    assert [n.props["name"] for n in nodes if n.label == "Author"] == ["Zoë Ünal", "Bo Kim"]  # folded duplicate
    assert author_id("Zoë Ünal") == author_id("zoe  UNAL") and "paper_sha256" not in by_id[author_id("Bo Kim")].props
    kinds = {(e.type, e.source_id, e.target_id) for e in edges}
    assert ("HAS_SECTION", paper.id, "sec_1") in kinds and ("HAS_SUBSECTION", "sec_1", "sec_11") in kinds
    assert ("NEXT_CHUNK", "chunk_0", "chunk_1") in kinds and not any(k[0] == "NEXT_CHUNK" and "chunk_f" in k for k in kinds)
    mention = next(e for e in edges if e.type == "MENTIONS")
    assert (mention.source_id, mention.target_id, mention.props["source_chunk_ids"]) == ("chunk_0", "fig_1", ["chunk_0"])
    assert sum(e.type == "MENTIONS" for e in edges) == 1  # two mentions in one chunk, unresolved one dropped
    assert by_id["fig_1"].props["source_chunk_ids"] == ["chunk_f"] and by_id["fig_1"].props["bbox"] == "1:72,200,500,400"
    assert len(by_id["chunk_0"].props["embedding"]) == 384 and "embedding" not in by_id["chunk_1"].props


def _node(id_, status="auto", extractor=EXTRACTOR, sha=True):
    return State(f"e_{id_}", status, extractor, sha)


def test_reconcile_keeps_human_work_and_removes_stale_automatic_elements():
    new_nodes = [NodeRecord("Section", i, {}) for i in ("s_auto", "s_verified", "s_rejected")]
    new_edges = [EdgeRecord("HAS_CHUNK", "Section", "s_rejected", "Chunk", "c_new"),
                 EdgeRecord("HAS_CHUNK", "Section", "s_auto", "Chunk", "c_new")]
    existing = Existing(nodes={
        ("Section", "s_auto"): _node("s_auto"), ("Section", "s_verified"): _node("s_verified", "verified"),
        ("Section", "s_rejected"): _node("s_rejected", "rejected"), ("Chunk", "c_stale"): _node("c_stale"),
        ("Chunk", "c_held"): _node("c_held"), ("Chunk", "c_curator"): _node("c_curator", extractor="curator:ann@ui"),
        ("Author", "a_shared"): _node("a_shared", sha=False)})
    for key, state, ends in [
        (("s_auto", "HAS_CHUNK", "c_stale"), _node("r1"), (("Section", "s_auto"), ("Chunk", "c_stale"))),
        (("c_held", "MENTIONS", "s_auto"), _node("r2", "verified"), (("Chunk", "c_held"), ("Section", "s_auto"))),
        (("s_verified", "HAS_CHUNK", "c_stale"), _node("r3"), (("Section", "s_verified"), ("Chunk", "c_stale")))]:
        existing.edges[key], existing.edge_ends[key] = state, ends
    plan = reconcile(new_nodes, new_edges, existing)
    assert [n.id for n in plan.nodes] == ["s_auto"]  # verified and rejected are not overwritten
    assert [e.source_id for e in plan.edges] == ["s_auto"] and plan.skipped_rejected == 1
    assert sorted(plan.delete_nodes) == ["e_c_stale"]  # c_held holds a verified edge, c_curator is a person's
    assert plan.delete_edges == ["e_r1"]  # r3 touches a verified section: left as the curator saw it
    assert plan.orphan_candidates == ["e_a_shared"] and plan.kept == 2


def test_reconcile_lists_where_the_extraction_disagrees_with_a_curator():
    """Each kind of disagreement, and none where the extraction agrees or where the element is a person's own."""
    new_nodes = [NodeRecord("Section", "s_rejected", {"title": "Intro", "confidence": 0.83}),
                 NodeRecord("Section", "s_edited", {"title": "Introduction", "level": 1, "confidence": 0.5}),
                 NodeRecord("Section", "s_agreed", {"title": "Method", "level": 2}),
                 NodeRecord("Section", "s_verified", {"title": "Results"})]
    new_edges = [EdgeRecord("MENTIONS", "Chunk", "c_1", "Method", "m_rejected", {}),
                 EdgeRecord("HAS_CHUNK", "Section", "s_verified", "Chunk", "c_1", {"confidence": 0.9})]
    edited = lambda id_, **values: replace(_node(id_, "edited"), edited=values)  # noqa: E731
    existing = Existing(nodes={
        ("Section", "s_rejected"): _node("s_rejected", "rejected"),
        ("Section", "s_edited"): edited("s_edited", title="Curated title", confidence=0.9),
        ("Section", "s_agreed"): edited("s_agreed", title="Method"),
        ("Section", "s_verified"): _node("s_verified", "verified"),
        ("Section", "s_gone"): _node("s_gone", "flagged"),
        ("Section", "s_gone_rejected"): _node("s_gone_rejected", "rejected"),
        ("Chunk", "c_curator"): _node("c_curator", "verified", extractor="curator:ann@ui"),
        ("Method", "m_rejected"): _node("m_rejected", "rejected", sha=False),
        ("Method", "m_shared"): _node("m_shared", "verified", sha=False)})
    for key, state, ends in [
        (("s_verified", "HAS_CHUNK", "c_1"), _node("r_rejected", "rejected"), (("Section", "s_verified"),
                                                                                ("Chunk", "c_1"))),
        (("s_gone", "HAS_CHUNK", "c_2"), _node("r_verified", "verified"), (("Section", "s_gone"), ("Chunk", "c_2")))]:
        existing.edges[key], existing.edge_ends[key] = state, ends
    plan = reconcile(new_nodes, new_edges, existing, frozenset({"confidence"}))
    assert {c.element_id: (c.node, c.reason) for c in plan.contested} == {
        "e_s_rejected": (True, "the extractor proposes it again (confidence 0.83); a curator rejected it"),
        "e_s_edited": (True, "the extractor says title='Introduction' where a curator set 'Curated title'"),
        "e_s_gone": (True, "the new parse no longer finds it; a curator flagged it"),
        "e_m_rejected": (True, "the extractor proposes it again; a curator rejected it"),  # only edges name it
        "e_r_rejected": (False, "the extractor proposes it again (confidence 0.90); a curator rejected it"),
        "e_r_verified": (False, "the new parse no longer finds it; a curator verified it")}
    assert [n.id for n in plan.nodes] == []  # every proposed node is curated: none is written

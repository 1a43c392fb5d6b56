"""A small, hand-made two-paper graph that exercises every label and most relationship types.

Used by the write, export and docs/cypher.md tests, which assert the exact values written here.
"""

from __future__ import annotations

from datetime import datetime, timezone

from extractors.bbox import format_bbox
from ontology.records import EdgeRecord, NodeRecord

SHA_A = "a" * 64
SHA_B = "b" * 64
EXTRACTOR = "paperkg-test@1.0"
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
EMBEDDING = [1.0 if i % 2 else 0.5 for i in range(384)]  # of chunk_a1, the size of the default vector index


def prov(sha: str | None, chunks=(), pages=(), boxes=(), confidence=0.9, status="auto") -> dict:
    props = {"source_chunk_ids": list(chunks), "pages": list(pages),
             "bboxes": [format_bbox(page, box) for page, box in boxes], "confidence": confidence,
             "extractor": EXTRACTOR, "verification_status": status}
    if sha:
        props["paper_sha256"] = sha
    return props


def _n(label, id, sha, /, **props) -> NodeRecord:
    evidence = props.pop("prov", {})
    return NodeRecord(label, id, {**prov(sha, **evidence), **props})


def _e(type, source, target, sha, /, **props) -> EdgeRecord:
    evidence = props.pop("prov", {})
    return EdgeRecord(type, source[0], source[1], target[0], target[1], {**prov(sha, **evidence), **props})


def sample_graph() -> tuple[list[NodeRecord], list[EdgeRecord]]:
    a, b = ("Paper", "paper_a"), ("Paper", "paper_b")
    nodes = [
        _n("Paper", "paper_a", SHA_A, title="Sparse Routing Transformers", abstract="We propose SRT.", sha256=SHA_A,
           file_name="srt.pdf", page_count=9, doi="10.1234/srt", year=2021, prov={"confidence": 1.0}),
        _n("Paper", "paper_b", SHA_B, title="A Benchmark for Long Documents", sha256=SHA_B, file_name="bench.pdf",
           page_count=12, arxiv_id="2201.00001", year=2022, prov={"confidence": 1.0}),
        _n("Author", "author_lee", None, name="Ada Lee"),
        _n("Author", "author_kim", None, name="Bo Kim"),
        _n("Domain", "domain_nlp", None, name="Natural language processing", phrases=["language model", "attention"],
           prov={"confidence": 1.0}),
        _n("Section", "sec_a1", SHA_A, title="Introduction", number="1", level=1, kind="Introduction",
           core_kind="body", page_start=1, page_end=2, ordinal=1, prov={"pages": [1]},
           summary=["Long documents need efficient attention; Figure 1 shows SRT."], summary_starts=[0],
           summary_ends=[60], summary_bboxes=["1:72,100,540,160"]),
        _n("Section", "sec_a2", SHA_A, title="Method", number="2", level=1, kind="Method", core_kind="body",
           page_start=2, page_end=4, ordinal=2, prov={"pages": [2]}),
        _n("Section", "sec_a21", SHA_A, title="Routing Attention", number="2.1", level=2, kind="Method",
           core_kind="body", page_start=3, page_end=3, ordinal=3, prov={"pages": [3]},
           summary=["Routing attention is attention restricted to clustered keys."], summary_starts=[60],
           summary_ends=[120], summary_bboxes=["3:72,200,540,260"]),
        _n("Section", "sec_a3", SHA_A, title="Experiments", number="3", level=1, kind="Experiment", core_kind="body",
           page_start=5, page_end=7, ordinal=4, prov={"pages": [5]}),
        _n("Chunk", "chunk_a1", SHA_A, text="Long documents need efficient attention; Figure 1 shows SRT.",
           kind="text", page_start=1, page_end=1, char_start=0, char_end=60, content_hash="h1", embedding=EMBEDDING,
           prov={"pages": [1], "boxes": [(1, (72, 100, 540, 160))]}),
        _n("Chunk", "chunk_a2", SHA_A, text="Routing attention is attention restricted to clustered keys.",
           kind="text", page_start=3, page_end=3, char_start=60, char_end=121, content_hash="h2",
           prov={"pages": [3], "boxes": [(3, (72, 200, 540, 260))]}),
        _n("Chunk", "chunk_a3", SHA_A, text="We evaluate SRT on PG-19 and report perplexity in Table 1.",
           kind="text", page_start=5, page_end=5, char_start=121, char_end=180, content_hash="h3",
           prov={"pages": [5], "boxes": [(5, (72, 300, 540, 350))]}),
        _n("Chunk", "chunk_b1", SHA_B, text="We build LongBench from PG-19 books.", kind="text", page_start=1,
           page_end=1, char_start=0, char_end=36, content_hash="h4", prov={"pages": [1]}),
        _n("Figure", "fig_a1", SHA_A, label="1", caption="Overview of SRT.", page=2,
           bbox=format_bbox(2, (72, 80, 300, 250)), prov={"pages": [2], "boxes": [(2, (72, 80, 300, 250))]}),
        _n("Figure", "fig_a2", SHA_A, label="2", caption="Attention patterns of SRT.", page=4,
           bbox=format_bbox(4, (300, 80, 540, 250)), prov={"pages": [4], "boxes": [(4, (300, 80, 540, 250))]}),
        _n("Table", "tab_a1", SHA_A, label="1", caption="Perplexity on PG-19.", page=6,
           bbox=format_bbox(6, (72, 400, 540, 500)), prov={"pages": [6]}),
        _n("Equation", "eq_a1", SHA_A, label="1", text="A = softmax(QK^T)V", page=3,
           bbox=format_bbox(3, (100, 300, 500, 330)), prov={"pages": [3]}),
        _n("Reference", "ref_a1", SHA_A, ordinal=1, raw="Vaswani et al. Attention is all you need. 2017.",
           title="Attention is all you need", year=2017),
        _n("Reference", "ref_b1", SHA_B, ordinal=1, raw="Lee and Kim. Sparse Routing Transformers. 2021.",
           title="Sparse Routing Transformers", year=2021, doi="10.1234/srt"),
        _n("Method", "method_srt", None, name="Sparse Routing Transformer", aliases=["SRT"]),
        _n("Method", "method_transformer", None, name="Transformer", aliases=["vanilla Transformer"]),
        _n("Method", "method_srt_dup", None, name="SRT model", aliases=[], prov={"confidence": 0.6}),
        _n("Dataset", "dataset_pg19", None, name="PG-19", aliases=["PG19", "Project Gutenberg 19"]),
        _n("Metric", "metric_ppl", None, name="perplexity", aliases=["PPL"]),
        _n("Task", "task_lm", None, name="language modeling", aliases=["LM"]),
        _n("Concept", "concept_routing", None, name="routing attention",
           definition="attention restricted to clustered keys"),
        _n("Experiment", "exp_a1", SHA_A, name="PG-19 language modeling", prov={"chunks": ["chunk_a3"]}),
        _n("Result", "res_a1", SHA_A, value_text="33.2", value=33.2, prov={"chunks": ["chunk_a3"], "pages": [6]}),
        _n("Result", "res_a2", SHA_A, value_text="36.1", value=36.1, prov={"chunks": ["chunk_a3"], "pages": [6]}),
        NodeRecord("IngestRun", "run_a", {"status": "succeeded", "started_at": NOW, "ended_at": NOW,
                                          "paper_sha256": SHA_A, "extractors": [EXTRACTOR]}),
    ]
    sec = lambda id: ("Section", id)  # noqa: E731
    chunk = lambda id: ("Chunk", id)  # noqa: E731
    method, pg19, ppl = ("Method", "method_srt"), ("Dataset", "dataset_pg19"), ("Metric", "metric_ppl")
    evidence_a3 = {"chunks": ["chunk_a3"], "pages": [5], "boxes": [(5, (72, 300, 540, 350))], "confidence": 0.85}
    edges = [
        _e("HAS_AUTHOR", a, ("Author", "author_lee"), SHA_A, position=1),
        _e("HAS_AUTHOR", a, ("Author", "author_kim"), SHA_A, position=2),
        _e("HAS_AUTHOR", b, ("Author", "author_kim"), SHA_B, position=1),
        _e("HAS_SECTION", a, sec("sec_a1"), SHA_A),
        _e("HAS_SECTION", a, sec("sec_a2"), SHA_A),
        _e("HAS_SECTION", a, sec("sec_a3"), SHA_A),
        _e("HAS_SUBSECTION", sec("sec_a2"), sec("sec_a21"), SHA_A),
        _e("HAS_CHUNK", sec("sec_a1"), chunk("chunk_a1"), SHA_A),
        _e("HAS_CHUNK", sec("sec_a21"), chunk("chunk_a2"), SHA_A),
        _e("HAS_CHUNK", sec("sec_a3"), chunk("chunk_a3"), SHA_A),
        _e("HAS_CHUNK", b, chunk("chunk_b1"), SHA_B),
        _e("NEXT_CHUNK", chunk("chunk_a1"), chunk("chunk_a2"), SHA_A),
        _e("NEXT_CHUNK", chunk("chunk_a2"), chunk("chunk_a3"), SHA_A),
        _e("HAS_FIGURE", a, ("Figure", "fig_a1"), SHA_A),
        _e("HAS_FIGURE", a, ("Figure", "fig_a2"), SHA_A),
        _e("HAS_TABLE", a, ("Table", "tab_a1"), SHA_A),
        _e("HAS_EQUATION", a, ("Equation", "eq_a1"), SHA_A),
        _e("HAS_REFERENCE", a, ("Reference", "ref_a1"), SHA_A),
        _e("HAS_REFERENCE", b, ("Reference", "ref_b1"), SHA_B),
        _e("REFERS_TO", ("Reference", "ref_b1"), a, SHA_B, prov={"confidence": 0.95}),
        _e("CITES", b, a, SHA_B, prov={"confidence": 0.95}),
        _e("MENTIONS", chunk("chunk_a1"), ("Figure", "fig_a1"), SHA_A, prov={"chunks": ["chunk_a1"], "pages": [1]}),
        _e("MENTIONS", chunk("chunk_a3"), ("Table", "tab_a1"), SHA_A, prov={"chunks": ["chunk_a3"], "pages": [5]}),
        _e("MENTIONS", chunk("chunk_a3"), pg19, SHA_A, prov={"chunks": ["chunk_a3"], "pages": [5]}),
        _e("PROPOSES", a, method, SHA_A, salience=0.93, central=True,
           prov={"chunks": ["chunk_a1"], "pages": [1], "boxes": [(1, (72, 100, 540, 160))], "confidence": 0.92}),
        _e("USES", a, ("Method", "method_transformer"), SHA_A, salience=0.08, central=False,
           prov={"chunks": ["chunk_a2"], "confidence": 0.7}),
        _e("EVALUATES_ON", a, pg19, SHA_A, salience=0.71, central=True, prov=evidence_a3),
        _e("USES", b, pg19, SHA_B, salience=0.64, central=True,
           prov={"chunks": ["chunk_b1"], "pages": [1], "confidence": 0.8}),
        _e("MEASURES", a, ppl, SHA_A, salience=0.55, central=True, prov=evidence_a3),
        _e("ADDRESSES", a, ("Task", "task_lm"), SHA_A, salience=0.31, central=True,
           prov={"chunks": ["chunk_a3"], "confidence": 0.4}),
        _e("DEFINES", chunk("chunk_a2"), ("Concept", "concept_routing"), SHA_A, prov={"chunks": ["chunk_a2"]}),
        _e("DEPENDS_ON", method, ("Concept", "concept_routing"), SHA_A, prov={"chunks": ["chunk_a2"]}),
        _e("ILLUSTRATES", ("Figure", "fig_a1"), method, SHA_A, prov={"confidence": 0.75}),
        _e("SUMMARIZES", ("Table", "tab_a1"), ppl, SHA_A),
        _e("SAME_AS", ("Method", "method_srt_dup"), method, None, prov={"confidence": 0.65}),
        _e("HAS_EXPERIMENT", a, ("Experiment", "exp_a1"), SHA_A, prov={"chunks": ["chunk_a3"]}),
        _e("USES", ("Experiment", "exp_a1"), method, SHA_A, prov={"chunks": ["chunk_a3"]}),
        _e("EVALUATES_ON", ("Experiment", "exp_a1"), pg19, SHA_A, prov={"chunks": ["chunk_a3"]}),
        _e("MEASURES", ("Experiment", "exp_a1"), ppl, SHA_A, prov={"chunks": ["chunk_a3"]}),
        _e("OF_EXPERIMENT", ("Result", "res_a1"), ("Experiment", "exp_a1"), SHA_A),
        _e("OF_METHOD", ("Result", "res_a1"), method, SHA_A),
        _e("ON_DATASET", ("Result", "res_a1"), pg19, SHA_A),
        _e("FOR_METRIC", ("Result", "res_a1"), ppl, SHA_A),
        _e("REPORTED_IN", ("Result", "res_a1"), ("Table", "tab_a1"), SHA_A),
        _e("OF_EXPERIMENT", ("Result", "res_a2"), ("Experiment", "exp_a1"), SHA_A),
        _e("OF_METHOD", ("Result", "res_a2"), ("Method", "method_transformer"), SHA_A),
        _e("ON_DATASET", ("Result", "res_a2"), pg19, SHA_A),
        _e("FOR_METRIC", ("Result", "res_a2"), ppl, SHA_A),
        _e("GENERATED_BY", a, ("IngestRun", "run_a"), SHA_A, prov={"confidence": 1.0}),
        _e("IN_DOMAIN", a, ("Domain", "domain_nlp"), SHA_A, score=0.62, similarity=0.81, keyword_hits=3,
           matched=["attention"], seeds="0123456789abcdef", prov={"chunks": ["chunk_a1", "chunk_a2"],
                                                                  "pages": [1, 3], "confidence": 0.62}),
        _e("IN_DOMAIN", sec("sec_a21"), ("Domain", "domain_nlp"), SHA_A, score=0.55, similarity=0.8, keyword_hits=2,
           matched=["attention"], seeds="0123456789abcdef", prov={"chunks": ["chunk_a2"], "pages": [3],
                                                                  "confidence": 0.55}),
    ]
    return nodes, edges

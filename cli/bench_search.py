"""`kg bench search`: ingest the corpus if needed, run every judged query through `kg search` and through the
fulltext signal alone, and report both systems' mean nDCG@10 over all queries and over each half (bench/search.py):
choices are made on the dev half, the held-out half tells whether they carry over."""

from __future__ import annotations

import statistics
from pathlib import Path

import typer

from bench.gold_sets import DEV, HELD_OUT
from bench.search import K, judged_queries, ndcg
from bench.stamp import header, write_json
from cli.output import console
from extractors.model import paper_id
from kg.find import search as kg_search
from kg.db import store
from kg.db.filestore import file_sha256
from kg.ingest.pipeline import Ingestor
from kg.qa.retrieval import query_embedder
from kg.settings import get_settings
from ontology.loader import get_schema


def search_bench(
    corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of the corpus PDFs."),
    judged: Path = typer.Option(Path("bench/search_judged.tsv"), exists=True, dir_okay=False,
                                help="Judged queries (TSV)."),
    ingest: bool = typer.Option(True, help="Ingest corpus papers missing from the graph first."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the figures to this JSON file."),
) -> None:
    """nDCG@10 of `kg search` and of fulltext alone over the judged queries."""
    settings = get_settings()
    queries = judged_queries(judged)
    pdfs = sorted(corpus.glob("*.pdf"))
    stem_of = {paper_id(file_sha256(p)): p.stem for p in pdfs}
    embed, schema = query_embedder(settings), get_schema()
    rows = []
    with store.open_graph(settings) as graph:
        if ingest:
            Ingestor(settings, graph).run(pdfs)
        for item in queries:
            scores = {}
            for system, weights in (("system", kg_search.WEIGHTS), ("fulltext", kg_search.TEXT_ONLY)):
                hits = kg_search.search(graph, schema, kg_search.SearchQuery(item.query, K), embed, weights).hits
                ranked = [stem_of.get(h.paper_id, h.paper_id) for h in hits]
                scores[system] = {"ndcg": round(ndcg(ranked, item.relevant), 4), "ranked": ranked}
            console.print(f"{scores['system']['ndcg']:.3f} {scores['fulltext']['ndcg']:.3f}  {item.split:8} "
                          f"{item.query}", highlight=False)
            rows.append({"query": item.query, "split": item.split, "relevant": sorted(item.relevant), **scores})
    means = {}
    for part, members in (("all", rows), (DEV, [r for r in rows if r["split"] == DEV]),
                          (HELD_OUT, [r for r in rows if r["split"] == HELD_OUT])):
        if not members:
            continue
        means[part] = {"queries": len(members),
                       **{s: round(statistics.fmean(r[s]["ndcg"] for r in members), 4) for s in ("system", "fulltext")}}
        console.print(f"nDCG@{K} over {len(members)} queries ({part}): system {means[part]['system']:.3f}, "
                      f"fulltext alone {means[part]['fulltext']:.3f}", highlight=False)
    if json_out:
        write_json(json_out, {
            **header(),
            "corpus": str(corpus), "judged": str(judged), "queries": len(rows),
            "embeddings": embed is not None, "formula": kg_search.WEIGHTS,
            f"ndcg_at_{K}": means,
            "ahead_of_fulltext": {part: m["system"] > m["fulltext"] for part, m in means.items()}, "rows": rows})

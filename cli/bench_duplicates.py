"""`kg bench duplicates`: run the duplicate detector over the graph of a corpus and score its candidates against
the hand judgements of bench/duplicates_judged.tsv and the known pairs of bench/duplicates_known.tsv."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from bench.duplicates import JUDGED, KNOWN, TOP, judgements, known_pairs, score
from bench.stamp import header, write_json
from cli.output import console
from kg.db import store
from kg.curation.duplicates import candidates, detect
from kg.embeddings import load_embedder
from kg.ingest.pipeline import Ingestor
from kg.settings import get_settings
from ontology.loader import get_schema


def duplicates_bench(
    corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of PDFs (ingested first if needed)."),
    judged: Path = typer.Option(JUDGED, exists=True, dir_okay=False, help="Hand judgements of candidates (TSV)."),
    known: Path = typer.Option(KNOWN, exists=True, dir_okay=False, help="Known duplicate pairs (TSV)."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the figures to this JSON file."),
    ingest: bool = typer.Option(True, help="Ingest the corpus's PDFs missing from the graph first."),
) -> None:
    """Precision of the best candidates and recall of the known pairs, on the configured graph. It writes SAME_AS
    candidates like `kg curate find-duplicates`: run it on a graph of its own."""
    settings, schema = get_settings(), get_schema()
    embedder = load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
    with store.open_graph(settings) as graph:
        if ingest:
            Ingestor(settings, graph).run(sorted(corpus.glob("*.pdf")))
        start = time.perf_counter()
        report, _ = detect(graph, schema, embed=embedder.embed if embedder else None)
        seconds = time.perf_counter() - start
        papers = graph.read("MATCH (p:Paper) RETURN count(p) AS n")[0]["n"]
        items = candidates(graph, schema, limit=500)["items"]
    proposed = [(i["source"]["label"], i["source"]["name"], i["target"]["name"]) for i in items]
    result = score(proposed, judgements(judged), known_pairs(known))
    for rank, (item, (label, a, b)) in enumerate(zip(items, proposed), start=1):
        console.print(f"{rank:3} {item['score']:.3f} {label:8} {a} ≟ {b}", highlight=False)
    console.print(f"precision of the best {result.top}: {result.precision:.3f} ({result.correct} right, {result.wrong} "
                  f"wrong, {result.unjudged} not judged); known pairs proposed: {result.known_found}/{result.known}")
    for pair in result.missed:
        console.print(f"  missed: {pair}", highlight=False)
    if json_out:
        write_json(json_out, {
            **header(),
            "corpus": str(corpus), "papers": papers, "embeddings": embedder.version if embedder else None,
            "detect": report.as_json(), "detect_seconds": round(seconds, 2), "top": TOP,
            "scored": result.top, "correct": result.correct, "wrong": result.wrong, "unjudged": result.unjudged,
            "precision_at_top": round(result.precision, 4), "known": result.known, "known_found": result.known_found,
            "known_recall": round(result.known_recall, 4), "missed": result.missed,
            "candidates": [{"label": l, "names": [a, b], "score": i["score"], "reasons": i["reasons"]}
                           for i, (l, a, b) in zip(items, proposed)]})

"""`kg bench domains`: tag the gold papers with the domain seeds and compare each paper's top domain with the
corpus MANIFEST's domain note (bench/domains.py), on the dev and held-out halves of bench/gold_sets.py."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from bench.domains import MANIFEST_DOMAINS, agreement, expected_domain, manifest_notes
from bench.gold_sets import per_group, report_groups
from bench.stamp import header, write_json
from cli.output import console
from extractors.domains import Seeds, Tagger, passages_of
from kg.embeddings import load_embedder
from kg.settings import get_settings
from ontology.errors import PaperKGError


def domains_bench(
    corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of PDFs with MANIFEST.tsv."),
    gold: Path = typer.Option(..., exists=True, file_okay=False, help="Gold JSON files: the papers scored."),
    seeds: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                      help="Domain seeds YAML (default: PAPERKG_DOMAIN_SEEDS or the shipped file)."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the figures to this JSON file."),
) -> None:
    """Parse each gold paper, tag it as ingestion does (same parser, embedder and tagger; no database), and
    report how often its top domain agrees with the MANIFEST's domain note."""
    from extractors.pipeline import parse_pdf  # MuPDF: imported by the commands that parse only

    settings = get_settings()
    embedder = load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
    tagger = Tagger(Seeds.load(seeds or settings.domain_seeds), embedder.embed if embedder else None)
    notes = manifest_notes(corpus / "MANIFEST.tsv")
    stems = sorted(p.stem for p in gold.glob("*.json") if (corpus / f"{p.stem}.pdf").is_file())
    expected = {stem: expected_domain(notes.get(stem, "")) for stem in stems}
    predicted: dict[str, str | None] = {}
    papers = []
    began = time.perf_counter()
    for stem in stems:
        try:
            doc = parse_pdf(corpus / f"{stem}.pdf", settings.parse_limits)
        except PaperKGError as exc:  # not ingestible, so untagged: a disagreement, as ingestion would leave it
            predicted[stem] = None
            console.print(f"-- {stem:32} not parsed: {exc.message}", highlight=False)
            papers.append({"paper": stem, "note": notes.get(stem), "expected": expected[stem], "predicted": [],
                           "error": exc.message})
            continue
        chunks = [c for c in doc.chunks if c.kind == "text"]
        vectors = dict(zip((c.id for c in chunks), embedder.embed([c.text for c in chunks]))) if embedder else None
        paper = [t.score for t in tagger.tag_paper(passages_of(doc, vectors)) if t.section_id is None]
        predicted[stem] = paper[0].domain.id if paper else None
        mark = "ok" if predicted[stem] == expected[stem] else "--"
        console.print(f"{mark} {stem:32} {notes.get(stem, '?'):24} -> {expected[stem]!s:12} "
                      f"got {predicted[stem]!s:12} {paper[0].score if paper else 0:.3f} "
                      f"{', '.join(paper[0].matched[:5]) if paper else ''}", highlight=False)
        papers.append({"paper": stem, "note": notes.get(stem), "expected": expected[stem],
                       "predicted": [{"domain": s.domain.id, "score": s.score, "similarity": s.similarity,
                                      "keyword_hits": s.keyword_hits, "matched": list(s.matched)} for s in paper]})
    seconds = time.perf_counter() - began
    named = report_groups(stems, corpus / "MANIFEST.tsv")
    groups = per_group({s: s for s in stems}, named,
                       lambda members: agreement({m: predicted[m] for m in members}, expected))
    total = agreement(predicted, expected)
    for name, result in {"all": total, **groups}.items():
        console.print(f"{name:28} {result.agree}/{result.papers} = {result.rate:.3f}", highlight=False)
    if json_out:
        write_json(json_out, {
            **header(),
            "corpus": str(corpus), "gold": str(gold), "seeds": tagger.seeds.digest,
            "embeddings": embedder.version if embedder else None, "seconds": round(seconds, 2),
            "mapping": MANIFEST_DOMAINS,
            "agreement": {name: {"agree": r.agree, "papers": r.papers, "rate": round(r.rate, 4)}
                          for name, r in {"all": total, **groups}.items()},
            "papers": papers})

"""`kg bench domains`: tag every corpus paper with the domain seeds and compare each paper's top domain with the
corpus MANIFEST's domain note (bench/domains.py), on the gold papers (all, the dev and held-out halves of
bench/gold_sets.py, families), and on the corpus papers outside the gold and the whole corpus."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from bench.domains import (MANIFEST_DOMAINS, NOT_GOLD, WHOLE_CORPUS, agreement, corpus_groups, expected_domain,
                           manifest_notes)
from bench.gold_sets import per_group, report_groups, split_of
from bench.stamp import header, write_json
from cli.output import console
from extractors.domains import Seeds, Tagger, passages_of
from kg.embeddings import load_embedder
from kg.settings import get_settings
from ontology.errors import PaperKGError


def domains_bench(
    corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of PDFs with MANIFEST.tsv."),
    gold: Path = typer.Option(..., exists=True, file_okay=False,
                              help="Gold JSON files: the papers of the gold groups (the others are `not gold`)."),
    seeds: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                      help="Domain seeds YAML (default: PAPERKG_DOMAIN_SEEDS or the shipped file)."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the figures to this JSON file."),
) -> None:
    """Parse each corpus paper, tag it as ingestion does (same parser, embedder and tagger; no database), and
    report how often its top domain agrees with the MANIFEST's domain note: `all` and the groups after it are
    the gold papers', as before; `corpus (not gold)` and `corpus (all)` follow."""
    from extractors.pipeline import parse_pdf  # MuPDF: imported by the commands that parse only

    settings = get_settings()
    embedder = load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
    tagger = Tagger(Seeds.load(seeds or settings.domain_seeds), embedder.embed if embedder else None)
    notes = manifest_notes(corpus / "MANIFEST.tsv")
    gold_stems = sorted(p.stem for p in gold.glob("*.json") if (corpus / f"{p.stem}.pdf").is_file())
    wider = corpus_groups(gold_stems, (p.stem for p in corpus.glob("*.pdf")))
    stems = wider[WHOLE_CORPUS]
    subset = {stem: split_of(stem) if stem in gold_stems else NOT_GOLD for stem in stems}
    expected = {stem: expected_domain(notes.get(stem, "")) for stem in stems}
    predicted: dict[str, str | None] = {}
    papers = []
    began = time.perf_counter()
    for stem in stems:
        try:
            doc = parse_pdf(corpus / f"{stem}.pdf", settings.parse_limits)
        except PaperKGError as exc:  # not ingestible, so untagged: a disagreement, as ingestion would leave it
            predicted[stem] = None
            console.print(f"-- {subset[stem]:8} {stem:32} not parsed: {exc.message}", highlight=False)
            papers.append({"paper": stem, "set": subset[stem], "note": notes.get(stem), "expected": expected[stem],
                           "predicted": [], "error": exc.message})
            continue
        chunks = [c for c in doc.chunks if c.kind == "text"]
        vectors = dict(zip((c.id for c in chunks), embedder.embed([c.text for c in chunks]))) if embedder else None
        paper = [t.score for t in tagger.tag_paper(passages_of(doc, vectors)) if t.section_id is None]
        predicted[stem] = paper[0].domain.id if paper else None
        mark = "ok" if predicted[stem] == expected[stem] else "--"
        console.print(f"{mark} {subset[stem]:8} {stem:32} {notes.get(stem, '?'):24} -> {expected[stem]!s:12} "
                      f"got {predicted[stem]!s:12} {paper[0].score if paper else 0:.3f} "
                      f"{', '.join(paper[0].matched[:5]) if paper else ''}", highlight=False)
        papers.append({"paper": stem, "set": subset[stem], "note": notes.get(stem), "expected": expected[stem],
                       "predicted": [{"domain": s.domain.id, "score": s.score, "similarity": s.similarity,
                                      "keyword_hits": s.keyword_hits, "matched": list(s.matched),
                                      "venue_hits": s.venue_hits, "cited_venues": list(s.venues)} for s in paper]})
    seconds = time.perf_counter() - began
    named = {"all": gold_stems, **report_groups(gold_stems, corpus / "MANIFEST.tsv"), **wider}
    groups = per_group({s: s for s in stems}, named,
                       lambda members: agreement({m: predicted[m] for m in members}, expected))
    for name, result in groups.items():
        console.print(f"{name:28} {result.agree}/{result.papers} = {result.rate:.3f}", highlight=False)
    if json_out:
        write_json(json_out, {
            **header(),
            "corpus": str(corpus), "gold": str(gold), "seeds": tagger.seeds.digest,
            "embeddings": embedder.version if embedder else None, "seconds": round(seconds, 2),
            "mapping": MANIFEST_DOMAINS,
            "agreement": {name: {"agree": r.agree, "papers": r.papers, "rate": round(r.rate, 4)}
                          for name, r in groups.items()},
            "papers": papers})

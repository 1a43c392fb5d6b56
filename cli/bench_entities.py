"""`kg bench entities` and `kg bench scirex`: paper-level salient datasets, methods, metrics and tasks of the
semantic extractor against the gold files and against SciREX's document-level salient entities."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.table import Table

from bench import stamp
from bench.gold_sets import per_group, report_groups
from cli.bench import app
from cli.output import console
from extractors.semantic.benchmark import (SCIREX_HELD_OUT, SCIREX_TRAIN, TYPES, EntityCounts, gold_entities,
                                           load_scirex, score_paper, scirex_gold, scirex_passages, scirex_split, total)
from ontology.errors import PaperKGError

_SHARED = Path(__file__).resolve().parents[2] / "shared"


def _predicted(entities) -> dict[str, list[str]]:
    return {kind: [e.name for e in entities if e.label == label] for kind, label in TYPES.items()}


def _print(title: str, totals: dict[str, EntityCounts]) -> dict:
    table = Table(title=title)
    for col in ("type", "P", "R", "F1", "correct/predicted", "found/gold"):
        table.add_column(col, justify="left" if col == "type" else "right")
    for kind, c in totals.items():
        table.add_row(kind, f"{c.precision:.3f}", f"{c.recall:.3f}", f"{c.f1:.3f}", f"{c.correct}/{c.predicted}",
                      f"{c.found}/{c.gold}")
    console.print(table)
    return {kind: {"precision": c.precision, "recall": c.recall, "f1": c.f1, "correct": c.correct,
                   "predicted": c.predicted, "found": c.found, "gold": c.gold} for kind, c in totals.items()}


def _tagger_option() -> bool:
    return typer.Option(False, "--tagger/--no-tagger",
                        help="add the trained mention tagger's cues to the patterns' (PAPERKG_SEMANTIC_TAGGER in ingest)")


def _print_groups(by_group: dict[str, dict[str, EntityCounts]], named: dict[str, list[str]]) -> None:
    table = Table(title="F1 by group of papers (dev/held-out split, layout, domain)")
    table.add_column("group", overflow="fold")
    for col in ("n", *TYPES):
        table.add_column(col, justify="right")
    for name, totals in by_group.items():
        table.add_row(name, str(len(named[name])), *(f"{totals[kind].f1:.3f}" for kind in TYPES))
    console.print(table)


@app.command("entities")
def entities(
    corpus: Path = typer.Option(..., "--corpus", exists=True, file_okay=False, help="directory of PDFs"),
    gold: Path = typer.Option(..., "--gold", exists=True, file_okay=False, help="directory of gold JSON files"),
    json_out: Path | None = typer.Option(None, "--json", help="the result file (default: dated, in bench/results/)"),
    tagger: bool = _tagger_option(),
) -> None:
    """Parse each gold paper, extract its salient entities, print P/R/F1 per type and the CPU time the semantic
    extraction adds to the structure parse."""
    # MuPDF and spaCy are imported by the commands that use them, not by every `kg`
    from extractors.pipeline import parse_pdf
    from extractors.semantic import nlp
    from extractors.semantic import tagger as mention_tagger
    from extractors.semantic.extract import extract_semantics

    golds = {p.stem: json.loads(p.read_text()) for p in sorted(gold.glob("*.json"))}
    start = time.perf_counter()
    nlp.load()
    model = mention_tagger.load() if tagger else None
    load_seconds = time.perf_counter() - start
    papers, per_paper, failures = {}, {}, {}
    structure_seconds = semantic_seconds = 0.0
    for stem, g in golds.items():
        pdf = corpus / f"{stem}.pdf"
        predicted: dict[str, list[str]] = {}
        if pdf.exists():  # CPU time of this process: on a shared machine wall time measures the neighbours
            start = time.process_time()
            try:
                doc = parse_pdf(pdf)
            except PaperKGError as exc:  # refused (e.g. no usable text layer): scored as a paper with nothing found
                failures[pdf.name] = exc.message
                console.print(f"[red]failed[/] {pdf.name}: {exc.message}", highlight=False)
                papers[stem] = score_paper(gold_entities(g), {})
                continue
            middle = time.process_time()
            extraction = extract_semantics(doc, model)
            structure_seconds += middle - start
            semantic_seconds += time.process_time() - middle
            predicted = _predicted(extraction.analysis.entities)
        scores = score_paper(gold_entities(g), predicted)
        papers[stem] = scores
        per_paper[stem] = {"predicted": predicted, "f1": {k: round(c.f1, 3) for k, c in scores.items()}}
    named = report_groups(papers, corpus / "MANIFEST.tsv")
    by_group = per_group(papers, named, total)
    _print_groups(by_group, named)
    result = {**stamp.header(), "commit": stamp.commit(), "tagger": tagger,
              "entities": _print(f"salient entities, {len(golds)} gold papers", total(list(papers.values()))),
              "groups": {name: {"papers": named[name], **{kind: {"f1": round(c.f1, 3), "precision": round(
                  c.precision, 3), "recall": round(c.recall, 3)} for kind, c in t.items()}}
                         for name, t in by_group.items()},
              "structure_seconds": round(structure_seconds, 2), "semantic_seconds": round(semantic_seconds, 2),
              "load_seconds": round(load_seconds, 2), "failures": failures,
              "per_paper": per_paper}
    share = semantic_seconds / structure_seconds if structure_seconds else 0.0
    console.print(f"CPU time: structure parse {structure_seconds:.1f} s, semantic extraction {semantic_seconds:.1f} s "
                  f"(+{share:.0%}); loading spaCy and the pipelines once per process: {load_seconds:.1f} s")
    console.print(f"written to {stamp.write_json(json_out or stamp.dated(stamp.RESULTS, 'entities'), result)}")


@app.command("scirex")
def scirex(
    docs: Path = typer.Option(_SHARED / "datasets" / "scirex_train_docs" / "docs", "--docs", exists=True,
                              file_okay=False, help="directory of SciREX document JSON files"),
    limit: int = typer.Option(0, "--limit", help="score only the first N documents (0 = all)"),
    json_out: Path | None = typer.Option(None, "--json", help="the result file (default: dated, in bench/results/)"),
    tagger: bool = _tagger_option(),
) -> None:
    """Run the same extractor on SciREX's text and score it by SciREX's salient entities (Material = datasets),
    over all documents and over the fixed 80/20 split by document (the 20 are never tuned on)."""
    from extractors.semantic import tagger as mention_tagger
    from extractors.semantic.entities import analyse_passages  # spaCy: see entities()

    documents = load_scirex(docs)[: limit or None]
    model = mention_tagger.load() if tagger else None
    start = time.process_time()
    papers = [score_paper(scirex_gold(d), _predicted(analyse_passages(scirex_passages(d), tagger=model).entities))
              for d in documents]
    seconds = time.process_time() - start
    halves = {half: [p for d, p in zip(documents, papers) if scirex_split(d["doc_id"]) == half]
              for half in (SCIREX_TRAIN, SCIREX_HELD_OUT)}
    result = {**stamp.header(), "commit": stamp.commit(), "tagger": tagger,
              "scirex": _print(f"SciREX salient entities, {len(documents)} documents", total(papers)),
              **{f"scirex {half}": _print(f"SciREX {half} ({len(ps)} documents)", total(ps))
                 for half, ps in halves.items()},
              "cpu_seconds": round(seconds, 2)}
    console.print(f"written to {stamp.write_json(json_out or stamp.dated(stamp.RESULTS, 'scirex'), result)}")

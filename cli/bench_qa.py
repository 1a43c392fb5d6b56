"""`kg bench qa`: ingest the gold papers if needed, ask every gold question scoped to its paper, score by
GOLD_SCHEMA.md, and score the plain BM25 baseline in the same run."""

from __future__ import annotations

import statistics
from pathlib import Path

import typer
from rich.table import Table

from bench.gold_sets import DEV, HELD_OUT, report_groups
from bench.qa import HIT_K, Summary, by_kind, gold_items, run_baseline, run_system
from bench.stamp import commit, header, write_json
from cli.output import console
from extractors.model import paper_id
from kg.db import store
from kg.errors import NotFoundError
from kg.db.filestore import file_sha256
from kg.ingest.pipeline import Ingestor
from kg.qa.engine import ask
from kg.qa.retrieval import query_embedder
from kg.settings import get_settings
from ontology.loader import get_schema


def qa(corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of the gold files' PDFs."),
       gold: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of gold JSON files."),
       out: Path = typer.Option(None, help="Write the scored rows of both systems as JSON here."),
       ingest: bool = typer.Option(True, help="Ingest gold papers missing from the graph first."),
       show: bool = typer.Option(False, help="List every question with both answers.")) -> None:
    """QA benchmark: answer accuracy and evidence hit@3 of `kg ask` against the BM25 baseline."""
    settings = get_settings()
    items = gold_items(gold)
    files = sorted({file for file, _ in items})
    missing = [f for f in files if not (corpus / f).exists()]
    if missing:
        console.print(f"[yellow]not in the corpus folder, skipped:[/] {', '.join(missing)}")
        items = [(f, i) for f, i in items if f not in missing]
    with store.open_graph(settings) as graph:
        if ingest:
            Ingestor(settings, graph).run([corpus / f for f in files if f not in missing])
        paper_of = {f: paper_id(file_sha256(corpus / f)) for f in files if f not in missing}
        embed, schema = query_embedder(settings), get_schema()

        def scoped(question: str, paper: str):
            try:
                return ask(graph, schema, question, paper, 5, embed=embed)
            except NotFoundError:  # a paper ingest refused (e.g. no usable text layer): no answer, scored wrong
                return None

        system = run_system(scoped, paper_of, items)
    baseline = run_baseline(corpus, items)
    _print(system, baseline, show)
    by_group = _by_group(system, baseline, corpus / "MANIFEST.tsv")
    if out:
        write_json(out, {**header(), "commit": commit(), "vectors": embed is not None, "system": system.as_dict(),
                         "baseline": baseline.as_dict(), "groups": by_group})


def _by_group(system: Summary, baseline: Summary, manifest: Path) -> dict[str, dict]:
    """Accuracy and hit rate of both systems per group of papers (split, layout, domain) and per question type,
    over all papers and within each half, printed and returned."""
    stems = {Path(row.file).stem for row in system.rows}
    named = report_groups(sorted(stems), manifest)
    table = Table(title="by group of papers (dev/held-out split, layout, domain) and by question type")
    for col in ("group", "questions", "accuracy", f"hit@{HIT_K}", "BM25 accuracy", f"BM25 hit@{HIT_K}"):
        table.add_column(col, justify="left" if col == "group" else "right", overflow="fold")
    selections = {name: (sorted(members), [[r for r in rows if Path(r.file).stem in members]
                                           for rows in (system.rows, baseline.rows)])
                  for name, members in named.items()}
    halves = {name: named[name] for name in (DEV, HELD_OUT) if name in named}
    mine, theirs = by_kind(system.rows, halves), by_kind(baseline.rows, halves)
    selections |= {name: (sorted({Path(r.file).stem for r in mine[name]}), [mine[name], theirs[name]])
                   for name in mine}
    figures = {}
    for name, (papers, row_lists) in selections.items():
        pair = [Summary(), Summary()]
        for summary, rows in zip(pair, row_lists):
            for row in rows:
                summary.add(row)
        table.add_row(name, str(pair[0].questions), *(f"{v:.3f}" for s in pair for v in (s.accuracy, s.hit_rate)))
        figures[name] = {"papers": papers, "questions": pair[0].questions,
                         **{f"{label}_{key}": round(value, 4) for label, s in zip(("system", "baseline"), pair)
                            for key, value in (("answer_accuracy", s.accuracy), (f"hit@{HIT_K}", s.hit_rate))}}
    console.print(table)
    return figures


def _print(system: Summary, baseline: Summary, show: bool) -> None:
    table = Table(title=f"QA benchmark ({system.questions} questions)")
    for col in ("system", "answer accuracy", f"evidence hit@{HIT_K}", "median s/question"):
        table.add_column(col, justify="right" if col != "system" else "left")
    for name, s in (("paperkg (graph + hybrid retrieval)", system), ("baseline (BM25 page chunks)", baseline)):
        median = statistics.median(r.seconds for r in s.rows) if s.rows else 0.0
        table.add_row(name, f"{s.accuracy:.3f} ({s.correct})", f"{s.hit_rate:.3f} ({s.hits})", f"{median:.3f}")
    console.print(table)
    if show:
        rows = Table(title="answers")
        for col in ("file", "id", "ok", "hit", "intent", "answer (first 160 chars)", "baseline ok"):
            rows.add_column(col, overflow="fold")
        for mine, base in zip(system.rows, baseline.rows):
            rows.add_row(mine.file, mine.id, "✓" if mine.correct else "✗", "✓" if mine.hit else "✗", mine.intent,
                         mine.answer[:160], "✓" if base.correct else "✗")
        console.print(rows)

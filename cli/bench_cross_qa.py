"""`kg bench qa-cross`: ingest the corpus if needed, ask every cross-paper question of
bench/cross_paper_questions.tsv over all papers, and score the answers' paper lists (bench/cross_qa.py) per half and
per kind of question."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import typer
from rich.table import Table

from bench.stamp import commit, header, write_json
from bench.cross_qa import QUESTIONS, cross_questions, report, score
from cli.output import console
from extractors.model import paper_id
from kg.db import store
from kg.db.filestore import file_sha256
from kg.ingest.pipeline import Ingestor
from kg.qa.engine import ask
from kg.qa.retrieval import query_embedder
from kg.settings import get_settings
from ontology.loader import get_schema


def cross_qa_bench(
    corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of the corpus PDFs."),
    questions: Path = typer.Option(QUESTIONS, exists=True, dir_okay=False, help="Judged questions (TSV)."),
    ingest: bool = typer.Option(True, help="Ingest corpus papers missing from the graph first."),
    out: Path | None = typer.Option(None, help="Write the figures and scored rows as JSON here."),
    show: bool = typer.Option(False, help="List every question with its expected and answered papers."),
) -> None:
    """Cross-paper QA: exact paper lists, precision and recall, on the dev and held-out halves."""
    settings = get_settings()
    items = cross_questions(questions)
    pdfs = sorted(corpus.glob("*.pdf"))
    stem_of = {paper_id(file_sha256(p)): p.stem for p in pdfs}
    with store.open_graph(settings) as graph:
        if ingest:
            Ingestor(settings, graph).run(pdfs)
        embed, schema = query_embedder(settings), get_schema()
        rows = []
        for item in items:
            result = ask(graph, schema, item.question, None, 5, embed=embed)
            answered = [stem_of.get(p["paper_id"], p["paper_id"]) for p in result.papers or []]
            rows.append(score(item, answered))
    figures = report(rows)
    table = Table(title=f"Cross-paper QA ({len(rows)} questions)")
    for column in ("group", "questions", "exact lists", "precision", "recall"):
        table.add_column(column)
    for name, s in figures.items():
        if s["questions"]:
            table.add_row(name, str(s["questions"]), f"{s['exact_lists']:.3f}", f"{s['precision']:.3f}",
                          f"{s['recall']:.3f}")
    console.print(table)
    if show:
        for r in rows:
            mark = "ok " if r.exact else "   "
            console.print(f"{mark}[{r.split}] {r.question}\n     expected {r.expected}\n     answered {r.answered}",
                          highlight=False)
    if out:
        write_json(out, {**header(), "commit": commit(), "corpus": str(corpus), "questions": str(questions),
                         "embeddings": embed is not None, "figures": figures, "rows": [asdict(r) for r in rows]})

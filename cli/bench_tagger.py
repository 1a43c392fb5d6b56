"""`kg bench tagger`: typed mention F1 of the mention tagger on SciERC test, which its training never reads."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.table import Table

from bench import stamp
from cli.output import console
from cli.train import scierc_option


def bench_tagger(
    scierc: Path = scierc_option(),
    split: str = typer.Option("test", "--split", help="which SciERC file to score on (test: the reported figure)"),
    model: Path | None = typer.Option(None, "--model", exists=True, file_okay=False,
                                      help="a trained pipeline (default: the shipped one)"),
    json_out: Path | None = typer.Option(None, "--json", help="the result file (default: dated, in bench/results/)"),
) -> None:
    """Typed mention F1 of the tagger on a SciERC split: exact token span and type, per type, over all six types
    and over the four the ontology has."""
    from extractors.semantic import tagger
    from extractors.semantic.scierc import read_records
    from extractors.semantic.tagger_score import gold_mentions, predicted_mentions, score

    nlp = tagger.load(model or tagger.MODEL_DIR)
    records = list(read_records(scierc / f"{split}.json"))
    start = time.process_time()
    counts = score((gold_mentions(r), predicted_mentions(r, nlp)) for r in records)
    seconds = time.process_time() - start
    table = Table(title=f"SciERC {split}: typed mention P/R/F1, {len(records)} abstracts")
    for col in ("type", "P", "R", "F1", "correct/predicted/gold"):
        table.add_column(col, justify="left" if col == "type" else "right")
    for name, c in counts.items():
        table.add_row(name, f"{c.precision:.3f}", f"{c.recall:.3f}", f"{c.f1:.3f}", f"{c.correct}/{c.predicted}/{c.gold}")
    console.print(table)
    words = sum(len(s) for r in records for s in r["sentences"])
    console.print(f"CPU time {seconds:.1f} s for {words} tokens ({words / seconds:.0f} tokens/s)")
    result = {**stamp.header(), "commit": stamp.commit(), "split": split, "abstracts": len(records),
              "tokens": words, "cpu_seconds": round(seconds, 2),
              "mentions": {name: {"precision": round(c.precision, 4), "recall": round(c.recall, 4), "f1": round(c.f1, 4),
                                  "correct": c.correct, "predicted": c.predicted, "gold": c.gold}
                           for name, c in counts.items()}}
    path = stamp.write_json(json_out or stamp.dated(stamp.RESULTS, "tagger"), result)
    console.print(f"written to {path}")

"""`kg bench verify`: ingest the gold papers of the claim set if needed (as `kg bench qa` does), check every claim
scoped to its paper (as `POST /verify` with `paper_id` does), and score the verdicts by half and by family."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.table import Table

from bench.claims import CLAIMS, Scored, claim_rows, summary
from bench.gold_sets import report_groups
from bench.stamp import RESULTS, dated, header, write_json
from cli.output import console
from extractors.model import paper_id
from kg.db import store
from kg.errors import NotFoundError
from kg.db.filestore import file_sha256
from kg.ingest.pipeline import Ingestor
from kg.qa.retrieval import query_embedder
from kg.qa.verify import verify
from kg.settings import get_settings
from ontology.loader import get_schema

def verify_bench(corpus: Path = typer.Option(..., exists=True, file_okay=False,
                                             help="Folder of the gold papers' PDFs."),
                 claims: Path = typer.Option(CLAIMS, exists=True, dir_okay=False, help="The claim set (TSV)."),
                 out: Path = typer.Option(None, help="Where to write the JSON; default bench/results/verify-<UTC "
                                                     "time>.json."),
                 ingest: bool = typer.Option(True, help="Ingest the claims' papers missing from the graph first."),
                 show: bool = typer.Option(False, help="List every claim with its verdict.")) -> None:
    """Claim checks: accuracy of `kg verify` on the claim set, for the dev and held-out halves and per family."""
    settings = get_settings()
    rows = claim_rows(claims)
    files = sorted({f"{row.paper}.pdf" for row in rows})
    missing = [f for f in files if not (corpus / f).exists()]
    if missing:
        raise typer.BadParameter(f"not in {corpus}: {', '.join(missing)}", param_hint="--corpus")
    scored: list[Scored] = []
    with store.open_graph(settings) as graph:
        if ingest:
            Ingestor(settings, graph).run([corpus / f for f in files])
        paper_of = {Path(f).stem: paper_id(file_sha256(corpus / f)) for f in files}
        embed, schema = query_embedder(settings), get_schema()
        for row in rows:
            began = time.perf_counter()
            try:
                verdict = verify(graph, schema, row.claim, paper_of[row.paper],
                                 embed=embed)
            except NotFoundError:  # a paper ingest refused (no usable text layer): no verdict, scored wrong
                scored.append(Scored(row, "no paper", 0, (), time.perf_counter() - began))
                continue
            pages = tuple(e["page"] for e in verdict.evidence if e["page"] is not None)
            scored.append(Scored(row, verdict.verdict, len(pages), pages, time.perf_counter() - began))
    groups = _groups(scored, corpus / "MANIFEST.tsv")
    _print(scored, groups, show)
    out = write_json(out or dated(RESULTS, "verify"),
                     {**header(), "vectors": embed is not None, "claim_set": claims.name, "all": summary(scored),
                      "groups": groups, "claims": [s.as_dict() for s in scored]})
    console.print(f"written to {out}")


def _groups(scored: list[Scored], manifest: Path) -> dict[str, dict]:
    """The summary of each half, layout and domain of papers (bench.gold_sets) and of each family of claims."""
    named = report_groups(sorted({s.row.paper for s in scored}), manifest)
    figures = {name: {"papers": sorted(members), **summary([s for s in scored if s.row.paper in members])}
               for name, members in named.items()}
    for family in sorted({s.row.family for s in scored}):
        figures[f"family {family}"] = summary([s for s in scored if s.row.family == family])
    return figures


def _print(scored: list[Scored], groups: dict[str, dict], show: bool) -> None:
    table = Table(title=f"claim checks ({len(scored)} claims)")
    for col in ("group", "claims", "accuracy", "with evidence", "evidence page hit"):
        table.add_column(col, justify="left" if col == "group" else "right", overflow="fold")
    for name, figures in {"all": summary(scored), **groups}.items():
        table.add_row(name, str(figures["claims"]), *(f"{figures[k]:.3f}" if figures[k] is not None else "-"
                                                      for k in ("accuracy", "with_evidence", "page_hit")))
    console.print(table)
    if show:
        rows = Table(title="claims")
        for col in ("paper", "claim", "expected", "verdict", "pages"):
            rows.add_column(col, overflow="fold")
        for s in scored:
            rows.add_row(s.row.paper, s.row.claim, s.row.expected,
                         ("" if s.correct else "[red]") + s.verdict, " ".join(map(str, s.pages)))
        console.print(rows)

"""`kg bench structure`: parse a corpus, score it against gold files, and compare with pymupdf4llm."""

from __future__ import annotations

import json
import re
import statistics
import time
from collections import Counter
from pathlib import Path

import typer
from rich.progress import Progress
from rich.table import Table

from bench import corpus_check, stamp
from bench.gold_sets import per_group, report_groups
from bench.gold_years import YEARS, gold_years
from cli.output import console
from cli.parse import prediction
from extractors.model import Escalation
from extractors.scoring import Counts, aggregate, score_paper
from ontology.errors import PaperKGError

app = typer.Typer(help="Benchmarks of the extractors.", no_args_is_help=True)
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def baseline_prediction(path: Path, max_pages: int | None) -> tuple[dict, float, int]:
    """pymupdf4llm's Markdown headings as sections (levels relative to its shallowest non-title
    heading), with the seconds and pages it took."""
    import pymupdf4llm  # ships with pymupdf; imported here because it loads a layout model

    from extractors.mupdf import pymupdf

    with pymupdf.open(path) as doc:
        pages = list(range(min(doc.page_count, max_pages or doc.page_count)))
    start = time.process_time()
    chunks = pymupdf4llm.to_markdown(str(path), page_chunks=True, pages=pages, show_progress=False)
    seconds = time.process_time() - start
    heads = []
    for n, chunk in enumerate(chunks):
        for line in chunk["text"].splitlines():
            m = _MD_HEADING.match(line.strip())
            if m:
                title = re.sub(r"[*_`]+", "", m.group(2)).strip()
                heads.append((len(m.group(1)), title, pages[n] + 1))
    top = min((h[0] for h in heads[1:]), default=1)
    sections = [{"title": t, "level": max(1, h - top + 1), "page": p} for h, t, p in heads[1:]
                if t.lower() != "abstract"]
    title = heads[0][1] if heads else None
    return {"file": path.name, "title": title, "sections": sections}, seconds, len(pages)


def _table(title: str, totals: dict[str, Counts]) -> Table:
    table = Table(title=title)
    for col in ("category", "P", "R", "F1", "matched/gold", "level", "page", "caption"):
        table.add_column(col, justify="right" if col != "category" else "left")
    for name, c in totals.items():
        extra = [f"{c.rate(k):.2f}" if k in c.extra else "" for k in ("level", "page", "caption")]
        table.add_row(name, f"{c.precision:.3f}", f"{c.recall:.3f}", f"{c.f1:.3f}", f"{c.matched}/{c.gold}", *extra)
    return table


def _group_table(title: str, totals: dict[str, dict[str, Counts]], sizes: dict[str, int]) -> Table:
    """One row per group of papers: the F1 (or rate) of each category, so a family that lags shows."""
    table = Table(title=title)
    columns = {"sect": "sections", "lvl": "level", "title": "title", "auth": "authors", "abs": "abstract",
               "refs": "references", "figs": "figures", "tabs": "tables", "eqs": "equations", "year": "year"}
    table.add_column("group", overflow="fold")
    for col in ("n", *columns):
        table.add_column(col, justify="right")
    for name, t in totals.items():
        cells = [f"{t['sections'].rate('level'):.2f}" if key == "level" else f"{t[key].f1:.2f}" if key in t else ""
                 for key in columns.values()]
        table.add_row(name, str(sizes[name]), *cells)
    return table


def _escalated(papers: list[list[Escalation]]) -> dict:
    """How many papers and pages the parser handed to the layout model (extractors/escalation.py), how many
    elements that added, and the pages per reason: a group's figure moving with these shows where escalation
    acts, without a per-paper row."""
    reasons = Counter(reason for escalations in papers for page in escalations for reason in page.reasons)
    return {"papers": sum(1 for escalations in papers if escalations), "pages": sum(map(len, papers)),
            "added": sum(page.added for escalations in papers for page in escalations), "pages_by_reason": dict(reasons)}


def _summary(totals: dict[str, Counts]) -> dict:
    return {name: {"precision": c.precision, "recall": c.recall, "f1": c.f1, "matched": c.matched,
                   "predicted": c.predicted, "gold": c.gold, **{k: c.rate(k) for k in c.extra}}
            for name, c in totals.items()}


@app.command("structure")
def structure(
    corpus: Path = typer.Option(..., "--corpus", exists=True, file_okay=False, help="directory of PDFs"),
    gold: Path = typer.Option(..., "--gold", exists=True, file_okay=False, help="directory of gold JSON files"),
    baseline: bool = typer.Option(True, "--baseline/--no-baseline", help="also score pymupdf4llm's headings"),
    baseline_pages: int = typer.Option(0, "--baseline-pages", help="pages per paper for the baseline (0 = all)"),
    json_out: Path | None = typer.Option(None, "--json", help="write all figures to this JSON file "
                                         "(default: bench/results/structure-<UTC time>.json)"),
    years: Path = typer.Option(YEARS, "--years", exists=True, dir_okay=False,
                               help="the publication year each gold paper prints (TSV: paper, year, where)"),
    check: Path = typer.Option(corpus_check.CHECK, "--corpus-check", exists=True, dir_okay=False,
                               help="numbered equations, figures, tables and reference counts of non-gold corpus "
                                    "papers, counted by hand (TSV); scored on those of its papers the corpus holds"),
) -> None:
    """Parse every PDF in the corpus, score those with a gold file, print precision/recall/F1."""
    from extractors.pipeline import parse_pdf  # MuPDF is imported by the commands that parse, not by every `kg`

    printed = gold_years(years)
    checked = corpus_check.load(check)
    if clash := corpus_check.overlap(checked, gold):
        raise typer.BadParameter(f"papers in both the corpus check and the gold: {', '.join(clash)}",
                                 param_hint="--corpus-check")
    golds = {p.stem: json.loads(p.read_text()) | ({"year": printed[p.stem]} if p.stem in printed else {})
             for p in sorted(gold.glob("*.json"))}
    pdfs = sorted(corpus.glob("*.pdf"))
    ours: dict[str, dict] = {}
    escalations: dict[str, list[Escalation]] = {}
    speeds: list[float] = []
    failures: dict[str, str] = {}
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("parsing", total=len(pdfs))
        for pdf in pdfs:
            progress.update(task, description=f"parsing {pdf.name}")
            start = time.process_time()
            try:
                doc = parse_pdf(pdf)
            except PaperKGError as exc:
                failures[pdf.name] = exc.message
            else:
                speeds.append(doc.page_count / (time.process_time() - start))
                ours[pdf.stem] = prediction(doc)
                escalations[pdf.stem] = doc.audit.escalations
            progress.advance(task)
        base: dict[str, dict] = {}
        base_pages = base_seconds = 0.0
        if baseline:
            task = progress.add_task("pymupdf4llm", total=len(golds))
            for stem in golds:
                progress.update(task, description=f"pymupdf4llm {stem}")
                pred, seconds, pages = baseline_prediction(corpus / f"{stem}.pdf", baseline_pages or None)
                base[stem] = pred
                base_seconds += seconds
                base_pages += pages
                progress.advance(task)
    scores = {stem: score_paper(g, ours.get(stem, {})) for stem, g in golds.items()}
    rows = Table(title="per paper")
    for col in ("paper", "sections F1", "level", "title", "authors F1", "abstract", "refs", "figs F1", "tables F1",
                "year (printed)"):
        rows.add_column(col)
    for stem, s in scores.items():
        year = f"{ours.get(stem, {}).get('year')} ({golds[stem]['year']})" if "year" in golds[stem] else ""
        rows.add_row(stem, f"{s['sections'].f1:.2f}", f"{s['sections'].rate('level'):.2f}", str(s["title"].matched),
                     f"{s['authors'].f1:.2f}", str(s["abstract"].matched), str(s["references"].matched),
                     f"{s['figures'].f1:.2f}", f"{s['tables'].f1:.2f}", year)
    console.print(rows)
    totals = aggregate(list(scores.values()))
    console.print(_table("paperkg", totals))
    named = report_groups(scores, corpus / "MANIFEST.tsv")
    group_totals = per_group(scores, named, aggregate)
    console.print(_group_table("paperkg by group of papers (F1; lvl, title, abs, refs, year: rate)",
                               group_totals, {name: len(members) for name, members in named.items()}))
    pages_per_second = statistics.median(speeds) if speeds else 0.0
    escalated = _escalated(list(escalations.values()))
    console.print(f"paperkg: {len(ours)}/{len(pdfs)} PDFs parsed without exception; "
                  f"median {pages_per_second:.1f} pages/s (parse + chunk, one core); the layout model read "
                  f"{escalated['pages']} pages of {escalated['papers']} papers, adding {escalated['added']} elements")
    for name, message in failures.items():
        console.print(f"[red]failed[/] {name}: {message}", highlight=False)
    check_totals = corpus_check.score(checked, ours)
    check_papers = sorted(stem for stem in checked if stem in ours)
    if check_papers:
        console.print(_table(f"corpus check: {len(check_papers)} non-gold papers counted by hand ({check.name})",
                             check_totals))
    result = {"paperkg": _summary(totals), "pages_per_second_median": pages_per_second,
              "parsed": len(ours), "pdfs": len(pdfs), "failures": failures,
              "corpus_check": {"file": check.name, "papers": check_papers, **_summary(check_totals)},
              "groups": {name: {"papers": named[name], **_summary(t)} for name, t in group_totals.items()},
              "per_paper": {stem: _summary(s) for stem, s in scores.items()},
              "escalation": {"all": escalated, "corpus_check": _escalated([escalations[s] for s in check_papers]),
                             "groups": per_group(escalations, named, _escalated)}}
    if baseline:
        base_totals = aggregate([{"sections": score_paper(g, base[stem])["sections"],
                                  "title": score_paper(g, base[stem])["title"]} for stem, g in golds.items()])
        console.print(_table("pymupdf4llm (Markdown headings)", base_totals))
        base_speed = base_pages / base_seconds if base_seconds else 0.0
        console.print(f"pymupdf4llm: {base_speed:.2f} pages/s over {int(base_pages)} pages")
        result["pymupdf4llm"] = _summary(base_totals) | {"pages_per_second": base_speed}
    result = {**stamp.header(), "commit": stamp.commit(), **result}
    console.print(f"written to {stamp.write_json(json_out or stamp.dated(stamp.RESULTS, 'structure'), result)}")

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
from extractors.semantic import result_scoring
from extractors.semantic.benchmark import (SCIREX_HELD_OUT, SCIREX_TRAIN, TYPES, EntityCounts, gold_entities,
                                           load_scirex, score_paper, scirex_gold, scirex_passages, scirex_split, total)
from ontology.errors import PaperKGError

_SHARED = Path(__file__).resolve().parents[2] / "shared"
_TUPLES = Path(__file__).resolve().parents[1] / "bench" / "result_tuples_gold.tsv"
_TABLES_CHECK = Path(__file__).resolve().parents[1] / "bench" / "result_tables_check.tsv"


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


def _read_tables(doc) -> list[str]:
    """Labels of the tables the results extractor reads any tuple from, knowing the paper's methods as ingest does."""
    from extractors.semantic.extract import extract_semantics, method_keys
    from extractors.semantic.passages import document_tables
    from extractors.semantic.results import table_experiment

    methods = method_keys(extract_semantics(doc).analysis)
    return [grid.label for grid in document_tables(doc)
            if (experiment := table_experiment(grid, methods)) and experiment.results]


def _judged_tables(gold: Path, check: Path) -> dict[tuple[str, str], bool]:
    """The tables check's judgements, refused before any paper is parsed if it names a gold paper."""
    judged = result_scoring.read_table_check(check)
    if clash := sorted({stem for stem, _ in judged if (gold / f"{stem}.json").exists()}):
        raise typer.BadParameter(f"names gold papers: {', '.join(clash)}", param_hint="--tables-check")
    return judged


def _tables_check(corpus: Path, check: Path, judged: dict[tuple[str, str], bool]) -> dict:
    """Parse the corpus papers of the tables check (none of them gold) and score which tables are read; a paper
    that is missing or fails to parse has no table read, and is named."""
    from extractors.pipeline import parse_pdf

    stems = sorted({stem for stem, _ in judged})
    read, failures = [], {}
    for stem in stems:
        try:
            read += [(stem, label) for label in _read_tables(parse_pdf(corpus / f"{stem}.pdf"))]
        except (PaperKGError, OSError) as exc:
            failures[stem] = getattr(exc, "message", str(exc))
            console.print(f"[red]failed[/] {stem}: {failures[stem]}", highlight=False)
    counts, wrong = result_scoring.score_tables(judged, read)
    console.print(f"result tables check ({check.name}, {len(stems)} corpus papers outside the gold): tables read "
                  f"{counts.predicted}, of them judged result tables {counts.correct} (precision {counts.precision:.3f}); "
                  f"judged result tables read {counts.found}/{counts.gold} (recall {counts.recall:.3f})")
    return {"file": check.name, "papers": len(stems), "precision": round(counts.precision, 3),
            "recall": round(counts.recall, 3), "read": counts.predicted, "read_judged_result": counts.correct,
            "judged_result": counts.gold, "wrongly_read": [f"{stem} {label}" for stem, label in wrong],
            "failures": failures}


def _predicted_tuples(stem: str, doc, methods: frozenset[str]) -> list[result_scoring.ResultTuple]:
    """Every (method, metric, value) the results extractor reads from the paper's tables (`methods`: the match keys
    of the paper's methods, extract.method_keys)."""
    from extractors.semantic.passages import document_tables
    from extractors.semantic.results import table_experiment

    return [result_scoring.ResultTuple(stem, grid.label, fact.method, fact.column, fact.value_text)
            for grid in document_tables(doc) if (experiment := table_experiment(grid, methods))
            for fact in experiment.results]


def _sum(counts: list[EntityCounts]) -> EntityCounts:
    out = EntityCounts()
    for c in counts:
        out.add(c)
    return out


def _print_tuples(title: str, by_group: dict[str, EntityCounts], named: dict[str, list[str]]) -> dict:
    """Result-tuple P/R/F1 over all gold papers and by group. In the full count a paper without gold tuples
    still counts its predictions, so reading numbers off a statistics table costs precision."""
    table = Table(title=title)
    for col in ("group", "n", "P", "R", "F1", "correct/predicted", "found/gold"):
        table.add_column(col, justify="left" if col == "group" else "right", overflow="fold")
    for name, c in by_group.items():
        table.add_row(name, str(len(named.get(name, ()))), f"{c.precision:.3f}", f"{c.recall:.3f}", f"{c.f1:.3f}",
                      f"{c.correct}/{c.predicted}", f"{c.found}/{c.gold}")
    console.print(table)
    return {name: {"papers": len(named.get(name, ())), "precision": round(c.precision, 3),
                   "recall": round(c.recall, 3), "f1": round(c.f1, 3), "correct": c.correct,
                   "predicted": c.predicted, "found": c.found, "gold": c.gold} for name, c in by_group.items()}


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
    tuples: Path = typer.Option(_TUPLES, "--tuples", exists=True, dir_okay=False,
                                help="hand-read gold result tuples (TSV)"),
    tables_check: Path = typer.Option(_TABLES_CHECK, "--tables-check", exists=True, dir_okay=False,
                                      help="hand-judged tables of corpus papers outside the gold (TSV): is each a "
                                           "result table"),
    tagger: bool = _tagger_option(),
) -> None:
    """Parse each gold paper, extract its salient entities, print P/R/F1 per type, P/R/F1 of the result tuples
    read from its tables (and which tables of the corpus papers of --tables-check are read), its Concept count and the CPU time the semantic extraction adds to the structure parse."""
    # MuPDF and spaCy are imported by the commands that use them, not by every `kg`
    from extractors.pipeline import parse_pdf
    from extractors.semantic import nlp
    from extractors.semantic import tagger as mention_tagger
    from extractors.semantic.canonical import entity_id
    from extractors.semantic.extract import extract_semantics, method_keys

    golds = {p.stem: json.loads(p.read_text()) for p in sorted(gold.glob("*.json"))}
    gold_tuples = result_scoring.read_gold(tuples)
    judged_tables = _judged_tables(gold, tables_check)
    start = time.perf_counter()
    nlp.load()
    model = mention_tagger.load() if tagger else None
    load_seconds = time.perf_counter() - start
    papers, per_paper, failures, tuple_scores, in_tables = {}, {}, {}, {}, {}
    structure_seconds = semantic_seconds = 0.0
    for stem, g in golds.items():
        pdf = corpus / f"{stem}.pdf"
        predicted: dict[str, list[str]] = {}
        found_tuples: list[result_scoring.ResultTuple] = []
        concepts = 0
        if pdf.exists():  # CPU time of this process: on a shared machine wall time measures the neighbours
            start = time.process_time()
            try:
                doc = parse_pdf(pdf)
            except PaperKGError as exc:  # refused (e.g. no usable text layer): scored as a paper with nothing found
                failures[pdf.name] = exc.message
                console.print(f"[red]failed[/] {pdf.name}: {exc.message}", highlight=False)
                papers[stem] = score_paper(gold_entities(g), {})
                tuple_scores[stem] = in_tables[stem] = result_scoring.score(
                    [t for t in gold_tuples if t.stem == stem], [])
                continue
            middle = time.process_time()
            extraction = extract_semantics(doc, model)
            structure_seconds += middle - start
            semantic_seconds += time.process_time() - middle
            predicted = _predicted(extraction.analysis.entities)
            found_tuples = _predicted_tuples(stem, doc, method_keys(extraction.analysis))
            concepts = len({entity_id("Concept", d.term) for d in extraction.annotations.definitions})
        scores = score_paper(gold_entities(g), predicted)
        papers[stem] = scores
        paper_gold = [t for t in gold_tuples if t.stem == stem]
        tuple_scores[stem] = result_scoring.score(paper_gold, found_tuples)
        in_tables[stem] = result_scoring.score(paper_gold, result_scoring.in_gold_tables(paper_gold, found_tuples))
        per_paper[stem] = {"predicted": predicted, "f1": {k: round(c.f1, 3) for k, c in scores.items()},
                           "concepts": concepts, "result_tuples": {
                               "correct": tuple_scores[stem].correct, "predicted": tuple_scores[stem].predicted,
                               "gold": tuple_scores[stem].gold}}
    named = report_groups(papers, corpus / "MANIFEST.tsv")
    by_group = per_group(papers, named, total)
    _print_groups(by_group, named)
    tuple_result = _print_tuples("result tuples by group of papers (gold: bench/result_tuples_gold.tsv)",
                                 {"all": _sum(list(tuple_scores.values())), **per_group(tuple_scores, named, _sum)},
                                 {"all": list(papers), **named})
    tuples_in_tables = _print_tuples("result tuples, predictions from the gold's tables only",
                                     {"all": _sum(list(in_tables.values())), **per_group(in_tables, named, _sum)},
                                     {"all": list(papers), **named})
    concepts_table = Table(title="Concept nodes (definitions, abbreviation pairs) per paper")
    concepts_table.add_column("paper")
    concepts_table.add_column("concepts", justify="right")
    for stem, row in per_paper.items():
        concepts_table.add_row(stem, str(row["concepts"]))
    console.print(concepts_table)
    result = {**stamp.header(), "commit": stamp.commit(), "tagger": tagger,
              "entities": _print(f"salient entities, {len(golds)} gold papers", total(list(papers.values()))),
              "groups": {name: {"papers": named[name], **{kind: {"f1": round(c.f1, 3), "precision": round(
                  c.precision, 3), "recall": round(c.recall, 3)} for kind, c in t.items()}}
                         for name, t in by_group.items()},
              "structure_seconds": round(structure_seconds, 2), "semantic_seconds": round(semantic_seconds, 2),
              "load_seconds": round(load_seconds, 2), "failures": failures, "result_tuples": tuple_result,
              "result_tuples_in_gold_tables": tuples_in_tables,
              "result_tables_check": _tables_check(corpus, tables_check, judged_tables),
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
    over all documents and over the fixed 80/20 split by document (the 20 are never tuned on). Scored twice: the
    entities the salience model finds central (SciREX's sense of salient: what the results are about), and all
    the paper's entities (also those the rules find it uses)."""
    from extractors.semantic import tagger as mention_tagger
    from extractors.semantic.entities import analyse_passages  # spaCy: see entities()

    documents = load_scirex(docs)[: limit or None]
    model = mention_tagger.load() if tagger else None
    start = time.process_time()
    analyses = [analyse_passages(scirex_passages(d), tagger=model) for d in documents]
    seconds = time.process_time() - start
    result = {**stamp.header(), "commit": stamp.commit(), "tagger": tagger, "cpu_seconds": round(seconds, 2)}
    for key, what, chosen in (("scirex", "central entities (salience model)", lambda a: [e for e in a.ranked if e.central]),
                              ("paper entities", "all the paper's entities", lambda a: a.entities)):
        papers = [score_paper(scirex_gold(d), _predicted(chosen(a))) for d, a in zip(documents, analyses)]
        halves = {half: [p for d, p in zip(documents, papers) if scirex_split(d["doc_id"]) == half]
                  for half in (SCIREX_TRAIN, SCIREX_HELD_OUT)}
        scored = {"": _print(f"SciREX, {what}, {len(documents)} documents", total(papers)),
                  **{f" {half}": _print(f"SciREX {half} ({len(ps)} documents), {what}", total(ps))
                     for half, ps in halves.items()}}
        result.update({key + suffix: figures for suffix, figures in scored.items()})
    console.print(f"written to {stamp.write_json(json_out or stamp.dated(stamp.RESULTS, 'scirex'), result)}")

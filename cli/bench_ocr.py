"""`kg bench ocr`: rasterize corpus pages and papers, read them back with OCR as ingestion does, and score the
text against their own text layer (character accuracy, seconds per page) and the sections, numbered equations and
figure and table regions against the original's (bench/ocr.py)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import typer

from bench.stamp import header, write_json
from bench.ocr import (char_accuracy, label_recall, rasterized, regions_found, section_precision, section_recall,
                       word_recall)
from cli.output import console
from ontology.errors import PaperKGError

# A sample of the corpus's layouts (one and two columns, a 1990s preprint, a journal page); the page numbers are
# 1-based, and page 2 is body text in each.
DEFAULT_PAGES = ["s2orc_N18-3011.pdf:2", "grobid_0908.0054.pdf:2", "pm_2304.02623v1.pdf:2", "cermine_test1.pdf:2"]
DEFAULT_PAPERS = ["grobid_0908.0054.pdf"]


def _page_text(doc, number: int) -> str:
    from extractors.layout import read_page

    return "\n".join(line.text for line in read_page(doc[number - 1]).lines)


def _check_named(corpus: Path, pages: list[str], papers: list[str]) -> None:
    """Every FILE:PAGE and FILE named exists in the corpus folder, and each PAGE in its file, before the first page
    is read."""
    from extractors.mupdf import pymupdf  # MuPDF: imported by the commands that parse only

    for spec in pages:
        name, _, number = spec.rpartition(":")
        if not name or not number.isdigit() or int(number) < 1:
            raise typer.BadParameter(f"{spec!r} is not FILE:PAGE (a 1-based page number)", param_hint="--page")
    for name in [spec.rpartition(":")[0] for spec in pages] + papers:
        if not (corpus / name).is_file():
            raise typer.BadParameter(f"no {name} in {corpus}", param_hint="--paper/--page")
    for spec in pages:
        name, _, number = spec.rpartition(":")
        try:
            count = pymupdf.open(corpus / name).page_count
        except (RuntimeError, ValueError) as exc:
            raise typer.BadParameter(f"{name} cannot be opened as a PDF: {exc}", param_hint="--page") from None
        if int(number) > count:
            raise typer.BadParameter(f"{name} has {count} pages, not {number}", param_hint="--page")


def ocr_bench(
    corpus: Path = typer.Option(..., exists=True, file_okay=False, help="Folder of the PDFs named below."),
    page: list[str] = typer.Option(DEFAULT_PAGES, help="FILE:PAGE (1-based) to rasterize and read back."),
    paper: list[str] = typer.Option(DEFAULT_PAPERS,
                                    help="FILE to rasterize whole and parse: sections, equations and floats found."),
    dpi: int = typer.Option(200, min=72, max=600, help="Resolution of the rasterized copies (the scan)."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the figures to this JSON file."),
) -> None:
    """Character accuracy and seconds per page of OCR on rasterized corpus pages, and the shares of a paper's
    sections, numbered equations and figure and table regions its rasterized copy still yields (and of its sections,
    the share that are the original's)."""
    from extractors.mupdf import pymupdf  # MuPDF: imported by the commands that parse only
    from extractors.layout import read_page
    from extractors.ocr import DPI, ENGINE, LANGUAGE, ocr_missing_text, tessdata
    from extractors.pipeline import parse_pdf

    _check_named(corpus, page, paper)
    if tessdata() is None:
        raise typer.BadParameter(f"no Tesseract {LANGUAGE} language data here: run `make system-deps` first")
    pages, papers = [], []
    for spec in page:
        name, _, number = spec.rpartition(":")
        source = pymupdf.open(corpus / name)
        truth = _page_text(source, int(number))
        scan = pymupdf.open(stream=rasterized(source.tobytes(), dpi, {int(number)}), filetype="pdf")
        began = time.perf_counter()
        outcome = ocr_missing_text(scan, [read_page(p) for p in scan], None)
        seconds = time.perf_counter() - began
        text = "\n".join(line.text for line in outcome.pages[int(number) - 1].lines)
        result = {"page": spec, "chars": len(truth), "char_accuracy": round(char_accuracy(text, truth), 4),
                  "word_recall": round(word_recall(text, truth), 4), "seconds": round(seconds, 2),
                  "pages_ocr": len(outcome.read)}
        pages.append(result)
        console.print(f"{spec:32} chars {len(truth):5}  char accuracy {result['char_accuracy']:.3f}  word recall "
                      f"{result['word_recall']:.3f}  {seconds:.1f} s", highlight=False)
    with tempfile.TemporaryDirectory() as tmp:
        for name in paper:
            scan = Path(tmp) / name
            scan.write_bytes(rasterized((corpus / name).read_bytes(), dpi))
            try:
                original = parse_pdf(corpus / name)
            except PaperKGError as exc:
                console.print(f"{name:32} not parsed: {exc.message}", highlight=False)
                papers.append({"paper": name, "error": exc.message})
                continue
            floats = [(f.kind, f.label, f.page, f.bbox) for f in original.figures + original.tables]
            try:
                began = time.perf_counter()
                ocr = parse_pdf(scan)
                seconds = time.perf_counter() - began
            except PaperKGError as exc:  # the scan refused: all it should have yielded is missed
                console.print(f"{name:32} scan not parsed: {exc.message}", highlight=False)
                papers.append({"paper": name, "error": exc.message, "section_recall": 0.0,
                               "equations": sum(1 for e in original.equations if e.label), "equation_recall": 0.0,
                               "floats": len(floats), "floats_placed": 0})
                continue
            titles, truth_titles = [s.title for s in ocr.sections], [s.title for s in original.sections]
            recall, precision = section_recall(titles, truth_titles), section_precision(titles, truth_titles)
            numbers = [e.label for e in original.equations if e.label]
            found = label_recall([e.label for e in ocr.equations if e.label], numbers)
            placed = regions_found([(f.kind, f.label, f.page, f.bbox) for f in ocr.figures + ocr.tables], floats)
            papers.append({"paper": name, "pages": original.page_count, "sections": len(original.sections),
                           "ocr_sections": len(ocr.sections), "section_recall": round(recall, 4),
                           "section_precision": None if precision is None else round(precision, 4),
                           "equations": len(numbers), "equation_recall": round(found, 4),
                           "floats": len(floats), "floats_placed": placed,
                           "seconds_per_page": round(seconds / original.page_count, 2)})
            console.print(f"{name:32} sections {len(original.sections)} -> {len(ocr.sections)} "
                          f"recall {recall:.3f} precision {'-' if precision is None else f'{precision:.3f}'}  numbered equations {len(numbers)} recall "
                          f"{found:.3f}  floats placed {placed}/{len(floats)}  {seconds / original.page_count:.1f} "
                          "s/page", highlight=False)
    chars = sum(p["chars"] for p in pages)
    numbers = sum(p.get("equations", 0) for p in papers)  # pooled: each printed number counts once
    floats = sum(p.get("floats", 0) for p in papers)  # pooled likewise
    precisions = [p["section_precision"] for p in papers if p.get("section_precision") is not None]
    summary = {
        "char_accuracy": round(sum(p["char_accuracy"] * p["chars"] for p in pages) / chars, 4) if chars else None,
        "seconds_per_page": round(sum(p["seconds"] for p in pages) / len(pages), 2) if pages else None,
        "section_recall": round(sum(p.get("section_recall", 0.0) for p in papers) / len(papers), 4) if papers else None,
        "section_precision": round(statistics.mean(precisions), 4) if precisions else None,
        "equation_recall": round(sum(p.get("equation_recall", 0.0) * p.get("equations", 0) for p in papers) / numbers,
                                 4) if numbers else None,
        "float_recall": round(sum(p.get("floats_placed", 0) for p in papers) / floats, 4) if floats else None,
    }
    console.print(f"all: char accuracy {summary['char_accuracy']}  {summary['seconds_per_page']} s/page  "
                  f"section recall {summary['section_recall']} precision {summary['section_precision']}  equation "
                  f"recall {summary['equation_recall']}  float recall {summary['float_recall']}",
                  highlight=False)
    if json_out:
        write_json(json_out, {
            **header(),
            "engine": f"{ENGINE} ({LANGUAGE}) through PyMuPDF {pymupdf.VersionBind}", "ocr_dpi": DPI,
            "scan_dpi": dpi, "corpus": str(corpus), **summary, "pages": pages, "papers": papers})

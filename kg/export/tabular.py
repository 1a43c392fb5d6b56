"""Papers as BibTeX, and papers and the results table as CSV, each row with its provenance (PDF sha256,
extractor, confidence, pages) and verification status."""

from __future__ import annotations

import csv
import io
import re
from enum import StrEnum
from typing import Iterable

from kg.export.view import GraphView, results_rows
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord


class CsvTable(StrEnum):
    PAPERS = "papers"
    RESULTS = "results"


PAPER_COLUMNS = ("paper_id", "title", "authors", "year", "doi", "arxiv_id", "file_name", "page_count", "sha256",
                 "extractor", "confidence", "verification_status")
RESULT_COLUMNS = ("paper_id", "result_id", "method", "dataset", "metric", "value", "reported_in", "pages",
                  "confidence", "verification_status")

_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#",
          "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}"}
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_:.-]")
# A spreadsheet runs a cell that starts like a formula ("=", "+", "-", "@", or a tab or line break before one).
# Only a plain number is left as it is: "-0.5" stays a number, but "-1+A1" is a formula, so it is guarded too.
_FORMULA = re.compile(r"[=+\-@\t\r\n]")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def latex(text: object) -> str:
    """Text for a BibTeX field read as LaTeX: every special character escaped, line breaks folded."""
    return "".join(_LATEX.get(c, c) for c in " ".join(str(text).split()))


def verbatim(text: object) -> str:
    """DOI, eprint and file fields are read verbatim: only braces and backslashes would break the entry, and a
    line break, which would let a line of the field begin like a new entry ('@misc{'), is folded to a space."""
    return re.sub(r"[{}\\]", "", " ".join(str(text).split()))


def cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if _FORMULA.match(text) and not _PLAIN_NUMBER.fullmatch(text) else text


def paper_rows(view: GraphView) -> list[dict[str, str]]:
    rows = []
    for paper in view.papers():
        p = paper.props
        rows.append({"paper_id": paper.id, "title": p.get("title", ""),
                     "authors": "; ".join(a.props.get("name", a.id) for _, a in view.targets(paper, "HAS_AUTHOR")),
                     **{k: p.get(k, "") for k in PAPER_COLUMNS[3:9]},
                     "extractor": p.get("extractor", ""), "confidence": p.get("confidence", ""),
                     "verification_status": p.get("verification_status", "")})
    return rows


def to_csv(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema, table: str,
           paper_ids: list[str] | None = None) -> str:
    view = GraphView(nodes, edges, schema, paper_ids)
    if table == CsvTable.PAPERS:
        columns, rows = PAPER_COLUMNS, paper_rows(view)
    else:
        columns = RESULT_COLUMNS
        rows = [{"paper_id": paper.id, **row} for paper in view.papers() for row in results_rows(view, paper)]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: cell(row[k]) for k in columns} for row in rows)
    return out.getvalue()


def to_bibtex(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema,
              paper_ids: list[str] | None = None) -> str:
    view = GraphView(nodes, edges, schema, paper_ids)
    entries = []
    for row in paper_rows(view):
        authors = " and ".join(f"{{{latex(a)}}}" if " and " in f" {a} " else latex(a)
                               for a in row["authors"].split("; ") if a)
        fields = [("title", f"{{{latex(row['title'])}}}" if row["title"] else ""), ("author", authors),
                  ("year", str(row["year"])), ("doi", verbatim(row["doi"])), ("eprint", verbatim(row["arxiv_id"])),
                  ("archiveprefix", "arXiv" if row["arxiv_id"] else ""), ("file", verbatim(row["file_name"])),
                  ("note", latex(f"paperkg {row['paper_id']}; PDF sha256 {row['sha256']}; extractor "
                                 f"{row['extractor']}; confidence {row['confidence']}; "
                                 f"verification {row['verification_status']}"))]
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
        entries.append(f"@misc{{{_KEY_UNSAFE.sub('_', row['paper_id'])},\n{body}\n}}\n")
    return "\n".join(entries)

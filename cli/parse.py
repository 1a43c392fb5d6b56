"""`kg parse PDF`: one PDF to its Document as JSON, a Markdown outline, or a gold-format prediction."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

import typer

from extractors.model import Document, Section
from kg.workers.sandbox import SandboxLimits, run_alone
from kg.settings import get_settings


class Format(str, Enum):
    json = "json"
    markdown = "markdown"
    eval = "eval"


def prediction(doc: Document) -> dict:
    """The prediction format of GOLD_SCHEMA.md; categories not extracted are left out, and so are sections whose
    heading is not printed (the gold lists printed headings)."""
    out = {
        "file": doc.file_name,
        "title": doc.metadata.title,
        "year": doc.metadata.year,
        "authors": [a.name for a in doc.metadata.authors],
        "abstract": doc.metadata.abstract,
        "sections": [{"title": s.title, "level": s.level, "page": s.page_start} for s in doc.sections if s.printed],
        "figures": [{"label": f.label, "page": f.page, "caption": f.caption} for f in doc.figures],
        "tables": [{"label": t.label, "page": t.page, "caption": t.caption} for t in doc.tables],
        "equations": [{"label": e.label, "page": e.page} for e in doc.equations if e.label],
    }
    if doc.references:
        out["references_count"] = len(doc.references)
    return out


def markdown(doc: Document) -> str:
    """Title, authors, abstract, then each section's heading and body text."""
    meta = doc.metadata
    parts = [f"# {meta.title or doc.file_name}"]
    if meta.authors:
        parts.append(", ".join(a.name for a in meta.authors))
    if meta.abstract:
        parts.append(f"**Abstract.** {meta.abstract}")

    def heading(s: Section) -> str:
        number = f"{s.number} " if s.number else ""
        return f"{'#' * min(6, s.level + 1)} {number}{s.title}"

    for s in doc.sections:
        parts.append(heading(s))
        body = doc.text[s.char_start:s.char_end].strip()
        if body:
            parts.append(body)
    return "\n\n".join(parts) + "\n"


def parse(
    pdf: Path = typer.Argument(..., help="the PDF to parse"),
    fmt: Format = typer.Option(Format.json, "--format", help="json: the Document; markdown: outline and "
                               "text; eval: one JSON line in the gold prediction format"),
) -> None:
    """Extract the structure of one PDF and print it (parsed in a process with the PAPERKG_PARSE_* limits)."""
    from extractors.pipeline import parse_pdf  # MuPDF is imported by the commands that parse, not by every `kg`

    settings = get_settings()
    doc = run_alone(SandboxLimits.of(settings), pdf.name, parse_pdf, pdf, settings.parse_limits)
    if fmt is Format.json:
        typer.echo(doc.model_dump_json(indent=2))
    elif fmt is Format.markdown:
        typer.echo(markdown(doc), nl=False)
    else:
        typer.echo(json.dumps(prediction(doc), ensure_ascii=False))

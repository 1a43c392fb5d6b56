"""`kg doctor`: checks Java, the Neo4j jars and server, the ports, the embedder and the spaCy model (kg/doctor.py)."""

from __future__ import annotations

import typer
from rich.table import Table

from cli.output import console
from kg.doctor import diagnose
from kg.settings import get_settings

_MARK = {"ok": "[green]ok[/]", "warn": "[yellow]warn[/]", "fail": "[red]FAIL[/]"}


def doctor() -> None:
    """Check what paperkg needs and say how to fix what is missing (exit status 1 when something is broken)."""
    checks = diagnose(get_settings())
    table = Table("check", "state", "detail", "fix", box=None)
    for c in checks:
        table.add_row(c.name, _MARK[c.level], c.detail, c.fix)
    console.print(table)
    if any(c.level == "fail" for c in checks):
        raise typer.Exit(1)

"""`kg config ...`: what the settings resolve to."""

from __future__ import annotations

import typer
from rich.table import Table

from cli.output import console
from kg.settings import get_settings

app = typer.Typer(help="Inspect configuration (PAPERKG_* environment variables and .env).", no_args_is_help=True)


@app.command()
def show() -> None:
    """Print every setting with its current value (the password is masked)."""
    table = Table("variable", "value")
    for name, value in sorted(get_settings().masked().items()):
        table.add_row(name, value)
    console.print(table)

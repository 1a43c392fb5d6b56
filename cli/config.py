"""`kg config ...`: what the settings resolve to."""

from __future__ import annotations

import typer
from rich.table import Table

from cli.output import console
from kg.settings import get_settings

app = typer.Typer(help="Inspect configuration (PAPERKG_* environment variables and .env).", no_args_is_help=True)


@app.command()
def show(reveal: bool = typer.Option(False, "--reveal", help="Print secrets too (the Neo4j password for Browser's "
                                                              "login).")) -> None:
    """Print every setting with its current value (secrets masked unless --reveal)."""
    table = Table("variable", "value")
    for name, value in sorted(get_settings().masked(reveal).items()):
        table.add_row(name, value)
    console.print(table)

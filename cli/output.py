"""Console output shared by every command: one rich console, errors printed the same way."""

from __future__ import annotations

from rich.console import Console

from ontology.errors import PaperKGError

console = Console()
err_console = Console(stderr=True)


def report_error(exc: PaperKGError) -> None:
    err_console.print(f"[bold red]error:[/] {exc.message}", highlight=False)
    if exc.hint:
        err_console.print(f"[yellow]hint:[/] {exc.hint}", highlight=False)
    if exc.details:
        err_console.print(exc.details, highlight=False, markup=False)

"""`kg db ...`: the local Neo4j server for people without Docker."""

from __future__ import annotations

import time

import typer
from rich.table import Table

from cli.output import console
from kg.db.localserver import LocalNeo4j, ServerStatus
from kg.db.schema import InitReport, init_configured
from kg.settings import get_settings

app = typer.Typer(help="Run a local Neo4j 5.26 Community server (no Docker needed).", no_args_is_help=True)


def _server() -> LocalNeo4j:
    return LocalNeo4j(get_settings())


def _print_status(status: ServerStatus) -> None:
    table = Table(show_header=False, box=None)
    state = "[green]running[/]" if status.running else "[red]stopped[/]"
    table.add_row("state", state)
    if status.pid:
        table.add_row("pid", str(status.pid))
    if status.version:
        table.add_row("neo4j", f"{status.version} {status.edition}")
    if status.problem:
        table.add_row("problem", f"[red]{status.problem}[/]")
    table.add_row("bolt", status.bolt_uri)
    table.add_row("browser", status.browser_url)
    table.add_row("home", str(status.home))
    console.print(table)


@app.command()
def install() -> None:
    """Fetch the Neo4j Community jars and Neo4j Browser from Maven Central (once; cached)."""
    with console.status("Resolving Neo4j from Maven Central (first time: about a minute)..."):
        lib = _server().install()
    console.print(f"Neo4j jars in {lib}")


@app.command()
def start() -> None:
    """Start the local server in the background and wait until Bolt answers. A no-op if already running."""
    server = _server()
    began = time.monotonic()
    with console.status("Starting Neo4j..."):
        status, started = server.start()
    if started:
        console.print(f"[green]Neo4j started[/] in {time.monotonic() - began:.1f} s")
    else:
        console.print("Neo4j is already running; nothing to do.")
    _print_status(status)
    if status.running and not status.problem:  # server.settings: with the password generated on a first start
        _print_schema_report(init_configured(server.settings, on_start=True))
    console.print(f"Open Neo4j Browser at {status.browser_url} (user {server.settings.neo4j_user}, "
                  "password: `kg config show --reveal`)")


@app.command()
def init() -> None:
    """Create the graph's constraints and indexes from the ontology. Idempotent; upgrades a minor ontology version."""
    _print_schema_report(init_configured(get_settings()))


def _print_schema_report(report: InitReport | None) -> None:
    if report is None:
        return
    change = f" (was {report.previous_version})" if report.previous_version not in (None, report.version) else ""
    console.print(f"Graph schema: ontology {report.version}{change}, {report.action}; "
                  f"{len(report.created)} created, {len(report.dropped)} dropped")


@app.command()
def stop() -> None:
    """Stop the server that `kg db start` started (never another Neo4j)."""
    if _server().stop():
        console.print("Neo4j stopped.")
    else:
        console.print("No local Neo4j of ours is running.")


@app.command()
def status() -> None:
    """Tell whether the local server runs, and its version and edition. Exit status 3 when stopped."""
    current = _server().status()
    _print_status(current)
    if not current.running:
        raise typer.Exit(3)
    if current.problem:
        raise typer.Exit(1)


@app.command()
def logs(lines: int = typer.Option(50, "--lines", "-n", help="How many lines from the end of each log.")) -> None:
    """Print the end of the server's logs."""
    console.print(_server().log_tail(lines), markup=False, highlight=False)


@app.command()
def reset(yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation.")) -> None:
    """Stop the server and delete all its data. The downloaded jars stay cached."""
    server = _server()
    if not yes:
        typer.confirm(f"Delete every database under {server.home}?", abort=True)
    server.reset()
    console.print(f"Deleted {server.home}. `kg db start` creates a new, empty database.")

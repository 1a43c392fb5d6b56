"""Entry point of the `kg` console script."""

from __future__ import annotations

import importlib.metadata
import platform
import sys

import typer
from pydantic import ValidationError

from cli import (bench, bench_bulk, bench_checksum, bench_cross_qa, bench_domains, bench_duplicates, bench_entities,
                 bench_fanout, bench_first_ingest, bench_ingest, bench_ocr, bench_qa, bench_robustness, bench_search,
                 bench_tagger, bench_verify, config, curate, db, domains, export, graph_import, ingest, ontology, papers,
                 parse, qa, search, train)
from cli.doctor import doctor
from cli.serve import serve
from cli.output import err_console, report_error
from ontology.errors import PaperKGError
from ontology.loader import get_schema

app = typer.Typer(
    help="paperkg: turn scientific PDFs into a provenance-bearing knowledge graph in Neo4j.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"paperkg {importlib.metadata.version('paperkg')} (ontology {get_schema().version}, "
                   f"Python {platform.python_version()})")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="print the version and exit")) -> None:
    """paperkg: turn scientific PDFs into a provenance-bearing knowledge graph in Neo4j."""


app.add_typer(db.app, name="db")
app.add_typer(config.app, name="config")
app.add_typer(bench.app, name="bench")
app.add_typer(ontology.app, name="ontology")
app.add_typer(export.app, name="export")
app.add_typer(curate.app, name="curate")
app.add_typer(domains.app, name="domains")
app.add_typer(train.app, name="train")
app.command("parse")(parse.parse)
app.command("ingest")(ingest.ingest)
app.command("delete")(ingest.delete)
app.command("papers")(papers.papers)
app.command("outline")(papers.outline)
app.command("related")(papers.related)
app.command("import")(graph_import.import_)
app.command()(serve)
app.command("ask")(qa.ask)
app.command("verify")(qa.verify)
app.command("locate")(qa.locate)
app.command("coverage")(qa.coverage)
app.command("search")(search.search)
app.command()(doctor)
bench.app.command("qa")(bench_qa.qa)
bench.app.command("qa-cross")(bench_cross_qa.cross_qa_bench)
bench.app.command("ingest")(bench_ingest.ingest_bench)
bench.app.command("robustness")(bench_robustness.robustness_bench)
bench.app.command("first-ingest")(bench_first_ingest.first_ingest_bench)
bench.app.command("duplicates")(bench_duplicates.duplicates_bench)
bench.app.command("verify")(bench_verify.verify_bench)
bench.app.command("domains")(bench_domains.domains_bench)
bench.app.command("search")(bench_search.search_bench)
bench.app.command("ocr")(bench_ocr.ocr_bench)
bench.app.command("bulk")(bench_bulk.bulk_bench)
bench.app.command("checksum")(bench_checksum.checksum_bench)
bench.app.command("fanout")(bench_fanout.fanout_bench)
bench.app.command("tagger")(bench_tagger.bench_tagger)


def main() -> None:
    try:
        app()
    except PaperKGError as exc:
        report_error(exc)
        sys.exit(1)
    except ValidationError as exc:
        err_console.print(f"[bold red]error:[/] invalid configuration\n{exc}", highlight=False)
        sys.exit(2)


if __name__ == "__main__":  # `python -m cli.main`, as `python -m cli` and `kg` run it
    main()

"""`kg bench ingest --writer-chunks` must fill the synthetic papers' 100 sections evenly: anything else is refused
before the benchmark touches the database."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cli.main import app


def test_writer_chunks_not_a_multiple_of_100_is_refused(tmp_path: Path):
    result = CliRunner().invoke(app, ["bench", "ingest", "--corpus", str(tmp_path), "--writer-chunks", "150"])
    assert result.exit_code == 2
    assert "150 is not a multiple of 100" in result.output

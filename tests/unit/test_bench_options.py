"""Benchmark options that cannot work are refused before the benchmark starts: `kg bench ingest --writer-chunks`
must fill the synthetic papers' 100 sections evenly, and `kg bench ocr` must name files its corpus holds."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cli.main import app


def test_writer_chunks_not_a_multiple_of_100_is_refused(tmp_path: Path):
    result = CliRunner().invoke(app, ["bench", "ingest", "--corpus", str(tmp_path), "--writer-chunks", "150"])
    assert result.exit_code == 2
    assert "150 is not a multiple of 100" in result.output


def test_bench_ocr_refuses_a_file_the_corpus_lacks_before_reading_any_page(tmp_path: Path):
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    result = CliRunner().invoke(app, ["bench", "ocr", "--corpus", str(tmp_path), "--page", "a.pdf:1",
                                      "--paper", "missing.pdf"])
    assert result.exit_code == 2
    assert "no missing.pdf in" in " ".join(result.output.split())


def test_bench_ocr_refuses_a_page_without_a_number(tmp_path: Path):
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    result = CliRunner().invoke(app, ["bench", "ocr", "--corpus", str(tmp_path), "--page", "a.pdf"])
    assert result.exit_code == 2
    assert "is not FILE:PAGE" in " ".join(result.output.split())


def test_bench_ocr_refuses_a_page_past_the_file_s_last(tmp_path: Path):
    import pymupdf

    doc = pymupdf.open()
    doc.new_page()
    doc.save(tmp_path / "one.pdf")
    result = CliRunner().invoke(app, ["bench", "ocr", "--corpus", str(tmp_path), "--page", "one.pdf:3",
                                      "--paper", "one.pdf"])
    assert result.exit_code == 2
    assert "one.pdf has 1 pages, not 3" in " ".join(result.output.split())

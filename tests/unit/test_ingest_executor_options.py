"""`kg ingest --executor local|dask [--scheduler ADDRESS]`: the options become the parser Ingestor runs, and the
combinations that mean nothing are refused before anything is read."""

from __future__ import annotations

import pytest
import typer

from cli.ingest import parse_executor
from kg.ingest.pipeline import local_executor


def test_the_local_executor_is_the_sandbox_pool_kg_ingest_always_used():
    assert parse_executor("local", None) is local_executor


def test_a_scheduler_goes_with_the_dask_executor_only():
    with pytest.raises(typer.BadParameter, match="--executor dask only"):
        parse_executor("local", "tcp://127.0.0.1:8786")


def test_an_unknown_executor_is_refused():
    with pytest.raises(typer.BadParameter, match="neither 'local' nor 'dask'"):
        parse_executor("ray", None)

"""`kg serve --qa-processes`: the flag wins, else PAPERKG_QA_PROCESSES, else one per core; the choice reaches the
API processes through the environment (uvicorn starts them afresh)."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

import cli.serve
from cli.main import app
from kg.settings import get_settings


@pytest.fixture
def served(monkeypatch):
    calls = []
    monkeypatch.setattr(cli.serve.uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    monkeypatch.delenv("PAPERKG_QA_PROCESSES", raising=False)
    get_settings.cache_clear()
    yield calls
    os.environ.pop("PAPERKG_QA_PROCESSES", None)
    get_settings.cache_clear()


@pytest.mark.parametrize("args, env, expected", [
    (["--qa-processes", "3"], None, "3"),
    (["--qa-processes", "0"], "5", "0"),
    ([], "5", "5"),
    ([], "0", "0"),
    ([], None, str(os.cpu_count() or 1)),
])
def test_qa_processes_flag_then_setting_then_cores(served, monkeypatch, args, env, expected):
    if env is not None:
        monkeypatch.setenv("PAPERKG_QA_PROCESSES", env)
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 0, result.output
    assert len(served) == 1 and served[0]["factory"] is True
    assert os.environ["PAPERKG_QA_PROCESSES"] == expected
    assert get_settings().qa_processes == int(expected)

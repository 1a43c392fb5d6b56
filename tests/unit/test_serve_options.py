"""`kg serve --qa-processes`: the flag wins, else PAPERKG_QA_PROCESSES, else one per core; the choice reaches the
API processes through the environment (uvicorn starts them afresh). `kg serve --host` beyond loopback needs keys."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

import cli.serve
from cli.main import app
from kg.auth.apikeys import entry
from kg.settings import get_settings


@pytest.fixture
def served(monkeypatch):
    calls = []
    monkeypatch.setattr(cli.serve.uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    monkeypatch.delenv("PAPERKG_QA_PROCESSES", raising=False)
    get_settings.cache_clear()
    yield calls
    os.environ.pop("PAPERKG_QA_PROCESSES", None)
    os.environ.pop("PAPERKG_API_HOST", None)  # `--host` reaches the API processes the same way
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


@pytest.mark.parametrize("args, env", [(["--host", "0.0.0.0"], {}), ([], {"PAPERKG_API_HOST": "192.0.2.10"}),
                                       (["--host", "papers.example.org"], {})])
def test_a_network_bind_without_keys_refuses_to_start(served, monkeypatch, args, env):
    monkeypatch.delenv("PAPERKG_API_KEYS", raising=False)
    monkeypatch.delenv("PAPERKG_API_HOST", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code != 0 and served == []
    assert "no API keys are configured" in str(result.exception or "") + result.output


def test_a_network_bind_with_keys_starts_and_tells_the_api_where_it_listens(served, monkeypatch):
    monkeypatch.setenv("PAPERKG_API_KEYS", entry("ada", "admin", "key-of-ada"))
    monkeypatch.delenv("PAPERKG_API_HOST", raising=False)
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert served[0]["host"] == "0.0.0.0" and os.environ["PAPERKG_API_HOST"] == "0.0.0.0"


def test_loopback_starts_without_keys(served, monkeypatch):
    monkeypatch.delenv("PAPERKG_API_KEYS", raising=False)
    result = CliRunner().invoke(app, ["serve", "--host", "::1"])
    assert result.exit_code == 0, result.output
    assert served[0]["host"] == "::1"

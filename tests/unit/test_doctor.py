"""`kg --version` and `kg doctor`: each broken part is named with its fix and fails the exit status; a working
install passes with only the stopped server as a warning."""

from __future__ import annotations

import importlib.metadata
import socket

import pytest
from typer.testing import CliRunner

from cli.main import app
from extractors import ocr_data
from kg import embeddings
from kg.settings import get_settings

CHECKS = ("java", "neo4j jars", "neo4j server", "ports", "embedder", "spaCy model", "OCR")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def doctor(monkeypatch, tmp_path):
    """Runs `kg doctor` with a private data dir and free ports; extra settings as keyword arguments."""
    monkeypatch.setenv("PAPERKG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERKG_BOLT_PORT", str(_free_port()))
    monkeypatch.setenv("PAPERKG_HTTP_PORT", str(_free_port()))

    def run(**env: str):
        for key, value in env.items():
            monkeypatch.setenv(f"PAPERKG_{key.upper()}", value)
        get_settings.cache_clear()
        try:
            result = CliRunner().invoke(app, ["doctor"], env={"COLUMNS": "300"})
        finally:
            get_settings.cache_clear()
        lines = [line.strip() for line in result.stdout.splitlines()]
        return result.exit_code, {name: next((line for line in lines if line.startswith(name)), "") for name in CHECKS}

    return run


def test_version_names_the_package_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.startswith(f"paperkg {importlib.metadata.version('paperkg')} (")


def test_a_working_install_passes_with_the_stopped_server_as_a_warning(doctor):
    code, rows = doctor()
    assert code == 0, rows
    assert " ok " in rows["java"] and " ok " in rows["neo4j jars"] and " ok " in rows["spaCy model"]
    assert " ok " in rows["OCR"] and "eng" in rows["OCR"]  # make test installs tesseract-ocr-eng
    assert "warn" in rows["neo4j server"] and "kg db start" in rows["neo4j server"]
    assert "static2@" in rows["embedder"]


def test_missing_java_and_jars_fail_with_their_fixes(doctor, tmp_path):
    code, rows = doctor(java_home=str(tmp_path / "no-jdk"), cache_dir=str(tmp_path / "cache"))
    assert code == 1
    assert "FAIL" in rows["java"] and "PAPERKG_JAVA_HOME" in rows["java"]
    assert "FAIL" in rows["neo4j jars"] and "kg db install" in rows["neo4j jars"]
    assert "not distilled yet" in rows["embedder"] and "FAIL" not in rows["embedder"]


def test_a_port_held_by_another_program_fails_with_the_setting_that_moves_it(doctor):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        code, rows = doctor(bolt_port=str(held.getsockname()[1]))
    assert code == 1 and "FAIL" in rows["ports"] and "PAPERKG_BOLT_PORT" in rows["ports"]


def test_a_missing_embedder_fails_with_the_install_command(doctor, monkeypatch):
    monkeypatch.setitem(embeddings._NEEDS, "static", (*embeddings._NEEDS["static"], "no_such_model_package"))
    code, rows = doctor()
    assert code == 1 and "FAIL" in rows["embedder"] and embeddings.MODEL_INSTALL in rows["embedder"]


def test_missing_ocr_language_data_warns_with_the_package_and_setting(doctor, monkeypatch, tmp_path):
    monkeypatch.delenv("TESSDATA_PREFIX", raising=False)
    monkeypatch.setattr(ocr_data, "_DEBIAN_TESSDATA", str(tmp_path / "none" / "*"))
    monkeypatch.setattr(ocr_data, "_OTHER_TESSDATA", str(tmp_path / "none"))
    ocr_data.tessdata.cache_clear()
    try:
        code, rows = doctor()
    finally:
        ocr_data.tessdata.cache_clear()
    assert code == 0 and "warn" in rows["OCR"] and "FAIL" not in rows["OCR"]
    assert "tesseract-ocr-eng" in rows["OCR"] and "TESSDATA_PREFIX" in rows["OCR"]

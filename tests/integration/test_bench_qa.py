"""`kg bench qa` in CI: ingests the gold papers, answers every gold question, scores it and the BM25 baseline
by GOLD_SCHEMA.md's rules, and writes the rows. The graph must beat the baseline's answer accuracy."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli.main import app
from kg.settings import get_settings
from tests.conftest import SHARED


def test_bench_qa_beats_the_baseline(cli_env, driver, corpus_dir, tmp_path, monkeypatch, reset_db):
    monkeypatch.setenv("PAPERKG_DATA_DIR", str(tmp_path / "data"))  # stored PDFs go to a throw-away folder
    get_settings.cache_clear()
    reset_db()
    out = tmp_path / "qa.json"
    result = CliRunner().invoke(app, ["bench", "qa", "--corpus", str(corpus_dir), "--gold", str(SHARED / "gold"),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    system, baseline = report["system"], report["baseline"]
    assert system["questions"] == baseline["questions"] >= 50
    assert system["answer_accuracy"] >= baseline["answer_accuracy"] + 0.1, (system["answer_accuracy"],
                                                                            baseline["answer_accuracy"])
    assert system["evidence_hit@3"] >= 0.85
    assert f"QA benchmark ({system['questions']} questions)" in result.output
    kinds = {row["kind"] for row in system["rows"]}
    assert {"numeric", "list", "definition"} <= kinds  # GOLD_SCHEMA.md's question types reach the rows
    groups = report["groups"]
    for kind in kinds:  # every type's figures over all papers, and each half's questions of the type add up
        assert groups[f"type {kind}"]["questions"] == sum(row["kind"] == kind for row in system["rows"])
        assert sum(groups.get(f"{half}: type {kind}", {"questions": 0})["questions"]
                   for half in ("dev", "held-out")) == groups[f"type {kind}"]["questions"]

"""`kg bench first-ingest`'s verdict: the median of the runs that succeeded against issue 24's 10 s, never met when
a run failed; and its report's file name carries the UTC time it started."""

from __future__ import annotations

from pathlib import Path

from bench.first_ingest import summary, write


def _run(seconds: float, ok: bool = True) -> dict:
    return {"ok": ok, "seconds": seconds}


def test_the_median_of_three_runs_is_the_figure():
    assert summary([_run(12.0), _run(9.0), _run(9.5)]) == {"median_seconds": 9.5, "target_seconds": 10.0,
                                                          "failed_runs": 0, "met": True}
    assert summary([_run(10.5), _run(9.0), _run(11.0)])["met"] is False


def test_a_failed_run_is_counted_and_the_target_is_not_met():
    result = summary([_run(3.0, ok=False), _run(8.0), _run(9.0)])
    assert (result["median_seconds"], result["failed_runs"], result["met"]) == (8.5, 1, False)
    assert summary([_run(3.0, ok=False)])["median_seconds"] is None


def test_the_report_is_dated_json(tmp_path: Path):
    path = write({"started_at": "2026-12-03T03:40:05+00:00", "runs": []}, tmp_path / "results")
    assert path.name == "first-ingest-20261203T034005Z.json"
    assert '"runs": []' in path.read_text()

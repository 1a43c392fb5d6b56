"""`kg bench structure` on the shared gold set, in CI: the accuracy targets of the structure issue hold.

Speed is a benchmark figure (docs/benchmarks.md), not asserted here: timing tests on a shared machine
would only measure the machine.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import SHARED

# category -> (minimum F1, {extra rate: minimum}); from the targets
TARGETS = {
    "sections": (0.96, {"level": 0.92}),
    "figures": (0.98, {"page": 0.98, "caption": 0.95}),
    "tables": (0.98, {"page": 0.98, "caption": 0.95}),
    "equations": (0.90, {}),
    "authors": (0.90, {}),
}
# single yes/no per paper: the share of papers that must be right
PER_PAPER = {"title": 0.95, "abstract": 0.90, "references": 0.90}


def test_structure_benchmark_meets_targets_on_gold(tmp_path):
    gold_dir = SHARED / "gold"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for gold in gold_dir.glob("*.json"):
        (corpus / f"{gold.stem}.pdf").symlink_to(SHARED / "corpus" / f"{gold.stem}.pdf")
    out = tmp_path / "bench.json"
    run = subprocess.run([sys.executable, "-m", "cli", "bench", "structure", "--corpus", str(corpus),
                          "--gold", str(gold_dir), "--no-baseline", "--json", str(out)],
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["failures"] == {} and result["parsed"] == result["pdfs"] == len(list(gold_dir.glob("*.json")))
    scores = result["paperkg"]
    misses = []
    for name, (min_f1, extras) in TARGETS.items():
        if scores[name]["f1"] < min_f1:
            misses.append(f"{name} F1 {scores[name]['f1']:.3f} < {min_f1}")
        misses += [f"{name} {k} {scores[name][k]:.3f} < {v}" for k, v in extras.items() if scores[name][k] < v]
    for name, minimum in PER_PAPER.items():
        share = scores[name]["matched"] / scores[name]["gold"]
        if share < minimum:
            misses.append(f"{name} right for {share:.2f} of papers < {minimum}")
    assert not misses, "; ".join(misses)

"""The corpus check of `kg bench structure`: numbered equations, figures, tables and bibliography sizes of corpus
papers outside the gold set, counted by hand (bench/structure_corpus_check.tsv says how). The gold set's dev half scores 1.000 on both,
so it cannot show what still fails, and its held-out half must not be read while tuning; this check can, without
spending the held-out half. It is scored by the gold's own rules (extractors/scoring.py)."""

from __future__ import annotations

import csv
from pathlib import Path

from extractors.scoring import Counts, aggregate, references_correct, score_floats

CHECK = Path(__file__).resolve().parent / "structure_corpus_check.tsv"


def _labelled(cell: str) -> list[dict]:
    """"2:1 3:A.1" -> [{"page": 2, "label": "1"}, {"page": 3, "label": "A.1"}]; "-" is none."""
    items = [] if cell.strip() == "-" else cell.split()
    return [{"page": int(page), "label": label} for page, label in (item.split(":", 1) for item in items)]


def load(path: Path) -> dict[str, dict]:
    """Paper stem -> a gold-shaped record ({"equations": {"numbered": [...]}, "figures": [...], "tables": [...],
    "references_count": n})."""
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return {row["paper"]: {"equations": {"numbered": _labelled(row["equations"])}, "figures": _labelled(row["figures"]),
                           "tables": _labelled(row["tables"]), "references_count": int(row["references"])}
            for row in csv.DictReader(rows, delimiter="\t")}


def score(check: dict[str, dict], predictions: dict[str, dict]) -> dict[str, Counts]:
    """Equations, figures and tables (F1 by label, page rate: the gold's float rules) and references (share of
    papers within max(1, 5 %)) over the papers of the check that were parsed."""
    return aggregate([{"equations": score_floats(gold["equations"]["numbered"], predictions[stem].get("equations", [])),
                       "figures": score_floats(gold["figures"], predictions[stem].get("figures", [])),
                       "tables": score_floats(gold["tables"], predictions[stem].get("tables", [])),
                       "references": Counts(int(references_correct(gold["references_count"],
                                                                   predictions[stem].get("references_count"))), 1, 1)}
                      for stem, gold in check.items() if stem in predictions])


def overlap(check: dict[str, dict], gold_dir: Path) -> list[str]:
    """Check papers that have a gold file: they would count twice and leak the gold into the check."""
    return sorted(stem for stem in check if (gold_dir / f"{stem}.json").exists())

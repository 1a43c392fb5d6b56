"""The publication year each gold paper prints, for `kg bench structure`.

The gold JSON files have no year, so gold_years.tsv beside this module holds one per paper, read by hand from the
PDF's text with a note of where it is printed; "none" where a paper prints no statement of its own year, for which
the right answer is None.
"""

from __future__ import annotations

import csv
from pathlib import Path

YEARS = Path(__file__).with_name("gold_years.tsv")


def gold_years(path: Path = YEARS) -> dict[str, int | None]:
    """Year per gold file stem; None for a paper that prints none."""
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return {row["paper"]: None if row["year"] == "none" else int(row["year"])
            for row in csv.DictReader(rows, delimiter="\t", quoting=csv.QUOTE_NONE)}

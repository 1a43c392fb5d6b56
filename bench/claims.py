"""The claim set of `kg bench verify` (bench/verify_claims.tsv) and its scoring.

Each row is a claim about one gold paper with the verdict a correct check gives: true claims read off the paper's
text are `supported`; a claim whose number was changed is `contradicted`; a claim whose entity was changed to one
the paper does not mention is `not_found`. A verdict is right when it is the expected one; a claim's verdict
"has evidence" when it comes with at least one evidence item with a page.
"""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass
from pathlib import Path

CLAIMS = Path(__file__).with_name("verify_claims.tsv")
VERDICTS = ("supported", "contradicted", "not_found")


@dataclass(frozen=True)
class ClaimRow:
    paper: str  # the gold file's stem
    claim: str
    expected: str  # one of VERDICTS
    family: str  # "number" (a claim stating a number) or "entity" (a claim naming what the paper uses)
    page: int  # where the true statement is printed
    source: str  # how the claim was made: read off the text, or what was changed


@dataclass(frozen=True)
class Scored:
    row: ClaimRow
    verdict: str
    evidence: int  # evidence items with a page
    pages: tuple[int, ...]
    seconds: float

    @property
    def correct(self) -> bool:
        return self.verdict == self.row.expected

    def as_dict(self) -> dict:
        return {**asdict(self.row), "verdict": self.verdict, "correct": self.correct, "evidence": self.evidence,
                "pages": list(self.pages), "seconds": round(self.seconds, 3)}


def claim_rows(path: Path = CLAIMS) -> list[ClaimRow]:
    """The claim set; a row with an unknown verdict or family is an error, not a row skipped."""
    rows = []
    with path.open(newline="", encoding="utf-8") as handle:
        for n, row in enumerate(csv.DictReader(handle, delimiter="\t"), start=2):
            if row["expected"] not in VERDICTS or row["family"] not in ("number", "entity"):
                raise ValueError(f"{path.name} line {n}: expected {row['expected']!r}, family {row['family']!r}")
            rows.append(ClaimRow(row["paper"], row["claim"], row["expected"], row["family"], int(row["page"]),
                                 row["source"]))
    return rows


def summary(scored: list[Scored]) -> dict:
    """Accuracy, the share of verdicts with evidence, and how often the expected page is among the evidence
    pages of the claims the check supports or contradicts."""
    n = len(scored)
    decided = [s for s in scored if s.verdict != "not_found" and s.correct]
    return {"claims": n, "correct": sum(s.correct for s in scored),
            "accuracy": round(sum(s.correct for s in scored) / n, 4) if n else None,
            "with_evidence": round(sum(s.evidence > 0 for s in scored) / n, 4) if n else None,
            "page_hit": round(sum(s.row.page in s.pages for s in decided) / len(decided), 4) if decided else None,
            "confusion": {e: {v: sum(s.row.expected == e and s.verdict == v for s in scored) for v in VERDICTS}
                          for e in VERDICTS}}

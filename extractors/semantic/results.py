"""Result tables to Experiment and Result facts: each table with a metric among its header cells is an
experiment; each row whose first cell names a method and whose numbers line up with the metric columns
gives one Result per (method, metric) with the value as printed and as a number."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.semantic import lexicons
from extractors.semantic.passages import TableGrid

_NUMBER = re.compile(r"^[-+]?\d+(?:[.,]\d+)?%?(?:\s*±\s*\d+(?:\.\d+)?)?\*?$")
_NUMBERS = re.compile(r"[-+]?\d+(?:\.\d+)?%?(?:\s*±\s*\d+(?:\.\d+)?)?")
# A row's label: up to the first space run (after a letter) that a number follows. Written as runs that each
# decide once, so a long row with no number is read once rather than once per letter.
_LABEL = re.compile(r"^(?P<label>[^A-Za-z\n]*+[A-Za-z](?:\S++|[^\S\n]++(?!\s*[-+]?\d))*+)\s+(?=[-+]?\d)")


@dataclass(frozen=True)
class ResultFact:
    method: str
    metric: str
    value_text: str
    value: float | None
    row: int = 0


@dataclass(frozen=True)
class TableExperiment:
    table: TableGrid
    metrics: tuple[str, ...]  # canonical metric names, column order
    results: tuple[ResultFact, ...]


def header_metrics(cells: list[str]) -> list[str]:
    """Metric names of a header row, in column order ('Precision Recall F1' in one merged cell counts thrice)."""
    out = []
    for cell in cells:
        for token in re.findall(r"[A-Za-z][\w@./-]*(?:\s+[a-z][\w-]*)?", cell):
            name = lexicons.metrics().lookup(token) or lexicons.metrics().lookup(token.split()[0])
            if name:
                out.append(name)
    return out


# (a run of spaces is tried from its first space only)
_MARKERS = re.compile(r"(?!(?<=\s)\s)\s*+\((?:ours|proposed|this\s+work)\)|[*†‡§]+", re.I)


def row_label(cell: str) -> str:
    """A row's method name without the '(ours)' or footnote marks tables add."""
    return _MARKERS.sub("", cell).strip()


def parse_value(text: str) -> float | None:
    number = re.match(r"[-+]?\d+(?:\.\d+)?", text.replace(",", "."))
    return float(number.group(0)) if number else None


def table_experiment(table: TableGrid) -> TableExperiment | None:
    rows = [list(r) for r in table.rows if any(c.strip() for c in r)]
    header_at = next((i for i, r in enumerate(rows[:3]) if header_metrics(r)), None)
    if header_at is None:
        return None
    header = rows[header_at]
    metrics = header_metrics(header)
    by_column = [(i, m[0]) for i, cell in enumerate(header) if len(m := header_metrics([cell])) == 1]
    results = []
    for n, row in enumerate(rows[header_at + 1:], start=header_at + 1):
        if len(row) == len(header) and by_column:  # cells recovered one per column: read them by column
            label = row_label(row[0])
            results += [ResultFact(label, metric, row[i].strip(), parse_value(row[i]), n) for i, metric in by_column
                        if label and _NUMBER.match(row[i].strip())]
            continue
        line = " ".join(c.strip() for c in row)
        label = _LABEL.match(line)
        if not label:
            continue
        values = _NUMBERS.findall(line[label.end("label"):])
        if len(values) != len(metrics):
            continue  # numbers that do not line up with the metric columns are not guessed at
        results += [ResultFact(row_label(label.group("label")), metric, value, parse_value(value), n)
                    for metric, value in zip(metrics, values)]
    return TableExperiment(table, tuple(dict.fromkeys(metrics)), tuple(results))

"""The figures of docs/benchmarks.md are those of the dated results they name, the page links every result, and
README's status quotes no other figures.

Each row of the *Current figures* table names a result file in bench/results/ and the fields of it that its figures
come from (a JSON path, `a / b` for the ratio of two fields). Every number printed in the row's "measured" cell must
be its field's value at the precision printed (followed by %, a share times 100), "met" must follow from the first
number and the target (a row without a target, "—", is for comparison), and the date must be the file's. A row
with no result must say so and name the notes where it was measured.
"""

from __future__ import annotations

import json
import operator
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "benchmarks.md"
README = ROOT / "README.md"
RESULTS = ROOT / "bench" / "results"
NOTES = "../bench/results/notes-2026-12.md"

NUMBER = re.compile(r"(?<![\w.,])(\d+(?:,\d{3})*(?:\.\d+)?)(\s?%)?")
RESULT_LINK = re.compile(r"\[([\w-]+\.json)\]\(\.\./bench/results/\1\)")
FIELD = re.compile(r"`([^`]+)`")
TARGET = re.compile(r"(≥|≤|<|>)?\s*\+?(\d+(?:,\d{3})*(?:\.\d+)?)")
STAMP = re.compile(r"-(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)\d\dZ\.json$")
COMPARE = {"≥": operator.ge, "≤": operator.le, "<": operator.lt, ">": operator.gt, None: operator.eq}


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _rows(text: str, heading: str) -> list[dict[str, str]]:
    """The rows of the first Markdown table after `heading` with a "measured" column, keyed by its header."""
    tables: list[list[str]] = [[]]
    for line in text.split(heading, 1)[1].splitlines():
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
    table = next(table for table in tables if table and "measured" in _cells(table[0]))
    header = _cells(table[0])
    return [dict(zip(header, _cells(line), strict=True)) for line in table[2:]]


def _value(result: dict, path: str) -> float | bool:
    if " / " in path:
        numerator, denominator = path.split(" / ")
        return _value(result, numerator) / _value(result, denominator)
    node = result
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def _number(text: str) -> float:
    return float(text.replace(",", ""))


ROWS = _rows(DOC.read_text(), "## Current figures")


@pytest.mark.parametrize("row", ROWS, ids=[f"{row['issue']}: {row['measure']}" for row in ROWS])
def test_each_figure_is_its_results_field(row: dict[str, str]):
    link = RESULT_LINK.search(row["result"])
    if link is None:
        assert "no JSON" in row["result"], row["result"]
        if row["measured"] != "not measured":
            assert f"({NOTES})" in row["result"] and (DOC.parent / NOTES).resolve().is_file(), row["result"]
        return
    name = link.group(1)
    result = json.loads((RESULTS / name).read_text())
    year, month, day, hour, minute = STAMP.search(name).groups()
    assert row["date"] == f"{year}-{month}-{day} {hour}:{minute}"
    fields = FIELD.findall(row["result"][link.end():])
    values = [_value(result, field) for field in fields]
    if isinstance(values[0], bool):
        assert len(values) == 1 and row["measured"] == ("yes" if values[0] else "no")
        assert row["target"] == "yes" and row["met"] == row["measured"]
        return
    printed = NUMBER.findall(row["measured"])
    assert len(printed) == len(values), f"{row['measured']!r} prints {len(printed)} numbers for {len(values)} fields"
    for (text, percent), field, value in zip(printed, fields, values):
        shown = value * 100 if percent else value
        decimals = len(text.split(".")[1]) if "." in text else 0
        assert round(shown, decimals) == _number(text), f"{field} is {value}, the table says {text}{percent}"
    if row["target"] == "—":  # a figure for comparison, such as a baseline's
        assert row["met"] == "—"
        return
    comparison, bound = TARGET.match(row["target"]).groups()  # the unit after the number is the figure's
    met = COMPARE[comparison](_number(printed[0][0]), _number(bound))
    assert row["met"] == ("yes" if met else "no"), f"{printed[0][0]} against {row['target']}"


def test_the_readme_status_quotes_only_figures_of_the_benchmarks_page():
    measured = {number for row in ROWS for number, _ in NUMBER.findall(row["measured"])}
    status = _rows(README.read_text(), "## Status")
    quoted = [number for row in status for number, _ in NUMBER.findall(row["measured"])]
    assert quoted, "README's status table quotes no figure"
    assert not set(quoted) - measured, f"README quotes figures docs/benchmarks.md does not: {set(quoted) - measured}"


def test_the_page_links_every_result():
    text = DOC.read_text()
    unlisted = [path.name for path in sorted(RESULTS.iterdir()) if f"](../bench/results/{path.name})" not in text]
    assert not unlisted, f"docs/benchmarks.md does not link {unlisted}"

"""Result tables to Experiment and Result facts, read by the table's header structure.

A result table is one whose header or caption names a metric (or whose caption says it reports results). Its
body rows are the rows that end in a run of numbers (a value may carry %, a ±deviation, best or significance
marks); the number of value columns is the count most rows share. Each row's method is the text before that
run; the column names are read off the header rows above the first body row: the nearest row with one name
per value column (one or two leading stub cells such as "Model" set aside), and above it any row that groups the
columns, evenly ("CS | Bio" over "P R P R") or by where its labels are printed ("1-best" centred over four
columns, "manual" over one), joined top to bottom with " / ". A row whose count differs from the table's, or a
table whose header does not give one name per column, is not guessed at. When no header row names the columns,
the older reading applies: the metrics the header names, in order, when a row prints exactly that many numbers.
Tables whose rows are not methods are not read: a stub naming data ("Dataset", "Query"), rows that are measures,
row labels holding the row's own numbers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from itertools import zip_longest

from extractors.floats import union
from extractors.tables import with_arrows
from extractors.model import BBox
from extractors.semantic import lexicons
from extractors.semantic.canonical import match_key
from extractors.semantic.passages import TableGrid

_NUMBER = re.compile(r"^[-+]?\d+(?:[.,]\d+)?%?(?:\s*±\s*\d+(?:\.\d+)?)?\*?$")
_NUMBERS = re.compile(r"[-+]?\d+(?:\.\d+)?%?(?:\s*±\s*\d+(?:\.\d+)?)?")
# A row's label: up to the first space run (after a letter) that a number follows. Written as runs that each
# decide once, so a long row with no number is read once rather than once per letter.
_LABEL = re.compile(r"^(?P<label>[^A-Za-z\n]*+[A-Za-z](?:\S++|[^\S\n]++(?!\s*[-+]?\d))*+)\s+(?=[-+]?\d)")


@dataclass(frozen=True)
class ResultFact:
    method: str
    metric: str | None  # canonical metric the column names, if the lexicon knows it
    value_text: str
    value: float | None
    row: int = 0
    column: str = ""  # the column's header as printed, header rows joined with " / "
    col: int = 0
    bbox: BBox | None = None  # the cell(s) the value is printed in; None when the table's cells have no boxes


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
            # statistical measures (p-value, SD) head tables of variables, not of the methods compared
            name = lexicons.evaluation_metrics().lookup_as_written(token) or \
                lexicons.evaluation_metrics().lookup_as_written(token.split()[0])
            if name:
                out.append(name)
    return out


# (a run of spaces is tried from its first space only)
_MARKERS = re.compile(r"(?!(?<=\s)\s)\s*+\((?:ours|proposed|this\s+work)\)|[*†‡§]+", re.I)


def row_label(cell: str) -> str:
    """A row's method name without the '(ours)' or footnote marks tables add."""
    return _MARKERS.sub("", cell).strip()


# a cell of a yes/no column before the method names ('✓ | GAMENet', '- | LR'): no part of the name ('- CRF', one
# cell, is an ablation's name)
_TICKS = frozenset("✓✔✗✘×-")


def parse_value(text: str) -> float | None:
    """The number a cell prints ("−2.1e+09", ".28", "93%"), without deviation or marks."""
    number = re.match(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?", text.replace(",", ".").replace("−", "-"))
    return float(number.group(0)) if number else None


_VALUE = re.compile(r"[-+−]?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:[eE][-+]?\d+)?%?(?:±\d+(?:\.\d+)?)?[*†‡§]*\d{0,4}")
_EMPTY = frozenset(("-", "–", "—", "N/A", "n/a", "NA", "n.a."))  # these hold a column's place without a value
# a header cell names something, if only a unit ("(%)": the second line of "1-best / (%)"), not a lone "ˆ"
_NAME = re.compile(r"[0-9A-Za-z%\u00C0-\u024F\u0370-\u03FF]")
_AGGREGATE = re.compile(r"(?i)avg\.?|average|mean|all|overall|total")
_NOTE = re.compile(r"@\d+")  # "26.8 @8": a note on the value (epochs), not a column
_RESULTS_CAPTION = re.compile(r"\b(?:results?|performance|ablations?|accuracy|scores?|evaluat\w*)\b", re.I)


def _is_value(token: str) -> bool:
    return token in _EMPTY or bool(_VALUE.fullmatch(token))


def split_row(cells: list[str]) -> tuple[str, list[str]]:
    """A row's label (the text before its trailing run of values) and the values as printed ("90.4 ± 0.2" kept
    whole, "@8" notes dropped). A row whose first cell is a lone number and stands apart from the run
    keeps that number as its label ("10 | 2.8 | 45.9K": ten machines)."""
    label, values, _ = _split_cells(cells)
    return label, values


def _split_cells(cells: list[str]) -> tuple[str, list[str], list[tuple[int, ...]]]:
    """split_row, and for each value the indexes of the cells its words were printed in (several when a value
    and its deviation sit in neighbouring cells), so a fact can point at its cell."""
    if len(cells) > 1 and cells[0].strip() in _TICKS and re.search(r"[^\W\d_]", cells[1]):
        cells = ["", *cells[1:]]  # the places of the cells stay, for their boxes
    owner = [j for j, cell in enumerate(cells) for _ in cell.split()]
    tokens = " ".join(c.strip() for c in cells).split()
    values: list[str] = []
    where: list[tuple[int, ...]] = []
    i = len(tokens)
    while i > 0:
        token = tokens[i - 1]
        if _NOTE.fullmatch(token):
            i -= 1
        elif i >= 3 and token != "±" and tokens[i - 2] in ("±", "+/-") and _is_value(token) and _is_value(tokens[i - 3]):
            values.append(f"{tokens[i - 3]} ± {token}")
            where.append(tuple(dict.fromkeys(owner[i - 3:i])))
            i -= 3
        elif _is_value(token):
            values.append(token)
            where.append((owner[i - 1],))
            i -= 1
        else:
            break
    values.reverse()  # gathered from the right end
    where.reverse()
    label = " ".join(tokens[:i])
    first = cells[0].strip() if cells else ""
    if not label and len(cells) > 1 and values and values[0] == first and first.isdigit():
        label, values, where = first, values[1:], where[1:]
    return row_label(label), values, where


def _cell_box(boxes: tuple[BBox, ...] | None, cells: tuple[int, ...]) -> BBox | None:
    """The box around the given cells of a row, or None when the row's cell boxes are not known."""
    chosen = [boxes[j] for j in cells if boxes and j < len(boxes)]
    return union(chosen) if chosen else None


def _rows(table: TableGrid) -> list[tuple[list[str], tuple[BBox, ...] | None]]:
    """The table's non-empty rows, each with its cells' boxes (None for a table recovered without them)."""
    return [(list(r), b) for r, b in zip_longest(table.rows, table.cell_boxes[:len(table.rows)])
            if any(c.strip() for c in r)]


def _names(cells: list[tuple[str, BBox | None]], n: int, first_column: BBox | None = None) -> list[str] | None:
    """One name per value column from a header row, or None: its cells when there are n of them after a stub
    cell, or after two when the second ends left of the first value column (`first_column`: 'Scenario | Model'
    over two columns of row labels; not a name cell over a column of values), else its words when there are
    exactly n words after the stub, or the stub's one word and the n names set close together in its cell
    ('Models R-1 R-2 R-L')."""
    texts = [with_arrows(c) for c, _ in cells]
    two_stubs = len(cells) == n + 2 and first_column is not None and cells[1][1] is not None and \
        cells[1][1][2] <= first_column[0] + 1
    every = " ".join(texts).split()
    for names in (texts[-n:] if len(cells) in (n, n + 1) or two_stubs else None,
                  words if len(words := " ".join(texts[1:] if len(texts) > 1 else texts).split()) == n else None,
                  # the stub's one word set close to the names, in their cell ('Models R-1 R-2 R-L')
                  every[1:] if len(every) == n + 1 and len(texts[0].split()) > 2 else None):
        if names:
            return names
    return None


def column_names(header: list[list[str]], n: int, boxes: list[tuple[BBox, ...] | None] | None = None,
                 columns: list[BBox | None] | None = None) -> list[str] | None:
    """Names of the n value columns from the header rows (top to bottom), or None if no row names them all.
    An aggregate column ("Avg.", "All") whose header spans the header rows is set between them and parsed as a
    row of its own: it is the last column, and the rows name the others. `boxes` (the header cells' boxes, row by
    row) and `columns` (each value column's box in the first body row) let a row above group columns unevenly
    ('1-best' over four columns, 'manual' over one): _grouped_by_place."""
    with_boxes = [zip_longest(row, boxes[i] if boxes and i < len(boxes) and boxes[i] else ())
                  for i, row in enumerate(header)]
    named = [[(c.strip(), b) for c, b in row if c and _NAME.search(c)] for row in with_boxes]
    cells = [[c for c, _ in row] for row in named]
    spanning = [row[0] for row in cells if len(row) == 1 and _AGGREGATE.fullmatch(row[0])][-1:]
    m = n - len(spanning)
    for at in range(len(cells) - 1, -1, -1):
        names = _names(named[at], m, columns[0] if columns else None) if m else None
        if names is None:
            continue
        for upper in reversed([row for row in named[:at] if ([c for c, _ in row[-1:]] != spanning or len(row) > 1)
                               and not _stub_only(row, columns)]):
            # a row above groups the columns: k groups of the same m/k sub-columns ("CS | Bio" over "P R P R"),
            # or one label per column; else, by where its cells are printed
            texts = [c for c, _ in upper]
            groups = next((g for g in (texts, texts[1:]) if g and (len(g) == m or (
                len(g) < m and m % len(g) == 0 and names == names[:m // len(g)] * len(g)))), None)
            if groups is not None and len(groups) > 1:
                names = [f"{groups[i * len(groups) // m]} / {name}" for i, name in enumerate(names)]
            elif (by_place := _grouped_by_place(upper, (columns or [])[:m])) is not None:
                names = [f"{group} / {name}" for group, name in zip(by_place, names)]
            else:
                break
        return names + spanning
    return None


def _stub_only(row: list[tuple[str, BBox | None]], columns: list[BBox | None] | None) -> bool:
    """A header row whose cells all end left of the first value column: the stub's heading ('EK | Methods' set
    across the header rows, level with the column groups' names), which names the row labels, not a group of
    columns."""
    first = columns[0] if columns else None
    return first is not None and all(box is not None and box[2] <= first[0] + 1 for _, box in row)


def _grouped_by_place(upper: list[tuple[str, BBox | None]], columns: list[BBox | None]) -> list[str] | None:
    """The group each value column falls under, from a header row of labels each set over its own run of columns
    (a stub label, ending left of the value columns, set aside): a label centred over its run ends the run as far
    right of its middle as the run starts left of it; a label set flush with its run's first column heads the
    columns up to the next label. None unless every place is known and each label heads a column at least."""
    if not columns or any(b is None for b in columns) or any(b is None for _, b in upper):
        return None
    labels = sorted(((c, b) for c, b in upper if b[2] > columns[0][0]), key=lambda label: label[1][0])
    if len(labels) < 2:
        return None
    out: list[str] = []
    for k, (text, box) in enumerate(labels):
        left = columns[len(out)][0] if len(out) < len(columns) else None
        if left is None:
            return None
        if k == len(labels) - 1:
            end = float("inf")
        elif abs(box[0] - left) <= 2:  # flush left: up to the next label
            end = labels[k + 1][1][0]
        else:  # centred: as far right of its middle as the run starts left of it
            end = box[0] + box[2] - left
        run = [b for b in columns[len(out):] if (b[0] + b[2]) / 2 < end]
        if not run:
            return None
        out += [text] * len(run)
    return out


def _metric_of(name: str) -> str | None:
    found = header_metrics([name.rsplit(" / ", 1)[-1]])
    return found[0] if len(found) == 1 else None


def read_by_header(table: TableGrid) -> list[ResultFact]:
    """The facts of a result table read by its header structure (module docstring), or [] if it cannot be."""
    kept = _rows(table)
    rows = [r for r, _ in kept]
    split = [_split_cells(r) for r in rows]
    counts = Counter(len(v) for label, v, _ in split if label and v)
    if not counts:
        return []
    n = max(counts, key=lambda k: (counts[k], k))
    first = next(i for i, (label, v, _) in enumerate(split) if label and len(v) == n)
    header = [i for i, (_, v, _) in enumerate(split[:first]) if _names_only(v)][-3:]
    names = column_names([rows[i] for i in header], n, [kept[i][1] for i in header],
                         [_cell_box(kept[first][1], cells) for cells in split[first][2]])
    if names is None:
        return []
    return [ResultFact(label, _metric_of(name), value, parse_value(value), at, name, col,
                       _cell_box(kept[at][1], cells))
            for at, (label, values, where) in enumerate(split[first:], start=first) if label and len(values) == n
            for col, (name, value, cells) in enumerate(zip(names, values, where)) if value not in _EMPTY]


def _names_only(values: list[str]) -> bool:
    """A row of a table's header: no number after its label ('N/A' under a column name is a header cell)."""
    return set(values) <= _EMPTY


def is_result_table(table: TableGrid) -> bool:
    """A table whose header cells or caption name a metric, or whose caption says it reports results; not one
    whose caption names a statistical measure while no header cell names a metric (correlation coefficients
    between variables, odds ratios of groups: its rows are variables, not methods)."""
    in_header = any(header_metrics(list(r)) for r in table.rows[:4])
    if not in_header and _of_variables(table.caption):
        return False
    return bool(in_header or header_metrics([table.caption]) or _RESULTS_CAPTION.search(table.caption))


def _of_variables(caption: str) -> bool:
    """Whether a caption names a statistic of variables (metrics.yaml's statistics section, as a phrase of up to
    four words): the risk ratios of factors or groups ('hazard ratios', 'odds ratios'), or correlation coefficients
    'between' things ('... between metabolite concentration and yield'), since a correlation with human judgements
    on a benchmark ('Spearman correlation coefficients on STS') scores the methods of its rows, and confidence
    intervals and p-values go with results as often as not."""
    words = re.findall(r"[A-Za-z][\w'’-]*", caption)
    stats = lexicons.statistics()
    found = {stats.lookup(" ".join(words[i:i + n])) for n in range(1, 5) for i in range(len(words) - n + 1)}
    return bool(found & _RISKS) or bool(found & _CORRELATIONS) and bool(re.search(r"\bbetween\b", caption, re.I))


_RISKS = frozenset({"hazard ratio", "odds ratio", "relative risk"})
_CORRELATIONS = frozenset({"correlation coefficient", "intraclass correlation coefficient"})


def table_experiment(table: TableGrid, methods: Collection[str] = ()) -> TableExperiment | None:
    """The results a table reports, or None if it is no result table. `methods`: the match keys of the paper's
    methods (canonical.match_key), which tell a table whose columns are the methods compared."""
    if not is_result_table(table) or _rows_are_data(table):
        return None
    facts = read_by_header(table)
    experiment = (TableExperiment(table, tuple(dict.fromkeys(f.metric for f in facts if f.metric)), tuple(facts))
                  if facts else _by_metric_names(table))
    if (experiment is None or _settings_as_columns(experiment.results) or _measures_as_rows(experiment.results)
            or _methods_as_columns(experiment.results, methods, table)):
        return None
    kept = tuple(f for f in experiment.results if not _broken_label(f.method))
    return TableExperiment(table, tuple(dict.fromkeys(f.metric for f in kept if f.metric)), kept) if kept else None


# a decimal number ('15.11', '0,5'; not '1,000', where the comma groups thousands) or a signed one, standing alone
_DECIMAL = re.compile(r"(?<![\w.,])[-+−]?\d*(?:\.\d+|,(?!\d{3}(?![\d.,]))\d+)%?(?![\w.,])"
                      r"|(?<![\w.])[-+−]\d+(?![\w.])")
_FREE_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _broken_label(label: str) -> bool:
    """A row label that holds the row's numbers or a formula rather than a name: a decimal or signed number
    ('Adult 15.11 7.87 to': a confidence interval the value run stopped in), three or more free numbers, or a
    trailing '=' ('T(p) ='). Names keep integers ('6 / 6 / HTML', 'RealTimeGPU [5]') and numbers inside a word
    ('GPT-2 1.5B', 'v1.5 model')."""
    return bool(_DECIMAL.search(label) or len(_FREE_NUMBER.findall(label)) >= 3 or label.rstrip().endswith("="))


def _rows_are_data(table: TableGrid) -> bool:
    """The stub cell (the lowest header row's first cell, over the row labels; a header's one cell when no header
    row has more) says the rows are data, items or measures ('Dataset', 'Query', 'Samples', 'Training data type',
    'Parameter'): the methods, if any, are the columns, which this reader does not take for methods. A cell above
    it names the column groups ('Task' over 'Model | F1')."""
    stub, lone = "", ""
    for row in table.rows:  # the header rows: those above the first row with a number; the stub is the lowest's
        if not _names_only(_split_cells(list(row))[1]):
            break
        if sum(1 for c in row if c.strip()) > 1:
            stub = row[0]
        elif not lone:
            lone = row[0]
    stub = stub or lone  # a header of one cell ('Parameter' over 'Resolution (Å) | 2.2'): the column names were not
    # printed or not recovered, and the one cell heads the labels
    words = set(re.findall(r"[a-z]+", stub.casefold()))
    terms = lexicons.terms()
    return bool(words & terms.row_data_heads) and not words & (terms.method_heads - terms.row_data_heads)


_UNIT = re.compile(r"[μµnmkMGTp]?(?:s|m|g|W|V|A|J|K|C|F|Hz|Pa|eV|B|b|l|L|mol|h)|sec|secs|seconds?|min|minutes?|hours?"
                   r"|days?")
_TRAILING_PARENTHESIS = re.compile(r"\(([^()]*)\)\s*$")


def _is_unit(text: str) -> bool:
    """A parenthesised unit as a quantity's name ends with it: '(ms)', '(μW)', '(nA/°C)', '(%)', '(/)'; not an
    acronym, a variant or a setting ('(EN)', '(A)', '(GROBID)', '(base/large)', '(w/o CRF)', '(10%)')."""
    if re.search(r"(?<![A-Za-z^])\d", text):
        return False  # a number of its own: a setting ('10%', '1/2'), not a unit ('m/s2' keeps its exponent)
    parts = [p for p in re.split(r"[/·^×\s\d°%()-]+", text) if p]
    if re.search(r"[/%°]", text):
        return all(_unit_symbol(p) for p in parts)
    return len(parts) == 1 and (len(parts[0]) > 1 or parts[0] in "smghl") and _unit_symbol(parts[0])


def _unit_symbol(part: str) -> bool:
    """A unit's symbol: SI-prefixed base units and the lexicon's ('ms', 'nA', 'GB'), a micro- unit written with a
    Greek letter ('με': microstrain), a time's name ('sec', 'hours')."""
    return bool(_UNIT.fullmatch(part) or part in lexicons.terms().unit_symbols
                or re.fullmatch(r"[μµ][^\W\d_]{0,2}", part))


def _is_measure(label: str) -> bool:
    """A row label that names a measure: a metric ('LAS'), a phrase a metric word ends ('Identical word
    precision') or a quantity with its unit ('Power consumption (μW)')."""
    unit = _TRAILING_PARENTHESIS.search(label)
    if unit and _is_unit(unit.group(1)):
        return True
    words = re.findall(r"[A-Za-z][\w@-]*", label)
    metrics = lexicons.evaluation_metrics()
    return bool(words) and bool(metrics.lookup_as_written(label) or metrics.lookup_as_written(words[-1])
                                and words[-1] != words[-1].lower() or words[-1].casefold() in lexicons.metric_heads())


def _measures_as_rows(facts: tuple[ResultFact, ...]) -> bool:
    """Most rows name measures ('Precision', 'Recall', 'AER' down the side of one system's column): the table is
    set the other way round, each column a system or a data set, and its rows are no methods."""
    labels = list(dict.fromkeys(f.method for f in facts))
    return sum(1 for label in labels if _is_measure(label)) * 2 > len(labels)


def _methods_as_columns(facts: tuple[ResultFact, ...], methods: Collection[str], table: TableGrid) -> bool:
    """The paper's methods head the columns ('HMM | CRF | SVM' over 'acc. | F1', or 'BERT | SciBERT'): every
    column heading but the measures' names one of them, two or more, and no row does. The rows are then fields, data
    sets or tasks, and the table is set the other way round. A row of the grid that holds only method names, two or
    more, says so too when the reader could not carry it over the columns (rows of totals between it and the
    measures' row). (Columns of conditions some of which the paper also names as methods, 'AM | AM+LM | WCN |
    1-best', are no such table.)"""
    known = set(methods)
    heads = {match_key(part) for f in facts for part in f.column.split(" / ") if not header_metrics([part])}
    rows = {match_key(part) for f in facts for part in f.method.split(" / ")}
    named = any(len(keys) >= 2 and keys <= known
                for keys in ({match_key(c) for c in row if c.strip()} for row in table.rows))
    return (len(heads) >= 2 and heads <= known or named) and rows.isdisjoint(known)


_SETTING = re.compile(r"^[\d.,]+\s*[kKmMbB]?$")


def _settings_as_columns(facts: tuple[ResultFact, ...]) -> bool:
    """A table whose column headers are mostly plain numbers ('10k 20k 50k', '1 2 5 10 computers'): its columns
    are settings (a data size, a number of machines), not measures, so each row is a measure ('runtime (hours)')
    and no row names a method; reading it as a result table would make results of 'runtime' on '10k'."""
    columns = list(dict.fromkeys(f.column.rsplit(" / ", 1)[-1].strip() for f in facts))
    settings = sum(1 for column in columns if _SETTING.match(column))
    return len(columns) >= 2 and settings * 2 > len(columns)


def _by_metric_names(table: TableGrid) -> TableExperiment | None:
    kept = _rows(table)
    rows = [r for r, _ in kept]
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
            if not re.search("[A-Za-z]", label):
                continue  # a lone number names no method unless a header says what its column is (split_row)
            results += [ResultFact(label, metric, row[i].strip(), parse_value(row[i]), n, metric, i,
                                   _cell_box(kept[n][1], (i,)))
                        for i, metric in by_column if label and _NUMBER.match(row[i].strip())]
            continue
        line = " ".join(c.strip() for c in row)
        label = _LABEL.match(line)
        if not label:
            continue
        found = list(_NUMBERS.finditer(line, label.end("label")))
        if len(found) != len(metrics):
            continue  # numbers that do not line up with the metric columns are not guessed at
        starts = [sum(len(c.strip()) + 1 for c in row[:j]) for j in range(len(row))]  # each cell's offset in line
        results += [ResultFact(row_label(label.group("label")), metric, m.group(0), parse_value(m.group(0)), n, metric,
                               col, _cell_box(kept[n][1], tuple(j for j, s in enumerate(starts)
                                                                 if s < m.end() and m.start() < s + len(row[j].strip()))))
                    for col, (metric, m) in enumerate(zip(metrics, found))]
    return TableExperiment(table, tuple(dict.fromkeys(metrics)), tuple(results))

"""Result tuples read from generated PDF tables by their header structure: a stub column of methods, one or
more header rows, grouped and spanning column headers, ±deviations, best-value bold and marks, percentages;
and each Result's provenance box is the cell its value is printed in."""

from __future__ import annotations

import pymupdf
import pytest

from extractors.bbox import parse_bbox
from extractors.pipeline import parse_pdf
from extractors.semantic.extract import extract_semantics
from extractors.semantic.passages import TableGrid, document_tables
from extractors.semantic.results import split_row, table_experiment
from kg.ingest.semantic_mapping import map_semantics
from tests.pdf_factory import midrule_table_paper, results_paper, side_by_side_tables_paper, write

TABLES = [
    ("Table 1:", "Results on the CiteBench test set.",
     [["Model", "P", "R", "F1"], ["PageRank", "71.2 ± 0.4", "65.0", "68.0"],
      ["GraphRank (ours)", "**78.9**", "**70.1**", "**74.2**"], ["BM25", "69%", "-", "60.3"]]),
    ("Table 2:", "Document-level evaluation in two areas.",
     [["", "CS", "", "Bio", ""], ["Approach", "prec.", "yield", "prec.", "yield"],
      ["Statistical", "98.4", "712", "94.4", "928"], ["Hybrid", "91.5", "1990", "92.1", "3126"]]),
    ("Table 3:", "Results on the suite.",
     [["Task", "Classification", "Citation", "^Avg."], ["Model", "F1", "MAP", ""],
      ["Random", "4.8", "25.2", "15.0"], ["SPECTER", "82.0", "88.3", "85.1"]]),
    ("Table 4:", "Corpus statistics of the three sources.",
     [["Source", "Papers", "Tokens"], ["ACL", "1200", "5.1"], ["PubMed", "3400", "9.8"]]),
    ("Table 5:", "Runtime and throughput on one machine by corpus size.",
     [["Measure", "10k", "20k", "50k", "1m"], ["runtime (hours)", ".28", ".43", "1.03", "15.12"],
      ["throughput (docs/hour)", "35.3K", "46.2K", "48.4K", "66.3K"]]),
]


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    return write(tmp_path_factory.mktemp("results"), "results.pdf", results_paper(TABLES))


@pytest.fixture(scope="module")
def facts(pdf):
    doc = parse_pdf(pdf)
    out = {}
    for grid in document_tables(doc):
        experiment = table_experiment(grid)
        out[grid.label] = {(f.method, f.column, f.metric, f.value_text, f.value)
                           for f in (experiment.results if experiment else ())}
    return out


def test_stub_column_and_one_header_row_with_deviation_bold_percent_and_empty_cell(facts):
    assert facts["1"] == {
        ("PageRank", "P", "precision", "71.2 ± 0.4", 71.2), ("PageRank", "R", "recall", "65.0", 65.0),
        ("PageRank", "F1", "F1", "68.0", 68.0), ("GraphRank", "P", "precision", "78.9", 78.9),
        ("GraphRank", "R", "recall", "70.1", 70.1), ("GraphRank", "F1", "F1", "74.2", 74.2),
        ("BM25", "P", "precision", "69%", 69.0), ("BM25", "F1", "F1", "60.3", 60.3)}  # "-": no value, no fact


def test_group_header_over_repeated_sub_columns_is_joined(facts):
    assert facts["2"] == {
        ("Statistical", "CS / prec.", "precision", "98.4", 98.4), ("Statistical", "CS / yield", None, "712", 712.0),
        ("Statistical", "Bio / prec.", "precision", "94.4", 94.4), ("Statistical", "Bio / yield", None, "928", 928.0),
        ("Hybrid", "CS / prec.", "precision", "91.5", 91.5), ("Hybrid", "CS / yield", None, "1990", 1990.0),
        ("Hybrid", "Bio / prec.", "precision", "92.1", 92.1), ("Hybrid", "Bio / yield", None, "3126", 3126.0)}


def test_an_average_column_spanning_the_header_rows_is_the_last_column(facts):
    assert facts["3"] == {
        ("Random", "Classification / F1", "F1", "4.8", 4.8), ("Random", "Citation / MAP", "mean average precision",
                                                             "25.2", 25.2),
        ("Random", "Avg.", None, "15.0", 15.0), ("SPECTER", "Classification / F1", "F1", "82.0", 82.0),
        ("SPECTER", "Citation / MAP", "mean average precision", "88.3", 88.3), ("SPECTER", "Avg.", None, "85.1", 85.1)}


def test_a_statistics_table_gives_no_results(facts):
    assert facts["4"] == set()


def test_a_table_with_sizes_for_columns_and_measures_for_rows_gives_no_results(facts):
    assert facts["5"] == set()  # 'runtime (hours)' is no method, '10k' no measure


# Tables that are no result tables in the sense of the gold (rows: methods; columns: measures), rows the reader
# must not take whole, and headers of other shapes: each set the way papers set it.
MORE_TABLES = [
    ("Table 1:", "Accuracy of the two models on each dataset.",  # the stub says the rows are data sets
     [["Dataset", "BERT", "ELMo"], ["SST-2", "91.2", "88.0"], ["MR", "85.1", "83.3"]]),
    ("Table 2:", "Results of our system on the test corpus.",  # measures down the side of one system's column
     [["System", "Ours"], ["Precision", "87.46%"], ["Recall", "89.52%"], ["Identical word AER", "11.58%"]]),
    ("Table 3:", "Performance of the two implementations.",  # quantities with their units as rows
     [["Implementation", "A", "B"], ["Power (mW)", "28.6", "56.96"], ["Gain (/)", "324", "415"],
      ["Drift (nA/°C)", "52.06", "-47.74"]]),
    ("Table 4:", "Results of the subgroup analyses.",  # "7.87 to 22.35": the value run stops inside the interval
     [["", "WMD", "95% CI", "Accuracy"], ["Adult", "15.11", "7.87 to 22.35", "0.43"],
      ["Children", "11.77", "2.40 to 21.15", "0.48"]]),
    ("Table 5:", "Results of the submitted runs.",  # "N/A" holds a place: the row is read, the cell is not
     [["Run", "Recall", "Accuracy"], ["Perfect selection", "N/A", "0.34"], ["Best system", "0.62", "0.21"]]),
    ("Table 6:", "Person and birthplace pairs.",  # 'Las' of Las Vegas is no LAS: no header names a metric
     [["Person", "City", "Size"], ["Andre Agassi", "Las Vegas", "386"], ["Luc Besson", "Paris", "126"]]),
    ("Table 7:", "F-score by training scenario and input.",  # two stub columns; 'N/A' names a column
     [["Scenario", "Model", "1-best", "WCN", "manual"], ["", "", "AM", "AM", "N/A"],
      ["Supervised", "MaxEnt", "81.7", "83.4", "86.4"], ["Hybrid", "CRF", "90.9", "91.5", "94.6"]]),
    ("Table 8:", "F-score by input and model.",  # column groups of 3, 2 and 1: centred, flush left, flush left
     [["", "", "1-best", "", "WCN", "", "manual"], ["Model", "baseline", "AM", "LM", "baseline", "AM", "N/A"],
      ["MaxEnt", "76.0", "81.7", "84.6", "78.9", "83.4", "86.4"],
      ["CRF", "80.3", "87.3", "89.7", "83.7", "88.8", "94.4"]]),
    ("Table 9:", "Statistics of the refined structure.",  # a one-cell header over the labels: rows of parameters
     [["Parameter"], ["Resolution (A)", "2.2"], ["Space group", "P1"], ["Rcryst", "18.8"], ["Rfree", "21.9"],
      ["Solvent", "25.8"]]),
]


@pytest.fixture(scope="module")
def more(tmp_path_factory):
    doc = parse_pdf(write(tmp_path_factory.mktemp("more"), "more.pdf", results_paper(MORE_TABLES)))
    experiments = {grid.label: table_experiment(grid) for grid in document_tables(doc)}
    return {label: {(f.method, f.column, f.value_text) for f in (e.results if e else ())}
            for label, e in experiments.items()}


@pytest.mark.parametrize("label", ["1", "2", "3", "4", "6", "9"])
def test_tables_whose_rows_are_data_measures_or_cut_numbers_give_no_results(more, label):
    assert label in more  # the parser found the table: its emptiness is the reader's
    assert more[label] == set()


def test_a_not_available_cell_holds_its_column_without_a_value(more):
    assert more["5"] == {("Perfect selection", "Accuracy", "0.34"), ("Best system", "Recall", "0.62"),
                             ("Best system", "Accuracy", "0.21")}


def test_two_stub_columns_and_a_not_available_column_name_are_read(more):
    assert {("Supervised MaxEnt", "manual / N/A", "86.4"), ("Hybrid CRF", "WCN / AM", "91.5")} <= more["7"]
    assert len(more["7"]) == 6


def test_column_groups_of_different_widths_are_read_by_where_their_labels_are(more):
    columns = {column for _, column, _ in more["8"]}
    assert columns == {"1-best / baseline", "1-best / AM", "1-best / LM", "WCN / baseline", "WCN / AM", "manual / N/A"}
    assert ("CRF", "WCN / AM", "88.8") in more["8"] and len(more["8"]) == 12


def test_a_formula_is_no_method_but_a_number_inside_a_name_is_kept():
    grid = TableGrid("t", "7", "Performance of the trust function.", (
        ("Function", "Accuracy"), ("T(p) =", "1.0"), ("Baseline", "0.5"), ("GPT-2 1.5B", "0.7")), 1, None)
    experiment = table_experiment(grid)
    assert experiment is not None
    assert {(f.method, f.value_text) for f in experiment.results} == {("Baseline", "0.5"), ("GPT-2 1.5B", "0.7")}


def test_a_table_whose_columns_are_the_papers_methods_gives_no_results():
    """'HMM | CRF' over 'acc. | F1', rows the fields extracted: the methods compared are the columns. Columns of
    conditions of which only some are also the paper's methods ('AM', 'WCN' beside '1-best') keep the table."""
    fields = TableGrid("t", "1", "Extraction results for paper headers.", (
        ("", "HMM", "", "CRF", ""), ("Field", "acc.", "F1", "acc.", "F1"), ("Title", "98.2", "82.2", "99.7", "97.1"),
        ("Author", "98.7", "81.0", "99.8", "97.5")), 1, None)
    assert table_experiment(fields) is not None  # without the paper's methods it cannot tell
    assert table_experiment(fields, {"hmm", "crf", "svm"}) is None
    conditions = TableGrid("t", "4", "Accuracy of the scoring methods.", (
        ("", "1-best", "", "WCN", ""), ("Method", "baseline", "AM", "baseline", "AM"),
        ("MaxEnt-CI", "70.1", "71.2", "72.0", "73.3"), ("Hybrid-CI", "74.0", "75.1", "76.2", "77.0")), 1, None)
    assert table_experiment(conditions, {"am", "wcn"}) is not None
    # the methods' row parted from the measures' by rows of totals, which the reader cannot carry it over
    totals = TableGrid("t", "2", "Extraction results for paper references.", (
        ("", "HMM", "", "CRF", ""), ("Overall acc.",), ("Instance acc.", "10%"), ("Field", "acc.", "F1", "acc.", "F1"),
        ("Author", "96.8", "92.7", "99.9", "99.4"), ("Date", "99.7", "96.9", "99.8", "98.9")), 1, None)
    assert table_experiment(totals) is not None
    assert table_experiment(totals, {"hmm", "crf"}) is None


@pytest.mark.parametrize("caption, read", [
    ("Pearson's correlation coefficients between metabolite concentration and kernel yield.", False),
    ("Hazard ratios of the risk factors.", False),
    ("Spearman correlation coefficients of the models on the STS benchmarks.", True),  # scores the rows' models
    ("Accuracy of each model with 95% confidence intervals.", True),
])
def test_a_caption_naming_statistics_of_variables_and_no_metric_in_the_header_gives_no_results(caption, read):
    grid = TableGrid("t", "7", caption, (("Compounds", "Grain yield", "Kernel weight"), ("Drummondol", "0.08", "0.25"),
                                         ("Anthranilate", "0.16", "0.30")), 1, None)
    assert (table_experiment(grid) is not None) == read


def _inside(inner: pymupdf.Rect, outer: tuple[float, ...], slack: float = 1.0) -> bool:
    return (inner.x0 >= outer[0] - slack and inner.y0 >= outer[1] - slack and inner.x1 <= outer[2] + slack
            and inner.y1 <= outer[3] + slack)


def test_each_result_points_at_the_cell_its_value_is_printed_in(pdf):
    """The box holds the printed value's glyphs (as PyMuPDF finds them on the page), and no other Result's box
    overlaps it: a cell, not the table. The Result's edges carry the same box."""
    doc = parse_pdf(pdf)
    nodes, edges = map_semantics(doc, extract_semantics(doc).annotations)
    results = [n for n in nodes if n.label == "Result"]
    assert len(results) == 8 + 8 + 6  # tables 1-3 above
    tables = {t.page: t.bbox for t in doc.tables}
    boxes = []
    with pymupdf.open(pdf) as opened:
        for node in results:
            [stored] = node.props["bboxes"]
            page, box = parse_bbox(stored)
            assert node.props["pages"] == [page]
            hits = opened[page - 1].search_for(node.props["value_text"])
            assert any(_inside(hit, box) for hit in hits), (node.props["value_text"], box)
            assert box[3] - box[1] < 14 and box != tables[page]  # one row high (rows are 14 pt apart)
            assert all(e.props["bboxes"] == [stored] for e in edges if e.source_id == node.id)
            boxes.append(box)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (a, b)


@pytest.mark.parametrize("cells, label, values", [
    (["SGC (2019a)", "91.6", "96.2 84.1"], "SGC (2019a)", ["91.6", "96.2", "84.1"]),  # merged cells split
    (["Avg. of 15 models with LM 55.2"], "Avg. of 15 models with LM", ["55.2"]),  # a number inside the label
    (["BERT†", "90.41 ± 0.06", "88.1*"], "BERT", ["90.41 ± 0.06", "88.1*"]),
    (["Model", "26.8 @8", "28.81"], "Model", ["26.8", "28.81"]),  # "@8": a note, not a column
    (["10", "2.8", "−1.2e+09"], "10", ["2.8", "−1.2e+09"]),  # a lone number in its own first cell: the label
    (["91.2 88.0"], "", ["91.2", "88.0"]),
    (["Model F1 MAP"], "Model F1 MAP", []),
])
def test_split_row(cells, label, values):
    assert split_row(cells) == (label, values)


def test_rows_whose_count_differs_are_not_guessed_at():
    grid = TableGrid("t", "5", "Results on the test set.", (("Model", "P", "R"), ("A", "1.0", "2.0"),
                                                                 ("B", "3.0"), ("C", "4.0", "5.0")), 1, None)
    experiment = table_experiment(grid)
    assert experiment is not None
    assert {(f.method, f.column, f.value_text) for f in experiment.results} == {
        ("A", "P", "1.0"), ("A", "R", "2.0"), ("C", "P", "4.0"), ("C", "R", "5.0")}


def test_a_value_points_at_the_cell_its_words_are_in_when_cells_hold_several_or_split_one():
    """PyMuPDF may set a label and two values as one line, or a value and its deviation in two: each value's box
    is the cell(s) its own words are in."""
    boxes = ((0.0, 0.0, 10.0, 5.0), (20.0, 0.0, 30.0, 5.0), (40.0, 0.0, 50.0, 5.0))
    grid = TableGrid("t", "6", "Results on the test set.", (("Model", "P", "R"), ("GrobidCRF 40.6", "38.3", "±", "0.2"),
                                                                 ("CRF", "41.0", "39.9")), 1, None,
                     (boxes, ((0.0, 10.0, 15.0, 15.0), (20.0, 10.0, 30.0, 15.0), (31.0, 10.0, 33.0, 15.0),
                              (34.0, 10.0, 40.0, 15.0)), tuple((x0, 20.0, x1, 25.0) for x0, _, x1, _ in boxes)))
    experiment = table_experiment(grid)
    assert experiment is not None
    assert {(f.method, f.value_text, f.bbox) for f in experiment.results} == {
        ("GrobidCRF", "40.6", (0.0, 10.0, 15.0, 15.0)), ("GrobidCRF", "38.3 ± 0.2", (20.0, 10.0, 40.0, 15.0)),
        ("CRF", "41.0", (20.0, 20.0, 30.0, 25.0)), ("CRF", "39.9", (40.0, 20.0, 50.0, 25.0))}


def test_two_tables_side_by_side_are_read_apart(tmp_path):
    """Each caption bounds its own table: the rows of the table beside it, on the same baselines, are not its."""
    pdf = write(tmp_path, "side.pdf", side_by_side_tables_paper([
        ("Table 1: Accuracy on the first set.", [["Methods", "Accuracy"], ["Alpha", "0.676"], ["Beta", "0.754"]]),
        ("Table 2: Results on the second set.", [["Methods", "Recall", "F1"], ["Gamma", "0.282", "0.584"],
                                                 ["Delta", "0.271", "0.581"]])]))
    grids = {grid.label: grid for grid in document_tables(parse_pdf(pdf))}
    assert set(grids) == {"1", "2"}
    facts = {label: {(f.method, f.column, f.value_text) for f in table_experiment(grid).results}
             for label, grid in grids.items()}
    assert facts["1"] == {("Alpha", "Accuracy", "0.676"), ("Beta", "Accuracy", "0.754")}
    assert facts["2"] == {("Gamma", "Recall", "0.282"), ("Gamma", "F1", "0.584"), ("Delta", "Recall", "0.271"),
                          ("Delta", "F1", "0.581")}


@pytest.mark.parametrize("rows", [
    (("Model", "P", "R"), ("Ours", "80.1", "78.2"), ("Ours (w/o CRF)", "77.0", "75.9"),
     ("Ours (w/o POS)", "76.4", "74.8")),  # ablation variants are no units
    (("Model", "P", "R"), ("BERT (10%)", "70.1", "68.2"), ("BERT (50%)", "77.0", "75.9"),
     ("BERT (100%)", "80.4", "79.8")),  # a setting in parentheses is no unit
    (("System", "P", "R"), ("System (A)", "70.1", "68.2"), ("System (B)", "77.0", "75.9"),
     ("System (C)", "80.4", "79.8")),  # a letter naming a variant is no unit
    (("Model", "P", "R"), ("Saliency map", "70.1", "68.2"), ("Attention map", "77.0", "75.9"),
     ("Ours", "80.4", "79.8")),  # 'map' is no MAP
    (("Model", "P", "R"), ("Ours (1,000 samples)", "70.1", "68.2"), ("Ours (10,000 samples)", "77.0", "75.9")),
])
def test_method_rows_that_look_like_measures_or_numbers_are_still_read(rows):
    grid = TableGrid("t", "9", "Results on the test set.", rows, 1, None)
    experiment = table_experiment(grid)
    assert experiment is not None
    assert {f.method for f in experiment.results} == {row[0] for row in rows[1:]}


def test_a_header_cell_over_a_value_column_is_no_second_stub():
    """'Method | Acc | F1 | Notes' over rows of two numbers and an empty note: 'Acc' sits over the first column of
    values, so the header is no two stubs and two names; the metrics it names are read in order instead."""
    boxes = lambda *xs: tuple((x, 0.0, x + 20.0, 5.0) for x in xs)
    grid = TableGrid("t", "10", "Results on the test set.", (("Method", "Acc", "F1", "Notes"), ("BERT", "85.0", "80.1"),
                                                              ("ELMo", "81.2", "77.3")), 1, None,
                     (boxes(0, 100, 150, 200), boxes(0, 100, 150), boxes(0, 100, 150)))
    experiment = table_experiment(grid)
    assert experiment is not None
    assert {(f.method, f.column, f.value_text) for f in experiment.results} == {
        ("BERT", "accuracy", "85.0"), ("BERT", "F1", "80.1"), ("ELMo", "accuracy", "81.2"), ("ELMo", "F1", "77.3")}


def test_a_header_above_the_only_rule_over_the_body_is_the_tables(tmp_path):
    """Booktabs without a top rule: the header rows sit beyond the table's far rule as seen from a caption below
    it, and are still its rows; the section heading above them (one cell) is not."""
    pdf = write(tmp_path, "midrule.pdf", midrule_table_paper(
        [["", "1-best", "oracle", "oracle"], ["System", "(%)", "WCN(%)", "lat(%)"]],
        [["Baseline", "47.2", "39.7", "27.7"], ["Adapted", "38.2", "35.5", "21.2"]],
        "Table 3: Results of the adapted models by input."))
    doc = parse_pdf(pdf)
    [grid] = document_tables(doc)
    assert grid.rows[0] == ("1-best", "oracle", "oracle") and grid.rows[1][0] == "System"
    assert "Results" in [s.title for s in doc.sections]
    experiment = table_experiment(grid)
    assert experiment is not None
    assert {(f.method, f.column, f.value_text) for f in experiment.results} == {
        ("Baseline", "1-best / (%)", "47.2"), ("Baseline", "oracle / WCN(%)", "39.7"),
        ("Baseline", "oracle / lat(%)", "27.7"), ("Adapted", "1-best / (%)", "38.2"),
        ("Adapted", "oracle / WCN(%)", "35.5"), ("Adapted", "oracle / lat(%)", "21.2")}


def _read(rows, boxes=None) -> set[tuple[str, str, str]]:
    experiment = table_experiment(TableGrid("t", "11", "Results on the test set.", rows, 1, None, boxes or ()))
    assert experiment is not None
    return {(f.method, f.column, f.value_text) for f in experiment.results}


def test_an_arrow_saying_which_way_is_better_belongs_to_its_columns_name():
    """'F1 ↑ DDI ↓' set as the header's one cell: two names, each with its arrow, not four words."""
    assert _read((("F1 ↑ DDI ↓",), ("Ours", "0.51", "0.06"))) == {("Ours", "F1↑", "0.51"),
                                                                          ("Ours", "DDI↓", "0.06")}


def test_a_stub_word_set_in_the_names_cell_is_left_out_of_the_names():
    """'Models R-1 R-2 R-L' in one cell over rows of three values: the first word heads the row labels."""
    assert _read((("Models R-1 R-2 R-L",), ("BART", "48.8", "23.8", "28.7"))) == {
        ("BART", "R-1", "48.8"), ("BART", "R-2", "23.8"), ("BART", "R-L", "28.7")}


def test_the_stubs_heading_level_with_the_column_groups_does_not_hide_them():
    """'EK Methods' set across the header rows, left of the value columns, between the data sets' row and the
    measures' row: the columns are still grouped by data set."""
    box = lambda x0, x1, y: (x0, y, x1, y + 5.0)
    rows = (("MIMIC", "eICU"), ("EK Methods",), ("P R P R",), ("✓", "Ours", "0.5 0.4 0.3 0.2"), ("-", "LR", "0.1 0.2 0.3 0.4"))
    boxes = ((box(100, 130, 0), box(200, 230, 0)), (box(0, 60, 5),), (box(100, 260, 10),),
             (box(0, 5, 20), box(20, 50, 20), box(100, 260, 20)), (box(0, 5, 30), box(20, 50, 30), box(100, 260, 30)))
    facts = _read(rows, boxes)
    assert ("Ours", "MIMIC / P", "0.5") in facts and ("LR", "eICU / R", "0.4") in facts and len(facts) == 8


@pytest.mark.parametrize("stub", ["Action", "Indicator", "Lengths"])
def test_a_stub_saying_the_rows_are_actions_indicators_or_lengths_gives_no_results(stub):
    """Usage actions counted per participant, nutritional indicators, summary lengths scored per system: the rows
    are no methods, whatever the caption says."""
    grid = TableGrid("t", "12", "Results of the study.", ((stub, "F1", "Recall"), ("Opens", "39.3", "21.0"),
                                                          ("Saves", "25.8", "12.2")), 1, None)
    assert table_experiment(grid) is None


def test_a_column_of_check_marks_is_no_part_of_the_names_but_an_ablations_minus_is():
    """'✓ | GAMENet' and '- | LR': a yes/no column before the names; '- CRF' in one cell: the model without CRF."""
    assert {m for m, _, _ in _read((("Model", "F1"), ("✓", "GAMENet", "0.52"), ("-", "LR", "0.46")))} == {
        "GAMENet", "LR"}
    assert {m for m, _, _ in _read((("Model", "F1"), ("BiLSTM-CRF", "91.2"), ("- CRF", "89.1")))} == {
        "BiLSTM-CRF", "- CRF"}


def test_an_arrow_before_its_name_stays_with_it():
    """'↑BLEU ↓TER ↑chrF': each arrow opens its own name; none is joined to the name before it."""
    assert {c for _, c, _ in _read((("Model ↑BLEU ↓TER ↑chrF",), ("Ours", "28.4", "54.0", "58.2")))} == {
        "↑BLEU", "↓TER", "↑chrF"}

import hashlib

import pytest

from extractors.body import Placed
from extractors.chunking import MAX_CHARS, _boxes, _pieces
from extractors.model import Line, Span
from extractors.tables import cells_of, row_texts, split_values
from extractors.pipeline import parse_pdf
from tests.pdf_factory import floats_paper, rotated_in_column_paper, two_column_paper, two_level_header_paper, write


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    data, _ = two_column_paper()
    return write(tmp_path_factory.mktemp("c"), "paper.pdf", data)


@pytest.fixture(scope="module")
def doc(pdf):
    return parse_pdf(pdf)


def test_chunks_stay_inside_one_section_and_under_the_limit(doc):
    sections = {s.id: s for s in doc.sections}
    for chunk in doc.chunks:
        assert len(chunk.text) <= MAX_CHARS
        assert doc.text[chunk.char_start:chunk.char_end] == chunk.text
        assert chunk.content_hash == hashlib.sha256(chunk.text.encode()).hexdigest()
        if chunk.section_id:
            s = sections[chunk.section_id]
            assert s.char_start <= chunk.char_start and chunk.char_end <= s.char_end
            assert chunk.section_path[-1] == s.title


def test_chunks_cover_the_section_text_and_carry_boxes(doc):
    for s in doc.sections:
        body = " ".join(doc.text[s.char_start:s.char_end].split())
        covered = " ".join(" ".join(c.text.split()) for c in doc.chunks if c.section_id == s.id)
        assert covered == body
    setup = next(c for c in doc.chunks if c.section_path == ["Method", "Training Setup"])
    assert setup.boxes and all(b.page == setup.page_start for b in setup.boxes[:1])


def test_boxes_say_where_their_text_begins_in_reading_order():
    def placed(start, end, page, column, y):
        line = Line(text="x" * (end - start), page=page, bbox=(50.0 + 250 * column, y, 290.0 + 250 * column, y + 10),
                    size=10, font="Times", column=column)
        return Placed(line=line, index=start, start=start, end=end, paragraph=0)

    lines = [placed(0, 40, 3, 1, 700), placed(41, 80, 3, 1, 712), placed(81, 120, 4, 0, 60), placed(121, 160, 4, 0, 72)]
    boxes, starts = _boxes(lines, 20, 140)
    assert [(b.page, b.bbox) for b in boxes] == [(3, (300.0, 700, 540.0, 722)), (4, (50.0, 60, 290.0, 82))]
    assert starts == [0, 61]


def test_every_chunk_has_one_start_per_box_at_a_line_of_that_box(doc):
    for chunk in doc.chunks:
        assert len(chunk.box_starts) == len(chunk.boxes) and chunk.box_starts[0] == 0
        assert chunk.box_starts == sorted(chunk.box_starts)


def test_ids_are_deterministic(doc, pdf, tmp_path):
    again = parse_pdf(write(tmp_path, "again.pdf", pdf.read_bytes()))
    assert [c.id for c in again.chunks] == [c.id for c in doc.chunks]
    assert [s.id for s in again.sections] == [s.id for s in doc.sections]


def test_a_long_paragraph_inside_a_text_is_cut_at_its_own_sentence_ends_and_never_past_its_end():
    text = "Heading text before. " + "One short sentence here. " * 100 + "NEXT SECTION"
    start, end = 21, 21 + 25 * 100 - 1
    pieces = _pieces(text, start, end)
    assert pieces == [(21, 21 + 25 * 60 - 1), (21 + 25 * 60, end)]


def test_long_paragraph_splits_at_sentence_ends():
    text = " ".join(f"Sentence number {i} is here." for i in range(200))
    pieces = _pieces(text, 0, len(text))
    assert all(b - a <= MAX_CHARS for a, b in pieces)
    assert all(text[a:b].endswith(".") for a, b in pieces)
    assert " ".join(text[a:b] for a, b in pieces) == text


def test_table_rows_name_each_cell_by_its_header_and_column_group():
    rows = [["Full", "Grobid Subset"], ["P", "R", "F1", "P", "R", "F1"],
            ["GrobidCRF 40.6 38.3 39.1 81.2 76.7 78.9"], ["I-VILA", "92.0 94.1 92.7 92.2 95.2 93.7"]]
    assert row_texts("Table 2", rows) == [
        "Table 2 | GrobidCRF | Full P: 40.6 | Full R: 38.3 | Full F1: 39.1 | Grobid Subset P: 81.2 | "
        "Grobid Subset R: 76.7 | Grobid Subset F1: 78.9",
        "Table 2 | I-VILA | Full P: 92.0 | Full R: 94.1 | Full F1: 92.7 | Grobid Subset P: 92.2 | "
        "Grobid Subset R: 95.2 | Grobid Subset F1: 93.7"]


def test_table_header_words_name_value_columns_from_the_right():
    rows = [["Evaluated task", "Title Authors"], ["Paper clustering", "0.93", "0.89"],
            ["Bib. linking (GROBID) 1.00", "0.96"]]
    assert row_texts("Table 6", rows) == ["Table 6 | Evaluated task: Paper clustering | Title: 0.93 | Authors: 0.89",
                                          "Table 6 | Evaluated task: Bib. linking (GROBID) | Title: 1.00 | Authors: 0.96"]


def test_table_row_with_missing_cells_repeats_the_header_instead_of_guessing_columns():
    rows = [["Field Precision Recall F1"], ["title", "85.5", "85.5 85.5"], ["authors", "92.1"]]
    assert row_texts("Table 1", rows) == ["Table 1 | Field: title | Precision: 85.5 | Recall: 85.5 | F1: 85.5",
                                          "Table 1 | Field Precision Recall F1 | authors | 92.1"]


def test_table_values_keep_their_spread_and_label_columns_align_right():
    rows = [["Domain", "Dataset", "Task", "Base", "Ours"], ["Bio", "GENIA", "NER", "90.43", "90.80 ± 0.19"],
            ["SciERC", "REL", "79.97", "81.77 ± 1.64"]]
    assert row_texts("Table 5", rows) == [
        "Table 5 | Domain: Bio | Dataset: GENIA | Task: NER | Base: 90.43 | Ours: 90.80 ± 0.19",
        "Table 5 | Dataset: SciERC | Task: REL | Base: 79.97 | Ours: 81.77 ± 1.64"]
    assert split_values(["Avg. of 15 models 55.2%", "1,024", "-0.3"]) == (["Avg. of 15 models"],
                                                                         ["55.2%", "1,024", "-0.3"])


def test_table_without_numbers_keeps_its_rows_as_text():
    assert row_texts("Table 3", [["Tool", "Purpose"], ["PySBD", "sentences"]]) == ["Table 3 | Tool | Purpose",
                                                                                  "Table 3 | PySBD | sentences"]


def test_table_chunk_holds_caption_then_one_named_line_per_row(tmp_path):
    data, _ = floats_paper(2)
    doc = parse_pdf(write(tmp_path, "floats.pdf", data))
    tables = {c.text.split(":")[0]: c for c in doc.chunks if c.kind == "table"}
    assert tables["Table 1"].text == ("Table 1: Scores of the two systems on the test set.\n\n"
                                      "Table 1 | System: Rules | Precision: 0.91 | Recall: 0.88\n\n"
                                      "Table 1 | System: Baseline | Precision: 0.75 | Recall: 0.70")
    assert tables["Table II"].text == ("Table II: Corpus splits.\n\n"
                                       "Table II | Split: train | Papers: 800\n\nTable II | Split: test | Papers: 200")
    table = next(t for t in doc.tables if t.label == "1")
    assert [(b.page, b.bbox) for b in tables["Table 1"].boxes] == [(table.page, table.bbox)]


def test_label_between_two_rows_spans_both_and_an_unsplittable_header_is_repeated():
    rows = [["TEDs", "Time"], ["Data set", "Language", "mAP"], ["simple all", "(secs)"],
            ["OTSL", "0.955", "0.959", "0.862", "1.85", "2"], ["FinTabNet"],
            ["HTML", "0.917", "0.92", "0.722", "3.26", "3"]]
    assert row_texts("Table 2", rows) == [
        "Table 2 | FinTabNet | Data set Language mAP | OTSL | 0.955 | 0.959 | 0.862 | 1.85 | 2",
        "Table 2 | FinTabNet | Data set Language mAP | HTML | 0.917 | 0.92 | 0.722 | 3.26 | 3"]


def test_rows_without_a_label_column_are_named_only_when_the_header_fits_exactly():
    rows = [["Co-Read", "Cite"], ["F1 MAP nDCG", "P@1"], ["51.6 25.6", "51.9"], ["82.9 64.9", "81.6"]]
    assert row_texts("Table 1", rows) == ["Table 1 | Co-Read Cite | 51.6 | 25.6 | 51.9",
                                          "Table 1 | Co-Read Cite | 82.9 | 64.9 | 81.6"]
    rows = [["P", "R", "F1"], ["0.9 0.8 0.85"]]
    assert row_texts("Table 4", rows) == ["Table 4 | P: 0.9 | R: 0.8 | F1: 0.85"]


def test_a_number_ending_a_name_stays_in_its_cell_and_header_words_name_every_column():
    rows = [["Method", "GPU", "MDE/s FPS Error"], ["Ours", "GeForce GTX 680", "215.7", "90", "6.20"],
            ["Fast", "Tesla C2070", "50.6", "21", "7.31"], ["Grid", "Quadro FX", "25.1", "10", "10.90"]]
    assert row_texts("Table II", rows) == [
        "Table II | Method: Ours | GPU: GeForce GTX 680 | MDE/s: 215.7 | FPS: 90 | Error: 6.20",
        "Table II | Method: Fast | GPU: Tesla C2070 | MDE/s: 50.6 | FPS: 21 | Error: 7.31",
        "Table II | Method: Grid | GPU: Quadro FX | MDE/s: 25.1 | FPS: 10 | Error: 10.90"]


def test_a_number_ending_a_label_stays_a_value_when_the_row_would_not_match_the_other_rows():
    rows = [["Measure", "Before", "After"], ["Gender (%)", "53.1", "64.1"], ["Age: mean", "67.7 SD 9.6", "72.8", "7.4"]]
    age = row_texts("Table 1", rows)[1]
    assert "| 67.7 SD |" in age and "67.7 SD 9.6" not in age  # one label more than the other rows: not a name


def _line(*runs: tuple[str, float, float]) -> Line:
    spans = [Span(text, (x0, 100.0, x1, 109.0), 9.0, "Times") for text, x0, x1 in runs]
    return Line(" ".join(t for t, _, _ in runs), 1, (runs[0][1], 100.0, runs[-1][2], 109.0), 9.0, "Times",
                spans=spans)


def test_runs_of_one_line_a_gap_wider_than_a_word_space_apart_are_cells_of_their_own():
    merged = _line(("87.5", 308.0, 324.0), ("91.6", 335.0, 350.0))  # two columns 11 points apart
    assert [(c.text, c.bbox[0], c.bbox[2]) for c in cells_of(merged)] == [("87.5", 308.0, 324.0),
                                                                         ("91.6", 335.0, 350.0)]
    words = _line(("User", 229.0, 246.0), ("activity", 248.5, 276.0))  # a word space: one cell
    assert [c.text for c in cells_of(words)] == ["User activity"]
    spaced = _line(("WHO", 296.0, 317.0), ("REMAINED", 322.5, 371.0))  # letter-spaced small caps: one cell
    assert [c.text for c in cells_of(spaced)] == ["WHO REMAINED"]


def test_a_two_level_header_names_each_column_by_the_task_and_the_metric_printed_over_it(tmp_path):
    rows = [("Random", ["4.8", "9.4", "25.2", "51.6", "25.6"]), ("SGC", ["76.8", "91.6", "96.2", "84.1", "92.5"])]
    doc = parse_pdf(write(tmp_path, "two-level.pdf", two_level_header_paper(rows)))
    table = next(c.text for c in doc.chunks if c.kind == "table")
    names = ["Classification F1", "Cite MAP", "Cite nDCG", "Co-Cite MAP", "Co-Cite nDCG"]
    for model, values in rows:
        line = " | ".join(["Table 1", f"Model: {model}", *(f"{n}: {v}" for n, v in zip(names, values))])
        assert line in table.split("\n\n")


def test_a_table_with_text_columns_among_its_numbers_names_each_cell_by_the_header_over_it():
    """'Redhill | 195 | P. radiata | 78' does not split into labels and values by counting; the header printed
    over each cell, at every header level, names it, and a cell under no header keeps its text alone."""
    header = [["Area (ha)", "Species", "Mean"], ["annual rainfall"]]
    header_boxes = [[(100, 0, 140, 8), (160, 0, 200, 8), (220, 0, 250, 8)], [(215, 10, 275, 18)]]
    rows = [["Redhill (NSW)", "195", "P. radiata", "866"], ["Pine Ck", "320", "P. radiata", "775"]]
    boxes = [[(10, 30, 60, 38), (110, 30, 130, 38), (160, 30, 200, 38), (230, 30, 250, 38)],
             [(10, 40, 50, 48), (110, 40, 130, 48), (160, 40, 200, 48), (230, 40, 250, 48)]]
    assert row_texts("Table 1", header + rows, header_boxes + boxes) == [
        "Table 1 | Redhill (NSW) | Area (ha): 195 | Species: P. radiata | Mean annual rainfall: 866",
        "Table 1 | Pine Ck | Area (ha): 320 | Species: P. radiata | Mean annual rainfall: 775"]


def test_a_sideways_tables_chunk_names_its_cells_as_the_upright_table_would(tmp_path):
    doc = parse_pdf(write(tmp_path, "sideways.pdf", rotated_in_column_paper(label_apart=True)[0]))
    table = next(c.text for c in doc.chunks if c.kind == "table").split("\n\n")
    assert table[0] == "Table 1: Site characteristics of all catchments, with their area and rainfall."
    assert "Table 1 | Site: Creek | Area (ha): 310 | Species: Eucalypt | Rainfall (mm): 1282" in table


def test_a_header_of_names_set_too_close_to_part_names_each_column_and_groups_reach_their_outer_columns():
    """'Jaccard ↑ DDI ↓ Jaccard ↑ DDI ↓' printed as one cell across four value columns, under two data sets' names
    each centred over its pair of columns and narrower than it: each column gets its own measure, with its arrow,
    and its data set; 'Citation prediction' over three columns stays one group's name."""
    box = lambda x0, x1, y: (x0, y, x1, y + 8.0)
    rows = [["MIMIC", "eICU"], ["Jaccard ↑ DDI ↓ Jaccard ↑ DDI ↓"], ["Ours", "0.40", "0.06", "0.35", "0.13"]]
    boxes = [[box(146, 170, 0), box(291, 315, 0)], [box(80, 360, 10)],
             [box(10, 40, 20), box(112, 132, 20), box(184, 204, 20), box(257, 277, 20), box(329, 349, 20)]]
    assert row_texts("Table 2", rows, boxes) == ["Table 2 | Ours | MIMIC Jaccard↑: 0.40 | MIMIC DDI↓: 0.06 | "
                                                "eICU Jaccard↑: 0.35 | eICU DDI↓: 0.13"]
    rows = [["Citation prediction"], ["MAP nDCG P@1"], ["Ours", "25.1", "51.6", "80.2"]]
    boxes = [[box(80, 200, 0)], [box(80, 200, 10)],
             [box(10, 40, 20), box(85, 105, 20), box(130, 150, 20), box(175, 195, 20)]]
    assert row_texts("Table 1", rows, boxes) == ["Table 1 | Ours | Citation prediction MAP: 25.1 | "
                                                "Citation prediction nDCG: 51.6 | Citation prediction P@1: 80.2"]

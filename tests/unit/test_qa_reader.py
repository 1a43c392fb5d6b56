"""The reader on hand-written evidence: the kind of answer a question asks for, the span a sentence, a list or a
table row offers for it, and the answer composed from the best of them (or none)."""

import pytest

from kg.qa.answer import compose, definition_first, score_units, units_of
from kg.qa.reader import (Question, assigned_value, counts_of, date_in, defines, enumerations, extreme_asked,
                          extreme_row, long_form, name_before, name_given, new_numbers, ratio_in, read_question,
                          refers_to, table_cell)


def chunk(id, text, score=1.0, kind="text"):
    return {"id": id, "text": text, "score": score, "kind": kind, "bboxes": [], "page_start": 1,
            "paper_sha256": "x"}


@pytest.mark.parametrize("question, kind", [
    ("How many layers does the encoder have?", "number"),
    ("What value of the matter density parameter is assumed?", "number"),
    ("In Bigtable, what is a tablet?", "definition"),
    ("What is the catchment area, in hectares, of Traralgon Creek?", "number"),
    ("What fold change in L-tryptophan was observed?", "number"),
    ("What scaffold is used in the design?", "entity"),
    ("What manifold learning method is used?", "entity"),
    ("Which method(s) were used for evaluation?", "entity"),
    ("Which model performs best in MS MARCO?", "entity"),
    ("When should the threshold be lowered?", "other"),
    ("When was the note received?", "date"),
    ("What is the mean annual rainfall (mm) listed for Redhill?", "number"),
    ("Which country were the data collected in?", "entity"),
    ("At what resolution was the structure determined?", "number"),
    ("What range of temperatures is shown in Figure 2?", "number"),
    ("Which two corpora are used for pre-training?", "list"),
    ("Which kinds of documents does the benchmark cover?", "list"),
    ("At which levels of granularity are the summaries written?", "list"),  # a preposition before 'which'
    ("On which cell lines was the assay run?", "list"),
    ("In which class is the gene placed?", "other"),  # a singular in -s is no plural
    ("Which GPUs were used for training?", "list"),  # a capitalised plural
    ("In which corpus is the term most frequent?", "other"),
    ("What does the abbreviation CRF stand for?", "acronym"),
    ("What does GAN stand for?", "acronym"),
    ("How is the disk efficiency defined?", "definition"),
    ("What is meant by a frozen encoder?", "definition"),
    ("What happens during a catch trial?", "definition"),  # asks what the thing is: its description
    ("What happens to the cache after a crash?", "entity"),
    ("Which optimizer is used for training?", "entity"),
    ("Why does the method fail on long inputs?", "other"),
])
def test_the_kind_of_answer_comes_from_the_form_of_the_question(question, kind):
    assert read_question(question).kind == kind


def test_a_question_names_its_tables_figures_other_numbered_things_and_short_form():
    assert read_question("Which three metrics are reported in Table IV and Fig. 2?") == Question(
        "list", elements=("Table IV:", "Figure 2:"), refers=(("ta", "IV"), ("fi", "2")))
    assert read_question("Which norms are studied in Examples 1 and 2?").refers == (("ex", "1"), ("ex", "2"))
    assert refers_to("the columnwise norm (see Examples 1 and 2 below).", (("ex", "2"),))
    assert refers_to("as Equation 3 shows", (("eq", "3"),)) and not refers_to("see Figure 12", (("fi", "1"),))
    assert not refers_to("the second 1 of them", (("se", "1"),))
    assert read_question("What does the acronym LSTM stand for?").short == "LSTM"
    assert read_question("What does the evaluation metric PSNR stand for?").short == "PSNR"
    assert read_question('What does the paper mean by a "straggler"?') == Question("definition", term="straggler")
    assert read_question("How is the learning rate of the decoder defined?").term == "learning rate of the decoder"


@pytest.mark.parametrize("question, text, leading, answer", [
    ("How many layers does the encoder have?",
     "The encoder is a stack of identical layers, as in the original design. "
     "The encoder has 12 layers with 768 hidden units each. "
     "Figure 3 shows how the layers of the encoder are connected.",
     "The encoder has 12 layers with 768 hidden units each.",
     "The encoder has 12 layers with 768 hidden units each."),
    ("Which two knowledge bases are used?",
     "Linking grounds each mention of an entity in a reference resource such as a knowledge base. "
     "We use two knowledge bases: UMLS for biomedical concepts. "
     "DBpedia covers the concepts of computer science. "
     "Linking knowledge bases is hard.",
     "We use two knowledge bases: UMLS for biomedical concepts.",
     "We use two knowledge bases: UMLS for biomedical concepts. DBpedia covers the concepts of computer science."),
    ("How is the disk efficiency defined?",
     "We report the disk efficiency of every placement in Section 5. "
     "The disk efficiency is the share of the disk bandwidth that carries video data. "
     "Placements with a high disk efficiency serve more streams.",
     "The disk efficiency is the share of the disk bandwidth that carries video data.",
     "The disk efficiency is the share"),
], ids=["number: the second of three sentences", "list: the sentence counting the asked things, then the next",
        "definition: the sentence that defines, not one that mentions"])
def test_the_sentence_of_the_kind_the_question_asks_for_leads_the_answer(question, text, leading, answer):
    units = score_units(question, [chunk("c1", text)])
    assert units[0].text == leading
    assert compose(units)[0].startswith(answer)


def test_a_numeric_answer_is_spanned_by_its_number_and_what_it_counts():
    units = score_units("How many layers does the encoder have?",
                        [chunk("c1", "The encoder has 12 layers with 768 hidden units each.")])
    assert units[0].span == "12 layers"


def test_a_number_in_the_question_or_a_citation_is_no_answer():
    assert new_numbers("As in [12], the 2 models reach 81.5% and 0.3 nm.", "What do the 2 models reach?") == [
        "81.5%", "0.3 nm"]
    assert new_numbers("The results of [4, 7] hold for 10 runs.", "How many runs?") == ["10 runs"]


def test_a_definition_is_told_from_a_mention():
    assert defines("the nuclear norm or the sum of singular values", "nuclear norm of the matrix")
    assert not defines("we regularise with the nuclear norm and a second norm", "nuclear norm")
    assert defines("Routing attention is attention restricted to clustered keys.", "routing attention")
    assert defines("We define OTSL as a table language.", "OTSL")
    assert not defines("Routing attention helps.", "routing attention")


def test_a_definition_may_name_the_term_last():
    assert defines("Each row range is called a tablet, which is the unit of distribution.", "tablet")
    assert defines("Such a mechanism is often referred to as a sanitizer.", "sanitizer")
    assert defines("We call the set of such rows a tablet.", "tablet")
    assert not defines("Each tablet server holds ten tablets.", "tablet server group")
    assert not defines("A so-called tablet holds rows.", "row")


def test_units_glued_to_numbers_and_counts_in_parentheses_stay_quantities():
    assert new_numbers("at 10Mpc and 13Gyr, 60FPS on 8GPUs over 10Gbit links", "How far?") == [
        "10Mpc", "13Gyr", "60FPS", "8GPUs", "10Gbit"]
    assert new_numbers("diabetes (23) and hypertension (41)", "How many?") == ["23", "41"]


def test_a_short_word_or_a_verb_is_no_definition_or_share():
    assert not defines("Keeping the cache small is important.", "key")
    assert not read_question("How many parameters do the encoder and decoder share?").percent
    assert name_before("we train 10 models on the data", "model") is None


def test_the_noun_asked_about_alone_is_no_support():
    """'2 spare machines' answers 'how many machines' only when the question's topic is near it."""
    chunks = [chunk("c1", "Operators kept 2 spare machines on hand.")]
    assert compose(score_units("How many machines were in the Borg cell used for the trace?", chunks)) == ("", [])


def test_footnote_marks_and_item_numbers_are_no_quantities():
    assert new_numbers("2REVERB uses OpenNLP on 500 million sentences.", "How large is the corpus?") == [
        "500 million"]
    assert new_numbers("(1) Random: a passage; (2) BM25: 100 passages", "How many?") == ["100 passages"]
    assert new_numbers("It runs at 2.2GHz over 10Gbps links in 3D.", "How fast?") == ["2.2GHz", "10Gbps", "3D"]


def test_how_many_asks_for_a_number_of_the_noun_it_names():
    assert read_question("Roughly how many machines were in the cluster?").counted == "machin"
    assert read_question("How many training examples were used?").counted == "exampl"
    assert read_question("How many of them fail?").counted is None
    # a compound name of letters and digits before the noun is one word, not the end of the noun phrase
    assert read_question("How many bisaryl-1,4-dien-3-one analogs were included?").counted == "analog"
    assert read_question("How many 3D scans are there?").counted == "scan"
    assert read_question("How many of the 20 runs failed?").counted is None
    assert read_question("How many images\u2014if any\u2014were discarded?").counted == "imag"  # unspaced dashes
    assert read_question("How many end\u2013to\u2013end systems were evaluated?").counted == "system"  # en dashes join
    assert counts_of("which results in 21,015,324 passages in the end", "passag") == "21,015,324 passages"
    assert counts_of("12 Transformer layers and 4 heads", "layer") == "12 Transformer layers"
    assert counts_of("[12] layers differ; see Table 3 layers", "layer") is None


def test_the_number_of_the_things_counted_answers_however_little_else_matches():
    chunks = [chunk("c1", "We use the corpus of Wikipedia articles after removing semi-structured data. "
                          "We split each article into blocks of 100 words as passages, which results in 21,015,324 "
                          "passages in the end."),
              chunk("c2", "We consider three types of negatives: (1) Random: any random passage from the corpus; "
                          "(2) BM25: top passages which do not contain the answer.")]
    answer, units = compose(score_units("How many passages does the Wikipedia corpus contain?", chunks))
    assert answer.startswith("We split each article") and units[0].span == "21,015,324 passages"


def test_an_adverbial_in_front_hides_no_form_and_no_table():
    asked = read_question("In Table 5, what spread does SIDD reach for k = 50?")
    assert asked.kind == "number" and asked.elements == ("Table 5:",)
    assert read_question("In Bigtable, what is a tablet?") == Question("definition", term="tablet")
    assert read_question("In this study, what happens during a catch trial?") == Question("definition",
                                                                                         term="catch trial")


def test_the_value_set_to_a_symbol_the_question_names_answers_it():
    asked = read_question("What value of the matter density parameter Omega_m is assumed?")
    assert asked.kind == "number" and asked.symbols == ("\u03a9m",)
    assert assigned_value("a Friedmann model (\u03a9m = 0.27, H0 = 70 km)", ["\u03a9m"]) == "\u03a9m = 0.27"
    assert assigned_value("where \u03a9K = 1 \u2212 \u03a9m.", ["\u03a9m"]) is None
    chunks = [chunk("c1", "Models 6 and 7 are defined by the assumption that the matter density is of this form: "
                          "a smooth profile. The background density in all models is that of a Friedmann model "
                          "(\u03a9m = 0.27, H0 = 70 km/s).")]
    answer, units = compose(score_units("What value of the matter density parameter Omega_m is assumed?", chunks))
    assert units[0].span == "\u03a9m = 0.27"


def test_which_noun_is_answered_by_the_name_printed_before_the_noun():
    assert read_question("Which optimizer were the networks trained with?").noun == "optimizer"
    assert name_before("All experiments were performed using Keras with the Adam optimizer [10].", "optimizer") == (
        "Adam")
    assert name_before("The optimizer matters; a good optimizer helps.", "optimizer") is None
    chunks = [chunk("c1", "Other methods of counting train a network on the counts alone. "
                          "All experiments were performed using Keras with the Adam optimizer [10]."),
              chunk("c2", "The networks are trained on patches. Each network is trained for 100 epochs. "
                          "A trained network predicts a density map.")]
    answer, units = compose(score_units("Which optimizer were the networks trained with?", chunks))
    assert units[0].span == "Adam" and "Adam optimizer" in answer


def test_a_question_asking_for_a_share_is_answered_by_a_percentage():
    asked = read_question("What share of the trials were catch trials?")
    assert asked.kind == "number" and asked.percent
    chunks = [chunk("c1", "Each group performed 256 trials on day 1 and 208 trials on day 2. "
                          "The catch trial groups performed 48 (19%) catch trials without forces.")]
    answer, units = compose(score_units("What share of the trials were catch trials?", chunks))
    assert units[0].span == "19%"


def test_a_question_asking_for_a_ratio_is_answered_by_a_ratio():
    """Numbers joined by a colon are one value ('40:60', not '40'), and a question asking for a ratio takes the
    sentence that prints one over a sentence with another number."""
    question = "What ratio of grain concentrate to sprout juice was chosen as optimal?"
    assert read_question(question).ratio and not read_question("What share of the trials failed?").ratio
    # an odds or hazard ratio is one number: a colon-joined one ('assigned 2:1') does not answer it
    assert not read_question("What odds ratio was found for relapse in the treatment group?").ratio
    assert read_question("In what ratio were training and validation data split?").ratio
    assert ratio_in(["40:60 ratio"]) == "40:60 ratio" and ratio_in(["2.5 times"]) is None
    chunks = [chunk("c1", "To choose the optimal ratio of grain concentrate and sprout juice, 4 variants were made."),
              chunk("c2", "The optimal ratio of grain concentrate to sprout juice chosen is 40:60.")]
    answer, units = compose(score_units(question, chunks))
    assert units[0].span == "40:60" and answer.startswith("The optimal ratio")


def test_a_date_question_is_answered_by_a_sentence_with_a_date():
    assert read_question("On what date was this note received by the journal?").kind == "date"
    assert date_in("Z. Naturforsch. 54a, 272-273 (1999); received December 15, 1998") == "December 15, 1998"
    assert date_in("accepted 3 Feb. 2001 and online 2001-02-10") == "3 Feb. 2001"
    assert date_in("In 1998 we began.") is None
    chunks = [chunk("c1", "Z. Naturforsch. 54a, 272-273 (1999); received December 15, 1998"),
              chunk("c2", "The journal publishes notes on solitary waves.")]
    answer, _ = compose(score_units("On what date was this note received by the journal?", chunks))
    assert "December 15, 1998" in answer


def test_what_is_something_called_asks_for_the_name_given():
    assert read_question("What is a randomized function that satisfies privacy called in the paper?").kind == "naming"
    assert name_given("The mechanism is often called a differentially private sanitizer.") == (
        "differentially private sanitizer")
    assert name_given("We named the system Broccoli, after a variant of the query.") == "Broccoli"
    question = "What is the name of the authors' system with a user interface for building KB+Text queries?"
    assert read_question(question).kind == "naming"
    chunks = [chunk("c1", "A user interface guides the user in constructing KB+Text queries incrementally. The index "
                          "supports such queries. Users build queries with suggestions after each keystroke. "
                          "We named the system Broccoli, after a variant of the example query.")]
    answer, units = compose(definition_first(score_units(question, chunks)))
    assert units[0].span == "Broccoli" and "Broccoli" in answer
    chunks = [chunk("c1", "A randomized function gives differential privacy if its outputs are close. "
                          "The computational mechanism to attain differential privacy is often called a "
                          "differentially private sanitizer.")]
    answer, _ = compose(score_units("What is a randomized mechanism that satisfies differential privacy called?",
                                    chunks))
    assert answer.startswith("The computational mechanism")


def test_question_with_no_answer_in_the_evidence_gets_none():
    text = ("The encoder has 12 layers with 768 hidden units each. "
            "Training took three days on one GPU.")
    units = score_units("What is the boiling point of mercury at sea level?", [chunk("c1", text)])
    assert compose(units) == ("", [])


def test_abbreviation_question_answered_by_its_long_form_in_either_order():
    first = "We study Ultra Light Bosonic Dark Matter (ULBDM) as a candidate."
    after = "Three measures are compared: (3) SIDD (Second Improvement of DegreeDistance): a refinement of it."
    assert long_form(first, "ULBDM") == "Ultra Light Bosonic Dark Matter"
    assert long_form(after, "SIDD") == "Second Improvement of DegreeDistance"
    assert long_form("SIDD (see Section 3) is fast.", "SIDD") is None
    units = score_units("What does the abbreviation ULBDM stand for?",
                        [chunk("c1", "The ULBDM is studied here. " + first)])
    answer, taken = compose(units)  # only 'ULBDM' is shared with the question, yet the long form answers it
    assert answer.startswith(first) and taken[0].span == "Ultra Light Bosonic Dark Matter"


def test_a_definition_read_in_a_plural_leads_the_answer():
    """'What is a Tiny (T) summary' is defined by 'Tiny (T) summaries are ...', which leads however much more of the
    question's words another sentence shares."""
    assert defines("Tiny (T) summaries are one-sentence summaries for Twitter.", "Tiny (T) summary in Multi-LexSum")
    question = "What is a Tiny (T) summary in Multi-LexSum?"
    chunks = [chunk("c1", "Multi-LexSum holds summaries of many granularities, a tiny summary among them, in "
                          "Multi-LexSum's cases. Tiny (T) summaries are one-sentence summaries for Twitter.")]
    units = definition_first(score_units(question, chunks))
    assert units[0].text.startswith("Tiny (T) summaries are")


def test_a_long_form_may_hold_the_short_forms_letters_inside_its_words():
    """Schwartz and Hearst's test: the letters in order, the first starting a word; also after the short form in a
    list of abbreviations or a legend."""
    assert long_form("The average baseflow index (BFI), the ratio of baseflow to flow.", "BFI") == "baseflow index"
    assert long_form("U, uniform; W, winter dominated. BFI, baseflow index.", "BFI") == "baseflow index"
    assert long_form("Abbreviations: ACE, angiotensin converting enzyme; SHOP, scaffold hopping.", "SHOP") == (
        "scaffold hopping")
    assert long_form("a receptor-based SHOP (scaffold hopping) approach", "SHOP") == "scaffold hopping"
    assert long_form("We propose the \u201caggregated multicolumn dilated convolution network\u201d or\nAMDCN which",
                     "AMDCN") == "aggregated multicolumn dilated convolution network"
    assert long_form("we use a convolutional neural network, or CNN, here", "CNN") == "convolutional neural network"
    assert long_form("apples or AMDCN are", "AMDCN") is None
    assert long_form("BFI, the ratio of baseflow to total flow", "BFI") is None
    assert long_form("a lower BFI (see Table 1) here", "BFI") is None


def test_table_cell_named_by_its_row_and_its_column_header():
    row = "Table 2 | SPECTER | CLS: 84.2 | USR: 88.4 | CITE: 91.5 | REC: 36.9 | Avg.: 80.0"
    assert table_cell(row, "What average score does SPECTER reach?") == "Table 2, SPECTER, Avg.: 80.0"
    assert table_cell(row, "What CITE score does SPECTER reach?") == "Table 2, SPECTER, CITE: 91.5"
    assert table_cell(row, "How many parameters does SPECTER have?") is None
    assert table_cell("The encoder has 12 layers.", "How many layers?") is None


def test_a_question_naming_a_table_is_answered_from_its_row_led_by_the_cell():
    table = ("Table 3: Model sizes.\n\nTable 3 | Model: Base | Layers: 12 | Params: 110M\n\n"
             "Table 3 | Model: Large | Layers: 24 | Params: 340M")
    text = "Our large model doubles the depth of the base model, as Table 3 shows in detail."
    units = score_units("According to Table 3, how many layers does the large model have?",
                        [chunk("t3", table, kind="table"), chunk("c1", text)], read_question(
                            "According to Table 3, how many layers does the large model have?"))
    assert units[0].span == "Table 3, Large, Layers: 24" and units[0].leads
    assert compose(units)[0].startswith("Table 3, Large, Layers: 24 \u2014 Table 3 | Model: Large | Layers: 24")


def test_a_sentence_broken_by_a_paragraph_break_is_read_whole():
    text = "We combine the nuclear norm\n\nor the sum of singular values, with a second norm. Next we test it."
    assert [text[a:b] for a, b in units_of(text)] == [
        "We combine the nuclear norm\n\nor the sum of singular values, with a second norm.", "Next we test it."]
    initials = "It is funded by the U.S. National Library of Medicine. It is large."
    assert [initials[a:b] for a, b in units_of(initials)] == [
        "It is funded by the U.S. National Library of Medicine.", "It is large."]


def test_section_question_answered_with_the_number_and_title_of_the_section_said_once():
    bounds = {**chunk("c1", "Theorem 2 gives a minimax lower bound. It matches the upper bound up to constants."),
              "section": "Lower Bounds", "section_number": "3.5"}
    intro = {**chunk("c2", "We then prove that the minimax rates are attained."), "section": "Introduction",
             "section_number": "1"}  # as much of the question as the theorem's sentence, but not in its title
    units = score_units("Which section presents the minimax lower bounds?", [intro, bounds])
    assert units[0].span == "Section 3.5 Lower Bounds"
    answer, taken = compose(units)
    assert answer.startswith("Section 3.5 Lower Bounds \u2014 Theorem 2 gives a minimax lower bound.")
    assert answer.count("Section 3.5") == 1


@pytest.mark.parametrize("question, direction", [
    ("Which baseline obtains the highest MAP on the Cite task?", "max"),
    ("What is the minimum total cost per stream?", "min"),
    ("Which model reaches the best perplexity?", "min"),
    ("Which model reaches the best F1?", "max"),
    ("What F1 does the model reach?", None),
    ("What top-1 accuracy does the model reach?", None),  # 'top', 'max', 'min' name quantities too
    ("What is the max degree of the graph?", None),
])
def test_a_question_asks_for_the_highest_or_the_lowest_value(question, direction):
    assert extreme_asked(question) == direction


TABLE_ROWS = ["Table 1: Results on the suite.",
              "Table 1 | Model: Random | F1: 4.8 | MAP: 9.4 | nDCG: 25.2",
              "Table 1 | Model: SGC (2019a) | F1: 76.8 | MAP: 91.6 | nDCG: 84.1",
              "Table 1 | Model: SPECTER | F1: 82.0 | MAP: 86.4 | nDCG: 83.6"]


def test_the_extreme_row_is_read_from_the_column_the_question_names():
    assert extreme_row(TABLE_ROWS, "Which baseline obtains the highest MAP?") == (2, "Table 1, SGC (2019a), MAP: 91.6")
    assert extreme_row(TABLE_ROWS, "Which model has the lowest F1?") == (1, "Table 1, Random, F1: 4.8")
    assert extreme_row(TABLE_ROWS, "Which model has the highest recall?") is None  # no such column
    assert extreme_row(TABLE_ROWS, "What MAP does SGC reach?") is None  # no extreme asked for
    assert extreme_row(TABLE_ROWS[:2], "Which model has the highest F1?") is None  # one row compares nothing
    assert extreme_row(TABLE_ROWS, "What is the highest MAP of SPECTER?") is None  # a row it names is asked for


def test_a_question_about_the_baselines_leaves_out_the_papers_own_row():
    rows = [*TABLE_ROWS, "Table 1 | Model: SPECTER (Ours) | F1: 82.0 | MAP: 92.4 | nDCG: 88.3"]
    assert extreme_row(rows, "Which baseline obtains the highest MAP?") == (2, "Table 1, SGC (2019a), MAP: 91.6")
    assert extreme_row(rows, "Which model obtains the highest MAP?") == (4, "Table 1, SPECTER (Ours), MAP: 92.4")


def test_the_row_with_the_extreme_value_answers_and_leads_with_its_cell():
    table = chunk("t", "\n\n".join(TABLE_ROWS), kind="table")
    prose = chunk("p", "We report MAP and nDCG for every baseline on the suite, where SPECTER is the best model.")
    question = "Which baseline obtains the highest MAP on the suite in Table 1?"
    text, _ = compose(score_units(question, [table, prose]))
    assert text.startswith("Table 1, SGC (2019a), MAP: 91.6")


@pytest.mark.parametrize("text, sizes", [
    ("We ran experiments on the UCF crowd dataset, the TRANCOS traffic dataset, splits of the UCSD data, "
     "and the WorldExpo dataset.", {4}),  # serial comma
    ("The models were trained on A, B and C.", {3}),
    ("Active compounds (C5, D12, D14 and D15) inhibited three cell lines (SGC7901, MGC803, and BGC823).", {3, 4}),
    ("Precision and recall.", {2}),
    ("In this work, we studied the four different splits of the data as used in [18].", set()),
    ("First, we split the data into groups, as [20] did.", set()),
    ("Given a span (or with heuristics), we link it.", set()),
    ("The corpus has 1,234,567 questions and answers.", {2}),  # thousands separators are no list commas
    ("We report results for 2019, 2020, and 2021.", {3}),
    ("Bacteria adapt to depth, either at the population level (7) or at the community level (12).", {2}),  # either/or
])
def test_enumerations_count_the_items_of_lists_that_end_a_clause(text, sizes):
    assert enumerations(text) == sizes


def test_a_list_question_counting_its_items_takes_the_sentence_naming_as_many():
    """'Which four datasets' is answered by the sentence listing four of them, not by the one that says 'four'."""
    question = "Which four counting datasets are the experiments run on?"
    chunks = [chunk("c1", "The experiments are run on the four different splits of the UCSD data as used in "
                          "[18] and the split of the UCSD data as used in [28]."),
              chunk("c2", "We have performed experiments on the UCF crowd counting dataset, the TRANCOS traffic "
                          "dataset, multiple splits of the UCSD crowd counting dataset, and the WorldExpo dataset.")]
    answer, units = compose(score_units(question, chunks))
    assert units[0].chunk["id"] == "c2" and answer.startswith("We have performed experiments on the UCF")


def test_a_section_number_in_a_list_question_is_no_count(monkeypatch):
    """'Which datasets are compared in Section 3' asks for no three things: a sentence listing four datasets gets
    the bonus of a list, as it would without the section's number."""
    import kg.qa.answer as answer

    question = "Which datasets are compared in Section 3?"
    listing = [chunk("c1", "The datasets differ in size and in domain."),
               chunk("c2", "The datasets compared are SQuAD, NQ, TriviaQA and HotpotQA.")]
    with_bonus = {u.chunk["id"]: u.score for u in score_units(question, listing)}
    monkeypatch.setattr(answer, "LIST_BONUS", 0.0)
    without = {u.chunk["id"]: u.score for u in score_units(question, listing)}
    assert with_bonus["c2"] == pytest.approx(without["c2"] + 0.15) and with_bonus["c1"] == without["c1"]


def test_a_list_question_takes_a_sentence_listing_three_items_or_more():
    """Without a count, a sentence whose clause ends in a list of three items or more is the list asked for."""
    question = "At which levels of granularity are the case summaries written?"
    chunks = [chunk("c1", "Other datasets give case summaries of a single granularity."),
              chunk("c2", "The summaries come at several levels of granularity: tiny (25 words, on average), short "
                          "(130 words), and long (650 words).")]
    answer, units = compose(score_units(question, chunks))
    assert units[0].chunk["id"] == "c2"


def test_a_row_label_gluing_two_words_of_the_question_matches_both():
    """'TableFormer-large' in the question, 'TABLEFORMERLARGE' in the table (small capitals glued by the text layer):
    the row of the large model answers, not the row of the name alone."""
    question = "What ALL accuracy on SQA does TableFormer-large with intermediate pretraining reach?"
    chunks = [chunk("c1", "Table 1: Accuracy on SQA.\n\nTable 1 | TABLEFORMER inter | ALL: 69.4 | SEQ: 43.5\n\n"
                          "Table 1 | TABLEFORMERLARGE inter | ALL: 72.4 | SEQ: 47.5", kind="table")]
    answer, units = compose(score_units(question, chunks))
    assert units[0].span == "72.4"


def test_a_list_announced_by_a_colon_is_answered_with_its_items():
    listed = chunk("c", "Experiments. We evaluate the reader on the following benchmarks:\n\n"
                        "\u2022 SQuAD, a set of reading comprehension questions on Wikipedia.\n\n"
                        "\u2022 TriviaQA, questions written by trivia enthusiasts.\n\n"
                        "\u2022 Natural Questions, real queries to a search engine.\n\nAll runs use one GPU.")
    other = chunk("o", "The reader is evaluated with exact match on every benchmark.", score=0.5)
    text, _ = compose(score_units("Which benchmarks is the reader evaluated on?", [listed, other]))
    assert text.startswith("We evaluate the reader on the following benchmarks:")
    assert all(name in text for name in ("SQuAD", "TriviaQA", "Natural Questions"))
    assert "GPU" not in text[:text.index("Natural Questions")]

"""Domain tagging (issue 30): hand-written paragraphs of each field rank that field first, with the project's own
embedder and with keywords alone; the matched phrases are the ones in the text; a paper is tagged from its prose
and each section from its own; the venues a bibliography cites settle what the prose leaves close, read as
bibliographies print them; a broken seeds file is a clear error; the bench's table of MANIFEST notes is fixed, and it
scores the corpus papers outside the gold apart from the gold ones."""

from __future__ import annotations

import pytest

from bench.domains import NOT_GOLD, WHOLE_CORPUS, agreement, corpus_groups, expected_domain, manifest_notes
from extractors.domains import MIN_WORDS, VENUE_WEIGHT, Passage, Seeds, SeedsError, Tagger
from kg.embeddings import load_embedder

# Written for this test, in each field's ordinary vocabulary.
PARAGRAPHS = {
    "biomedicine": "Patients admitted to the intensive care unit with sepsis were randomised to early antibiotic "
                   "therapy or usual care. Mortality at 28 days and adverse events were recorded, and the odds "
                   "ratio was adjusted for age and comorbid disease.",
    "physics": "We compute the decay width of the heavy meson in a relativistic quark model whose Hamiltonian "
               "includes a confining potential and one-gluon exchange; the mass spectrum agrees with experiment.",
    "nlp": "We train a dependency parser on the treebank and evaluate the named entity recognizer on news "
           "sentences; annotators labelled every token, and the language model improves F1 on the test corpus.",
    "systems": "The scheduler places jobs on cluster nodes to minimise latency, while the distributed file system "
               "replicates blocks across servers for fault tolerance and high throughput.",
    "cs_ml": "We minimise the regularised loss with stochastic gradient descent and prove a generalization bound "
             "for the kernel classifier; the convex optimization converges in polynomial time.",
}


@pytest.fixture(scope="module")
def embedder():
    found = load_embedder(384)
    assert found is not None, "the test environment installs the static embedder (make .venv/bin/pytest)"
    return found


@pytest.fixture(scope="module")
def tagger(embedder):
    return Tagger(Seeds.load(), embedder.embed)


def passage(text: str, embedder=None, chunk_id: str = "c1", **where) -> Passage:
    return Passage(chunk_id, text, 1, embedder.embed([text])[0] if embedder else None, **where)


@pytest.mark.parametrize("field", PARAGRAPHS)
def test_a_paragraph_of_a_field_ranks_that_field_first(tagger, embedder, field):
    scores = tagger.score([passage(PARAGRAPHS[field], embedder)])
    assert scores[0].domain.id == field, [(s.domain.id, s.score) for s in scores]
    assert scores[0].score > scores[1].score
    assert all(0.0 <= s.score <= 1.0 for s in scores)
    assert scores[0].similarity is not None


@pytest.mark.parametrize("field", PARAGRAPHS)
def test_keywords_alone_rank_the_field_first(field):
    scores = Tagger(Seeds.load()).score([passage(PARAGRAPHS[field])])
    assert scores[0].domain.id == field
    assert scores[0].similarity is None


def test_a_term_of_several_words_outweighs_a_single_word_found_as_often():
    seeds = Seeds.parse("generic: {name: Generic, phrases: [algorithm]}\n"
                        "networks: {name: Networks, phrases: [complex network]}\n")
    scores = Tagger(seeds).score([passage("The algorithm finds hubs of a complex network.")])
    assert [s.domain.id for s in scores] == ["networks", "generic"]
    assert scores[0].score == pytest.approx(2 / 3, abs=1e-4) and scores[1].score == pytest.approx(1 / 3, abs=1e-4)


def test_the_matched_phrases_are_the_seed_phrases_in_the_text(tagger, embedder):
    text = "A meta analysis of randomized controlled trials: the patients' outcomes by drug dose."
    biomedicine = next(s for s in tagger.score([passage(text, embedder, chunk_id="chunk_7")])
                       if s.domain.id == "biomedicine")
    # "meta analysis" is the phrase "meta-analysis"; plurals count as their phrase
    assert set(biomedicine.matched) == {"meta-analysis", "randomized controlled trial", "patient", "drug", "dose"}
    assert biomedicine.keyword_hits == 5
    assert biomedicine.chunk_ids == ("chunk_7",)
    assert biomedicine.pages == (1,)


def test_without_any_seed_phrase_only_meaning_speaks_at_half_weight(tagger, embedder):
    scores = tagger.score([passage("Zebras graze quietly at dusk.", embedder)])
    assert all(s.keyword_hits == 0 and s.matched == () for s in scores)
    assert sum(s.score for s in scores) == pytest.approx(0.5, abs=0.01)


def test_a_paper_is_tagged_from_its_prose_and_each_long_section_from_its_own(tagger, embedder):
    bio = " ".join([PARAGRAPHS["biomedicine"]] * 2)
    phys = " ".join([PARAGRAPHS["physics"]] * 2)
    passages = [passage(bio, embedder, "c1", section_id="s1"), passage(bio, embedder, "c2", section_id="s1"),
                passage(phys, embedder, "c3", section_id="s2"),
                passage("Dose.", embedder, "c4", section_id="s3"),  # too short to tell
                passage(" ".join([PARAGRAPHS["systems"]] * 6), embedder, "c5", section_id="s4",
                        core_kind="reference")]  # a bibliography says nothing of the paper's field
    assert len("Dose.".split()) < MIN_WORDS
    tags = tagger.tag_paper(passages)
    paper = [t.score for t in tags if t.section_id is None]
    assert paper[0].domain.id == "biomedicine"
    assert "systems" not in {s.domain.id for s in paper}
    assert set(paper[0].chunk_ids) == {"c1", "c2", "c4"}  # "Dose." is prose of the paper, too short for a section
    best = {t.section_id: t.score.domain.id for t in reversed(tags) if t.section_id}
    assert best == {"s1": "biomedicine", "s2": "physics"}


VENUE_SEEDS = Seeds.parse(
    "nlp: {name: NLP, phrases: [parsing], venues: [ACL, Computational Linguistics, Empirical Methods in Natural "
    "Language Processing]}\n"
    "cs_ml: {name: ML, phrases: [classifier], venues: [NeurIPS, ICML]}\n"
    "biomedicine: {name: Biomedicine, phrases: [patient], venues: [Cell, Mol Cell, J Biol Chem]}\n"
    "physics: {name: Physics, phrases: [quark], venues: [Phys Rev, Phys Rev Lett, hep-th]}\n")


def cited(bibliography: str) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Each domain's (venue hits, venues cited) for a bibliography of one chunk."""
    scores = Tagger(VENUE_SEEDS).score([passage("Nothing of any field.")], [passage(bibliography, chunk_id="r1")])
    return {s.domain.id: (s.venue_hits, s.venues) for s in scores}


@pytest.mark.parametrize("bibliography, domain, expected", [
    # the stops of an abbreviation, or none, or no space after them
    ("Smith J. J. Biol. Chem. 279:1-9. Doe A. J Biol Chem 12. Roe B. J.Biol.Chem. 3.", "biomedicine",
     (3, ("J Biol Chem",))),
    # a longer name is read whole: 'Phys. Rev. Lett.' is not also 'Phys. Rev.'
    ("Phys. Rev. Lett. 81, 1 (1998); Phys. Rev. D 57, 2 (1998); arXiv:hep-th/9711200; Phys.Rev.D 58, 3.",
     "physics", (4, ("Phys Rev", "Phys Rev Lett", "hep-th"))),
    # a name of several words in any case; one word only in its own case and not inside another word
    ("In Proceedings of ACL 2004. COMPUTATIONAL LINGUISTICS 30(1). The acl of the knee. ACLs. "
     "Proc. of ACL-IJCNLP.", "nlp", (3, ("ACL", "Computational Linguistics"))),
    # a word names its journal before a volume or year, not as a title's word; 'Mol. Cell' is not also 'Cell'
    ("Cell 12:3. A cell line was grown. Deep Learning for Cell Segmentation. Mol. Cell 7, 2. Neuron Cell, 2004.",
     "biomedicine", (3, ("Cell", "Mol Cell"))),
])
def test_venues_are_read_as_bibliographies_print_them(bibliography, domain, expected):
    assert cited(bibliography)[domain] == expected


def test_a_bibliography_settles_a_paper_whose_prose_two_fields_share(embedder):
    tagger = Tagger(Seeds.load(), embedder.embed)
    prose = [passage(PARAGRAPHS["nlp"] + " " + PARAGRAPHS["cs_ml"], embedder, "c1")]
    language = [passage("Smith. 2004. In Proceedings of ACL, pages 1-8. Doe. 2010. In EMNLP. Roe. 2012. "
                        "Computational Linguistics 38(2).", chunk_id="r1", core_kind="reference")]
    learning = [passage("Smith. 2004. In NeurIPS, pages 1-8. Doe. 2010. In ICML. Roe. 2012. Journal of Machine "
                        "Learning Research 13.", chunk_id="r1", core_kind="reference")]
    by_language = [t.score for t in tagger.tag_paper([*prose, *language]) if t.section_id is None]
    by_learning = [t.score for t in tagger.tag_paper([*prose, *learning]) if t.section_id is None]
    assert by_language[0].domain.id == "nlp" and by_learning[0].domain.id == "cs_ml"
    assert by_language[0].venues == ("ACL", "EMNLP", "Computational Linguistics") and by_language[0].venue_hits == 3
    assert by_language[0].chunk_ids[-1] == "r1"  # the bibliography's chunk is evidence too, after the prose's


def test_every_venue_cited_leads_to_a_chunk_that_names_it():
    bibliography = [passage("Phys. Rev. 1, 2. Phys. Rev. 3, 4.", chunk_id="r1"),
                    passage("Phys. Rev. 5, 6. hep-th/9901001.", chunk_id="r2"),
                    passage("Phys. Rev. Lett. 7, 8.", chunk_id="r3"),
                    passage("Phys. Rev. 9, 10. hep-th/9901002.", chunk_id="r4")]
    physics = next(s for s in Tagger(VENUE_SEEDS).score([passage("Nothing of any field.")], bibliography)
                   if s.domain.id == "physics")
    assert physics.venues == ("Phys Rev", "hep-th", "Phys Rev Lett") and physics.venue_hits == 7
    # the chunk naming each venue most often, unless one taken already names it
    assert physics.chunk_ids == ("r1", "r2", "r3")


def test_venues_weigh_less_than_the_prose(embedder):
    """A paper's bibliography names its neighbours' venues too: they cannot outvote prose of one field."""
    tagger = Tagger(Seeds.load(), embedder.embed)
    prose = [passage(PARAGRAPHS["biomedicine"], embedder, "c1")]
    other = [passage("In NeurIPS. In ICML. In ICLR. In CVPR. In KDD. In AAAI.", chunk_id="r1", core_kind="reference")]
    scores = tagger.score(prose, other)
    assert scores[0].domain.id == "biomedicine"
    assert scores[1].domain.id == "cs_ml" and scores[1].venue_hits == 6
    # meaning and words weigh 1 each, venues VENUE_WEIGHT: a share of all the venues cited adds at most a fifth
    alone = {s.domain.id: s.score for s in tagger.score(prose)}
    assert scores[1].score == pytest.approx((2 * alone["cs_ml"] + VENUE_WEIGHT) / (2 + VENUE_WEIGHT), abs=0.001)
    assert scores[0].score == pytest.approx(2 * alone["biomedicine"] / (2 + VENUE_WEIGHT), abs=0.001)


def test_sections_are_tagged_from_their_prose_only(tagger, embedder):
    bio = " ".join([PARAGRAPHS["biomedicine"]] * 2)
    tags = tagger.tag_paper([passage(bio, embedder, "c1", section_id="s1"),
                             passage("Cell 1:2. J Biol Chem 3.", chunk_id="r1", section_id="s9",
                                     core_kind="reference")])
    assert [t.score.venue_hits for t in tags if t.section_id is None][0] == 2
    assert all(t.score.venue_hits == 0 for t in tags if t.section_id)
    assert "s9" not in {t.section_id for t in tags}


def test_a_paper_without_text_has_no_domain(tagger):
    assert tagger.tag_paper([]) == []


@pytest.mark.parametrize("text, problem", [
    ("a: [unclosed", "not YAML"),
    ("- just\n- a list\n", "mapping"),
    ("Bad-Id:\n  name: X\n  phrases: [a]\n", "'Bad-Id'"),
    ("nlp:\n  phrases: [a]\n", "'nlp' needs a name"),
    ("nlp:\n  name: NLP\n  phrases: []\n", "'nlp' needs a list"),
    ("nlp:\n  name: NLP\n  phrases: [parsing, 3]\n", "'nlp' needs a list"),
    ("nlp:\n  name: NLP\n  phrases: [parsing]\n  venues: ACL\n", "'nlp': venues must be a list"),
    ("nlp:\n  name: NLP\n  phrases: [parsing]\n  venues: [ACL, '']\n", "'nlp': venues must be a list"),
])
def test_a_broken_seeds_file_is_a_clear_error(text, problem):
    with pytest.raises(SeedsError, match=problem):
        Seeds.parse(text, "my.yaml")


def test_seeds_load_from_a_file_and_their_digest_follows_the_text(tmp_path):
    path = tmp_path / "seeds.yaml"
    path.write_text("robots:\n  name: Robotics\n  phrases: [robot arm, 'grasping']\n")
    first = Seeds.load(path)
    assert [(d.id, d.node_id, d.name, d.phrases) for d in first.domains] == [
        ("robots", "domain_robots", "Robotics", ("robot arm", "grasping"))]
    path.write_text("robots:\n  name: Robotics\n  phrases: [robot arm]\n")
    assert Seeds.load(path).digest != first.digest
    with pytest.raises(SeedsError, match="cannot read"):
        Seeds.load(tmp_path / "missing.yaml")


def test_the_shipped_seeds_define_the_five_fields():
    assert [d.id for d in Seeds.load().domains] == ["cs_ml", "nlp", "biomedicine", "physics", "systems"]
    assert all(d.venues for d in Seeds.load().domains)
    assert Seeds.parse("nlp: {name: NLP, phrases: [parsing]}").domains[0].venues == ()  # venues are optional


@pytest.mark.parametrize("note, domain", [
    ("NLP", "nlp"), ("NLP/IE", "nlp"), ("NLP/speech", "nlp"), ("biomed text mining", "biomedicine"),
    ("biomed/psychiatry", "biomedicine"), ("physics/hep-ph", "physics"), ("ML/systems", "cs_ml"), ("CV", "cs_ml"),
    ("CS/scheduling", "systems"), ("CS/software engineering", "systems"), ("CS/algorithms", "cs_ml"),
    ("CS/theory/privacy", "cs_ml"), ("technical report", None), ("", None),
    # bench/unseen's notes: a venue in brackets after the field; CSRankings' "Systems" areas
    ("CS/systems (OSDI 2006)", "systems"), ("CS/programming languages (PLDI 2009)", "systems"),
    ("CS/security/privacy (IEEE TIFS 2016 preprint)", "systems"), ("NLP (ACL 2022, arXiv 2203.00274v2)", "nlp"),
    ("earth science/hydrology (J. Hydrology 2005)", None),
    # a venue with brackets of its own
    ("CS/databases (VLDB 2021, PVLDB 14(3))", "systems"),
    ("CS/networking (Proc. ACM Meas. Anal. Comput. Syst. (SIGMETRICS) 2022)", "systems"),
])
def test_manifest_notes_map_to_domains_by_the_fixed_table(note, domain):
    assert expected_domain(note) == domain


def test_manifest_notes_come_from_the_notes_or_the_domain_column(tmp_path):
    corpus = tmp_path / "corpus.tsv"
    corpus.write_text("file\ttitle\tnotes\na.pdf\tA\tdomain=NLP/IE; layout~2-col\nb.pdf\tB\tlayout~1-col\n")
    unseen = tmp_path / "unseen.tsv"
    unseen.write_text("file\ttitle\tdomain\tlayout\nc.pdf\tC\tdomain=CS/systems (OSDI 2004)\t2-col\n")
    assert manifest_notes(corpus) == {"a": "NLP/IE"}
    assert manifest_notes(unseen) == {"c": "CS/systems (OSDI 2004)"}


def test_agreement_counts_papers_with_an_expected_domain_only():
    result = agreement({"a": "nlp", "b": "physics", "c": None, "d": "nlp"},
                       {"a": "nlp", "b": "biomedicine", "c": "nlp", "d": None})
    assert (result.agree, result.papers) == (1, 3)


def test_the_corpus_groups_are_the_papers_outside_the_gold_and_the_whole_corpus():
    groups = corpus_groups(["gold_b", "gold_a"], ["paper_2", "gold_a", "paper_1", "gold_b", "paper_1"])
    assert groups == {NOT_GOLD: ["paper_1", "paper_2"], WHOLE_CORPUS: ["gold_a", "gold_b", "paper_1", "paper_2"]}
    # a gold paper is in the whole corpus even when the folder listing misses it, never outside the gold
    assert corpus_groups(["gold_a"], ["paper_1"]) == {NOT_GOLD: ["paper_1"], WHOLE_CORPUS: ["gold_a", "paper_1"]}

def test_kg_domains_seeds_prints_the_file_in_effect(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from cli.main import app
    from kg.settings import get_settings

    monkeypatch.delenv("PAPERKG_DOMAIN_SEEDS", raising=False)
    get_settings.cache_clear()
    try:
        shipped = CliRunner().invoke(app, ["domains", "seeds"])
        assert shipped.exit_code == 0 and Seeds.parse(shipped.output).digest == Seeds.load().digest
        own = tmp_path / "own.yaml"
        own.write_text("robots:\n  name: Robotics\n  phrases: [grasping]\n")
        monkeypatch.setenv("PAPERKG_DOMAIN_SEEDS", str(own))
        get_settings.cache_clear()
        assert CliRunner().invoke(app, ["domains", "seeds"]).output == own.read_text()
    finally:
        get_settings.cache_clear()

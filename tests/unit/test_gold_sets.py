"""The fixed dev/held-out rule and the families read from a corpus MANIFEST."""

from __future__ import annotations

from bench.gold_sets import DEV, HELD_OUT, families, groups, leave_one_out, per_group, report_groups, split_of

MANIFEST = (
    "file\tsource_repo\tnotes\n"
    "a.pdf\tx\tdomain=NLP/IE; layout~2-col; ACL 2018\n"
    "b.pdf\tx\tdomain=physics/hep-ph; layout~1-col; preprint\n"
    "c.pdf\tx\tdomain=biomed/medicine; layout~2-col\n"
    "paper1.pdf\tx\tdomain=agriculture; layout~3-col\n"
    "paper2.pdf\tx\tno notes here\n"
)


def test_the_split_is_the_parity_of_the_names_sha256():
    # SHA-256 hex digests end in: a -> ...bb, b -> ...9d, c -> ...c6, paper1 -> ...4c, paper2 -> ...dc (odd: held out)
    assert [split_of(s) for s in ("a", "b", "c", "paper1", "paper2")] == [HELD_OUT, HELD_OUT, DEV, DEV, DEV]


def test_the_split_is_roughly_even_over_many_names():
    dev = sum(split_of(f"paper-{n}") == DEV for n in range(2000))
    assert 900 < dev < 1100


def test_families_coarsen_domains_and_keep_layouts(tmp_path):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text(MANIFEST)
    found = families(manifest)
    assert (found["a"].domain, found["a"].layout) == ("ML/NLP/CV", "2-col")
    assert (found["b"].domain, found["b"].layout) == ("physics", "1-col")
    assert found["c"].domain == "biomedical"
    assert (found["paper1"].domain, found["paper1"].layout) == ("other", "3-col")
    assert (found["paper2"].domain, found["paper2"].layout) == ("domain unknown", "layout unknown")
    assert families(tmp_path / "missing.tsv") == {}


def test_families_come_from_the_domain_and_layout_columns_of_the_unseen_manifest(tmp_path):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text("file\ttitle\tdomain\tlayout\nu.pdf\tU\tdomain=CS/systems (OSDI 2006)\t2-col\n"
                        "v.pdf\tV\tdomain=physics/cosmology (JCAP 2008)\t1-col\nw.pdf\tW\t\t\n")
    found = families(manifest)
    assert (found["u"].domain, found["u"].layout) == ("CS other", "2-col")
    assert (found["v"].domain, found["v"].layout) == ("physics", "1-col")
    assert (found["w"].domain, found["w"].layout) == ("domain unknown", "layout unknown")


def test_groups_and_leave_one_out(tmp_path):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text(MANIFEST)
    kinds = groups(["a", "b", "c", "z"], manifest)  # z (digest ...06) is not in the manifest
    assert kinds["split"] == {DEV: ["c", "z"], HELD_OUT: ["a", "b"]}
    assert kinds["layout"] == {"2-col": ["a", "c"], "1-col": ["b"], "layout unknown": ["z"]}
    assert kinds["domain"] == {"ML/NLP/CV": ["a"], "physics": ["b"], "biomedical": ["c"], "domain unknown": ["z"]}
    without = leave_one_out(kinds["domain"], ["a", "b", "c", "z"])
    assert without["without physics"] == ["a", "c", "z"]
    assert leave_one_out({"physics": ["b"]}, ["b"]) == {}
    reported = report_groups(["a", "b", "c"], manifest)
    assert list(reported) == [DEV, HELD_OUT, "2-col", "1-col", "ML/NLP/CV", "physics", "biomedical",
                              "without ML/NLP/CV", "without physics", "without biomedical"]
    assert reported["without physics"] == ["a", "c"] and reported[HELD_OUT] == ["a", "b"]
    with_unknown = report_groups(["a", "z"], manifest)  # both of z's families unknown: two rows, neither lost
    assert with_unknown["layout unknown"] == with_unknown["domain unknown"] == ["z"]
    assert per_group({"a": 1, "c": 3}, {"2-col": ["a", "c"], "1-col": ["b"]}, sum) == {"2-col": 4, "1-col": 0}

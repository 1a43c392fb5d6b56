"""Fetches the Neo4j Community jars (and Neo4j Browser) from Maven Central into a cache outside the repo.

Maven resolves the published `neo4j-community-standalone` POM, so the jar set is exactly what Neo4j
assembles its own distribution from; nothing is downloaded by hand.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path

from kg.errors import ArtifactError

_VERSION = re.compile(r"^\d+\.\d+\.\d+$")
_MARKER = ".complete"


def lib_dir(cache_dir: Path, neo4j_version: str, browser_version: str) -> Path:
    return cache_dir / f"neo4j-{neo4j_version}-browser-{browser_version}" / "lib"


def is_installed(lib: Path) -> bool:
    return (lib / _MARKER).exists()


def install(cache_dir: Path, neo4j_version: str, browser_version: str, *,
            maven_settings: Path | None = None, quiet: bool = True) -> Path:
    """Resolve the jars with Maven unless the cache already has them; returns the lib folder."""
    for name, version in (("Neo4j", neo4j_version), ("Neo4j Browser", browser_version)):
        if not _VERSION.match(version):
            raise ArtifactError(f"{name} version {version!r} is not of the form X.Y.Z")
    lib = lib_dir(cache_dir, neo4j_version, browser_version)
    if is_installed(lib):
        return lib
    mvn = shutil.which("mvn")
    if mvn is None:
        raise ArtifactError(
            "Maven (mvn) is not installed; it is needed once to fetch the Neo4j jars from Maven Central",
            hint="install it (Debian: apt-get install maven) and run `kg db install` again",
        )
    pom = resources.files("kg.db.localserver").joinpath("pom.xml").read_text()
    pom = pom.replace("@NEO4J_VERSION@", neo4j_version).replace("@BROWSER_VERSION@", browser_version)
    lib.parent.mkdir(parents=True, exist_ok=True)
    partial = lib.with_name("lib.partial")
    shutil.rmtree(partial, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="paperkg-mvn-") as work:
        (Path(work) / "pom.xml").write_text(pom)
        cmd = [mvn, "-B", "dependency:copy-dependencies", f"-DoutputDirectory={partial}",
               "-DincludeScope=runtime", "-DexcludeTypes=pom"]
        if quiet:
            cmd.insert(2, "-q")
        if maven_settings is not None:
            cmd[2:2] = ["-s", str(maven_settings)]
        proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise ArtifactError(
            f"Maven could not fetch Neo4j {neo4j_version} (exit status {proc.returncode})",
            hint="check that Maven Central is reachable (proxy settings in ~/.m2/settings.xml) and retry",
            details=tail,
        )
    jars = list(partial.glob("*.jar"))
    if not any(j.name.startswith("neo4j-server-") for j in jars):
        raise ArtifactError(f"Maven finished but no neo4j-server jar arrived in {partial}")
    (partial / _MARKER).write_text(f"neo4j {neo4j_version}\nbrowser {browser_version}\njars {len(jars)}\n")
    shutil.rmtree(lib, ignore_errors=True)
    partial.rename(lib)
    return lib

"""Finds a Java runtime that Neo4j 5.26 supports (17 or 21) and says clearly when there is none."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from kg.errors import JavaError

SUPPORTED_MAJORS = (17, 21)
# Lucene 9.11, Neo4j 5.26's index library, scores vectors with SIMD on these Java versions only, and only where the JVM
# reads jdk.incubator.vector; elsewhere the HNSW insertion of chunk vectors at commit runs on scalar dot products.
LUCENE_SIMD_MAJORS = range(20, 23)
_VERSION_LINE = re.compile(r'version "(\d+)(?:\.(\d+))?')


def find_java(java_home: Path | None = None) -> Path:
    """The java executable: PAPERKG_JAVA_HOME, else JAVA_HOME, else the one on PATH."""
    for home in (java_home, os.environ.get("JAVA_HOME")):
        if home:
            candidate = Path(home) / "bin" / "java"
            if candidate.exists():
                return candidate
            raise JavaError(f"no java executable at {candidate}", hint="fix PAPERKG_JAVA_HOME / JAVA_HOME")
    on_path = shutil.which("java")
    if on_path is None:
        raise JavaError(
            "Java is not installed; Neo4j 5.26 needs Java 17 or 21",
            hint="install it (Debian: apt-get install openjdk-17-jre-headless) or set PAPERKG_JAVA_HOME",
        )
    return Path(on_path)


def java_major(java: Path) -> int:
    try:
        proc = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        raise JavaError(f"cannot run {java}: {exc}") from exc
    match = _VERSION_LINE.search(proc.stderr + proc.stdout)
    if match is None:
        raise JavaError(f"cannot read the Java version from `{java} -version`", details=proc.stderr[-500:])
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 else major  # "1.8.0" means Java 8


@dataclass(frozen=True)
class JavaRuntime:
    executable: Path
    major: int


def checked_java(java_home: Path | None = None) -> JavaRuntime:
    java = find_java(java_home)
    major = java_major(java)
    if major not in SUPPORTED_MAJORS:
        raise JavaError(
            f"{java} is Java {major}; Neo4j 5.26 runs on Java 17 or 21 only",
            hint="point PAPERKG_JAVA_HOME at a Java 17 or 21 installation",
        )
    return JavaRuntime(java, major)

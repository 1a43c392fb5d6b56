"""No file of the project keeps a merge's conflict markers: a Markdown page or a TSV would still load and read as
if nothing were wrong, with both sides of the conflict in it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / n for n in names if n.endswith((".md", ".py", ".tsv", ".yaml", ".toml", ".ttl", ".txt"))]


def test_no_tracked_file_has_conflict_markers():
    marked = [str(p.relative_to(ROOT)) for p in tracked_text_files()
              if p.exists() and MARKER.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert not marked


def test_the_marker_pattern_finds_a_conflict():
    assert MARKER.search("text\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n")
    assert not MARKER.search("a table rule\n|---|---|\n== not a marker ==\n")

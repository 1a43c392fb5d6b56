"""docs/user-guide.md, run as a new user would: every bash block in order in one shell, against a fresh local
Neo4j started by the guide's own `kg db start` and the API started by its own `kg serve &`; every cypher block
against the sample graph through the driver.

A block is skipped only when the paragraph right above it starts with "*Not run by the docs test", which
says why in the guide itself. The environment differs from a user's only where it must: a throw-away data
directory and free ports (the guide's 127.0.0.1:8000 becomes the test's API port).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kg.export.markdown import md
from tests.conftest import ROOT
from tests.neo4j_harness import free_port

GUIDE = ROOT.parent / "docs" / "user-guide.md"
SKIP_NOTE = "*Not run by the docs test"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
# `cypher` blocks run through the driver inside the guide's shell, between the bash blocks around them.
_CYPHER = """
import sys
from kg.db import store
from kg.settings import get_settings

settings = get_settings()
with store.connect(settings) as driver:
    records = driver.execute_query(sys.argv[1], database_=settings.neo4j_database).records
if not records:
    sys.exit("the query returned no rows")
print(f"{len(records)} rows; first: {dict(records[0])}")
"""
_PREAMBLE = """set -euo pipefail
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
wait_for_api() {
    for _ in $(seq 1 180); do curl -fsS "http://127.0.0.1:$PAPERKG_API_PORT/health" >/dev/null 2>&1 && return 0; sleep 1; done
    echo "the API did not answer /health within 180 s" >&2; return 1
}
"""


def guide_blocks(text: str) -> list[tuple[str, str, bool]]:
    """(language, code, skipped) for every fenced block, in order."""
    blocks = []
    for match in _FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").split("\n\n")[-1]
        blocks.append((match.group(1), match.group(2), before.startswith(SKIP_NOTE)))
    return blocks


def guide_script(text: str, api_port: int) -> str:
    """The guide's runnable blocks as one bash script; a backgrounded command is followed by a wait for the API."""
    parts = [_PREAMBLE]
    for number, (language, code, skipped) in enumerate(guide_blocks(text), 1):
        if skipped:
            continue
        parts.append(f"echo '### block {number}' >&2")
        if language == "bash":
            code = code.replace("127.0.0.1:8000", f"127.0.0.1:{api_port}")
            parts += [code, *(["wait_for_api"] if code.rstrip().endswith("&") else [])]
        elif language == "cypher":
            parts.append(f"python3 -c {_quote(_CYPHER)} {_quote(code)}")
    return "\n".join(parts) + "\n"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def test_every_block_runs_or_says_why_not():
    blocks = guide_blocks(GUIDE.read_text())
    assert {language for language, _, _ in blocks} == {"bash", "cypher"}
    skipped = [code.split("\n")[0] for _, code, skip in blocks if skip]
    assert skipped == ["git clone <address of your paperkg repository> paperkg", "make run", "kg ingest ~/papers/",
                       "kg ingest --bulk ~/papers/"]
    commands = [line for language, code, _ in blocks if language == "bash" for line in code.splitlines()]
    assert all("-fsS" in line for line in commands if line.startswith("curl") or "$(curl" in line)


@pytest.fixture
def user_env(tmp_path):
    """A user's environment with its own data directory and ports, and this Python's `kg` first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERKG_")}
    env.update(PAPERKG_DATA_DIR=str(tmp_path / "data"), PAPERKG_BOLT_PORT=str(free_port()),
               PAPERKG_HTTP_PORT=str(free_port()), PAPERKG_API_PORT=str(free_port()),
               PAPERKG_NEO4J_HEAP="512m", PAPERKG_NEO4J_PAGECACHE="128m",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    home = tmp_path / "paperkg"
    home.mkdir()
    (home / "samples").symlink_to(ROOT.parent / "samples")
    yield env, home
    subprocess.run(["kg", "db", "stop"], env=env, cwd=home, capture_output=True, timeout=120)


def test_user_guide_runs(user_env):
    env, home = user_env
    script = guide_script(GUIDE.read_text(), int(env["PAPERKG_API_PORT"]))
    (home / "guide.sh").write_text(script)
    proc = subprocess.Popen(["bash", "guide.sh"], cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=1800)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
    (home / "guide.log").write_text(output)
    assert proc.returncode == 0, f"the guide failed (log in {home / 'guide.log'}):\n{output[-4000:]}"

    graph = json.loads((home / "graph.json").read_text())
    imported = re.search(r"Imported (\d+) nodes and (\d+) edges", output)
    assert imported and (int(imported[1]), int(imported[2])) == (len(graph["nodes"]), len(graph["edges"]))
    paper = next(n for n in graph["nodes"] if n["label"] == "Paper" and "Routing" in n["properties"]["title"])
    assert paper["properties"]["verification_status"] == "verified"  # by the guide's curation step
    notes = (home / "notes.md").read_text()
    assert notes.startswith(f"# {md(paper['properties']['title'])}\n") and notes.count("\n# ") == 0
    assert notes.split("\n")[2].endswith(" · ✓ verified")  # the paper's line, after the guide's curation step
    assert (home / "mindmap.mmd").read_text().startswith("mindmap\n")
    assert (home / "flow.mmd").read_text().startswith("flowchart LR\n")
    assert (home / "graph.html").read_text() == (home / "graph-api.html").read_text()
    assert (home / "papers.bib").read_text().count("@misc{") == 3  # samples/: two generated papers and a real one
    assert (home / "results.csv").read_text().startswith("paper_id,result_id,method,dataset,metric,value")
    assert (home / "graph.graphml").read_text().startswith("<?xml")
    assert "@prefix prov:" in (home / "graph.ttl").read_text()
    assert (home / "paperkg.grass").read_text().startswith("node {\n")  # no text before the first selector

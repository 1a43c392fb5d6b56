"""Every `kg` command starts by importing cli.main, so what that imports is paid by `kg db status` and `kg ask`
alike: MuPDF and spaCy (most of the start-up) are imported by the commands that parse or extract only, Dask by
`--executor dask` only."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_cli_imports_neither_mupdf_nor_spacy_until_a_command_needs_them():
    probe = ("import json, sys; import cli.main; "
             "print(json.dumps(sorted(m for m in ('pymupdf', 'spacy', 'thinc', 'dask', 'distributed') if m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []

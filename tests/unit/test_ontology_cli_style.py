"""`kg ontology show|style` and the GraSS file generated from the ontology."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from cli.main import app
from ontology.loader import ONTOLOGY_DIR, get_schema
from ontology.style import grass


def test_committed_grass_file_is_the_generated_one():
    assert (ONTOLOGY_DIR / "paperkg.grass").read_text() == grass(get_schema())


def test_the_sheet_is_blocks_only():
    """Neo4j Browser reads any text before a block (a comment too) into that block's selector."""
    block = r"(?:node|relationship)(?:\.\w+)? \{\n(?:  [\w-]+: [^;\n]+;\n)+\}\n"
    assert re.fullmatch(f"{block}(?:\n{block})*", grass(get_schema()))


def test_one_colour_and_caption_per_label():
    blocks = dict(re.findall(r"node\.(\w+) \{\n(.*?)\n\}", grass(get_schema()), re.S))
    assert set(blocks) == set(get_schema().labels)
    assert 'caption: "{title}"' in blocks["Paper"] and "color: #4C8EDA" in blocks["Paper"]
    assert 'caption: "{name}"' in blocks["Method"]
    colours = {re.search(r"  color: (#\w+)", b).group(1) for b in blocks.values()}
    assert len(colours) == len(blocks)


def test_style_command_prints_the_style():
    result = CliRunner().invoke(app, ["ontology", "style"])
    assert result.exit_code == 0 and result.stdout == grass(get_schema())


def test_show_lists_classes_patterns_and_properties():
    result = CliRunner().invoke(app, ["ontology", "show"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for label in get_schema().labels:
        assert any(line.startswith(f"│ {label} ") for line in lines), label
    assert any(re.search(r"│ Experiment\s+│ USES\s+│ Method\s+│ pkg:uses", line) for line in lines)
    assert any(re.search(r"│ verification_status\s+│ pkg:verificationStatus\s+│ string", line) for line in lines)
    assert f"paperkg ontology {get_schema().version}" in result.stdout

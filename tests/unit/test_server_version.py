"""The ingest refuses a Neo4j older than the writer's Cypher (dynamic relationship types, 5.26) before it parses."""

from __future__ import annotations

import pytest

from kg.errors import ServerError
from kg.db.store import require_supported


@pytest.mark.parametrize("version", ["5.26.0", "5.26.30", "5.27-aura", "2025.01.0", "2026.10.1"])
def test_5_26_and_later_are_accepted(version):
    require_supported(version)


@pytest.mark.parametrize("version", ["5.25.1", "5.13.0", "4.4.30"])
def test_older_servers_are_refused_with_what_to_run_instead(version):
    with pytest.raises(ServerError) as refused:
        require_supported(version)
    assert version in refused.value.message and "kg db start" in refused.value.hint

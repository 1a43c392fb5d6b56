"""What every operation may answer, whatever its handler: a refusal before routing must be in the OpenAPI too, or
clients and fuzzers see an undocumented status."""

from __future__ import annotations

import pytest

from api.app import create_app
from kg.settings import Settings

pytestmark = pytest.mark.unit


def test_every_operation_documents_the_414():
    """Any URL may be too long (api.params.UrlLengthLimit), so every operation may answer 414. Undocumented, it was
    a schema violation that `kg bench robustness`'s fuzzing found (DELETE /curation/edges/{id} with a long reason)."""
    paths = create_app(Settings()).openapi()["paths"]
    operations = {f"{method.upper()} {path}": op["responses"] for path, methods in paths.items()
                  for method, op in methods.items()}
    assert operations and [name for name, responses in operations.items() if "414" not in responses] == []

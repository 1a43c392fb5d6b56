"""The key requirements the OpenAPI document (and so /docs) shows per operation, against what each route declares:
an operation behind a role check needs a key, a read whose key is optional under the app's settings lists the
empty requirement `{}` beside the key schemes, and an operation that never reads a key lists none."""

from __future__ import annotations

import pytest
from fastapi.routing import APIRoute, iter_route_contexts

from api import auth
from api.app import create_app
from kg.settings import Settings
from tests.curation_support import API_KEYS

pytestmark = pytest.mark.unit

KEY = [{"bearer": []}, {"apiKey": []}]  # either header; nothing else will do
KEY_OR_NONE = KEY + [{}]  # either header, or none at all
LOOPBACK = Settings()
EXPOSED = Settings(api_host="0.0.0.0", api_keys=API_KEYS)
READ_KEY = Settings(api_read_key_required=True)


def declared(app) -> dict[str, set]:
    """Each operation's dependencies, as its route and the routers it is included by declare them."""
    def calls(dependant):
        for dependency in dependant.dependencies:
            yield dependency.call
            yield from calls(dependency)

    return {f"{method} {route.path_format}": set(calls(route.dependant)) for route in iter_route_contexts(app.routes)
            if isinstance(route.original_route, APIRoute) and route.include_in_schema for method in route.methods}


def security(app) -> dict[str, list | None]:
    return {f"{method.upper()} {path}": operation.get("security") for path, methods in app.openapi()["paths"].items()
            for method, operation in methods.items()}


def groups(app) -> dict[str, set[str]]:
    """Operations by the access their dependencies declare: a role check (writes, curation, whoami), the raw-read
    check (Cypher), the read check (other reads), or no key check at all."""
    out = {"role": set(), "raw read": set(), "read": set(), "open": set()}
    for name, calls in declared(app).items():
        if any(isinstance(call, auth.RoleCheck) for call in calls):
            out["role"].add(name)
        elif auth.raw_read_access in calls:
            out["raw read"].add(name)
        elif auth.read_access in calls or auth.caller in calls:
            out["read"].add(name)
        else:
            out["open"].add(name)
    return out


def test_the_groups_hold_the_operations_they_are_named_for():
    found = groups(create_app(LOOPBACK))
    assert {"POST /papers", "DELETE /papers/{paper_id}", "PATCH /curation/nodes/{node_id}",
            "GET /curation/whoami"} <= found["role"]
    assert found["raw read"] == {"POST /cypher"}
    assert {"GET /papers", "GET /jobs/{job_id}", "POST /ask", "GET /export/{format}"} <= found["read"]
    assert found["open"] == {"GET /health"}


@pytest.mark.parametrize("settings, raw_read, read", [(LOOPBACK, KEY_OR_NONE, KEY_OR_NONE),
                                                      (EXPOSED, KEY, KEY_OR_NONE),
                                                      (READ_KEY, KEY, KEY)],
                         ids=["loopback", "beyond loopback", "read key required"])
def test_each_operation_shows_the_key_its_dependencies_need(settings, raw_read, read):
    """Beyond loopback Cypher needs a reader key, other reads (a paper's export among them: only the whole graph's
    needs the key) stay open; PAPERKG_API_READ_KEY_REQUIRED closes every read."""
    app = create_app(settings)
    shown = security(app)
    expected = {"role": KEY, "raw read": raw_read, "read": read, "open": None}
    wrong = {name: shown[name] for group, names in groups(app).items() for name in names
             if shown[name] != expected[group]}
    assert wrong == {}
    assert app.openapi()["components"]["securitySchemes"].keys() == {"bearer", "apiKey"}

"""Who is calling: an API key in `Authorization: Bearer <key>` or `X-API-Key`, matched by its hash against the
configured keys. Routers depend on `read_access`, `require("curator")` or `require("admin")`; the identity
returned is the actor curation records, never a name from the request body. The dependencies are `async def`
(they never wait) so FastAPI calls them inline instead of handing each to its thread pool.

Both headers are FastAPI security schemes, so the OpenAPI document declares them and `/docs` can authorise. They
never refuse on their own (`auto_error=False`): whether a key is needed depends on the call and on where the API
listens (kg.auth.access), which the dependencies below decide, and which `document_optional_keys` carries into the
OpenAPI document."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from fastapi import Depends, FastAPI, Request, Security
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, RouteContext, iter_route_contexts
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from kg.auth import access
from kg.auth.apikeys import Identity, configured_keys, identify
from kg.errors import AuthenticationError, PermissionDeniedError
from kg.settings import Settings

_bearer = HTTPBearer(auto_error=False, scheme_name="bearer",
                     description="an API key from `kg curate keygen`, as `Authorization: Bearer <key>`")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, scheme_name="apiKey",
                        description="an API key from `kg curate keygen`, as `X-API-Key: <key>`")
# What a 401 answers in WWW-Authenticate (RFC 9110, 11.6.1): one challenge per way of presenting a key
CHALLENGE = f'Bearer realm="paperkg", ApiKey realm="paperkg", header="{_api_key.model.name}"'


def _keys(request: Request) -> dict[str, Identity]:
    """Read once per app: the keys are configuration, not data."""
    state = request.app.state
    if getattr(state, "api_keys", None) is None:
        state.api_keys = configured_keys(state.settings)
    return state.api_keys


async def caller(request: Request, bearer: HTTPAuthorizationCredentials | None = Security(_bearer),
                 api_key: str | None = Security(_api_key)) -> Identity | None:
    """The identity of the presented key, None without a key; an unknown key is refused, never ignored."""
    key = (bearer.credentials if bearer else api_key or "").strip()
    if not key:
        return None
    identity = identify(_keys(request), key)
    if identity is None:
        raise AuthenticationError("the API key is not valid", hint="ask an admin for a key (`kg curate keygen`)")
    return identity


def check_role(identity: Identity | None, role: str) -> Identity:
    """401 without a key, 403 with a key of too low a role."""
    if identity is None:
        raise AuthenticationError(f"this call needs an API key with the {role} role",
                                  hint="send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`")
    if not identity.allows(role):
        raise PermissionDeniedError(f"{identity.name} has the {identity.role} role; this call needs {role}")
    return identity


@dataclass(frozen=True)
class RoleCheck:
    """A dependency that lets only keys of `role` or higher through; a class, so that the OpenAPI document can
    tell the operations behind it from those whose key is optional."""

    role: str

    async def __call__(self, identity: Identity | None = Depends(caller)) -> Identity:
        return check_role(identity, self.role)


def require(role: str) -> RoleCheck:
    return RoleCheck(role)


def reads_need_key(settings: Settings) -> bool:
    return settings.api_read_key_required


async def read_access(request: Request, identity: Identity | None = Depends(caller)) -> Identity | None:
    """Reads are open unless PAPERKG_API_READ_KEY_REQUIRED; then any valid key may read."""
    if reads_need_key(request.app.state.settings):
        return check_role(identity, "reader")
    return identity


async def raw_read_access(request: Request, identity: Identity | None = Depends(caller)) -> Identity | None:
    """For reads of the raw graph (`/cypher`): open on loopback, a reader key beyond it."""
    return check_raw_read(request.app.state.settings, identity)


def check_raw_read(settings: Settings, identity: Identity | None) -> Identity | None:
    """Arbitrary Cypher and whole-graph exports hand out everything at once, curation ledger included, at a cost
    the caller chooses: beyond loopback only a caller with a reader key may have that."""
    if raw_reads_need_key(settings):
        return check_role(identity, "reader")
    return identity


def raw_reads_need_key(settings: Settings) -> bool:
    return settings.api_read_key_required or access.exposed(settings)


# the dependencies that refuse a caller without a key only under some settings, and under which
_CONDITIONAL: dict[Callable, Callable[[Settings], bool]] = {read_access: reads_need_key,
                                                             raw_read_access: raw_reads_need_key}


def key_optional(route: RouteContext, settings: Settings) -> bool:
    """Whether the operation reads a key (it depends on `caller`) yet answers some calls without one: none of its
    dependencies refuses every caller without a key under `settings`. A check in the handler (a whole export's)
    refuses some calls only, so it leaves the key optional."""
    calls = set(_calls(route.dependant))
    return caller in calls and not any(_needs_key(call, settings) for call in calls)


def _needs_key(call: Callable, settings: Settings) -> bool:
    if isinstance(call, RoleCheck):
        return True
    condition = _CONDITIONAL.get(call)
    return condition is not None and condition(settings)


def _calls(dependant: Dependant) -> Iterator[Callable]:
    for dependency in dependant.dependencies:
        yield dependency.call
        yield from _calls(dependency)


def document_optional_keys(app: FastAPI) -> None:
    """FastAPI lists the key schemes of every operation that reads a key as required, so `/docs` would show a key
    as needed where it is not; an operation whose key is optional gets the empty requirement `{}` beside them
    (OpenAPI: any one of the listed requirements suffices, and `{}` is none at all)."""
    build = app.openapi

    def openapi() -> dict:
        cached = app.openapi_schema
        schema = build()
        if schema is not cached:  # built just now (FastAPI builds it again when routes were added)
            for route in _operations(app):
                if key_optional(route, app.state.settings):
                    for method in route.methods:
                        schema["paths"][route.path_format][method.lower()]["security"].append({})
        return schema

    app.openapi = openapi


def _operations(app: FastAPI) -> Iterator[RouteContext]:
    """The routes the OpenAPI document lists, with what their routers added (dependencies of include_router)."""
    for route in iter_route_contexts(app.routes):
        if isinstance(route.original_route, APIRoute) and route.include_in_schema:
            yield route

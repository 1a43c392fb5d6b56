"""Who is calling: an API key in `Authorization: Bearer <key>` or `X-API-Key`, matched by its hash against the
configured keys. Routers depend on `read_access`, `require("curator")` or `require("admin")`; the identity
returned is the actor curation records, never a name from the request body. The dependencies are `async def`
(they never wait) so FastAPI calls them inline instead of handing each to its thread pool.

Both headers are FastAPI security schemes, so the OpenAPI document declares them and `/docs` can authorise. They
never refuse on their own (`auto_error=False`): whether a key is needed depends on the call and on where the API
listens (kg.access), which the dependencies below decide."""

from __future__ import annotations

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from kg import access
from kg.apikeys import Identity, configured_keys, identify
from kg.errors import AuthenticationError, PermissionDeniedError
from kg.settings import Settings

_bearer = HTTPBearer(auto_error=False, scheme_name="bearer",
                     description="an API key from `kg curate keygen`, as `Authorization: Bearer <key>`")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, scheme_name="apiKey",
                        description="an API key from `kg curate keygen`, as `X-API-Key: <key>`")


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


def require(role: str):
    """A dependency that lets only keys of `role` or higher through."""
    async def dependency(identity: Identity | None = Depends(caller)) -> Identity:
        return check_role(identity, role)
    return dependency


async def read_access(request: Request, identity: Identity | None = Depends(caller)) -> Identity | None:
    """Reads are open unless PAPERKG_API_READ_KEY_REQUIRED; then any valid key may read."""
    if request.app.state.settings.api_read_key_required:
        return check_role(identity, "reader")
    return identity


async def raw_read_access(request: Request, identity: Identity | None = Depends(caller)) -> Identity | None:
    """For reads of the raw graph (`/cypher`): open on loopback, a reader key beyond it."""
    return check_raw_read(request.app.state.settings, identity)


def check_raw_read(settings: Settings, identity: Identity | None) -> Identity | None:
    """Arbitrary Cypher and whole-graph exports hand out everything at once, curation ledger included, at a cost
    the caller chooses: beyond loopback only a caller with a reader key may have that."""
    if settings.api_read_key_required or access.exposed(settings):
        return check_role(identity, "reader")
    return identity

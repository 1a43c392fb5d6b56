"""Who is calling: an API key in `Authorization: Bearer <key>` or `X-API-Key`, matched by its hash against the
configured keys. Routers depend on `read_access`, `require("curator")` or `require("admin")`; the identity
returned is the actor curation records, never a name from the request body. The dependencies are `async def`
(they never wait) so FastAPI calls them inline instead of handing each to its thread pool."""

from __future__ import annotations

from fastapi import Depends, Request

from kg.apikeys import Identity, configured_keys, identify
from kg.errors import AuthenticationError, PermissionDeniedError


def _keys(request: Request) -> dict[str, Identity]:
    """Read once per app: the keys are configuration, not data."""
    state = request.app.state
    if getattr(state, "api_keys", None) is None:
        state.api_keys = configured_keys(state.settings)
    return state.api_keys


async def caller(request: Request) -> Identity | None:
    """The identity of the presented key, None without a key; an unknown key is refused, never ignored."""
    header = request.headers.get("authorization", "")
    key = header[7:].strip() if header.lower().startswith("bearer ") else request.headers.get("x-api-key", "").strip()
    if not key:
        return None
    identity = identify(_keys(request), key)
    if identity is None:
        raise AuthenticationError("the API key is not valid", hint="ask an admin for a key (`kg curate keygen`)")
    return identity


def require(role: str):
    """A dependency that lets only keys of `role` or higher through: 401 without a key, 403 with too low a role."""
    async def dependency(identity: Identity | None = Depends(caller)) -> Identity:
        if identity is None:
            raise AuthenticationError(f"this call needs an API key with the {role} role",
                                      hint="send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`")
        if not identity.allows(role):
            raise PermissionDeniedError(f"{identity.name} has the {identity.role} role; this call needs {role}")
        return identity
    return dependency


async def read_access(request: Request, identity: Identity | None = Depends(caller)) -> Identity | None:
    """Reads are open unless PAPERKG_API_READ_KEY_REQUIRED; then any valid key may read."""
    if request.app.state.settings.api_read_key_required:
        return await require("reader")(identity)
    return identity

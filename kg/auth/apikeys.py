"""API keys with roles, configured as `name:role:sha256` entries: only the hash of a key is ever stored, so a
leaked configuration does not leak keys. Roles are ordered: an admin may do what a curator may, a curator what
a reader may."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from kg.errors import ConfigurationError
from kg.settings import Settings

ROLES = ("reader", "curator", "admin")
_ENTRY = re.compile(r"^(?P<name>[A-Za-z0-9._@-]{1,64}):(?P<role>[a-z]+):(?P<hash>[0-9a-f]{64})$")


@dataclass(frozen=True)
class Identity:
    """Who a request acts as: the key's name is the actor recorded in curation history."""

    name: str
    role: str

    def allows(self, needed: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(needed)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    """A random key (256 bits), shown once by `kg curate keygen`."""
    return "pkg_" + secrets.token_urlsafe(32)


def entry(name: str, role: str, key: str) -> str:
    """The configuration line for a key."""
    line = f"{name}:{role}:{hash_key(key)}"
    parse_entries(line)
    return line


def parse_entries(text: str) -> dict[str, Identity]:
    """sha256 -> identity, from entries separated by commas or newlines ('#' starts a comment line)."""
    keys: dict[str, Identity] = {}
    for raw in re.split(r"[,\n]", text):
        item = raw.strip()
        if not item or item.startswith("#"):
            continue
        match = _ENTRY.match(item)
        if not match or match["role"] not in ROLES:
            raise ConfigurationError(f"API key entry {item[:40]!r} is not name:role:sha256 with a role in "
                                     f"{', '.join(ROLES)}", hint="make entries with `kg curate keygen`")
        keys[match["hash"]] = Identity(match["name"], match["role"])
    return keys


def configured_keys(settings: Settings) -> dict[str, Identity]:
    """The keys of PAPERKG_API_KEYS and of the file PAPERKG_API_KEYS_FILE."""
    text = settings.api_keys
    if settings.api_keys_file:
        try:
            text += "\n" + settings.api_keys_file.read_text()
        except OSError as exc:
            raise ConfigurationError(f"cannot read the API keys file {settings.api_keys_file}: {exc.strerror}") from exc
    return parse_entries(text)


def identify(keys: dict[str, Identity], presented: str) -> Identity | None:
    """The identity of a presented key, compared in constant time."""
    digest = hash_key(presented)
    for known, identity in keys.items():
        if hmac.compare_digest(known, digest):
            return identity
    return None

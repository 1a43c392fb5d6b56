"""Where the API listens decides what a caller without a key may do. On loopback only programs of this machine
reach it, so reads stay open for local use; anything else is a network service, where the raw graph (Cypher, whole
exports) needs a reader key and the API must not start without keys at all, since every write needs one."""

from __future__ import annotations

import ipaddress

from kg.auth.apikeys import configured_keys
from kg.errors import ConfigurationError
from kg.settings import Settings

def is_loopback(host: str) -> bool:
    """True for `localhost` and loopback addresses; a name or a wildcard address (0.0.0.0) is a network bind. An
    IPv4-mapped IPv6 address counts as the IPv4 address it carries, which Python 3.13 does and 3.11 does not."""
    host = host.strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def exposed(settings: Settings) -> bool:
    """Whether the API listens beyond loopback (PAPERKG_API_HOST, which `kg serve --host` sets for its workers)."""
    return not is_loopback(settings.api_host)


def check_can_listen(settings: Settings) -> None:
    """Refuse a network bind without API keys: uploads and curation would be impossible, and an operator who
    forgot the keys should learn it before the port opens rather than from the first refused write."""
    if exposed(settings) and not configured_keys(settings):
        raise ConfigurationError(
            f"the API would listen on {settings.api_host}, beyond loopback, but no API keys are configured",
            hint="make keys with `kg curate keygen` and set PAPERKG_API_KEYS or PAPERKG_API_KEYS_FILE, "
                 "or serve on 127.0.0.1")


def host_allowed(host_header: str, extra_hosts: frozenset[str]) -> bool:
    """Whether a loopback API answers a request with this Host header (port and IPv6 brackets ignored): a page
    that rebinds its own domain name to 127.0.0.1 still sends that name, so only the names of this machine itself
    (and `extra_hosts`, lower case, e.g. the name a local reverse proxy forwards) pass."""
    host = host_header.strip().lower()
    if host.startswith("["):
        if "]" not in host:
            return False
        host = host[1:host.find("]")]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return is_loopback(host) or host in extra_hosts

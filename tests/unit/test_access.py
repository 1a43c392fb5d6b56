"""kg.auth.access: which binds count as loopback, and which Host headers a loopback API answers."""

from __future__ import annotations

import pytest

from kg.auth.access import host_allowed, is_loopback


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("[::1]", True), ("localhost", True),
    ("LocalHost", True), ("0.0.0.0", False), ("::", False), ("192.168.1.5", False), ("papers.example.org", False),
    ("localhost.example.org", False), ("", False),
])
def test_loopback_binds(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("header, allowed", [
    ("localhost", True), ("localhost:8000", True), ("127.0.0.1:8000", True), ("[::1]:8000", True), ("[::1]", True),
    ("lab-proxy:443", True), ("LAB-PROXY", True), ("evil.example", False), ("evil.example:8000", False),
    ("127.0.0.1.nip.io", False), ("localhost.evil.example:8000", False), ("[::1", False), ("", False),
    ("0.0.0.0:8000", False), ("[::ffff:7f00:1]:80", True), ("[::ffff:a00:1]:80", False),
])
def test_host_headers_a_loopback_api_answers(header, allowed):
    assert host_allowed(header, frozenset({"lab-proxy"})) is allowed

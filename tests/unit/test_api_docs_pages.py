"""The /docs and /redoc pages as HTML: everything they load is the API's own (no other host, no inline script),
each file they name is served, and their Content-Security-Policy runs only the API's scripts. The browser test
(tests/integration/test_api_docs_browser.py) shows they render so, offline."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.settings import Settings

pytestmark = pytest.mark.unit


class References(HTMLParser):
    """Every URL the page names (src, href) and the text of its inline scripts."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        self.urls += [values[name] for name in ("src", "href") if values.get(name) is not None]
        self._in_script = tag == "script" and "src" not in values

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_scripts.append(data)

    def handle_endtag(self, tag):
        self._in_script = False


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(Settings()), base_url="http://localhost")  # no lifespan: the pages need no Neo4j


def directives(response) -> dict[str, list[str]]:
    policy = response.headers["content-security-policy"]
    return {name: values for name, *values in (part.split() for part in policy.split(";") if part.strip())}


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_page_loads_only_the_apis_own_files(client, page):
    response = client.get(page)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    found = References()
    found.feed(response.text)
    assert found.inline_scripts == []
    assert not re.search(r"\b[a-z][a-z0-9+.-]*://", response.text, re.IGNORECASE)  # no absolute URL at all
    files = [url for url in found.urls if url != "data:,"]  # the empty favicon: nothing to fetch
    assert files and all(url.startswith("/") and not url.startswith("//") for url in files), files
    for url in files:
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset.headers["content-type"].split(";")[0] in ("text/javascript", "text/css"), url
        if url.endswith("-init.js"):  # ours; the vendored bundles carry links to their makers in their texts
            assert "://" not in asset.text
    assert 'data-openapi="/openapi.json"' in response.text and client.get("/openapi.json").status_code == 200


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_policy_runs_only_the_apis_scripts(client, page):
    policy = directives(client.get(page))
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"]
    assert not any("unsafe" in value for values in policy.values() for value in values)


def test_redoc_styles_are_admitted_by_a_fresh_nonce(client):
    nonces = []
    for _ in range(2):
        response = client.get("/redoc")
        nonce = re.search(r'data-nonce="([^"]+)"', response.text)[1]
        assert f"'nonce-{nonce}'" in directives(response)["style-src"]
        nonces.append(nonce)
    assert nonces[0] != nonces[1]


@pytest.mark.parametrize("name", ["NOTICE.md", "LICENSE.redoc", "..%2Fapidocs.py", "..%2F..%2Fapp.py", "nope.js"])
def test_only_the_pages_files_are_served(client, name):
    response = client.get(f"/docs/assets/{name}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"

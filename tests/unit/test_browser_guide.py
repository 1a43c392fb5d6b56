"""The Neo4j Browser guide agrees with docs/cypher.md, the API serves it and the style sheet to Browser's origin,
the local server's configuration points Browser at both, and the README links to Browser with the guide's first
query. tests/integration/test_browser_guide.py shows it all in a real Browser."""

from __future__ import annotations

import re
import textwrap
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api import browser_guide
from api.app import create_app
from kg.db.localserver import LocalNeo4j
from kg.settings import Settings
from ontology.loader import get_schema
from ontology.style import grass

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "cypher.md").read_text()
NEO4J_BROWSER_ORIGIN = "http://localhost:7474"


def guide_part_blocks() -> list[str]:
    """The code blocks of docs/cypher.md from the guide marker on, as Browser's editor gets them."""
    return [block.strip() for block in re.findall(r"```\w*\n(.*?)```", DOC[DOC.index(browser_guide.MARKER):], re.S)]


def test_the_committed_guide_is_made_from_the_docs():
    assert browser_guide.GUIDE_FILE.read_text() == browser_guide.render(DOC), "run `make browser-guide`"


def test_the_guide_holds_the_documented_queries_in_order_one_slide_per_section():
    guide = browser_guide.GUIDE_FILE.read_text()
    assert browser_guide.queries(guide) == guide_part_blocks()
    headings = re.findall(r"^## (.+)$", DOC[DOC.index(browser_guide.MARKER):], re.M)
    assert [unescape(h) for h in re.findall(r"<slide>\n<h3>(.*?)</h3>", guide)] == headings
    assert headings[0] == "What the papers are about" and "(p:Paper)-[r:PROPOSES|USES" in browser_guide.first_query()
    assert guide.count("<slide>") == guide.count("</slide>") == len(headings) > 20


def test_links_the_guide_cannot_follow_are_left_as_text():
    guide = browser_guide.render(DOC + "\n## Extra\n\nSee [curation](curation.md), [a slide](#x) and "
                                       "[Neo4j](https://neo4j.com/docs/).\n")
    assert "See curation, a slide and <a href=\"https://neo4j.com/docs/\">Neo4j</a>." in guide
    assert re.findall(r'href="([^"]*)"', guide) == ["https://neo4j.com/docs/"]


def test_a_link_opens_browser_with_the_query_in_its_editor():
    query = browser_guide.first_query()
    link = browser_guide.browser_link("http://localhost:7474/browser/", query)
    assert link.startswith("http://localhost:7474/browser/?cmd=edit&arg=")
    assert parse_qs(urlsplit(link).query) == {"cmd": ["edit"], "arg": [query]}
    with pytest.raises(ValueError):
        browser_guide.browser_link("http://localhost:7474/browser/", "RETURN 1 // a & b")


def test_readme_and_api_description_link_to_the_first_query():
    link = browser_guide.browser_link(Settings().browser_url, browser_guide.first_query())
    readme = (ROOT / "README.md").read_text()
    assert f"]({link})" in readme and textwrap.indent(browser_guide.first_query(), "  ") in readme
    assert f"]({link})" in create_app(Settings()).description


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(Settings()), base_url="http://127.0.0.1:8000")  # no lifespan: no Neo4j needed


def test_the_api_serves_the_style_sheet_to_browsers_origin(client):
    response = client.get("/browser/paperkg.grass", headers={"Origin": NEO4J_BROWSER_ORIGIN})
    assert response.status_code == 200 and response.text == grass(get_schema())
    assert response.headers["access-control-allow-origin"] == "*"


def test_the_api_serves_the_guide_after_browsers_preflight(client):
    preflight = client.options("/browser/guide.html", headers={
        "Origin": NEO4J_BROWSER_ORIGIN, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "pragma,cache-control"})
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
    allowed = {h.strip().lower() for h in preflight.headers["access-control-allow-headers"].split(",")}
    assert {"pragma", "cache-control"} <= allowed
    response = client.get("/browser/guide.html", headers={"Origin": NEO4J_BROWSER_ORIGIN, "Pragma": "no-cache"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert response.text == browser_guide.GUIDE_FILE.read_text()
    assert response.headers["access-control-allow-origin"] == "*"
    assert "default-src 'none'" in response.headers["content-security-policy"]


def test_configured_cors_origins_leave_browsers_files_open_and_the_rest_closed():
    client = TestClient(create_app(Settings(cors_origins=["http://app.example"])), base_url="http://127.0.0.1:8000")
    ask = {"Origin": NEO4J_BROWSER_ORIGIN, "Access-Control-Request-Method": "GET",
           "Access-Control-Request-Headers": "pragma,cache-control"}
    guide = client.options("/browser/guide.html", headers=ask)
    assert guide.status_code == 204 and guide.headers["access-control-allow-origin"] == "*"
    assert client.options("/papers", headers=ask).status_code == 400  # Browser's origin is not a configured one
    app = client.options("/papers", headers={**ask, "Origin": "http://app.example",
                                             "Access-Control-Request-Headers": "authorization"})
    assert app.status_code == 200 and app.headers["access-control-allow-origin"] == "http://app.example"


def test_the_local_server_has_browser_load_style_and_guide_from_the_api(tmp_path):
    settings = Settings(data_dir=tmp_path, api_port=8123, neo4j_password=SecretStr("unused-pw"))
    server = LocalNeo4j(settings)
    server._write_config()
    conf = dict(line.split("=", 1) for line in (server.conf_dir / "neo4j.conf").read_text().splitlines()
                if not line.startswith("#"))
    assert conf["browser.post_connect_cmd"] == ("style http://127.0.0.1:8123/browser/paperkg.grass; "
                                                "play http://127.0.0.1:8123/browser/guide.html")
    assert conf["browser.remote_content_hostname_whitelist"] == "127.0.0.1"

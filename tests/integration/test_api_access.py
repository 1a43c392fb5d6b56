"""The authorization model and response hardening of issue 23 against the real app and a real Neo4j holding the
sample graph: writes need a key of the right role, raw reads need a reader key beyond loopback, curation changes
need If-Match, every response carries the hardening headers, and a loopback API answers only loopback Host names."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg.db.graph import Graph
from kg.errors import ConfigurationError
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.curation_support import API_KEYS, as_role, curated_settings
from tests.integration.test_api_endpoints import error_of
from tests.pdf_factory import one_column_paper
from tests.sample_graph import sample_graph

LOCAL = "http://localhost"
CURATOR, ADMIN, READER = as_role("curator"), as_role("admin"), as_role("reader")


@pytest.fixture(scope="module")
def sample_db(driver, reset_db):
    """The sample graph, written once: the tests here change nothing, which they check."""
    reset_db()
    schema = get_schema()
    assert write_graph(Graph(driver), *sample_graph(), schema).ok
    return driver


@pytest.fixture(scope="module")
def local(sample_db, neo4j_settings, tmp_path_factory):
    """The API as `kg serve` runs it by default: on 127.0.0.1, with keys configured."""
    settings = curated_settings(neo4j_settings, data_dir=tmp_path_factory.mktemp("data"))
    with TestClient(create_app(settings), base_url=LOCAL) as client:
        yield client


@pytest.fixture(scope="module")
def exposed(sample_db, neo4j_settings, tmp_path_factory):
    """The API as `kg serve --host 0.0.0.0` runs it."""
    settings = curated_settings(neo4j_settings, data_dir=tmp_path_factory.mktemp("data"), api_host="0.0.0.0")
    with TestClient(create_app(settings), base_url="http://papers.example.org") as client:
        yield client


def papers(driver) -> int:
    return driver.execute_query("MATCH (p:Paper) RETURN count(p)").records[0][0]


def props(driver, node_id: str) -> dict:
    return driver.execute_query("MATCH (n {id: $id}) RETURN properties(n) AS p", id=node_id).records[0]["p"]


# ------------------------------------------------------------------ writes need a key of the right role

def test_an_upload_needs_a_curator_key(local, sample_db):
    data, _ = one_column_paper()
    upload = {"file": ("synthetic.pdf", data, "application/pdf")}
    error_of(local.post("/papers", files=upload), 401, "UNAUTHENTICATED")
    error_of(local.post("/papers", files=upload, headers={"X-API-Key": "guessed"}), 401, "UNAUTHENTICATED")
    error_of(local.post("/papers", files=upload, headers=READER), 403, "FORBIDDEN")
    assert papers(sample_db) == 2


def test_a_curator_key_may_upload(local):
    error_of(local.post("/papers", files={"file": ("notes.pdf", b"not a pdf", "application/pdf")}, headers=CURATOR),
             422, "NOT_A_PDF")


def test_deletion_needs_an_admin_key(local, sample_db):
    error_of(local.delete("/papers/paper_b"), 401, "UNAUTHENTICATED")
    error_of(local.delete("/papers/paper_b", headers=CURATOR), 403, "FORBIDDEN")
    assert papers(sample_db) == 2


# ------------------------------------------------------------------ raw reads: open on loopback only

def test_on_loopback_cypher_and_whole_exports_are_open(local):
    assert local.post("/cypher", json={"query": "MATCH (p:Paper) RETURN count(p) AS n"}).json()["rows"] == [{"n": 2}]
    assert local.get("/export/json").status_code == 200


def test_beyond_loopback_cypher_and_whole_exports_need_a_reader_key(exposed):
    error_of(exposed.post("/cypher", json={"query": "RETURN 1 AS one"}), 401, "UNAUTHENTICATED")
    error_of(exposed.get("/export/json"), 401, "UNAUTHENTICATED")
    error_of(exposed.get("/export/csv", headers={"Authorization": "Bearer guessed"}), 401, "UNAUTHENTICATED")
    assert exposed.post("/cypher", json={"query": "RETURN 1 AS one"}, headers=READER).json()["rows"] == [{"one": 1}]
    assert exposed.get("/export/json", headers={"Authorization": "Bearer key-of-rita-reader"}).status_code == 200


def test_beyond_loopback_other_reads_stay_open(exposed):
    assert exposed.get("/papers").json()["total"] == 2
    one = exposed.get("/export/json", params={"paper_id": "paper_a"})
    assert one.status_code == 200 and '"paper_a"' in one.text


def test_an_exposed_api_does_not_start_without_keys(neo4j_settings):
    with pytest.raises(ConfigurationError, match="beyond loopback"):
        create_app(neo4j_settings.model_copy(update={"api_host": "0.0.0.0", "api_keys": ""}))
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):  # loopback: keys stay optional
        create_app(neo4j_settings.model_copy(update={"api_host": host, "api_keys": ""}))
    create_app(neo4j_settings.model_copy(update={"api_host": "0.0.0.0", "api_keys": API_KEYS}))


# ------------------------------------------------------------------ curation changes need If-Match

def edge_id(driver, source: str, rel_type: str, target: str) -> str:
    return driver.execute_query("MATCH ({id: $s})-[r]->({id: $t}) WHERE type(r) = $type RETURN elementId(r) AS id",
                                s=source, t=target, type=rel_type).records[0]["id"]


def test_curation_changes_without_if_match_are_428_and_change_nothing(local, sample_db):
    uses = edge_id(sample_db, "paper_a", "USES", "method_transformer")
    cites = edge_id(sample_db, "paper_b", "CITES", "paper_a")
    before = props(sample_db, "method_srt"), props(sample_db, "method_srt_dup")
    changes = [
        ("post", "/curation/nodes/method_srt/verify", {}, CURATOR),
        ("post", "/curation/nodes/method_srt/flag", {"reason": "check"}, CURATOR),
        ("post", f"/curation/edges/{uses}/reject", {}, CURATOR),
        ("patch", "/curation/nodes/method_srt", {"properties": {"name": "SRT"}}, CURATOR),
        ("patch", f"/curation/edges/{uses}", {"properties": {"confidence": 0.1}}, CURATOR),
        ("post", "/curation/merge", {"survivor": "method_srt", "duplicate": "method_srt_dup"}, CURATOR),
        ("delete", f"/curation/edges/{cites}", None, ADMIN),
    ]
    for method, path, body, headers in changes:
        kwargs = {"json": body} if body is not None else {}
        for sent in (headers, {**headers, "If-Match": ""}):
            error = error_of(local.request(method, path, headers=sent, **kwargs), 428, "PRECONDITION_REQUIRED")
            assert "If-Match" in error["message"]
    assert (props(sample_db, "method_srt"), props(sample_db, "method_srt_dup")) == before
    assert edge_id(sample_db, "paper_b", "CITES", "paper_a") == cites
    assert sample_db.execute_query("MATCH (e:CurationEvent) RETURN count(e)").records[0][0] == 0


def test_a_missing_key_is_reported_before_a_missing_if_match(local):
    error_of(local.post("/curation/nodes/method_srt/verify"), 401, "UNAUTHENTICATED")
    error_of(local.post("/curation/nodes/method_srt/verify", headers=READER), 403, "FORBIDDEN")


def test_a_change_with_the_version_read_goes_through(local, sample_db):
    version = local.get("/curation/nodes/fig_a1", headers=CURATOR).headers["etag"]
    changed = local.post("/curation/nodes/fig_a1/verify", headers={**CURATOR, "If-Match": version})
    assert changed.status_code == 200, changed.text
    assert props(sample_db, "fig_a1")["verification_status"] == "verified"
    undo = local.post(f"/curation/undo/{changed.json()['event']['id']}", headers=CURATOR)  # undo needs no If-Match
    assert undo.status_code == 200, undo.text
    assert props(sample_db, "fig_a1")["verification_status"] == "auto"


# ------------------------------------------------------------------ the key scheme in OpenAPI

def test_openapi_declares_the_key_schemes_on_every_operation_but_health(local):
    spec = local.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    assert schemes["apiKey"] == {**schemes["apiKey"], "type": "apiKey", "in": "header", "name": "X-API-Key"}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            declared = {name for requirement in operation.get("security", []) for name in requirement}
            assert declared == (set() if path == "/health" else {"bearer", "apiKey"}), (method, path)
    assert "428" in spec["paths"]["/curation/merge"]["post"]["responses"]


# ------------------------------------------------------------------ a 401 says how to present a key

def challenges(header: str) -> dict[str, dict[str, str]]:
    """The challenges of a WWW-Authenticate value (RFC 9110, 11.6.1), scheme (lower case) -> parameters; enough of
    the grammar for quoted values without commas or spaces."""
    found: dict[str, dict[str, str]] = {}
    for item in header.split(","):
        words = item.split()
        if "=" not in words[0]:  # `Scheme` or `Scheme param="value"`: a new challenge
            current = found.setdefault(words.pop(0).lower(), {})
        for param in words:
            name, _, value = param.partition("=")
            current[name.lower()] = value.strip('"')
    return found


def test_a_401_names_both_key_schemes_and_a_403_none(local, exposed):
    key_header = local.get("/openapi.json").json()["components"]["securitySchemes"]["apiKey"]["name"]
    upload = {"file": ("synthetic.pdf", b"%PDF-", "application/pdf")}
    for response in (local.post("/papers", files=upload), local.post("/papers", files=upload, headers={
            "X-API-Key": "guessed"}), exposed.post("/cypher", json={"query": "RETURN 1"}),
                     exposed.get("/export/json", headers={"Authorization": "Bearer guessed"})):
        error_of(response, 401, "UNAUTHENTICATED")
        offered = challenges(response.headers["WWW-Authenticate"])
        assert offered.keys() == {"bearer", "apikey"}, offered
        assert offered["apikey"]["header"] == key_header
    forbidden = local.post("/papers", files=upload, headers=READER)
    error_of(forbidden, 403, "FORBIDDEN")
    assert "WWW-Authenticate" not in forbidden.headers
    assert "WWW-Authenticate" in local.get("/openapi.json").json()["paths"]["/papers"]["post"]["responses"]["401"][
        "headers"]


# ------------------------------------------------------------------ hardening headers and the Host check

HARDENED = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@pytest.mark.parametrize("method, path, status", [
    ("get", "/papers", 200), ("get", "/papers/nope", 404), ("get", "/export/html", 200), ("get", "/openapi.json", 200),
    ("post", "/papers", 401), ("get", "/nowhere", 404), ("post", "/ask", 422),
])
def test_every_response_is_hardened(local, method, path, status):
    response = local.request(method, path)
    assert response.status_code == status
    assert {name: response.headers.get(name) for name in HARDENED} == HARDENED
    assert response.headers["content-security-policy"] == "frame-ancestors 'none'"


@pytest.mark.parametrize("page", ["/ui/", "/docs", "/redoc"])
def test_the_pages_keep_their_own_policy_and_forbid_framing(local, page):
    response = local.get(page)
    assert {name: response.headers.get(name) for name in HARDENED} == HARDENED
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.1.nip.io",
                                  "0.0.0.0:8000", "[::2]:8000", ""])
def test_a_loopback_api_refuses_foreign_host_names(local, host):
    for response in (local.get("/papers", headers={"host": host}),
                     local.post("/cypher", json={"query": "RETURN 1"}, headers={"host": host})):
        error = error_of(response, 400, "HOST_NOT_ALLOWED")
        assert "PAPERKG_API_ALLOWED_HOSTS" in error["details"]["hint"]
        assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "LOCALHOST:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_a_loopback_api_answers_its_own_names(local, host):
    assert local.get("/papers", headers={"host": host}).json()["total"] == 2


def test_configured_host_names_are_answered(sample_db, neo4j_settings, tmp_path):
    settings = curated_settings(neo4j_settings, data_dir=tmp_path, api_allowed_hosts=["Papers.Lab.Internal"])
    with TestClient(create_app(settings), base_url="http://papers.lab.internal:8000") as client:
        assert client.get("/papers").json()["total"] == 2
        error_of(client.get("/papers", headers={"host": "evil.example"}), 400, "HOST_NOT_ALLOWED")


def test_an_exposed_api_answers_any_host_name(exposed):
    assert exposed.get("/papers", headers={"host": "203.0.113.7:8000"}).json()["total"] == 2


def test_a_body_that_is_not_its_content_type_is_a_documented_400(local):
    error = error_of(local.post("/ask", content=b"\xff\xfe{", headers={"content-type": "application/json"}), 400,
                     "INVALID_REQUEST")
    assert error["message"]
    assert "400" in local.get("/openapi.json").json()["paths"]["/ask"]["post"]["responses"]

"""The API's interactive documentation, `/docs` (Swagger UI) and `/redoc` (ReDoc), from files the API serves
itself: FastAPI's own pages load both from a CDN and stay blank without a network. The builds are vendored
unmodified in api/apidocs/vendor (versions, sources and licences in its NOTICE.md). Each page starts its viewer
from a script file of ours instead of an inline script, so its policy runs the API's own script files only."""

from __future__ import annotations

import secrets
from html import escape
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from kg.errors import NotFoundError

HERE = Path(__file__).resolve().parent.parent / "apidocs"
# served by name only, never by a path from the request
ASSETS = {p.name: p for folder in (HERE, HERE / "vendor") for p in folder.iterdir() if p.suffix in (".js", ".css")}
ASSET_URL = "/docs/assets"

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title}</title>
{head}
</head>
<body>
<div id="{viewer}" data-openapi="{openapi}"{attributes}></div>
<script src="{assets}/{bundle}"></script>
<script src="{assets}/{viewer}-init.js"></script>
</body>
</html>
"""

# What both pages may load: scripts and requests from the API only, images also from data: URIs (Swagger UI's
# icons are in its CSS). ReDoc's sidebar logo, which its build always asks of its maker's CDN, is blocked by img-src
# and its link text stays.
_POLICY = "default-src 'self'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
SWAGGER_UI_POLICY = f"{_POLICY}; style-src 'self'"
# The two <style> elements the ReDoc build writes as it loads, before it reads the nonce: its scrollbar's CSS and
# an empty one. Admitted by their hashes; another ReDoc version may write others, which the browser test of
# /redoc reports with the hash Chromium asks for (tests/integration/test_api_docs_browser.py).
REDOC_LOAD_STYLES = ("sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc=",
                     "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")

router = APIRouter(include_in_schema=False)


def redoc_policy(nonce: str) -> str:
    """ReDoc writes its styles into <style> elements: they get the page's one-time nonce rather than
    'unsafe-inline'. Its search runs in a worker it makes from a blob: URL."""
    styles = " ".join(["'self'", f"'nonce-{nonce}'", *(f"'{h}'" for h in REDOC_LOAD_STYLES)])
    return f"{_POLICY}; style-src {styles}; worker-src blob:"


def _page(request: Request, viewer: str, bundle: str, policy: str, head: str = "",
          attributes: str = "") -> HTMLResponse:
    root = request.scope.get("root_path", "")
    html = _PAGE.format(title=escape(f"{request.app.title} API - {viewer}"), head=head, viewer=viewer,
                        openapi=escape(root + request.app.openapi_url), assets=escape(root + ASSET_URL),
                        bundle=bundle, attributes=attributes)
    return HTMLResponse(html, headers={"Content-Security-Policy": policy, "Cache-Control": "no-store"})


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    css = escape(request.scope.get("root_path", "") + ASSET_URL + "/swagger-ui.css")
    return _page(request, "swagger-ui", "swagger-ui-bundle.js", SWAGGER_UI_POLICY,
                 head=f'<link rel="stylesheet" href="{css}">')


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    nonce = secrets.token_urlsafe(16)  # URL-safe base64: nothing to escape in the attribute or the header
    return _page(request, "redoc", "redoc.standalone.js", redoc_policy(nonce), attributes=f' data-nonce="{nonce}"')


@router.get(ASSET_URL + "/{name}")
def asset(name: str) -> FileResponse:
    if name not in ASSETS:
        raise NotFoundError(f"no documentation file {name!r}")
    return FileResponse(ASSETS[name], headers={"Cache-Control": "no-cache"})

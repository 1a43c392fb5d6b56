"""The curator web page: static HTML, CSS and JavaScript shipped in the package (no build step, no CDN). The
page calls the same REST endpoints as any client, with the key the curator types in."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

from kg.errors import NotFoundError

STATIC = Path(__file__).resolve().parent.parent / "static"
ASSETS = {p.name: p for p in STATIC.iterdir() if p.suffix in (".js", ".css")}  # served by name only: no paths

router = APIRouter(include_in_schema=False)


@router.get("/ui")
def ui_root() -> RedirectResponse:
    return RedirectResponse("/ui/")


# The page's own policy as a header too: a <meta> policy cannot forbid framing (frame-ancestors)
CSP = "default-src 'self'; img-src 'self' blob:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"


@router.get("/ui/")
def ui_page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP})


@router.get("/ui/static/{name}")
def ui_asset(name: str) -> FileResponse:
    if name not in ASSETS:
        raise NotFoundError(f"no UI file {name!r}")
    return FileResponse(ASSETS[name], headers={"Cache-Control": "no-cache"})

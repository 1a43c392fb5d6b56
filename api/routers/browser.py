"""What Neo4j Browser fetches when it connects to the local server (`browser.post_connect_cmd` in the neo4j.conf
that `kg db start` writes): paperkg's style sheet and its guide. Neo4j Community serves Browser and nothing else
beside it, while the API already serves public pages (/docs, /ui) and runs beside Neo4j in both installs.

Browser runs on Neo4j's origin and fetches both cross-origin, so they answer CORS for any origin: they are public
and hold no data, only the ontology's style and the documented queries, and a request cannot send credentials.
Browser's guide request carries Pragma and Cache-Control headers, so the guide is asked for with a preflight."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

from api.browser_guide import GUIDE_FILE
from kg.settings import BROWSER_GUIDE_PATH, BROWSER_STYLE_PATH
from ontology.loader import get_schema
from ontology.style import grass

router = APIRouter(include_in_schema=False)

PATHS = frozenset({BROWSER_STYLE_PATH, BROWSER_GUIDE_PATH})

CORS = {"Access-Control-Allow-Origin": "*"}
PREFLIGHT = {**CORS, "Access-Control-Allow-Methods": "GET", "Access-Control-Allow-Headers": "Pragma, Cache-Control",
             "Access-Control-Max-Age": "600"}
# Opened in a tab of its own, the guide is a document without scripts, styles, images or frames
GUIDE_POLICY = "default-src 'none'; frame-ancestors 'none'"


@router.get(BROWSER_STYLE_PATH)
def style() -> PlainTextResponse:
    return PlainTextResponse(grass(get_schema()), headers={**CORS, "Cache-Control": "no-cache"})


@router.get(BROWSER_GUIDE_PATH)
def guide() -> HTMLResponse:
    return HTMLResponse(GUIDE_FILE.read_text(), headers={**CORS, "Cache-Control": "no-cache",
                                                         "Content-Security-Policy": GUIDE_POLICY})


@router.options(BROWSER_STYLE_PATH)
@router.options(BROWSER_GUIDE_PATH)
def preflight() -> Response:
    return Response(status_code=204, headers=PREFLIGHT)

"""Bounds of what a URL carries: the request target as a whole, and the paging and text parameters that several
endpoints share. Out of bounds is a 4xx with the error body, never a failure deeper down: Cypher list slices
take 32-bit integers (`GET /papers?offset=176086315491` was a 500), and text goes into queries."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import body
from kg.read.queries import MAX_PAPER_NAME

MAX_OFFSET = 1_000_000  # far beyond any list the API pages through, far below 2**31
MAX_TEXT = 500  # characters of a search text (names, titles, locate's phrase); questions go in a body

Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="items to skip")]
PAPER_NAME_HELP = ("a paper: its id, file SHA-256, DOI (with or without https://doi.org/), arXiv id (with or without "
                   "arXiv: and version) or title (whole, the part before its colon, or a run of its words; any case)")
PaperName = Annotated[str, Path(max_length=MAX_PAPER_NAME, description=PAPER_NAME_HELP)]


class UrlLengthLimit:
    """Refuses (414) a request whose path and query string together pass `max_bytes`, before routing: every
    parameter, repeated ones included, is then bounded too. Plain ASGI, like RequestIdMiddleware."""

    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            size = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string") or b"")
            if size > self.max_bytes:
                response = JSONResponse(body("URI_TOO_LONG", f"the URL has {size:,} bytes, more than the "
                                             f"{self.max_bytes:,} allowed", hint="send long input in a POST body"),
                                        status_code=414)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

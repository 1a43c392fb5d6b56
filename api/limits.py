"""Request bodies bounded before they are read: an ASGI middleware that answers 413 with the error body.

It runs outside FastAPI's routing, because by the time a route sees an `UploadFile` the multipart parser has
already spooled the whole body to disk. A declared Content-Length over the bound is refused without reading a
byte (clients that send `Expect: 100-continue` never send the body at all); a body without one (chunked) is
counted as it arrives and refused at the first chunk past the bound."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import body
from kg.errors import PayloadTooLargeError
from kg.settings import Settings

UPLOAD = ("POST", "/papers")  # the one route whose body is a file


class _TooLarge(Exception):
    """Raised into the app from `receive`, so that whatever is reading the body stops there."""


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, settings: Settings):
        self.app, self.settings = app, settings

    def _limit(self, scope: Scope) -> tuple[int, str, str]:
        """(bytes allowed, what the body is, the setting that bounds it)."""
        if (scope["method"], scope["path"].rstrip("/")) == UPLOAD:
            return self.settings.upload_max_bytes, "an upload", "PAPERKG_UPLOAD_MAX_BYTES"
        return self.settings.request_max_bytes, "a request body", "PAPERKG_REQUEST_MAX_BYTES"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, what, setting = self._limit(scope)
        error = PayloadTooLargeError(f"{what} may have at most {limit:,} bytes", hint=f"the server's {setting} "
                                     "sets the bound; send a smaller file or ask its operator")
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(send, error)
            return
        received, refused, started = 0, False, False

        async def counted() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    raise _TooLarge
            return message

        async def unless_refused(message: Message) -> None:
            nonlocal started
            if refused:  # what the app makes of the interrupted body (a 400 for a broken form) is not sent
                return
            started = True
            await send(message)

        try:
            await self.app(scope, counted, unless_refused)
        except _TooLarge:
            pass
        if refused and not started:
            await _refuse(send, error)


async def _refuse(send: Send, error: PayloadTooLargeError) -> None:
    # Connection: close, so the server does not wait to read the rest of a body nobody will use
    content = json.dumps(body(error.code, error.message, error.details, error.hint)).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": content})

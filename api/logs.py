"""Request ids (X-Request-ID in and out) and one JSON log line per request."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from contextvars import ContextVar

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID = ContextVar("request_id", default=None)
_VALID_ID = re.compile(r"^[A-Za-z0-9._\-]{1,128}$")  # a client's id is echoed only if it is harmless
log = logging.getLogger("paperkg.api")


class JsonFormatter(logging.Formatter):
    FIELDS = ("request_id", "method", "path", "status", "ms", "client")

    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"), "level": record.levelname,
               "logger": record.name, "msg": record.getMessage(),
               "request_id": getattr(record, "request_id", None) or REQUEST_ID.get()}
        out.update({k: getattr(record, k) for k in self.FIELDS[1:] if hasattr(record, k)})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure() -> None:
    """JSON lines on stderr for the paperkg loggers (idempotent)."""
    root = logging.getLogger("paperkg")
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        root.propagate = False


class RequestIdMiddleware:
    """Plain ASGI, not Starlette's BaseHTTPMiddleware: that one runs every request through an extra task and
    memory streams, a fixed cost that every request, however cheap, would pay."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = Headers(scope=scope).get("x-request-id", "")
        request_id = incoming if _VALID_ID.match(incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id  # request.state.request_id
        token = REQUEST_ID.set(request_id)
        start, status = time.perf_counter(), 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message).append("X-Request-ID", request_id)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            REQUEST_ID.reset(token)
            log.info("request", extra={"request_id": request_id, "method": scope["method"], "path": scope["path"],
                                       "status": status, "ms": round((time.perf_counter() - start) * 1000, 1)})

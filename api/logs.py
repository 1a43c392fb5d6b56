"""Request ids (X-Request-ID in and out) and one JSON log line per request."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from contextvars import ContextVar

from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request

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


class RequestIdMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next):
        incoming = request.headers.get("x-request-id", "")
        request_id = incoming if _VALID_ID.match(incoming) else uuid.uuid4().hex
        request.state.request_id = request_id
        token = REQUEST_ID.set(request_id)
        start = time.perf_counter()
        try:
            response = await call_next(request)
        finally:
            REQUEST_ID.reset(token)
        response.headers["X-Request-ID"] = request_id
        log.info("request", extra={"request_id": request_id, "method": request.method, "path": request.url.path,
                                   "status": response.status_code, "ms": round((time.perf_counter() - start) * 1000, 1)})
        return response

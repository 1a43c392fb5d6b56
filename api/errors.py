"""One error body for every failure, {"error": {"code", "message", "details"}}, and the status each error means."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import AuthError, ServiceUnavailable, SessionExpired
from starlette.exceptions import HTTPException

from api import auth
from extractors.errors import ExtractionError, InvalidBBoxError
from kg.db import store
from kg.errors import (AmbiguousPaperError, AuthenticationError, ConfigurationError, ConflictError, DatabaseUnavailable,
                       InvalidEditError, InvalidQueryError, NotFoundError, PermissionDeniedError,
                       PreconditionRequiredError, QueryRefusedError, QueryTimeoutError)
from kg.errors import UNEXPECTED, BusyError, LimitExceededError, PayloadTooLargeError
from ontology.errors import PaperKGError

log = logging.getLogger("paperkg.api")

STATUS = [(NotFoundError, 404), (InvalidQueryError, 400), (QueryRefusedError, 403), (QueryTimeoutError, 422),
          (ExtractionError, 422), (DatabaseUnavailable, 503), (ConfigurationError, 503),
          (AuthenticationError, 401), (PermissionDeniedError, 403), (ConflictError, 409), (InvalidEditError, 422),
          (PreconditionRequiredError, 428), (InvalidBBoxError, 422), (AmbiguousPaperError, 409)]
# the server's bounds (issue 23): every refusal a 4xx
STATUS += [(PayloadTooLargeError, 413), (LimitExceededError, 422), (BusyError, 429)]


def body(code: str, message: str, details=None, hint: str | None = None) -> dict:
    if hint:
        details = {"hint": hint, **(details if isinstance(details, dict) else {"info": details} if details else {})}
    return {"error": {"code": code, "message": message, "details": details}}


def _paperkg(request: Request, exc: PaperKGError) -> JSONResponse:
    status = next((s for cls, s in STATUS if isinstance(exc, cls)), 500)
    return JSONResponse(body(exc.code, exc.message, exc.details, exc.hint), status_code=status,
                        headers=_headers(exc))


def _headers(exc: PaperKGError) -> dict[str, str] | None:
    """A client told it is busy also learns when to come back; one refused for want of a valid key, how to
    present one (RFC 9110, 11.6.1: a 401 carries a challenge; a 403 does not, another key would not help)."""
    if isinstance(exc, BusyError):
        return {"Retry-After": str(exc.retry_after_s)}
    if isinstance(exc, AuthenticationError):
        return {"WWW-Authenticate": auth.CHALLENGE}
    return None


def _database(request: Request, exc: Exception) -> JSONResponse:
    return _paperkg(request, store.friendly_error(exc, request.app.state.settings))


def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg"), "type": e.get("type")} for e in exc.errors()]
    return JSONResponse(body("INVALID_REQUEST", "the request does not match its schema (see details)", errors),
                        status_code=422)


def _http(request: Request, exc: HTTPException) -> JSONResponse:
    code = {400: "INVALID_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
    return JSONResponse(body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers)


def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", extra={"path": request.url.path})
    return JSONResponse(body(UNEXPECTED, "an unexpected error occurred; the server log has the details",
                             {"request_id": getattr(request.state, "request_id", None)}), status_code=500)


def install(app: FastAPI) -> None:
    app.add_exception_handler(PaperKGError, _paperkg)
    for cls in (ServiceUnavailable, SessionExpired, AuthError, ConnectionError):
        app.add_exception_handler(cls, _database)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(Exception, _unexpected)

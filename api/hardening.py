"""Headers every response carries, and the Host check of a loopback API.

A browser is the attacker's way into an API on 127.0.0.1: a page can frame the curator page (clickjacking), make
the browser sniff an export as HTML, or rebind its own domain name to 127.0.0.1 and then read the API as if it
were same-origin. The headers close the first two for every response, errors included; the Host check the third,
since a rebound page still sends its own name. A plain ASGI middleware rather than Starlette's
TrustedHostMiddleware, whose refusal is a text body instead of the API's error body."""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import body
from kg.auth import access
from kg.settings import Settings

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "frame-ancestors 'none'",  # only where a response sets no policy of its own
    "Referrer-Policy": "no-referrer",
}


class HardeningMiddleware:
    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        # None: the API listens beyond loopback, where the Host names it is reached by are the operator's business
        self.extra_hosts = (None if access.exposed(settings)
                            else frozenset(h.lower() for h in settings.api_allowed_hosts))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        host = Headers(scope=scope).get("host", "")
        if self.extra_hosts is not None and not access.host_allowed(host, self.extra_hosts):
            refusal = JSONResponse(body("HOST_NOT_ALLOWED", f"this API answers on localhost only, not {host[:100]!r}",
                                        hint="open it as http://127.0.0.1:<port> or http://localhost:<port>, or add "
                                             "the name to PAPERKG_API_ALLOWED_HOSTS"), status_code=400)
            await refusal(scope, receive, send_hardened)
            return
        await self.app(scope, receive, send_hardened)

"""The API served by uvicorn on a free loopback port in a thread of the test process: what a browser or an HTTP
fuzzer talks to, with the Host header, middleware and error handling of a real server."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Iterator

import uvicorn

from api.app import create_app
from kg.settings import Settings
from tests.neo4j_harness import free_port


@contextmanager
def served(settings: Settings, port: int | None = None) -> Iterator[str]:
    """The base URL (http://127.0.0.1:PORT) of `create_app(settings)` until the block ends, on port or a free one."""
    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the API did not start"
        time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)

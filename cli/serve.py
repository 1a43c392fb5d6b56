"""`kg serve`: the REST API under uvicorn."""

from __future__ import annotations

import typer
import uvicorn

from kg.settings import get_settings

# uvicorn kills a worker that does not answer its supervisor's ping within this time (default 5 s). A worker
# importing the app on a busy machine took longer, so `--workers 2` restarted its workers forever.
HEALTHCHECK_S = 60


def serve(
    host: str = typer.Option(None, help="Interface to bind (default PAPERKG_API_HOST)."),
    port: int = typer.Option(None, help="Port (default PAPERKG_API_PORT)."),
    workers: int = typer.Option(1, min=1, help="Server processes: Python runs one request's code at a time per "
                                "process, so use one per core under concurrent load (each loads its own query embedder)."),
) -> None:
    """Serve the REST API (OpenAPI docs at /docs)."""
    settings = get_settings()
    uvicorn.run("api.app:create_app", factory=True, host=host or settings.api_host, port=port or settings.api_port,
                workers=workers, timeout_worker_healthcheck=HEALTHCHECK_S,
                access_log=False)  # the API logs each request itself, as one JSON line with its request id

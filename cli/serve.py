"""`kg serve`: the REST API under uvicorn."""

from __future__ import annotations

import os

import typer
import uvicorn

from kg.auth.access import check_can_listen
from kg.settings import get_settings

# uvicorn kills a worker that does not answer its supervisor's ping within this time (default 5 s). A worker
# importing the app on a busy machine took longer, so `--workers 2` restarted its workers forever.
HEALTHCHECK_S = 60


def serve(
    host: str = typer.Option(None, help="Interface to bind (default PAPERKG_API_HOST)."),
    port: int = typer.Option(None, help="Port (default PAPERKG_API_PORT)."),
    workers: int = typer.Option(1, min=1, help="API processes. Questions run in their own processes (see "
                                "--qa-processes), so one API process keeps up with a small machine; add more for many "
                                "concurrent cheap reads (each has its own question processes)."),
    qa_processes: int | None = typer.Option(None, "--qa-processes", min=0,
                                            help="Processes answering /ask for each API process (each loads its own "
                                                 "query embedder), so that questions never hold up cheap reads such "
                                                 "as node lookups; 0 answers in the API process itself (default: "
                                                 "PAPERKG_QA_PROCESSES if set, else one per core)."),
) -> None:
    """Serve the REST API (OpenAPI docs at /docs). Beyond loopback (--host other than 127.0.0.1, ::1 or localhost)
    it refuses to start without API keys configured."""
    settings = get_settings()
    if qa_processes is None:
        qa_processes = settings.qa_processes if "qa_processes" in settings.model_fields_set else os.cpu_count() or 1
    os.environ["PAPERKG_QA_PROCESSES"] = str(qa_processes)  # read by every API process's create_app()
    if host:  # where it listens decides what needs a key (kg.auth.access): every API process must know
        os.environ["PAPERKG_API_HOST"] = host
    get_settings.cache_clear()
    settings = get_settings()
    check_can_listen(settings)
    uvicorn.run("api.app:create_app", factory=True, host=settings.api_host, port=port or settings.api_port,
                workers=workers, timeout_worker_healthcheck=HEALTHCHECK_S,
                access_log=False)  # the API logs each request itself, as one JSON line with its request id

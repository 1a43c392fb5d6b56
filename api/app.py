"""The FastAPI application: routers per resource, dependencies from app state, one error body, request ids."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from neo4j.exceptions import DriverError, Neo4jError
from starlette.types import Receive, Scope, Send

from api import auth, browser_guide, errors, hardening, logs, params
from api.limits import BodyLimitMiddleware
from api.models import ErrorBody, Health
from api.routers import apidocs, browser, curation, domains, export, graph, papers, qa, search, ui
from kg import __version__
from kg.auth import access
from kg.db import store
from kg.db.graph import Graph
from kg.read.cypher_workers import CypherWorkers
from kg.ingest.delete import collect_orphan_pdfs
from kg.db.filestore import PDFStore
from kg.ingest.jobs import IngestProcess, JobRegistry
from kg.qa.admission import Admission
from kg.qa.workers import ProcessQA, question_answerer
from kg.settings import Settings, get_settings
from ontology.errors import PaperKGError


# What any operation may answer before its handler runs, so the OpenAPI documents it everywhere: 400 for a body
# that is not what its Content-Type says or a Host name a loopback API does not answer, 401/403 from the key check,
# 413/414 from the bounds on bodies and URLs (api/limits.py, api/params.py), which refuse before routing
BOUNDS = {413: {"model": ErrorBody, "description": "the request body is larger than the server allows"},
          414: {"model": ErrorBody, "description": "the URL (path and query string) is longer than the server allows"}}
REFUSALS = {400: {"model": ErrorBody, "description": "malformed request, or a Host name this API does not answer"},
            401: {"model": ErrorBody, "description": "no API key where this call needs one, or a key that is not valid",
                  "headers": {"WWW-Authenticate": {"description": "how to present a key: " + auth.CHALLENGE,
                                                   "schema": {"type": "string"}}}},
            403: {"model": ErrorBody, "description": "a valid API key whose role is not enough for this call"},
            **BOUNDS}


class ConfiguredCORS(CORSMiddleware):
    """CORS for the configured origins, except on the files Neo4j Browser fetches, which answer any origin
    themselves: the configured list would refuse Browser's origin and its guide's preflight."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in browser.PATHS:
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def description(settings: Settings) -> str:
    """The OpenAPI description, with a link that opens Neo4j Browser with the guide's first query in its editor."""
    link = browser_guide.browser_link(settings.browser_url, browser_guide.first_query())
    return ("Scientific papers as a provenance-bearing knowledge graph in Neo4j. Every answer points to the paper, "
            f"section, page and box it came from. Explore the graph in Neo4j Browser: [open it with the papers and "
            f"their methods, datasets and tasks]({link}); it opens paperkg's guide of queries when you connect.")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    access.check_can_listen(settings)
    logs.configure()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.graph = Graph(store.connect_api(settings), settings.neo4j_database)
        try:  # files a crash left without their paper; the API starts without Neo4j too (GET /health says 503)
            collect_orphan_pdfs(app.state.graph, PDFStore(settings.data_dir))
        except (DriverError, Neo4jError, OSError) as exc:
            logging.getLogger("paperkg.api").warning("stored PDFs not checked against the graph: %s", exc)
        ingestion = IngestProcess(settings)
        app.state.jobs = JobRegistry(ingestion, settings.jobs_max_queued, settings.jobs_history)
        app.state.qa = question_answerer(settings, app.state.graph)
        app.state.ask_admission = Admission(settings.ask_concurrency, settings.ask_queue, settings.ask_timeout_s)
        app.state.cypher = CypherWorkers(settings)
        try:
            if isinstance(app.state.qa, ProcessQA):
                await app.state.qa.start()
            yield
        finally:
            app.state.cypher.close()
            app.state.qa.close()
            app.state.jobs.close()
            ingestion.close()
            app.state.graph.driver.close()

    app = FastAPI(title="paperkg", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description=description(settings))
    app.state.settings = settings
    app.add_middleware(BodyLimitMiddleware, settings=settings)  # inside the request id, so a 413 carries one
    app.add_middleware(params.UrlLengthLimit, max_bytes=settings.api_max_url_bytes)
    app.add_middleware(logs.RequestIdMiddleware)  # outside the limits, so their refusals get a request id too
    if settings.cors_origins:  # browsers on other origins only where configured (issue 8)
        app.add_middleware(ConfiguredCORS, allow_origins=settings.cors_origins, allow_methods=["*"],
                           allow_headers=["Authorization", "X-API-Key", "If-Match", "Content-Type", "X-Request-ID"],
                           expose_headers=["ETag", "X-Request-ID", "WWW-Authenticate"])
    app.add_middleware(hardening.HardeningMiddleware, settings=settings)  # outermost: refusals get the headers too
    errors.install(app)
    for router in (papers.router, domains.router, graph.router, qa.router, search.router, export.router):
        app.include_router(router, dependencies=[Depends(auth.read_access)], responses=REFUSALS)
    app.include_router(curation.router, responses=REFUSALS)
    app.include_router(ui.router)
    app.include_router(apidocs.router)  # /docs and /redoc with their assets served here, not from a CDN
    app.include_router(browser.router)  # what Neo4j Browser loads on connect: the style sheet and the guide
    auth.document_optional_keys(app)

    @app.get("/health", tags=["meta"], response_model=Health, responses={400: REFUSALS[400], **BOUNDS, 503: {"model": ErrorBody}})
    def health() -> JSONResponse:
        """Liveness plus a real round trip to Neo4j; 503 when the database does not answer."""
        try:
            app.state.graph.driver.verify_connectivity()
            info = store.server_info(app.state.graph.driver)
        except Exception as exc:
            err = store.friendly_error(exc, settings)
            message = err.message if isinstance(err, PaperKGError) else str(err)
            return JSONResponse(status_code=503, content={"status": "unavailable", "neo4j": None,
                                                          "error": {"code": "DATABASE_UNAVAILABLE",
                                                                    "message": message, "details": None}})
        return JSONResponse({"status": "ok", "version": __version__,
                             "neo4j": {"version": info.version, "edition": info.edition}})

    return app

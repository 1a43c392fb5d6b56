"""The FastAPI application. Routers per resource are added here as the API grows."""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from kg import __version__, store
from kg.errors import PaperKGError
from kg.settings import Settings, get_settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.driver = store.connect(settings, verify=False)
        yield
        app.state.driver.close()

    app = FastAPI(title="paperkg", version=__version__, lifespan=lifespan,
                  description="Scientific papers as a provenance-bearing knowledge graph in Neo4j.")

    @app.get("/health", tags=["meta"])
    def health() -> JSONResponse:
        """Liveness plus a real round trip to Neo4j; 503 when the database does not answer."""
        try:
            app.state.driver.verify_connectivity()
            info = store.server_info(app.state.driver)
        except Exception as exc:
            err = store.friendly_error(exc, settings)
            message = err.message if isinstance(err, PaperKGError) else str(err)
            return JSONResponse(status_code=503, content={"status": "unavailable", "neo4j": None,
                                                          "error": {"code": "DATABASE_UNAVAILABLE",
                                                                    "message": message, "details": None}})
        return JSONResponse({"status": "ok", "version": __version__,
                             "neo4j": {"version": info.version, "edition": info.edition}})

    return app

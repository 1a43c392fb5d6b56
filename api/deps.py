"""Dependencies the routers receive: the graph gateway, settings and schema the app opened at start-up.

They are `async def` although they never wait: FastAPI runs a plain `def` dependency in its thread pool, one
thread hand-off each, a fixed cost on every request for work that never waits."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from kg.db.graph import Graph
from kg.read.cypher_workers import CypherWorkers
from kg.ingest.jobs import JobRegistry
from kg.qa import retrieval
from kg.settings import Settings
from ontology.loader import Schema, get_schema


async def graph(request: Request) -> Graph:
    """The app's one Graph (its driver and configured database), made at start-up: every router reads and
    writes through it, so none pairs the driver with a database name of its own."""
    return request.app.state.graph


GraphDep = Annotated[Graph, Depends(graph)]


async def settings(request: Request) -> Settings:
    return request.app.state.settings


async def schema() -> Schema:
    return get_schema()


async def jobs(request: Request) -> JobRegistry:
    return request.app.state.jobs


async def cypher(request: Request) -> CypherWorkers:
    return request.app.state.cypher


async def query_embedder(request: Request):
    """The query embedder of /search, loaded on the first search (None without the embedder installed)."""
    state = request.app.state
    if not hasattr(state, "query_embedder"):
        state.query_embedder = retrieval.query_embedder(state.settings)
    return state.query_embedder

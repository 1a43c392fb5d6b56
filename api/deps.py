"""Dependencies the routers receive: the driver, settings and schema the app opened at start-up.

They are `async def` although they never wait: FastAPI runs a plain `def` dependency in its thread pool, one
thread hand-off each, a fixed cost on every request for work that never waits."""

from __future__ import annotations

from fastapi import Request
from neo4j import Driver

from kg.read.cypher_workers import CypherWorkers
from kg.ingest.jobs import JobRegistry
from kg.qa import retrieval
from kg.settings import Settings
from ontology.loader import Schema, get_schema


async def driver(request: Request) -> Driver:
    return request.app.state.driver


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

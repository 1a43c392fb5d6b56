"""Dependencies the routers receive: the driver, settings and schema the app opened at start-up."""

from __future__ import annotations

from fastapi import Request
from neo4j import Driver

from kg.jobs import JobRegistry
from kg.settings import Settings
from ontology.loader import Schema, get_schema


def driver(request: Request) -> Driver:
    return request.app.state.driver


def settings(request: Request) -> Settings:
    return request.app.state.settings


def schema() -> Schema:
    return get_schema()


def jobs(request: Request) -> JobRegistry:
    return request.app.state.jobs

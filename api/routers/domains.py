"""Research domains: every domain with its paper and section counts (a paper's own are under /papers)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from neo4j import Driver

from api import deps
from api.models import DomainSummary, ErrorBody
from kg.ingest import domains
from kg.settings import Settings

router = APIRouter(tags=["domains"], responses={503: {"model": ErrorBody}})


@router.get("/domains", response_model=list[DomainSummary])
def list_domains(driver: Driver = Depends(deps.driver), settings: Settings = Depends(deps.settings)):
    """The research domains in the graph, most papers first: each with its seed phrases and the number of papers
    and sections tagged with it (`kg domains retag` rewrites them from a new seeds file)."""
    return domains.domains(driver, database=settings.neo4j_database)

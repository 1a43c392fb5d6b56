"""Research domains: every domain with its paper and section counts (a paper's own are under /papers)."""

from __future__ import annotations

from fastapi import APIRouter

from api import deps
from api.models import DomainSummary, ErrorBody
from kg.ingest import domains

router = APIRouter(tags=["domains"], responses={503: {"model": ErrorBody}})


@router.get("/domains", response_model=list[DomainSummary])
def list_domains(graph: deps.GraphDep):
    """The research domains in the graph, most papers first: each with its seed phrases and the number of papers
    and sections tagged with it (`kg domains retag` rewrites them from a new seeds file)."""
    return domains.domains(graph)

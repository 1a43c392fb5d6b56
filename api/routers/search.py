"""Search over the ingested corpus: papers and their sections by text and meaning, with facets and explained
ranking signals (kg/find/search.py)."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter, Depends, Query

from api import deps
from api.models import ErrorBody, SearchResponse
from kg.find import search as kg_search
from ontology.loader import Schema

router = APIRouter(tags=["search"], responses={422: {"model": ErrorBody}, 503: {"model": ErrorBody}})


@router.get("/search", response_model=SearchResponse)
def search(graph: deps.GraphDep,
           q: str = Query(..., min_length=1, max_length=kg_search.MAX_QUERY_CHARS,
                          description="topic words, e.g. 'open information extraction from the web'"),
           limit: int = Query(10, ge=1, le=kg_search.MAX_LIMIT),
           domain: str | None = Query(None, min_length=1, max_length=kg_search.MAX_FACET_CHARS,
                                      description="only papers tagged with this domain (id or name)"),
           year: int | None = Query(None, ge=1000, le=9999, description="only papers of this year"),
           entity: str | None = Query(None, min_length=1, max_length=kg_search.MAX_FACET_CHARS,
                                      description="only papers mentioning this entity (name or alias)"),
           mmr: bool = Query(False, description="re-order for diversity (maximal marginal relevance)"),
           schema: Schema = Depends(deps.schema), embed=Depends(deps.query_embedder)):
    """Papers best first, each with its best sections, its score and the signals it is made of (text match,
    semantic similarity, entity overlap, in-corpus citations, recency; `formula` gives the weights). Rejected
    chunks, sections, papers and tags are never found. 422 on a parameter out of bounds."""
    result = kg_search.search(graph, schema, kg_search.SearchQuery(q, limit, domain, year, entity, mmr), embed)
    return asdict(result)

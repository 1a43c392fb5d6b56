"""Nodes and edges with their provenance, name search, neighbourhoods, and the evidence behind any element:
its chunk text, or a picture of the PDF region."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from api import deps, params
from api.models import EdgeDetail, ErrorBody, EvidenceText, NodeOut, Page, Subgraph
from kg.read import queries
from kg.read.evidence import evidence_png
from kg.db.filestore import PDFStore
from kg.settings import Settings
from ontology.loader import Schema

router = APIRouter(tags=["graph"], responses={404: {"model": ErrorBody}, 503: {"model": ErrorBody}})


@router.get("/nodes", response_model=Page[NodeOut])
def search_nodes(graph: deps.GraphDep,
                 q: str = Query(..., min_length=1, max_length=params.MAX_TEXT, description="name or alias (fulltext)"),
                 label: list[str] | None = Query(None, description="only these labels, e.g. Method"),
                 offset: params.Offset = 0, limit: int = Query(20, ge=1, le=200),
                 schema: Schema = Depends(deps.schema)):
    page = queries.search_nodes(graph, schema, q, label, offset, limit)
    return {"items": page.items, "total": page.total, "offset": offset, "limit": limit}


@router.get("/nodes/{node_id}", response_model=NodeOut)
def get_node(graph: deps.GraphDep, node_id: str, schema: Schema = Depends(deps.schema)):
    return queries.get_node(graph, schema, node_id)


@router.get("/nodes/{node_id}/neighbours", response_model=Subgraph)
def neighbours(graph: deps.GraphDep, node_id: str, hops: int = Query(1, ge=1, le=2),
               label: list[str] | None = Query(None, description="only paths ending at these labels"),
               type: list[str] | None = Query(None, description="only through these relationship types"),
               limit: int = Query(100, ge=1, le=1000),
               schema: Schema = Depends(deps.schema)):
    return queries.neighbours(graph, schema, node_id, hops, label, type, limit)


@router.get("/edges/{edge_id}", response_model=EdgeDetail)
def get_edge(graph: deps.GraphDep, edge_id: str):
    return queries.get_edge(graph, edge_id)


@router.get("/evidence/{element_id}.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}, "description": "the PDF region, highlighted"}})
def evidence_image(graph: deps.GraphDep, element_id: str,
                   chunk: str | None = Query(None, max_length=params.MAX_TEXT,
                                             description="an edge's passage: crop around its spans "
                                                         "in that passage only"),
                   settings: Settings = Depends(deps.settings), schema: Schema = Depends(deps.schema)):
    png = evidence_png(graph, schema, PDFStore(settings.data_dir), element_id, settings.evidence_max_pixels, chunk)
    return Response(png, media_type="image/png")


@router.get("/evidence/{element_id}", response_model=EvidenceText)
def evidence_text(graph: deps.GraphDep, element_id: str, schema: Schema = Depends(deps.schema)):
    """The chunk text behind a chunk, node or edge id (for a node or edge: its source chunks)."""
    return {"id": element_id, "chunks": queries.evidence_chunks(graph, schema, element_id)}

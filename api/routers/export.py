"""GET /export/{format}: a paper, several papers (paper_id repeated) or the whole graph in any export format."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from api import auth, deps, params
from api.models import PAPER_NAME_ERRORS, ErrorBody
from kg.auth.apikeys import Identity
from kg.export.formats import ExportFormat, export
from kg.export.graph_read import ReadBound
from kg.settings import Settings
from ontology.loader import Schema

router = APIRouter(tags=["export"], responses={404: {"model": ErrorBody}, 422: {"model": ErrorBody},
                                               503: {"model": ErrorBody}})


@router.get("/export/{format}", response_class=Response,
            responses={200: {"description": "the export, with its media type (JSON, Markdown, HTML, ...)"},
                       **PAPER_NAME_ERRORS})
def export_graph(graph: deps.GraphDep, format: ExportFormat,
                 paper_id: list[str] | None = Query(None, description="only these papers (repeat the parameter), "
                                                    "each " + params.PAPER_NAME_HELP),
                 include_rejected: bool = Query(False, description="also the elements curators rejected, shown "
                                                "with their verification_status (JSON always has them)"),
                 identity: Identity | None = Depends(auth.caller),
                 settings: Settings = Depends(deps.settings), schema: Schema = Depends(deps.schema)) -> Response:
    """Same output as `kg export ...`; see docs/export-format.md for the JSON layout. Bounded: an export of more
    elements than the server's PAPERKG_EXPORT_MAX_ELEMENTS, or slower to read than PAPERKG_EXPORT_TIMEOUT_S,
    gets 422 (`kg export` on the server has no bound). The whole graph (no `paper_id`) needs a reader key when
    the API listens beyond loopback."""
    if not paper_id:
        auth.check_raw_read(settings, identity)
    result = export(graph, schema, format, paper_id, include_rejected,
                    ReadBound(settings.export_max_elements, settings.export_timeout_s))
    name = f"paperkg-{'-'.join(paper_id) if paper_id and len(paper_id) == 1 else 'graph'}.{result.spec.extension}"
    return Response(result.text, media_type=result.spec.media_type,
                    headers={"Content-Disposition": f'inline; filename="{_safe(name)}"'})


def _safe(name: str) -> str:
    """A header-safe file name: paper ids are ours, but nothing from a request goes into a header unchecked."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name)

"""Papers: list and search, one paper's metadata, authors, section tree and counts, its outline with section
summaries, its related papers, upload, delete."""

from __future__ import annotations

from fastapi import APIRouter, Depends, File, Query, UploadFile

from api import deps, params
from api.auth import require
from api.models import (PAPER_NAME_ERRORS, DeleteResult, ErrorBody, Job, Outline, Page, PaperDetail, PaperDomains,
                        PaperSummary, RelatedPapers)
from extractors.errors import NotAPDFError
from kg.find import related
from kg.ingest import domains
from kg.read import queries
from kg.ingest.delete import delete_paper
from kg.db.filestore import PDFStore
from kg.ingest.jobs import JobRegistry
from kg.settings import Settings
from ontology.loader import Schema

router = APIRouter(tags=["papers"], responses={404: {"model": ErrorBody}, 503: {"model": ErrorBody}})


@router.get("/papers", response_model=Page[PaperSummary])
def list_papers(graph: deps.GraphDep,
                q: str | None = Query(None, max_length=params.MAX_TEXT,
                                      description="part of the title or file name, or an id/DOI/arXiv id"),
                offset: params.Offset = 0, limit: int = Query(20, ge=1, le=200)):
    page = queries.list_papers(graph, q, offset, limit)
    return {"items": page.items, "total": page.total, "offset": offset, "limit": limit}


# Before GET /papers/{paper_id:path}, which would take "/outline" as part of the name (DOIs hold slashes).
@router.get("/papers/{paper_id:path}/outline", response_model=Outline, responses=PAPER_NAME_ERRORS)
def get_outline(graph: deps.GraphDep, paper_id: params.PaperName):
    """The paper's section tree (numbers, titles, levels, reading order) with each section's extractive summary:
    its most central sentences, each with its character span, page and box, to navigate the paper without
    reading it. `paper_id` may also be its DOI, arXiv id or title."""
    return queries.paper_outline(graph, paper_id)


@router.get("/papers/{paper_id:path}/domains", response_model=PaperDomains, responses=PAPER_NAME_ERRORS)
def get_paper_domains(graph: deps.GraphDep, paper_id: params.PaperName):
    """The paper's research domains and its sections', best first, each with its score and evidence: the seed
    phrases that matched, the chunks and pages they occur in, and the seeds file's digest. `paper_id` may also be
    its DOI, arXiv id or title."""
    return domains.paper_domains(graph, paper_id)


@router.get("/papers/{paper_id:path}/related", response_model=RelatedPapers, responses=PAPER_NAME_ERRORS)
def get_related(graph: deps.GraphDep, paper_id: params.PaperName,
                limit: int = Query(10, ge=1, le=related.MAX_LIMIT, description="related papers to return at most"),
                schema: Schema = Depends(deps.schema)):
    """The papers of the graph related to this one, best first, each with its reasons and what each contributes
    to its score: the entities both have edges to (rarer ones weigh more), bibliography entries both have and
    papers citing both, and the embedding similarity of their chunks. `paper_id` may also be its DOI, arXiv id
    or title."""
    return related.related_papers(graph, schema, paper_id, limit)


@router.get("/papers/{paper_id:path}", response_model=PaperDetail, responses=PAPER_NAME_ERRORS)
def get_paper(graph: deps.GraphDep, paper_id: params.PaperName, schema: Schema = Depends(deps.schema)):
    """The paper with its authors, section tree and counts; `paper_id` may also be its DOI, arXiv id or title."""
    return queries.get_paper(graph, schema, paper_id)


@router.post("/papers", response_model=Job, status_code=202, dependencies=[Depends(require("curator"))],
             responses={413: {"model": ErrorBody}, 422: {"model": ErrorBody}, 429: {"model": ErrorBody}})
def upload_paper(file: UploadFile = File(..., description="a PDF"), jobs: JobRegistry = Depends(deps.jobs)):
    """Queue the PDF for ingestion (or its re-ingestion, when the paper is in the graph); poll GET /jobs/{id} for
    the paper id. Needs a curator key: what an upload writes merges into the entities other papers share. A body
    over the server's upload bound gets 413, an upload finding the ingestion queue full 429."""
    if file.file.read(5) != b"%PDF-":
        raise NotAPDFError(f"{file.filename or 'the upload'} is not a PDF (it does not start with %PDF-)",
                           hint="upload the PDF file itself")
    file.file.seek(0)
    return jobs.submit(file.filename or "upload.pdf", file.file)


@router.delete("/papers/{paper_id:path}", response_model=DeleteResult, dependencies=[Depends(require("admin"))],
               responses=PAPER_NAME_ERRORS)
def remove_paper(graph: deps.GraphDep, paper_id: params.PaperName,
                 settings: Settings = Depends(deps.settings), schema: Schema = Depends(deps.schema)):
    report = delete_paper(graph, paper_id, schema, PDFStore(settings.data_dir))
    return {"paper_id": report.paper_id, "sha256": report.sha256, "nodes_deleted": report.nodes_deleted,
            "edges_deleted": report.edges_deleted, "pdf_removed": report.pdf_removed}


@router.get("/jobs/{job_id}", response_model=Job, tags=["jobs"])
def get_job(job_id: str, jobs: JobRegistry = Depends(deps.jobs)):
    return jobs.get(job_id)

"""Questions, locations, coverage and read-only Cypher: the endpoints that answer with evidence."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request

from api import auth, deps, params
from api.models import (PAPER_NAME_ERRORS, AskRequest, AskResponse, CoverageReport, CypherRequest, CypherResponse,
                        ErrorBody, LocateResponse, VerifyRequest, VerifyResponse)
from kg.read.cypher_workers import CypherWorkers
from kg.read.coverage import coverage
from kg.find.locate import locate
from kg.read.queries import MAX_PAPER_NAME
from ontology.loader import Schema

router = APIRouter(tags=["qa"], responses={404: {"model": ErrorBody}, 422: {"model": ErrorBody},
                                           503: {"model": ErrorBody}})


@router.post("/ask", response_model=AskResponse, responses={**PAPER_NAME_ERRORS, 429: {"model": ErrorBody}})
async def ask_question(body: AskRequest, request: Request):
    """Answer from the typed graph (intent Cypher) or by hybrid retrieval; extractive, with evidence, or `answer`
    null with a `reason` and no evidence. `paper_id` names the paper to answer from (by id, DOI, arXiv id or
    title); without it, a paper the question names unambiguously does. A bounded number are answered at once and
    a bounded number wait; beyond that, or past the time limit, 429."""
    state = request.app.state
    return await state.ask_admission.run(lambda: state.qa.ask(body.question, body.paper_id, body.top_k))


@router.post("/verify", response_model=VerifyResponse,
             responses={**PAPER_NAME_ERRORS, 400: {"model": ErrorBody}, 429: {"model": ErrorBody}})
async def verify_claim(body: VerifyRequest, request: Request):
    """Check a claim ("SPECTER achieves 80.0 on SciDocs", "The paper uses ACE2005") against the graph's Result
    facts and entities and the papers' text: `supported`, `contradicted` (a passage about the claim states another
    number) or `not_found`, with the evidence's paper, page, box and span. Numbers are compared with their units
    and to the precision printed (92.1 = 92.10; 92.1 F1 = 0.921). Deterministic, no language model. Admitted as
    questions to /ask are (429 when busy); a claim longer than the limit is a 422."""
    state = request.app.state
    return await state.ask_admission.run(lambda: state.qa.verify(body.claim, body.paper_id))


@router.get("/locate", response_model=LocateResponse, responses=PAPER_NAME_ERRORS)
def locate_text(graph: deps.GraphDep,
                q: str = Query(..., min_length=1, max_length=params.MAX_TEXT,
                               description="Figure 3, a method name, a phrase..."),
                paper_id: str | None = Query(None, max_length=MAX_PAPER_NAME,
                                             description="only in " + params.PAPER_NAME_HELP),
                limit: int = Query(10, ge=1, le=100),
                schema: Schema = Depends(deps.schema)):
    return {"query": q, "items": locate(graph, schema, q, paper_id, limit)}


@router.get("/coverage/{paper_id:path}", response_model=CoverageReport, responses=PAPER_NAME_ERRORS)
def paper_coverage(graph: deps.GraphDep, paper_id: params.PaperName, schema: Schema = Depends(deps.schema)):
    return coverage(graph, paper_id, list(schema.entity_labels))


@router.post("/cypher", response_model=CypherResponse, dependencies=[Depends(auth.raw_read_access)],
             responses={400: {"model": ErrorBody}, 403: {"model": ErrorBody}, 429: {"model": ErrorBody}})
def run_cypher(body: CypherRequest, workers: CypherWorkers = Depends(deps.cypher)):
    """Read-only Cypher: refused unless the planner says it reads the graph and nothing else (no LOAD CSV, USE,
    SHOW, TERMINATE, administration, or procedures beyond a few graph reads); READ transaction, timeout (422),
    Neo4j's memory limits (422) and a limit of rows and of bytes (truncated: true when either cut the result). It
    runs in a worker process with a memory and a time limit, so a result too large to read is refused (400) and
    costs only that process; 429 when no such process was free within that time, or while earlier queries that
    Neo4j could not interrupt at their time still run. Needs a reader key when the API listens beyond loopback."""
    return workers.run(body.query, body.parameters)

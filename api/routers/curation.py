"""Curation over REST: every call needs a curator key (removing an edge an admin key); the key's name is the
actor in the history. Changes answer with the element's new version in `ETag`; a change to an existing element
must send it back in `If-Match` (428 without), and a change made meanwhile by someone else (or a re-ingest) gives
409 with the current state instead of being lost."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field

from api import deps
from api.auth import require
from api.models import ErrorBody
from api.params import MAX_TEXT, PAPER_NAME_HELP, Offset
from kg.auth.apikeys import Identity
from kg.curation import history
from kg.curation.duplicates import candidates
from kg.curation.evidence import item_evidence
from kg.curation.merge import merge
from kg.curation.operations import STATUSES, Curation, EdgeRef, Outcome
from kg.curation.queue import review_queue
from kg.curation.relabel import relabel
from kg.curation.review import MAX_PAPERS, QUEUES, SORTS, View, review_page, reviewable_labels
from kg.curation.undo import split, undo_change
from kg.db.graph import Graph
from kg.errors import InvalidEditError, PreconditionRequiredError
from kg.read.queries import MAX_PAPER_NAME, resolve_paper
from kg.settings import Settings
from ontology.loader import Schema

router = APIRouter(prefix="/curation", tags=["curation"],
                   responses={404: {"model": ErrorBody},
                              409: {"model": ErrorBody}, 422: {"model": ErrorBody}, 428: {"model": ErrorBody},
                              503: {"model": ErrorBody}})


async def required_if_match(value: str | None = Header(None, alias="If-Match",
                                                       description="the ETag (version) the change was made "
                                                                   "against; required (428 without)")) -> str:
    """A change to an existing element must name the version the curator saw: without it a change made meanwhile
    by someone else (or a re-ingest) would be overwritten unseen. `*` is an explicit "whatever it is now"."""
    if not (value or "").strip():
        raise PreconditionRequiredError("this change needs an If-Match header with the element's version",
                                        hint="GET the element and send its ETag back as If-Match")
    return value


class Status(StrEnum):
    verify = "verify"
    flag = "flag"
    unflag = "unflag"
    reject = "reject"


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str | None = Field(None, max_length=2000, description="why; required to flag")


class Edit(Reason):
    properties: dict[str, Any] = Field(description="new values of content properties; null removes one",
                                       examples=[{"name": "BERT", "aliases": ["BERT-base"]}])


class NewEdge(Reason):
    source: str = Field(description="source node id")
    type: str = Field(description="relationship type of the ontology", examples=["USES"])
    target: str = Field(description="target node id")


class Retype(Reason):
    type: str = Field(description="the new relationship type; the ontology must allow it between the edge's ends",
                      examples=["EVALUATES_ON"])


class Relabel(Reason):
    label: str = Field(description="the new entity label; the ontology must allow each of the node's edges at it",
                       examples=["Dataset"])


class Merge(Reason):
    survivor: str = Field(description="the node that stays")
    duplicate: str = Field(description="the node merged into it")


class Keep(StrEnum):
    source = "source"
    target = "target"


class CandidateMerge(Reason):
    keep: Keep = Field(description="which end of the candidate stays (the survivor); the other is merged into it")


CandidateStatus = StrEnum("CandidateStatus", {status: status for status in STATUSES})


class Element(BaseModel):
    kind: str = Field(description="node | edge")
    key: str = Field(description="node id, or source|TYPE|target for an edge (stable across undo)")
    version: str
    properties: dict[str, Any]
    label: str | None = None
    id: str | None = None
    type: str | None = None
    source: str | None = None
    target: str | None = None
    source_label: str | None = None
    target_label: str | None = None
    edge_id: str | None = Field(None, description="Neo4j element id of an edge, as GET /edges/{id} takes")
    allowed_types: list[str] | None = Field(None, description="GET of an edge: the relationship types the "
                                                              "ontology allows between its ends (for a retype)")
    allowed_labels: list[str] | None = Field(None, description="GET of an entity: the other entity labels (for a "
                                                               "relabel, which also checks its edges)")


class EventOut(BaseModel):
    id: str
    action: str
    change: str
    target: dict[str, Any]
    element: str
    elements: list[str]
    old: Any
    new: Any
    actor: str
    at: str
    reason: str | None
    request_id: str | None
    undoes: str | None
    undone_by: str | None
    version_before: str | None
    version_after: str | None


class ChangeOut(BaseModel):
    element: Element | None = Field(description="the element after the change; null when it was removed")
    event: EventOut | None = Field(description="the recorded change; null when nothing changed")


class PaperRef(BaseModel):
    id: str
    title: str | None


# a row's papers are counted up to kg.curation.review.MAX_PAPERS
_COUNTED = f", counted up to {MAX_PAPERS}"
_MORE_PAPERS = f"more than paper_count papers name it: counting stopped at {MAX_PAPERS}"


class QueueItem(BaseModel):
    kind: str = Field(description="flagged | contested | same_as | low_confidence | uncovered")
    element: str = Field(description="node id, or an edge's element id")
    element_kind: str = Field(description="node | edge")
    label: str = Field(description="node label or edge type")
    name: str | None
    confidence: float | None
    status: str | None
    why: str
    paper_count: int = Field(description="how many papers the element belongs to or is named by" + _COUNTED)
    more_papers: bool = Field(False, description=_MORE_PAPERS)
    papers: list[PaperRef] = Field(description="three of those papers, the first by id of those counted")


class CandidateEnd(BaseModel):
    label: str
    id: str
    name: str | None
    aliases: list[str]
    status: str | None
    papers: list[PaperRef] = Field(description="the papers whose extracted edges point at the entity")
    evidence: int = Field(description="how many extracted edges (mentions included) point at the entity")


class DuplicateCandidate(BaseModel):
    edge_id: str = Field(description="the SAME_AS edge: reject it with POST /curation/edges/{edge_id}/reject")
    key: str
    score: float | None
    reasons: list[str]
    status: str | None
    extractor: str | None
    source_chunk_ids: list[str] = Field(description="passages that define one name as the other's abbreviation")
    source: CandidateEnd
    target: CandidateEnd


class DuplicatePage(BaseModel):
    total: int
    offset: int
    limit: int
    items: list[DuplicateCandidate]


class EvidenceEnd(BaseModel):
    id: str | None
    label: str | None
    name: str | None


class EvidencePassage(BaseModel):
    chunk_id: str
    text: str
    section: str | None
    page: int | None
    spans: list[list[int]] = Field(description="[start, end) offsets in `text` of what states the edge")
    boxes: list[str] = Field(description="every box (page:x0,y0,x1,y1) the spans are printed in")


class EvidenceItem(BaseModel):
    edge_id: str = Field(description="GET /evidence/{edge_id}.png crops the PDF around the spans' boxes")
    type: str
    source: EvidenceEnd
    target: EvidenceEnd
    paper: PaperRef | None
    extractor: str | None
    run_id: str | None
    confidence: float | None
    status: str | None
    passages: list[EvidencePassage]


ReviewQueue = StrEnum("ReviewQueue", {name: name for name in QUEUES})
ReviewSort = StrEnum("ReviewSort", {name: name for name in SORTS})


class Contest(BaseModel):
    at: str = Field(description="when the re-ingest disagreed")
    run: str | None = Field(description="the ingest run that disagreed")
    reason: str | None = Field(description="what the extractor said against what the curator decided")


class ReviewItem(BaseModel):
    id: str = Field(description="node id: GET /curation/nodes/{id}")
    label: str
    name: str | None
    confidence: float | None
    status: str | None
    reason: str | None = Field(description="the reason of the newest curation event of the node")
    last_action: str | None = Field(description="the newest curation event's action")
    extractor: str | None
    updated_at: str | None
    paper_count: int = Field(description="how many papers the node belongs to or is named by" + _COUNTED)
    more_papers: bool = Field(False, description=_MORE_PAPERS)
    papers: list[PaperRef] = Field(description="three of those papers, the first by id of those counted")
    contested: Contest | None = Field(description="a re-ingest's disagreement with the curator's decision, until a "
                                                  "curator acts on the node again")


class Progress(BaseModel):
    verified: int
    rejected: int
    edited: int
    flagged: int
    auto: int
    total: int


class ReviewPage(BaseModel):
    total: int
    offset: int
    limit: int
    progress: Progress = Field(description="the view's nodes by status")
    labels: list[str] = Field(description="the labels the list can be filtered by")
    items: list[ReviewItem]


class IdentityOut(BaseModel):
    name: str
    role: str


def _curation(request: Request, identity: Identity, graph: Graph, schema: Schema) -> Curation:
    return Curation(graph, schema, identity.name, request_id=getattr(request.state, "request_id", None))


async def curator(request: Request, graph: deps.GraphDep, identity: Identity = Depends(require("curator")),
                  schema: Schema = Depends(deps.schema)) -> Curation:
    return _curation(request, identity, graph, schema)


async def admin(request: Request, graph: deps.GraphDep, identity: Identity = Depends(require("admin")),
                schema: Schema = Depends(deps.schema)) -> Curation:
    return _curation(request, identity, graph, schema)


def _answer(response: Response, outcome: Outcome) -> dict[str, Any]:
    if outcome.element:
        response.headers["ETag"] = f'"{outcome.element["version"]}"'
    return outcome.as_json()


def _element(response: Response, element: dict[str, Any]) -> dict[str, Any]:
    response.headers["ETag"] = f'"{element["version"]}"'
    return element


def _status(cur: Curation, ref, action: Status, body: Reason, if_match: str) -> Outcome:
    if action is Status.flag and not (body.reason or "").strip():
        raise InvalidEditError("a flag needs a reason", details={"reason": "MISSING_REASON", "property": "reason"})
    return getattr(cur, action.value)(ref, reason=body.reason, if_match=if_match)


@router.get("/whoami", response_model=IdentityOut)
def whoami(identity: Identity = Depends(require("reader"))):
    return {"name": identity.name, "role": identity.role}


def filters(
        paper: str | None = Query(None, max_length=MAX_PAPER_NAME, description=PAPER_NAME_HELP),
        label: list[str] = Query([], description="node labels (repeat for several)"),
        status: list[CandidateStatus] = Query([], description="curation statuses (repeat for several)"),
        min_confidence: float | None = Query(None, ge=0, le=1), max_confidence: float | None = Query(None, ge=0, le=1),
        extractor: str | None = Query(None, max_length=MAX_TEXT, description="extractor name prefix"),
        changed_since: datetime | None = Query(None, description="ISO time with its zone: changed at or after it"),
        q: str | None = Query(None, max_length=MAX_TEXT, description="text in the name, title, caption or text"),
        cur: Curation = Depends(curator)) -> View:
    """The filters of the review list and of the needs-attention queue, checked (422 naming each bad parameter)
    before any query runs; they combine (AND)."""
    allowed = reviewable_labels(cur.schema)
    errors = [{"loc": ["query", "label"], "msg": f"{l!r} is not a reviewable label ({', '.join(allowed)})",
               "type": "value_error"} for l in label if l not in allowed]
    if min_confidence is not None and max_confidence is not None and min_confidence > max_confidence:
        errors.append({"loc": ["query", "min_confidence"], "msg": "min_confidence is above max_confidence",
                       "type": "value_error"})
    if changed_since is not None and changed_since.tzinfo is None:
        errors.append({"loc": ["query", "changed_since"], "msg": "give a time zone (Z or +hh:mm)",
                       "type": "value_error"})
    if errors:
        raise RequestValidationError(errors)
    sha = resolve_paper(cur.graph, paper).sha256 if paper else None
    return View(labels=tuple(label), statuses=tuple(s.value for s in status), paper_sha256=sha,
                min_confidence=min_confidence, max_confidence=max_confidence, extractor=extractor,
                changed_since=changed_since, text=q)


@router.get("/queue", response_model=list[QueueItem])
def queue(limit: int = Query(100, ge=1, le=1000), view: View = Depends(filters), cur: Curation = Depends(curator),
          settings: Settings = Depends(deps.settings)):
    """What needs a person: flagged, contested (a re-ingest disagreed with a curator), SAME_AS candidates,
    low-confidence extractions, unlinked figures/tables; nodes and edges, narrowed by the review list's filters."""
    return review_queue(cur.graph, cur.schema, view, threshold=settings.curation_low_confidence, limit=limit)


@router.get("/items", response_model=ReviewPage)
def review_items(
        queue: ReviewQueue = Query(ReviewQueue.all,
                                   description="all | low_confidence | high_impact | sample | contested"),
        view: View = Depends(filters),
        sort: ReviewSort | None = Query(None, description="default: the queue's own order"),
        descending: bool = False, seed: int = Query(0, ge=0, le=2**31, description="the sample's seed"),
        offset: Offset = 0, limit: int = Query(50, ge=1, le=200), cur: Curation = Depends(curator),
        settings: Settings = Depends(deps.settings)):
    """The review list: curatable nodes of a queue, narrowed by filters that combine (AND), sorted, one page at a
    time, with the view's counts by status (the curator's progress). Filtering and sorting run in Neo4j."""
    view = replace(view, queue=queue.value, sort=sort.value if sort else None, descending=descending, seed=seed)
    return review_page(cur.graph, cur.schema, view, threshold=settings.curation_low_confidence, offset=offset,
                       limit=limit)


@router.get("/duplicates", response_model=DuplicatePage)
def duplicates(status: list[CandidateStatus] = Query([CandidateStatus.auto], description="curation statuses to list"),
               offset: int = Query(0, ge=0, le=100_000), limit: int = Query(50, ge=1, le=500),
               cur: Curation = Depends(curator)):
    """SAME_AS candidates (`kg curate find-duplicates` proposes them), best first, with both entities side by side:
    names, aliases, papers and evidence counts. Merge one with POST /curation/duplicates/{edge_id}/merge, reject it
    with POST /curation/edges/{edge_id}/reject (a rejected candidate is never proposed again)."""
    return candidates(cur.graph, cur.schema, statuses=[s.value for s in status], offset=offset, limit=limit)


@router.post("/duplicates/{edge_id}/merge", response_model=ChangeOut)
def merge_candidate(edge_id: str, body: CandidateMerge, response: Response, cur: Curation = Depends(curator),
                    if_match: str = Depends(required_if_match)):
    """Merge the two ends of a SAME_AS candidate, keeping `keep` (If-Match: that node's version); the candidate
    becomes the verified decision, and POST /curation/split/{event} undoes it."""
    ref = cur.edge_ref(edge_id)
    if ref.type != "SAME_AS":
        raise InvalidEditError(f"{edge_id} is a {ref.type} edge, not a SAME_AS candidate",
                               details={"reason": "NOT_A_CANDIDATE", "property": None})
    survivor, duplicate = (ref.source, ref.target) if body.keep is Keep.source else (ref.target, ref.source)
    return _answer(response, merge(cur, survivor, duplicate, reason=body.reason, if_match=if_match))


Operation = StrEnum("Operation", {action: action for action in history.ACTIONS})


@router.get("/operations", response_model=list[str])
def operations(_: Identity = Depends(require("curator"))):
    """The actions a history event can record, which the feed's `operation` filter takes: served so that a client
    (the /ui feed's filter) lists them from the one place they are declared."""
    return list(history.ACTIONS)


@router.get("/history", response_model=list[EventOut])
def feed(element: str | None = Query(None, max_length=MAX_TEXT, description="a node id or edge key"),
         actor: str | None = Query(None, max_length=MAX_TEXT, description="the curator (the key's name)"),
         operation: Operation | None = Query(None, description="the event's action"),
         since: datetime | None = Query(None, description="ISO time with its zone: events at or after it"),
         before: str | None = Query(None, max_length=MAX_TEXT, description="event id: older events only (paging)"),
         limit: int = Query(50, ge=1, le=500), cur: Curation = Depends(curator)):
    """The feed of changes, newest first, narrowed by filters that combine (AND)."""
    if since is not None and since.tzinfo is None:
        raise RequestValidationError([{"loc": ["query", "since"], "msg": "give a time zone (Z or +hh:mm)",
                                       "type": "value_error"}])
    events = history.read(cur.graph, element=element, actor=actor, action=operation.value if operation else None,
                          since=since, before=before, limit=limit)
    return [e.as_json() for e in events]


@router.get("/nodes/{node_id}", response_model=Element)
def get_node(node_id: str, response: Response, cur: Curation = Depends(curator)):
    ref = cur.node_ref(node_id)
    labels = cur.schema.entity_labels
    allowed = sorted(set(labels) - {ref.label}) if ref.label in labels else None
    return _element(response, {**cur.get(ref), "allowed_labels": allowed})


@router.get("/edges/{edge_id}", response_model=Element)
def get_edge(edge_id: str, response: Response, cur: Curation = Depends(curator)):
    ref = cur.edge_ref(edge_id)
    allowed = sorted(t for t, rel in cur.schema.relationships.items()
                     if (ref.source_label, ref.target_label) in rel.patterns)
    return _element(response, {**cur.get(ref), "allowed_types": allowed})


@router.get("/nodes/{node_id}/evidence", response_model=list[EvidenceItem])
def node_evidence(node_id: str, cur: Curation = Depends(curator)):
    """What the node rests on: its most confident edges that have a paper, each with its passages, the spans in
    them that state it and the boxes those are printed in."""
    return item_evidence(cur.graph, cur.schema, cur.node_ref(node_id), None)


@router.get("/edges/{edge_id}/evidence", response_model=list[EvidenceItem])
def edge_evidence(edge_id: str, cur: Curation = Depends(curator)):
    return item_evidence(cur.graph, cur.schema, cur.edge_ref(edge_id), edge_id)


@router.get("/nodes/{node_id}/history", response_model=list[EventOut])
def node_history(node_id: str, limit: int = Query(50, ge=1, le=500), cur: Curation = Depends(curator)):
    return [e.as_json() for e in history.read(cur.graph, element=node_id, limit=limit)]


@router.get("/edges/{edge_id}/history", response_model=list[EventOut])
def edge_history(edge_id: str, limit: int = Query(50, ge=1, le=500), cur: Curation = Depends(curator)):
    key = cur.edge_ref(edge_id).key
    return [e.as_json() for e in history.read(cur.graph, element=key, limit=limit)]


@router.post("/nodes/{node_id}/relabel", response_model=ChangeOut)
def relabel_node(node_id: str, body: Relabel, response: Response, cur: Curation = Depends(curator),
                 if_match: str = Depends(required_if_match)):
    """Change an entity's label (a Method that is really a Dataset): the node under the new label (merged into an
    existing node of that label and name), its edges moved to it, the old node `rejected`. 422 naming the edges
    the ontology does not allow at the new label, before anything changes. Undo restores the graph."""
    return _answer(response, relabel(cur, node_id, body.label, reason=body.reason, if_match=if_match))


@router.post("/nodes/{node_id}/{action}", response_model=ChangeOut)
def node_status(node_id: str, action: Status, response: Response, body: Reason = Body(default_factory=Reason),
                cur: Curation = Depends(curator), if_match: str = Depends(required_if_match)):
    """verify, flag (with a reason), unflag (back to the status before the flag) or reject (soft delete)."""
    return _answer(response, _status(cur, cur.node_ref(node_id), action, body, if_match))


@router.post("/edges/{edge_id}/retype", response_model=ChangeOut)
def retype_edge(edge_id: str, body: Retype, response: Response, cur: Curation = Depends(curator),
                if_match: str = Depends(required_if_match)):
    """Change the edge's type within the ontology (422 when it does not allow the type between the ends): a new
    edge of that type, `edited`, with the old one's properties; the old edge stays `rejected`. Undo reverses it."""
    return _answer(response, cur.retype_edge(cur.edge_ref(edge_id), body.type, reason=body.reason, if_match=if_match))


@router.post("/edges/{edge_id}/{action}", response_model=ChangeOut)
def edge_status(edge_id: str, action: Status, response: Response, body: Reason = Body(default_factory=Reason),
                cur: Curation = Depends(curator), if_match: str = Depends(required_if_match)):
    return _answer(response, _status(cur, cur.edge_ref(edge_id), action, body, if_match))


@router.patch("/nodes/{node_id}", response_model=ChangeOut)
def edit_node(node_id: str, body: Edit, response: Response, cur: Curation = Depends(curator),
              if_match: str = Depends(required_if_match)):
    """New property values, validated by the ontology; identity and provenance fields are refused (422)."""
    return _answer(response, cur.edit(cur.node_ref(node_id), body.properties, reason=body.reason, if_match=if_match))


@router.patch("/edges/{edge_id}", response_model=ChangeOut)
def edit_edge(edge_id: str, body: Edit, response: Response, cur: Curation = Depends(curator),
              if_match: str = Depends(required_if_match)):
    return _answer(response, cur.edit(cur.edge_ref(edge_id), body.properties, reason=body.reason, if_match=if_match))


@router.post("/edges", response_model=ChangeOut, status_code=201)
def add_edge(body: NewEdge, response: Response, cur: Curation = Depends(curator)):
    """An edge of the curator's: the ontology must allow its type between the two nodes' labels."""
    return _answer(response, cur.add_edge(body.source, body.type, body.target, reason=body.reason))


@router.delete("/edges/{edge_id}", response_model=ChangeOut)
def remove_edge(edge_id: str, response: Response, reason: str | None = Query(None, max_length=2000),
                cur: Curation = Depends(admin), if_match: str = Depends(required_if_match)):
    """Delete an edge (admin). To hide an extracted edge for good, reject it: a re-ingest may re-create a
    deleted automatic edge, never a rejected one."""
    ref: EdgeRef = cur.edge_ref(edge_id)
    return _answer(response, cur.remove_edge(ref, reason=reason, if_match=if_match))


@router.post("/merge", response_model=ChangeOut)
def merge_nodes(body: Merge, response: Response, cur: Curation = Depends(curator),
                if_match: str = Depends(required_if_match)):
    """Merge `duplicate` into `survivor` (If-Match: the survivor's version)."""
    return _answer(response, merge(cur, body.survivor, body.duplicate, reason=body.reason, if_match=if_match))


@router.post("/split/{event_id}", response_model=ChangeOut)
def split_merge(event_id: str, response: Response, body: Reason = Body(default_factory=Reason),
                cur: Curation = Depends(curator)):
    """Undo a merge event: both nodes and all their edges as before the merge."""
    return _answer(response, split(cur, event_id, reason=body.reason))


@router.post("/undo/{event_id}", response_model=ChangeOut)
def undo(event_id: str, response: Response, body: Reason = Body(default_factory=Reason),
         cur: Curation = Depends(curator)):
    """Reverse one recorded change, if nothing changed the element since (else 409)."""
    return _answer(response, undo_change(cur, event_id, reason=body.reason))

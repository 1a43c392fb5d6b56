"""Request and response bodies of the REST API. Separate from storage: kg/ returns plain dicts, these
models fix what a client can rely on and document it in OpenAPI."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from kg.qa.claims import MAX_CLAIM
from kg.read.queries import MAX_PAPER_NAME

T = TypeVar("T")


class ErrorDetail(BaseModel):
    code: str = Field(examples=["NOT_FOUND"])
    message: str
    details: Any = None


class ErrorBody(BaseModel):
    error: ErrorDetail


# The answers of an operation that takes a paper by name (kg.read.queries.resolve_paper).
PAPER_NAME_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "no paper matches the name (id, file SHA-256, DOI, arXiv id or title)"},
    409: {"model": ErrorBody, "description": "the name matches several papers (code AMBIGUOUS_PAPER); "
                                             "`details.candidates` lists them with their ids"}}


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    offset: int
    limit: int


class Health(BaseModel):
    status: str
    version: str | None = None
    neo4j: dict[str, str] | None = None


# ------------------------------------------------------------------ graph elements

class NodeOut(BaseModel):
    id: str | None
    element_id: str
    labels: list[str]
    properties: dict[str, Any]
    paper_id: str | None = None
    score: float | None = None


class EdgeOut(BaseModel):
    id: str = Field(description="Neo4j element id of the relationship")
    type: str
    source: str | None
    target: str | None
    properties: dict[str, Any]


class EdgeDetail(EdgeOut):
    source_node: NodeOut
    target_node: NodeOut


class Subgraph(BaseModel):
    nodes: list[NodeOut]
    edges: list[EdgeOut]


class EvidenceChunk(BaseModel):
    chunk_id: str
    text: str
    kind: str | None
    section: str | None
    paper_id: str | None
    title: str | None
    page_start: int | None
    page_end: int | None
    bboxes: list[str]


class EvidenceText(BaseModel):
    id: str
    chunks: list[EvidenceChunk]


# ------------------------------------------------------------------ papers and jobs

class PaperSummary(BaseModel):
    id: str
    title: str | None
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    file_name: str | None = None
    page_count: int | None = None
    authors: list[str] = []


class AuthorRef(BaseModel):
    id: str
    name: str
    position: int | None


class _Section(BaseModel):
    """What a section tree (GET /papers/{id}) and an outline (GET /papers/{id}/outline) say of each section."""

    id: str
    number: str | None
    title: str
    level: int | None
    kind: str | None
    page_start: int | None
    page_end: int | None
    ordinal: int | None
    printed: bool = Field(True, description="false when no heading is printed for the section: a bibliography "
                                            "closing the paper without one is a References section all the same")


class SectionNode(_Section):
    children: list[SectionNode] = []


class SummarySentence(BaseModel):
    text: str = Field(description="the sentence exactly as in the paper's text at [char_start, char_end)")
    char_start: int
    char_end: int
    page: int
    bbox: str = Field(description='"page:x0,y0,x1,y1": the region of the section\'s text the sentence begins in')


class OutlineSection(_Section):
    summary: list[SummarySentence] = Field(description="the section's most central sentences in reading order; "
                                                       "empty for a section without prose of its own")
    children: list[OutlineSection] = []


class Outline(BaseModel):
    paper_id: str
    title: str | None
    sections: list[OutlineSection] = Field(description="top-level sections in reading order, subsections nested")


class DomainSummary(BaseModel):
    id: str
    name: str
    phrases: list[str] = Field(description="the domain's seed phrases")
    venues: list[str] = Field(description="the domain's journals and conferences, as bibliographies name them")
    papers: int = Field(description="papers tagged with the domain (rejected tags not counted)")
    sections: int = Field(description="sections tagged with the domain")


class DomainTag(BaseModel):
    id: str
    name: str
    score: float | None = Field(description="the tagger's score from 0 to 1")
    similarity: float | None = Field(description="mean cosine to the domain's closest seed phrases; null without "
                                                 "embeddings")
    keyword_hits: int | None = Field(description="occurrences of the domain's seed phrases in the text")
    matched: list[str] = Field(description="the seed phrases that occur, most frequent first")
    venue_hits: int = Field(description="how often the paper's bibliography names the domain's venues (0 on a "
                                        "section's tag)")
    cited_venues: list[str] = Field(description="the domain's venues the bibliography names, most often first")
    seeds: str | None = Field(description="digest of the seeds file the tag was scored with")
    source_chunk_ids: list[str] = Field(description="the chunks the matched phrases occur in, then those of the "
                                                    "venues cited")
    pages: list[int]
    extractor: str | None
    verification_status: str | None


class SectionDomainTag(DomainTag):
    section_id: str
    section_title: str | None


class PaperDomains(BaseModel):
    paper_id: str
    title: str | None
    domains: list[DomainTag] = Field(description="the paper's domains, best first")
    sections: list[SectionDomainTag] = Field(description="its sections' domains, in reading order, best first")


class PaperEntity(BaseModel):
    """An entity the paper proposes, uses, evaluates on, measures or addresses."""

    id: str
    label: str = Field(examples=["Method"])
    name: str
    role: str = Field(description="the relationship type: PROPOSES | USES | EVALUATES_ON | MEASURES | ADDRESSES")
    confidence: float | None = Field(None, description="how sure the extractor is that the paper names it in that role")
    salience: float | None = Field(None, description="the salience model's probability that the paper's results are "
                                   "about it (null for papers ingested before semantic extractor 0.16.0)")
    central: bool | None = Field(None, description="the salience reaches the model's threshold for the type")


class PaperDetail(BaseModel):
    paper: dict[str, Any]
    authors: list[AuthorRef]
    sections: list[SectionNode]
    entities: list[PaperEntity] = Field(description="central ones first, then by salience and confidence; rejected "
                                        "ones left out")
    counts: dict[str, int]


class DeleteResult(BaseModel):
    paper_id: str
    sha256: str
    nodes_deleted: int
    edges_deleted: int
    pdf_removed: bool


class Job(BaseModel):
    id: str
    file_name: str
    status: str = Field(description="queued | running | succeeded | failed")
    created_at: str
    finished_at: str | None = None
    paper_id: str | None = None
    error: str | None = Field(None, description="why the job failed, for people")
    error_code: str | None = Field(
        None, examples=["PARSE_LIMIT"],
        description="why the job failed, for programs (null unless `failed`): the code an error body of the API "
                    "gives the same failure. Among them: ENCRYPTED_PDF, CORRUPT_PDF, EMPTY_PDF, NO_TEXT_LAYER, "
                    "PDF_JAVASCRIPT (the file cannot be read as a paper); PARSE_LIMIT (over one of the parser's "
                    "bounds: size, pages, page size, line length, time, memory; `error` names the bound and its "
                    "setting); PARSER_CRASHED (the parser's process died on the file); DATABASE_UNAVAILABLE (Neo4j "
                    "stopped answering: upload again); INTERNAL (unexpected; the server log has it)")


# ------------------------------------------------------------------ QA, locate, coverage, Cypher

class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=3, max_length=1000, examples=["Which datasets does the paper use?"])
    paper_id: str | None = Field(
        default=None, max_length=MAX_PAPER_NAME,
        examples=["paper_0123456789abcdef0123", "10.18653/v1/N19-1423", "arXiv:1810.04805",
                  "Attention Is All You Need"],
        description="answer from this paper only: its id, file SHA-256, DOI (with or without https://doi.org/), arXiv "
                    "id (with or without arXiv: and version) or title (whole, before its colon, or a run of its "
                    "words; case-insensitive). 404 when no paper matches, 409 listing the candidates when several "
                    "do. Without it, a paper the question names unambiguously (a DOI or arXiv id, a quoted title, "
                    "\"the BERT paper\") scopes the answer")
    top_k: int = Field(default=5, ge=1, le=20, description="evidence items to return")


class Evidence(BaseModel):
    paper_id: str | None
    title: str | None
    section: str | None
    chunk_id: str
    text: str
    page: int | None
    bbox: str | None = Field(description='"page:x0,y0,x1,y1" in PDF points, origin top-left')
    score: float


class ListedPaper(BaseModel):
    paper_id: str
    title: str | None
    relations: list[str] = Field(description="the typed edges from the paper to what the question names (USES, "
                                             "EVALUATES_ON, ...), or [\"MENTIONS\"] when only its text names it")
    entities: list[str] = Field(description="the names of the graph's entities the edges reach")
    evidence: list[Evidence] = Field(description="the chunks the paper's edges (or mentions) come from")


class AskResponse(BaseModel):
    answer: str | None = Field(description="extractive: sentences of the evidence or values of the graph; null when "
                                           "nothing supports an answer (then `reason` says why and `evidence` is "
                                           "empty)")
    span: str | None = Field(None, description="the part of the answer's first sentence or table row that answers "
                                               "the kind of question asked: a number with its unit, a table cell "
                                               "with its row and column headers, the long form of an abbreviation, "
                                               "a defining sentence; null when the reader found none")
    reason: str | None = Field(None, description="why there is no answer; null when there is one")
    intent: str
    confidence: float
    paper_id: str | None = Field(None, description="the paper the answer comes from alone: the request's paper_id "
                                                   "resolved, or the paper the question names; null for all papers")
    evidence: list[Evidence]
    graph: dict[str, list[dict[str, Any]]]
    cypher: list[str]
    papers: list[ListedPaper] | None = Field(None, description="a cross-paper question (\"which papers use X\"): "
                                             "every paper found, each with its evidence; null for other questions")


class VerifyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim: str = Field(min_length=3, max_length=MAX_CLAIM, examples=["SPECTER achieves an average score of 80.0 on "
                                                                     "SciDocs", "The paper uses the ACE2005 dataset"],
                       description=f"one sentence stating a number or naming what a paper uses (at most {MAX_CLAIM} "
                                   "characters; 422 beyond)")
    paper_id: str | None = Field(
        default=None, max_length=MAX_PAPER_NAME, examples=["paper_0123456789abcdef0123", "arXiv:1810.04805"],
        description="check within this paper only: its id, file SHA-256, DOI, arXiv id or title, as for /ask. 404 "
                    "when no paper matches, 409 listing the candidates when several do; without it, all papers")


class VerifyEvidence(BaseModel):
    paper_id: str | None
    title: str | None
    section: str | None
    chunk_id: str | None
    text: str
    page: int | None
    bbox: str | None = Field(description='"page:x0,y0,x1,y1" in PDF points, origin top-left')
    span: list[int] | None = Field(description="[start, end) character offsets of `text` (the sentence, the value "
                                               "or the name) in the chunk's text")
    score: float
    role: str = Field(description="supports | contradicts | nearest (the closest passage of a not_found claim)")
    source: str = Field(description="text (a sentence), result (a Result fact of a table) or graph (an edge from "
                                    "the paper to an entity the claim names)")
    numbers: list[str] = Field(description="the numbers of the evidence that agree with the claim (supports) or "
                                           "that differ from it (contradicts), as printed")


class VerifyResponse(BaseModel):
    claim: str
    verdict: str = Field(description="supported | contradicted | not_found")
    reason: str
    paper_id: str | None = Field(None, description="the request's paper_id resolved; null for all papers")
    evidence: list[VerifyEvidence] = Field(description="supported and contradicted: what supports or contradicts "
                                                       "the claim; not_found: the nearest passages read, if any")
    cypher: list[str]


class Location(BaseModel):
    paper_id: str | None
    title: str | None
    page: int | None
    bbox: str | None
    section: str | None
    snippet: str
    score: float
    kind: str = Field(description="element | mention | definition | text")
    element_id: str


class LocateResponse(BaseModel):
    query: str
    items: list[Location]


class CoverageItem(BaseModel):
    id: str
    label: str | None
    page: int | None
    reason: str
    action: str


class CoverageCategory(BaseModel):
    name: str
    total: int
    linked: int
    ratio: float | None
    missing: list[CoverageItem]


class CoverageReport(BaseModel):
    paper_id: str
    title: str | None
    score: float
    categories: list[CoverageCategory]
    critical: list[str]


class CypherRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=20000, examples=["MATCH (p:Paper) RETURN p.title LIMIT 5"])
    parameters: dict[str, Any] = {}


class CypherResponse(BaseModel):
    columns: list[str]
    rows: list[dict[str, Any]]
    truncated: bool
    row_limit: int


class SharedEntity(BaseModel):
    id: str
    label: str = Field(description="Method, Dataset, Task or Metric")
    name: str | None
    papers: int = Field(description="papers of the graph with an edge to the entity")
    idf: float = Field(description="the entity's weight, ln(1 + papers in the graph / papers)")


class SharedReference(BaseModel):
    id: str = Field(description="the asked paper's bibliography entry")
    title: str | None
    doi: str | None
    matched_by: list[Literal["paper", "doi", "title"]] = Field(
        description="how an entry of the related paper matched it: the same paper of the graph, DOI, "
                    "or normalised title")


class CitingPaper(BaseModel):
    paper_id: str
    title: str | None


class RelatedReason(BaseModel):
    kind: Literal["entities", "citations", "embedding"]
    contribution: float = Field(description="the reason's weight times its score in [0, 1]; a related paper's "
                                            "contributions add up to its score")
    entities: list[SharedEntity] | None = Field(None, description="entities: the ones both papers have edges to")
    direct: list[Literal["cites", "cited_by"]] | None = Field(
        None, description="citations: the asked paper cites the related one, or is cited by it")
    shared_references: list[SharedReference] | None = Field(
        None, description="citations: bibliography entries both papers have (bibliographic coupling)")
    co_cited_by: list[CitingPaper] | None = Field(
        None, description="citations: papers of the graph citing both (co-citation)")
    similarity: float | None = Field(None, description="embedding: cosine between the asked paper's mean chunk "
                                                       "embedding and the related paper's nearest chunk")


class RelatedPaper(BaseModel):
    paper_id: str
    title: str | None
    score: float
    reasons: list[RelatedReason]


class RelatedPapers(BaseModel):
    paper_id: str
    title: str | None
    weights: dict[str, float] = Field(description="each kind of reason's weight in the score")
    related: list[RelatedPaper] = Field(description="best first")


class SearchSection(BaseModel):
    id: str | None = Field(description="the section's id; null for text outside any section")
    title: str | None
    page: int | None
    snippet: str
    text: float = Field(description="BM25 of the section's best matching chunk (0: no word matched)")
    semantic: float = Field(description="vector score of its chunk nearest the query (0: not among the nearest)")


class SearchHit(BaseModel):
    paper_id: str
    title: str | None
    year: int | None
    domains: list[str]
    score: float = Field(description="the weighted sum of `signals` by the response's `formula`")
    signals: dict[str, float] = Field(description="text, semantic, entities, citations, recency; each in [0, 1]")
    raw: dict[str, float | int | None] = Field(description="bm25, similarity, cited_by, year: what was scaled")
    entities: list[str] = Field(description="entities the query names that the paper mentions")
    sections: list[SearchSection] = Field(description="its best matching sections, best first")


class SearchResponse(BaseModel):
    query: str
    lucene: str = Field(description="the Lucene query the words became")
    formula: dict[str, float] = Field(description="each signal's weight in the score")
    entities: list[str] = Field(description="entities the query names (by name or alias)")
    vectors: bool = Field(description="whether the chunk vector index was searched (false: no embedder)")
    hits: list[SearchHit]

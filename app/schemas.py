"""The API contract: request and response models (imported by the routes, the service, the CLI and the tools),
and the constrained strings checked at the door (422, not 500)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from graphs.domain import (
    NO_CONTROL_CHARS,
    Answerability,
    Chunk,
    Constraint,
    Contradiction,
    DocumentRecord,
    EntityMetadata,
    EvidenceSelection,
    ExpansionStep,
    FusionWeights,
    NameWarning,
    ParsedQuery,
    QueryPlan,
    Reflection,
    Relaxation,
    RoutingDecision,
    SearchRecord,
    StepOutcome,
    SufficiencyJudgment,
    TeamConfiguration,
    ValidatedEntity,
    WorkflowStep,
    check_document_fields,
    check_document_id,
    clean_name,
    find_unsafe,
    format_path,
)
from graphs.ingest.jobs import JobView
from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content

API_PATH = "/api/adaptive-entity-rag"
"""Where the service answers (the routes' prefix)."""
MAX_QUESTION_CHARS = 2000

NAME_MAX_CHARS = 256
NAME_RULES = ("NFKC-normalized and trimmed; no control, line-separator, bidirectional or invisible formatting "
              "characters; at least one letter or digit (422 invalid_entity_name otherwise).")


def not_blank(value: str) -> str:
    """Refuse a text that is only whitespace (``blank``)."""
    if not value.strip():
        raise PydanticCustomError("blank", "must contain a non-whitespace character")
    return value


DocumentId = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, pattern=NO_CONTROL_CHARS,
          description="Document id: 1-256 characters, no control characters."),
]
NewDocumentId = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, pattern=NO_CONTROL_CHARS,
          description="Document id: 1-256 characters; no control, bidirectional, zero-width or other invisible, "
                      "private-use, noncharacter or unassigned code points (422 invalid_document_id)."),
    AfterValidator(check_document_id),
]
"""The id of a document being written (an existing one is still named by ``DocumentId`` to read or delete)."""
EntityName = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, description=f"1-256 characters, {NAME_RULES}"),
    AfterValidator(clean_name),
]
EntityAlias = EntityName
def with_content(value: str) -> str:
    """Refuse a question with no letter or digit (``empty_question``): see ``graphs.text.content``."""
    if not has_content(value):
        raise PydanticCustomError(EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE)
    return value


Question = Annotated[
    str,
    # no min_length: an empty question is content-free like "?", refused by the one check (empty_question)
    Field(max_length=MAX_QUESTION_CHARS, json_schema_extra={"pattern": r"\S", "minLength": 1},
          description="1-2000 characters with at least one letter or digit (punctuation, emoji or invisible "
                      "characters alone: 422 empty_question)."),
    AfterValidator(with_content),
]


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


CODED_ERRORS = ("invalid_entity_name", EMPTY_QUESTION, "invalid_document_id", "empty_document",
                "invalid_metadata_date", "invalid_entity_type", "invalid_metadata")
"""422 detail types that are the error's code (the first one present names it; else ``invalid_request``)."""

UNSAFE_STRING = "unsafe_string"
"""The 422 detail ``type`` of a string no store can hold; its ``loc`` runs down to the string itself."""


def check_strings(fields: dict[str, Any]) -> None:
    """Refuse a lone surrogate or a control character anywhere in ``fields`` (keys and values, at any depth):
    it would fail in Milvus's row key or the graph's SQLite, after other documents were written. The error's
    ``ctx.path`` is the wire path below the model (``metadata.entities.PERSON[0]``)."""
    if found := find_unsafe(fields):
        path, reason = found
        raise PydanticCustomError(UNSAFE_STRING, "{field}: {reason}",
                                  {"field": format_path(path), "reason": reason, "path": list(path)})


class WireRequest(Wire):
    """A request body: strict types (``true`` is no integer, ``"yes"`` no boolean) and no unknown fields
    (``topk`` is refused by name, never ignored): 422 ``invalid_request`` naming each field."""

    model_config = ConfigDict(strict=True, extra="forbid")


class QueryRequest(WireRequest):
    action: Literal["query"] = "query"
    question: Question
    top_k: int = Field(default=5, ge=1, le=50)
    max_retries: int = Field(default=3, ge=0, le=10)
    enable_reranking: bool = True
    search_mode: Literal["auto", "structured", "semantic", "hybrid", "graph"] = "auto"
    fusion: Literal["rrf", "weighted"] = "rrf"
    vector_weight: float = Field(default=0.5, ge=0.0, le=1.0, description="Graph route: weight of the dense score.")
    fts_weight: float = Field(default=0.2, ge=0.0, le=1.0, description="Graph route: weight of the BM25 score.")
    graph_weight: float = Field(default=0.3, ge=0.0, le=1.0, description="Graph route: weight of the graph score.")
    graph_decay: float = Field(default=0.5, gt=0.0, le=1.0,
                               description="Graph route: graph score decay^(hop+1) for a node hop edges from a seed.")
    max_depth: int = Field(default=3, ge=0, le=5, description="Graph route: most hops of expansion.")
    use_evidence_selection: bool = Field(default=True, description="Graph route: select the minimal evidence set.")
    team: Literal["auto", "writer_only", "executor_inclusive", "planner_enhanced"] = Field(
        default="auto", description="Master layer: the team configuration (auto: chosen from the question).")
    max_turns: int = Field(default=5, ge=1, le=10, description="Planner: most plan rounds (the ADR's max_turns).")
    llm_model: str | None = None
    embedding_model: str | None = None
    stream: bool = False


class Workflow(Wire):
    steps: list[WorkflowStep]
    total_duration: float = Field(description="Milliseconds from the first node's start to the answer.")


class QueryAnalysis(Wire):
    original_query: str
    intent: str
    complexity: str
    complexity_score: float
    complexity_features: dict[str, float]
    confidence: float
    keywords: list[str]
    entities: list[dict[str, Any]]
    logical_relations: list[dict[str, Any]]
    parser: str


class RoutingSummary(Wire):
    action: str
    reason: str
    relaxed_constraints: list[Relaxation]
    final_constraints: list[Constraint]
    decisions: list[RoutingDecision]


class TopResult(Wire):
    id: str
    doc_id: str
    title: str
    text: str
    score: float
    dense_score: float | None = None
    bm25_score: float | None = None
    graph_score: float | None = None
    hop: int | None = None
    path: list[str] | None = None
    reranked_score: float | None
    relevance_explanation: str | None
    channel: str
    date: int | None
    entities: dict[str, list[str]]
    source: str | None = None
    section: str | None = None
    page: int | None = None


class RetrievalDetails(Wire):
    search_result_count: int
    ranked_result_count: int
    reranker: str
    searches: list[SearchRecord]
    top_results: list[TopResult]
    expansion: list[ExpansionStep] = Field(
        default_factory=list, description="Graph route: the sufficiency judgment of each depth."
    )
    evidence: EvidenceSelection | None = Field(default=None, description="Graph route: the selected evidence.")
    fusion_weights: FusionWeights | None = Field(default=None, description="Graph route: the weights used.")


class PlanStepResult(Wire):
    """One execution of one sub-question, with its results' ids (the results themselves are in topResults)."""

    sub_question: str
    question: str
    strategy: str
    attempt: int
    turn: int
    status: str
    result_ids: list[str]
    finding: str
    route: list[str]
    error: str | None
    duration_ms: float

    @classmethod
    def of(cls, o: StepOutcome) -> PlanStepResult:
        return cls(sub_question=o.sub_question, question=o.question, strategy=o.strategy, attempt=o.attempt,
                   turn=o.turn, status=o.status, result_ids=[h.id for h in o.hits], finding=o.finding,
                   route=o.route, error=o.error, duration_ms=o.duration_ms)


class MasterLayer(Wire):
    """The team the master layer chose and, for a planner team, the plan, its steps, judgments and reflections."""

    team_configuration: TeamConfiguration | None = None
    plan: QueryPlan | None = None
    steps: list[PlanStepResult] = Field(default_factory=list)
    sufficiency: list[SufficiencyJudgment] = Field(default_factory=list)
    reflections: list[Reflection] = Field(default_factory=list)
    possibly_incomplete: bool = Field(default=False, description="A budget ran out before the search was done.")


class LLMUsage(Wire):
    used: bool
    model: str | None
    calls: int
    note: str


class QueryResponse(Wire):
    success: bool = True
    status: str = Field(description="answered, or no_results when the documents do not answer the question.")
    answer: str
    answer_span: str | None = Field(
        default=None, description="The short answer (a name, date, number, verdict ...) when one was found.")
    answerability: Answerability | None = Field(
        default=None, description="Whether the retrieved passages support an answer, with the score and reason.")
    related: list[TopResult] = Field(
        default_factory=list,
        description="When not found: the closest passages, shown as related (never as the answer).")
    corrections: list[str] = Field(
        default_factory=list, description="What the answer check changed in an LLM answer, and why.")
    answer_mode: str
    citations: list[dict[str, Any]]
    workflow: Workflow
    query_analysis: QueryAnalysis
    entity_validation: list[ValidatedEntity]
    routing_decision: RoutingSummary
    retrieval_details: RetrievalDetails
    llm: LLMUsage
    degraded: list[str]
    master: MasterLayer = Field(default_factory=MasterLayer)
    contradictions: list[Contradiction] = Field(
        default_factory=list, description="Facts on which the cited sources disagree (the answer states each side).")
    run_id: str | None = Field(default=None, description="This run's id (its trajectory, when logged, has it).")


def _analysis(parsed: ParsedQuery) -> QueryAnalysis:
    return QueryAnalysis(
        original_query=parsed.original_query,
        intent=parsed.intent,
        complexity=parsed.complexity,
        complexity_score=parsed.complexity_score,
        complexity_features=parsed.complexity_features,
        confidence=parsed.confidence,
        keywords=parsed.keywords,
        entities=[e.model_dump(by_alias=True, exclude_none=True) for e in parsed.entities],
        logical_relations=[r.model_dump(by_alias=True) for r in parsed.logical_relations],
        parser=parsed.parser,
    )


_MARKERS = re.compile(r"\[(\d{1,3}(?:\s*[,，]\s*\d{1,3})*)\]")


def numbered_from_one(response: QueryResponse) -> QueryResponse:
    """The answer with its citations numbered 1, 2, … in the order the text first cites them (the graph
    numbers a citation by the passage's rank, so an answer from the second passage alone read "… [2]" and
    its references began at [2]: on the page, in /v1 and MCP alike). The markers in the text and
    ``citations`` follow (a citation is tied to its passage by its chunk id, never by its number); a citation
    the text never marks keeps its order after the marked ones; an unknown marker is left as is."""
    if not response.citations:
        return response
    known = {int(c["index"]) for c in response.citations}
    order = [n for m in _MARKERS.finditer(response.answer) for n in map(int, re.split(r"\s*[,，]\s*", m[1]))
             if n in known]
    order = list(dict.fromkeys([*order, *(int(c["index"]) for c in response.citations)]))
    new = {old: i for i, old in enumerate(order, start=1)}
    if all(old == i for old, i in new.items()):
        return response

    def renumber(m: re.Match[str]) -> str:
        parts = re.split(r"(\s*[,，]\s*)", m[1])
        return "[" + "".join(str(new.get(int(p), p)) if p.strip().isdigit() else p for p in parts) + "]"

    citations = sorted(({**c, "index": new[int(c["index"])]} for c in response.citations), key=lambda c: c["index"])
    return response.model_copy(update={"answer": _MARKERS.sub(renumber, response.answer), "citations": citations})


def to_response(out: dict[str, Any], llm_model: str | None, run_id: str | None = None) -> QueryResponse:
    """Map the graph's output state to the API response."""
    decisions: list[RoutingDecision] = out.get("decisions", [])
    first = decisions[0] if decisions else RoutingDecision(action="rerank", reason="no decision")
    ranked = out.get("ranked", [])
    calls = out.get("llm_calls", 0)
    used = llm_model is not None
    llm_failed = [d for d in out.get("degraded", [])
                  if d in ("parse_query", "write_answer", "judge_expansion", "select_evidence", "plan_query",
                           "monitor_sufficiency")]
    note = (
        f"LLM {llm_model} used for parsing and writing" if used and not llm_failed
        else f"LLM {llm_model} configured but failed in {', '.join(llm_failed)}: rule-based fallback ran"
        if used else "ran without an LLM: rule-based parser and extractive writer"
    )
    return numbered_from_one(QueryResponse(
        status=out.get("status", "answered"),
        answer=out.get("answer", ""),
        answer_span=out.get("answer_span"),
        answerability=out.get("answerability"),
        related=[TopResult.model_validate(h.model_dump()) for h in out.get("related", [])],
        corrections=out.get("corrections", []),
        answer_mode=out.get("answer_mode", "none"),
        citations=[c.model_dump(by_alias=True) for c in out.get("citations", [])],
        workflow=Workflow(steps=out.get("steps", []), total_duration=out.get("total_duration_ms", 0.0)),
        query_analysis=_analysis(out["parsed"]),
        entity_validation=out.get("entities", []),
        routing_decision=RoutingSummary(
            action=first.action,
            reason=first.reason,
            relaxed_constraints=out.get("relaxed", []),
            final_constraints=out.get("constraints", []),
            decisions=decisions,
        ),
        retrieval_details=RetrievalDetails(
            search_result_count=len(out.get("hits", [])),
            ranked_result_count=len(ranked),
            reranker=out.get("reranker", "none"),
            searches=out.get("searches", []),
            top_results=[TopResult.model_validate(h.model_dump()) for h in ranked],
            expansion=out.get("expansion", []),
            evidence=out.get("evidence"),
            fusion_weights=(out.get("fusion_weights") or FusionWeights()) if out.get("expansion") else None,
        ),
        llm=LLMUsage(used=used, model=llm_model, calls=calls, note=note),
        degraded=out.get("degraded", []),
        master=MasterLayer(
            team_configuration=out.get("team_config"), plan=out.get("plan"),
            steps=[PlanStepResult.of(o) for o in out.get("outcomes", [])], sufficiency=out.get("sufficiency", []),
            reflections=out.get("reflections", []), possibly_incomplete=out.get("possibly_incomplete", False),
        ),
        contradictions=out.get("contradictions", []),
        run_id=run_id,
    ))


class AddEntityRequest(WireRequest):
    action: Literal["add-entity"]
    standard_name: EntityName
    type: str
    aliases: list[EntityAlias] = Field(default_factory=list, max_length=200)
    hierarchy: list[EntityAlias] = Field(default_factory=list, max_length=20)
    related_entities: list[EntityAlias] = Field(default_factory=list, max_length=200)

    @model_validator(mode="after")
    def _storable(self) -> AddEntityRequest:
        check_strings({"standardName": self.standard_name, "type": self.type, "aliases": self.aliases,
                       "hierarchy": self.hierarchy, "relatedEntities": self.related_entities})
        return self


class DocumentIn(WireRequest):
    id: NewDocumentId
    title: str = Field(default="", max_length=1000)
    text: str = Field(min_length=1, max_length=1_000_000)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _storable(self) -> DocumentIn:
        check_strings({"title": self.title, "text": self.text, "metadata": self.metadata})
        check_document_fields(None, self.text, self.metadata)
        return self


class AddDocumentsRequest(WireRequest):
    action: Literal["add-documents"]
    documents: list[DocumentIn] = Field(min_length=1, max_length=500)
    skip_unchanged: bool = Field(
        default=False, description="Leave alone a document whose content is the one already indexed.")
    background: bool | None = Field(
        default=None, description="true: run as an ingest job (202 with jobId); false: wait for the write; unset: "
                                  "a job when the documents hold more than AER_INGEST_SYNC_MAX_CHARS characters.")


class DocumentFileOptions(Wire):
    """Per-file fields of an upload (the ``metadata`` form field maps each file name to one of these)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")
    id: NewDocumentId | None = None
    title: str | None = Field(default=None, max_length=1000)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _storable(self) -> DocumentFileOptions:
        check_strings({"title": self.title or "", "metadata": self.metadata})
        check_document_fields(None, None, self.metadata)
        return self


class DeleteDocumentRequest(WireRequest):
    action: Literal["delete-document"]
    id: DocumentId


class RemoveAliasRequest(WireRequest):
    action: Literal["remove-alias"]
    standard_name: EntityName
    aliases: list[EntityAlias] = Field(min_length=1, max_length=200)


class DeleteEntityRequest(WireRequest):
    action: Literal["delete-entity"]
    standard_name: EntityName


# The answers of the other actions, typed so the OpenAPI document describes every 200 body.
class AddEntityResponse(Wire):
    success: Literal[True] = True
    entity: EntityMetadata = Field(description="The entity as stored, merged with what was there.")
    warnings: list[NameWarning] = Field(
        default_factory=list, description="Names or aliases accepted that look like another entity's "
        "(code confusable_name: Unicode confusables, e.g. a Cyrillic А in Аpple).")
    retagged: int | None = Field(
        default=0, description="Indexed chunks re-tagged: those that name the entity now get its tag (and lose it "
        "when they named it only by a removed alias). null: the vector index was unavailable; the entity is saved "
        "and the next write or restart re-tags the chunks.")


class AddDocumentsResponse(Wire):
    success: Literal[True] = True
    documents: int = Field(description="Documents written (an existing id is replaced).")
    chunks: int = Field(description="Chunks written.")
    ids: list[str] = Field(description="The ids of the documents written.")
    replaced: list[str] = Field(default_factory=list, description="Of those, the ids that replaced an earlier "
                                                                  "version (never silent).")


class DeleteDocumentResponse(Wire):
    success: Literal[True] = True
    id: str
    deleted_chunks: int = Field(description="Chunks removed with the document.")


class DeleteEntityResponse(Wire):
    success: Literal[True] = True
    entity: EntityMetadata = Field(description="The entity as it was before the delete.")
    untagged: int = Field(description="Indexed chunks that lost its tag (its name and aliases no longer filter).")


class EntityListResponse(Wire):
    success: Literal[True] = True
    total: int = Field(description="Entities that match (of the type, and the search when one is given).")
    offset: int
    limit: int
    entities: list[EntityMetadata]


class DocumentListResponse(Wire):
    success: Literal[True] = True
    total: int = Field(description="Documents that match the filters.")
    offset: int
    limit: int
    documents: list[DocumentRecord]


class DocumentResponse(Wire):
    success: Literal[True] = True
    document: DocumentRecord
    chunks: list[Chunk] = Field(description="Its chunks in order, with their entity tags, date and location.")


class JobResponse(Wire):
    success: Literal[True] = True
    job: JobView


ReadResponse = EntityListResponse | DocumentListResponse | DocumentResponse | JobResponse
"""The answers of ``GET ?action=entities|documents|document|job``."""

ActionResponse = QueryResponse | AddEntityResponse | AddDocumentsResponse | DeleteDocumentResponse | DeleteEntityResponse
"""The answers of the POST actions (remove-alias answers like add-entity)."""
"""The 200 body of ``POST /api/adaptive-entity-rag``, by action."""

# One example per action for the OpenAPI document (Swagger UI's "Try it out" starts from the first); each
# succeeds on the demo corpus (`aer demo`), in this order (tests/api/test_openapi_examples.py posts them).
REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    "query": {
        "summary": "Ask a question",
        "value": {"action": "query", "question": "马斯克创办的公司有哪些？", "topK": 3},
    },
    "query-options": {
        "summary": "Ask with options: hybrid search, no reranking",
        "value": {"action": "query", "question": "什么是机器学习？", "topK": 5, "searchMode": "hybrid",
                  "enableReranking": False, "team": "auto"},
    },
    "query-stream": {
        "summary": "Ask and stream the steps as server-sent events",
        "value": {"action": "query", "question": "2024年苹果在北京发布的产品", "stream": True},
    },
    "add-entity": {
        "summary": "Add an entity with aliases (an alias owned by another entity is a 409)",
        "value": {"action": "add-entity", "standardName": "Jensen Huang", "type": "PERSON",
                  "aliases": ["黄仁勋", "老黄"], "relatedEntities": ["NVIDIA"]},
    },
    "add-documents": {
        "summary": "Add (or replace) documents",
        "value": {"action": "add-documents", "documents": [{
            "id": "su7-launch", "title": "小米SU7发布", "text": "2024年3月28日，雷军在北京发布了小米首款电动汽车SU7。",
            "metadata": {"date": "2024-03-28", "entities": {"PERSON": ["雷军"], "LOCATION": ["北京"]}}}]},
    },
    "remove-alias": {
        "summary": "Remove an alias from an entity (the chunks that named it only by that alias lose the tag)",
        "value": {"action": "remove-alias", "standardName": "Jensen Huang", "aliases": ["老黄"]},
    },
    "delete-document": {
        "summary": "Delete a document (this one exists once the add-documents example ran; else 404)",
        "value": {"action": "delete-document", "id": "su7-launch"},
    },
    "delete-entity": {
        "summary": "Delete an entity and its aliases (the chunks lose its tag; the documents stay)",
        "value": {"action": "delete-entity", "standardName": "Jensen Huang"},
    },
}


class AuthInfo(Wire):
    api_keys: bool = Field(description="Whether the server has API keys: writes need one (X-API-Key).")
    reads_need_key: bool = Field(description="Whether queries and reads need a key too.")


class Features(Wire):
    """The document endpoints this server has (a client can check before it uses them)."""

    upload: bool = Field(description="POST /api/adaptive-entity-rag/upload (multipart files).")
    jobs: bool = Field(description="GET ?action=job&id=… (ingest job progress).")
    documents: bool = Field(description="GET ?action=documents and ?action=document&id=… (the inventory).")


class QueryDefaults(Wire):
    top_k: int
    max_retries: int
    max_turns: int


class ServiceInfo(Wire):
    """What the page needs to build its forms: the choices a request may make and how the server is guarded."""

    success: Literal[True] = True
    version: str
    llm_models: list[str] = Field(description="LLM models a query may name in llmModel (empty: no LLM).")
    embedding_model: str
    embedding_note: str | None = Field(
        default=None, description="Why the embedder is not the configured one (a fallback, an older index)."
    )
    reranker: str = Field(description="The reranker that runs when enableReranking is true.")
    entity_types: list[str]
    search_modes: list[str]
    teams: list[str]
    defaults: QueryDefaults
    auth: AuthInfo
    features: Features


class GraphNode(Wire):
    id: str = Field(description="The node's name, as in workflow.steps[].node (__start__ and __end__ included).")


class GraphEdge(Wire):
    source: str
    target: str
    conditional: bool = Field(description="Chosen by a routing function (else always taken).")


class GraphStructure(Wire):
    """The LangGraph state machine's nodes and edges, for drawing a run's route on it."""

    success: Literal[True] = True
    nodes: list[GraphNode]
    edges: list[GraphEdge]


class EvalReport(Wire):
    """One ``aer eval`` report (eval-<dataset>.json and .md) as the page shows it."""

    dataset: str
    created: str | None = Field(default=None, description="When the eval ran (from the report).")
    modified_at: float = Field(description="The report file's modification time (Unix seconds).")
    markdown: str = Field(description="The Markdown report (eval-<dataset>.md; rendered from the JSON if absent).")
    html: str = Field(description="The Markdown report as HTML (tables; raw HTML in it is escaped).")
    chart: bool = Field(description="Whether eval-<dataset>.png exists (GET …/evaluations/{dataset}/chart).")
    report: dict[str, Any] = Field(description="The JSON report as written by `aer eval`.")


class EvalReports(Wire):
    success: Literal[True] = True
    reports: list[EvalReport] = Field(description="The latest report of each dataset, newest first.")
    errors: list[str] = Field(default_factory=list, description="Report files that could not be read, and why.")


# -- the page's workbench: the knowledge graph, follow-up questions, evaluations run from the page ------------------


class KgNode(Wire):
    id: str = Field(description="The node id: doc:<document id> or entity:<folded name>.")
    name: str = Field(description="A document's title or an entity's name.")
    kind: Literal["doc", "entity"]
    doc_id: str | None = Field(default=None, description="A document node's document id.")
    aliases: list[str] = Field(default_factory=list, description="An entity's aliases in the entity store.")


class KgPassage(Wire):
    """A passage of a document behind an edge: the chunk that names the edge's other end (or its first)."""

    doc_id: str
    title: str
    chunk_id: str
    text: str


class KgEdge(Wire):
    source: str = Field(description="The node id the edge leaves.")
    target: str = Field(description="The node id the edge enters.")
    kind: str = Field(description="mentions, title_link, co_occurs, related, parent or titled.")
    weight: float
    documents: list[str] = Field(default_factory=list, description="The documents that gave this edge (none for "
                                 "an edge from the entity store: a related entity or a parent).")
    passages: list[KgPassage] = Field(default_factory=list, description="A passage of each of those documents.")


class KgNeighbourhood(Wire):
    """One hop of the knowledge graph (SQLite, built at ingest) around an entity or a document."""

    success: Literal[True] = True
    center: KgNode
    nodes: list[KgNode] = Field(description="The center first, then its neighbours, strongest edge first.")
    edges: list[KgEdge]
    truncated: bool = Field(description="More neighbours exist than ``limit``.")


class ConversationTurn(WireRequest):
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS * 4)


class ResolveRequest(WireRequest):
    """A conversation whose last turn is the user's new question."""

    messages: list[ConversationTurn] = Field(min_length=1, max_length=40)

    @model_validator(mode="after")
    def _ends_with_a_question(self) -> ResolveRequest:
        last = self.messages[-1]
        if last.role != "user" or not last.content.strip():
            raise PydanticCustomError("last_turn", "the last message must be the user's question")
        if len(last.content) > MAX_QUESTION_CHARS:
            raise PydanticCustomError("too_long", f"the question is over {MAX_QUESTION_CHARS} characters")
        check_strings({"messages": [m.content for m in self.messages]})
        return self


class CarriedName(Wire):
    text: str
    standard_name: str
    type: str


class ResolveResponse(Wire):
    """The question to ask: what ``/v1/chat/completions`` answers for the same conversation."""

    success: Literal[True] = True
    question: str = Field(description="The standalone question to ask.")
    original: str = Field(description="The last user message.")
    mode: Literal["standalone", "condensed", "entities"]
    carried_entities: list[CarriedName] = Field(default_factory=list)
    degraded: list[str] = Field(default_factory=list)


class EvalJob(Wire):
    """An evaluation run from the page: the uploaded questions asked of the indexed documents."""

    success: Literal[True] = True
    id: str
    dataset: str = Field(description="The report's name (eval-<dataset>.json in the results folder).")
    status: Literal["queued", "running", "done", "failed"]
    modes: list[str]
    questions: int
    done: int = Field(description="Questions asked so far (over every mode).")
    total: int = Field(description="Questions to ask in all (questions × modes).")
    error: str | None = None
    report: EvalReport | None = Field(default=None, description="The report, once done.")

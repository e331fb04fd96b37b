"""The query resource: a question (``QueryRequest``) and its answer with the route it took (``QueryResponse``,
built from the graph's output state by ``to_response``)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field

from app.schemas.base import (
    Question,
    Wire,
    WorkspaceRequest,
)
from graphs.domain import (
    Answerability,
    Constraint,
    Contradiction,
    EvidenceSelection,
    ExpansionStep,
    FusionWeights,
    ParsedQuery,
    PartAnswer,
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
)
from graphs.rag.registry import llm_nodes


class QueryRequest(WorkspaceRequest):
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
    min_answerability: float | None = Field(
        default=None, ge=0.0, le=1.0,
        description="Answer only when the calibrated answerability reaches this (default: the threshold chosen on "
                    "the pooled dev sets, docs/answers.md); lower answers more and is wrong more often.")
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


class AnswerPart(Wire):
    """One part of a message that asks several things, answered on its own (its citations are the whole
    answer's, numbered alike)."""

    sub_question: str = Field(description="The plan step that answered it (q1, q2, …: master.plan).")
    question: str = Field(description="The part as asked (a later part carries the earlier part's subject).")
    status: str = Field(description="answered, or no_results when the documents do not answer this part.")
    answer: str
    answer_span: str | None = None
    answerability: Answerability | None = None
    citations: list[dict[str, Any]] = Field(default_factory=list)

    @classmethod
    def of(cls, p: PartAnswer) -> AnswerPart:
        return cls(sub_question=p.sub_question, question=p.question, status=p.status, answer=p.answer,
                   answer_span=p.answer_span, answerability=p.answerability,
                   citations=[c.model_dump(by_alias=True) for c in p.citations])


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
    parts: list[AnswerPart] = Field(
        default_factory=list, description="When the message asks several things: each part's own answer, in the "
                                          "order asked (the answer says them in turn); empty for one question.")
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
    vectors_pending: int = Field(
        default=0, description="Chunks of recent uploads whose dense vectors were still filling when this question "
                               "was answered: dense search saw only those it could embed within its budget.")
    documents_pending: int = Field(
        default=0, description="Documents that the workspace's ingest jobs (an upload, a large add-documents) had "
                               "still to write when this question was answered: no search could find them yet.")
    workspace: str = Field(default="default", description="The workspace that answered (its documents only).")


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
    parts = [p.model_copy(update={"answer": _MARKERS.sub(renumber, p.answer), "citations": sorted(
        ({**c, "index": new.get(int(c["index"]), c["index"])} for c in p.citations), key=lambda c: c["index"])})
        for p in response.parts]
    return response.model_copy(update={"answer": _MARKERS.sub(renumber, response.answer), "citations": citations,
                                       "parts": parts})


def to_response(out: dict[str, Any], llm_model: str | None, run_id: str | None = None) -> QueryResponse:
    """Map the graph's output state to the API response."""
    decisions: list[RoutingDecision] = out.get("decisions", [])
    first = decisions[0] if decisions else RoutingDecision(action="rerank", reason="no decision")
    ranked = out.get("ranked", [])
    calls = out.get("llm_calls", 0)
    used = llm_model is not None
    llm_failed = [d for d in out.get("degraded", []) if d in llm_nodes()]
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
        parts=[AnswerPart.of(p) for p in out.get("parts", [])],
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

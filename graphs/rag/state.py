"""The one typed state the graph moves, its input/output views and reducers."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_type_hints

from typing_extensions import TypedDict

from graphs.domain import (
    Answerability,
    Citation,
    Constraint,
    Contradiction,
    EvidenceSelection,
    ExpansionStep,
    FusionWeights,
    Hit,
    KgNode,
    ParsedQuery,
    PartAnswer,
    QueryPlan,
    Reflection,
    Relaxation,
    RoutingDecision,
    SearchRecord,
    StepOutcome,
    SubQuestion,
    SufficiencyJudgment,
    TeamConfiguration,
    ValidatedEntity,
    WorkflowStep,
)
from graphs.rag.answer.check import Draft

AnswerMode = Literal["llm", "extractive", "direct", "none"]
TeamChoice = Literal["auto", "writer_only", "executor_inclusive", "planner_enhanced"]
Status = Literal["answered", "no_results"]


def merge_unique(left: list[str], right: list[str]) -> list[str]:
    """Append the new labels that are not there yet, keeping order."""
    return left + [item for item in right if item not in left]


class InputState(TypedDict, total=False):
    """What a caller sends."""

    question: str
    top_k: int
    max_retries: int
    enable_reranking: bool
    search_mode: Literal["auto", "structured", "semantic", "hybrid", "graph"]
    fusion: Literal["rrf", "weighted"]
    fusion_weights: FusionWeights
    max_depth: int
    use_evidence_selection: bool
    team: TeamChoice
    max_turns: int
    min_answerability: float


class OnePathInput(InputState, total=False):
    """What the one-path team needs when it runs alone (a plan step): the executor's configuration and when
    its budget started."""

    team_config: TeamConfiguration
    started_at: float


class RagState(InputState, total=False):
    """Everything the graph knows about one question."""

    parsed: ParsedQuery
    entities: list[ValidatedEntity]
    constraints: list[Constraint]
    query_vector: list[float]
    lexical_text: str
    """What BM25 reads for the question (``graphs.rag.search.lexical_text``): computed by the run's first search that
    needs it, carried like ``query_vector``."""
    decisions: Annotated[list[RoutingDecision], operator.add]
    relaxed: Annotated[list[Relaxation], operator.add]
    relaxations: Annotated[int, operator.add]
    searches: Annotated[list[SearchRecord], operator.add]
    hits: list[Hit]
    graph_nodes: dict[str, KgNode]
    frontier: list[str]
    depth: int
    bm25_scale: float
    breadth: list[Hit]
    seed_links: dict[str, list[str]]
    expansion: Annotated[list[ExpansionStep], operator.add]
    evidence: EvidenceSelection
    team_config: TeamConfiguration
    started_at: float
    plan: QueryPlan
    outcomes: Annotated[list[StepOutcome], operator.add]
    sufficiency: Annotated[list[SufficiencyJudgment], operator.add]
    reflections: Annotated[list[Reflection], operator.add]
    turn: int
    possibly_incomplete: bool
    contradictions: list[Contradiction]
    ranked: list[Hit]
    reranker: str
    answer: str
    answer_span: str | None
    answerability: Answerability
    related: list[Hit]
    corrections: list[str]
    citations: list[Citation]
    answer_mode: AnswerMode
    status: Status
    draft: Draft | None
    """An LLM's answer before check_answer (a ``graphs.rag.answer.check.Draft``), None after."""
    answer_check: str
    parts: list[PartAnswer]
    """A message that asks several things: each part's answer, as composed into ``answer``."""
    steps: Annotated[list[WorkflowStep], operator.add]
    total_duration_ms: float
    degraded: Annotated[list[str], merge_unique]
    llm_calls: Annotated[int, operator.add]


INTERNAL: frozenset[str] = frozenset({
    # the request's knobs (the response echoes only the question and the fusion weights used)
    "top_k", "max_retries", "enable_reranking", "search_mode", "fusion", "max_depth", "use_evidence_selection",
    "team", "max_turns", "min_answerability",
    # the LLM's draft on its way from write_answer to check_answer, and the check's outcome (its step says it)
    "draft", "answer_check",
    # working state of the searches, the graph route and the master layer's budget
    "query_vector", "lexical_text", "relaxations", "frontier", "depth", "bm25_scale", "breadth", "seed_links", "started_at", "turn",
})
"""RagState's keys a caller never gets back; every other key of RagState is output."""


def _derived_output() -> Any:
    """``OutputState``: RagState without its internal keys, the same types (reducers included: LangGraph sees
    one channel per key), as a TypedDict that LangGraph Studio and pydantic read like a hand-written one."""
    hints = get_type_hints(RagState, include_extras=True)
    fields = {key: hint for key, hint in hints.items() if key not in INTERNAL}
    output = TypedDict("OutputState", fields, total=False)  # type: ignore[misc]
    output.__doc__ = "What the graph returns to callers: RagState's keys but the internal ones."
    output.__module__ = __name__
    return output


if TYPE_CHECKING:
    class OutputState(RagState, total=False):
        """What the graph returns to callers (to a type checker: a RagState)."""
else:
    OutputState = _derived_output()


class StepInput(TypedDict, total=False):
    """What the planner sends to one execute_step (LangGraph ``Send``): the sub-question and its context."""

    question: str
    sub_question: SubQuestion
    parents: dict[str, str]
    turn: int
    top_k: int
    fusion: Literal["rrf", "weighted"]
    started_at: float
    time_budget_s: float


class RagUpdate(RagState, total=False):
    """What a node returns: only the keys it changed, each with RagState's type (a reducer key: what to add)."""

"""The one typed state the graph moves, its input/output views and reducers."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

from typing_extensions import TypedDict

from graphs.domain import (
    Citation,
    Constraint,
    EvidenceSelection,
    ExpansionStep,
    FusionWeights,
    GraphNode,
    Hit,
    ParsedQuery,
    Relaxation,
    RoutingDecision,
    SearchRecord,
    ValidatedEntity,
    WorkflowStep,
)

AnswerMode = Literal["llm", "extractive", "none"]
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


class RagState(InputState, total=False):
    """Everything the graph knows about one question."""

    parsed: ParsedQuery
    entities: list[ValidatedEntity]
    constraints: list[Constraint]
    query_vector: list[float]
    decisions: Annotated[list[RoutingDecision], operator.add]
    relaxed: Annotated[list[Relaxation], operator.add]
    relaxations: Annotated[int, operator.add]
    searches: Annotated[list[SearchRecord], operator.add]
    hits: list[Hit]
    graph_nodes: dict[str, GraphNode]
    frontier: list[str]
    depth: int
    bm25_scale: float
    breadth: list[Hit]
    seed_links: dict[str, list[str]]
    expansion: Annotated[list[ExpansionStep], operator.add]
    evidence: EvidenceSelection
    ranked: list[Hit]
    reranker: str
    answer: str
    citations: list[Citation]
    answer_mode: AnswerMode
    status: Status
    steps: Annotated[list[WorkflowStep], operator.add]
    total_duration_ms: float
    degraded: Annotated[list[str], merge_unique]
    llm_calls: Annotated[int, operator.add]


class OutputState(TypedDict, total=False):
    """What the graph returns to callers."""

    question: str
    parsed: ParsedQuery
    entities: list[ValidatedEntity]
    constraints: list[Constraint]
    decisions: list[RoutingDecision]
    relaxed: list[Relaxation]
    searches: list[SearchRecord]
    hits: list[Hit]
    expansion: list[ExpansionStep]
    evidence: EvidenceSelection
    graph_nodes: dict[str, GraphNode]
    fusion_weights: FusionWeights
    ranked: list[Hit]
    reranker: str
    answer: str
    citations: list[Citation]
    answer_mode: AnswerMode
    status: Status
    steps: list[WorkflowStep]
    total_duration_ms: float
    degraded: list[str]
    llm_calls: int


RagUpdate = dict[str, Any]

"""Pure routing functions: they read the state and name the next node."""

from __future__ import annotations

from typing import Literal

from graphs.domain import RouteAction, RoutingDecision
from graphs.rag.state import RagState

RouteNode = Literal[
    "search_structured", "search_semantic", "search_hybrid", "search_graph", "relax_constraints", "rerank_hits"
]

ACTION_NODE: dict[RouteAction, RouteNode] = {
    "structured_search": "search_structured",
    "semantic_search": "search_semantic",
    "hybrid_search": "search_hybrid",
    "graph_search": "search_graph",
    "relax_constraints": "relax_constraints",
    "rerank": "rerank_hits",
}


def node_for(decision: RoutingDecision) -> RouteNode:
    """The node that carries out a routing decision (route_query goes there with a ``Command``)."""
    return ACTION_NODE[decision.action]


def after_judge_expansion(state: RagState) -> Literal["expand_graph", "select_evidence"]:
    """One more hop when the judgment says expand; otherwise on to evidence selection."""
    return "expand_graph" if state["expansion"][-1].decision == "expand" else "select_evidence"

"""Pure routing functions and the node maps: they read the state and name the next node (or the plan steps
to run)."""

from __future__ import annotations

from typing import Literal

from langgraph.types import Send

from graphs.domain import RouteAction, RoutingDecision, TeamName
from graphs.rag.planning import ready_steps
from graphs.rag.state import RagState, StepInput

TeamNode = Literal["write_answer", "route_query", "plan_query"]

TEAM_NODE: dict[TeamName, TeamNode] = {
    "writer_only": "write_answer", "executor_inclusive": "route_query", "planner_enhanced": "plan_query"}
"""Where configure_team hands each team's question (it goes there with a ``Command``)."""

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
"""Where route_query carries out each routing action (it goes there with a ``Command``)."""


def node_for(decision: RoutingDecision) -> RouteNode:
    """The node that carries out a routing decision (route_query goes there with a ``Command``)."""
    return ACTION_NODE[decision.action]


def after_judge_expansion(state: RagState) -> Literal["expand_graph", "select_evidence"]:
    """One more hop when the judgment says expand; otherwise on to evidence selection."""
    return "expand_graph" if state["expansion"][-1].decision == "expand" else "select_evidence"


def plan_steps(state: RagState) -> list[Send]:
    """One ``execute_step`` per ready sub-question (they run in parallel), each with its parents' findings."""
    turn = state.get("turn", 0) + 1
    parents = {o.sub_question: o.finding for o in state.get("outcomes", []) if o.status == "ok"}
    sends = []
    for sub in ready_steps(state["plan"]):
        step = StepInput(question=state["question"], sub_question=sub, turn=turn,
                         parents={d: parents[d] for d in sub.depends_on if d in parents})
        if "top_k" in state:
            step["top_k"] = state["top_k"]
        if "fusion" in state:
            step["fusion"] = state["fusion"]
        sends.append(Send("execute_step", step))
    return sends


def after_plan_query(state: RagState) -> list[Send] | Literal["rerank_hits"]:
    """Run the plan's first ready steps (a plan with none goes straight to ranking)."""
    return plan_steps(state) or "rerank_hits"


def after_monitor_sufficiency(state: RagState) -> list[Send] | Literal["reflect", "rerank_hits"]:
    """Follow the monitor: reflect on failures, answer, or run the steps that are ready now."""
    nxt = state["sufficiency"][-1].next
    if nxt == "reflect":
        return "reflect"
    if nxt == "answer":
        return "rerank_hits"
    return plan_steps(state) or "rerank_hits"


def after_reflect(state: RagState) -> list[Send] | Literal["rerank_hits"]:
    """Run the retried, switched or replanned steps; with every step aborted, answer with what succeeded."""
    return plan_steps(state) or "rerank_hits"

"""route_query: choose the next retrieval action and say why."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.domain import Constraint, Hit, RoutingDecision, SearchRecord
from graphs.rag.context import RagContext, RagLimits
from graphs.rag.state import RagState, RagUpdate

# Intents for which entity filters express what the user asks for.
FILTERED_INTENTS = frozenset({"factual", "comparison", "procedural", "exploratory"})


def _describe(constraints: list[Constraint]) -> str:
    return ", ".join(f"{c.type}={'NOT ' if c.negated else ''}{c.value}" for c in constraints)


def first_route(state: RagState, limits: RagLimits) -> RoutingDecision:
    """Pick the first search from intent and validated entities (or the caller's explicit mode)."""
    mode = state.get("search_mode", "auto")
    constraints = state.get("constraints", [])
    if mode == "structured" and constraints:
        return RoutingDecision(action="structured_search", reason=f"caller asked for structured search on {_describe(constraints)}")
    if mode in ("semantic", "hybrid"):
        return RoutingDecision(action=f"{mode}_search", reason=f"caller asked for {mode} search")  # type: ignore[arg-type]
    intent = state["parsed"].intent
    if intent == "conceptual":
        return RoutingDecision(action="semantic_search", reason="conceptual question: pure vector search over meaning")
    if any(c.type != "DATE" for c in constraints) and intent in FILTERED_INTENTS:
        return RoutingDecision(
            action="structured_search",
            reason=f"{len(constraints)} validated constraint(s) ({_describe(constraints)}) and {intent} intent: filtered vector search",
        )
    why = (
        f"{intent} intent" if any(c.type != "DATE" for c in constraints)
        else "only a date to filter on (a weak filter on its own)" if constraints
        else "no validated entities to filter on"
    )
    return RoutingDecision(action="hybrid_search", reason=f"{why}: dense + BM25 hybrid search")


def next_route(
    searches: list[SearchRecord], hits: list[Hit], constraints: list[Constraint], relaxations: int,
    max_retries: int, limits: RagLimits,
) -> RoutingDecision:
    """Decide what follows a search from its outcome and the remaining retry budget."""
    last = searches[-1]
    tried = {s.channel for s in searches}
    if not hits:
        if last.channel == "structured" and constraints and relaxations < max_retries:
            return RoutingDecision(
                action="relax_constraints",
                reason=f"0 results under {last.filter}; relaxation {relaxations + 1} of {max_retries}",
            )
        if "semantic" not in tried:
            why = "retries exhausted" if relaxations >= max_retries and constraints else "no constraints left"
            return RoutingDecision(action="semantic_search", reason=f"0 results and {why}: semantic fallback")
        if "hybrid" not in tried:
            return RoutingDecision(action="hybrid_search", reason="0 results from vector search: try BM25 hybrid")
        return RoutingDecision(action="rerank", reason="nothing found on any channel: answer that nothing was found")
    if len(hits) < limits.min_results:
        enough = False
    elif last.channel == "structured":
        enough = True  # every hit satisfies the entity filters
    else:
        top = max((h.dense_score if h.dense_score is not None else h.score) for h in hits)
        enough = last.channel == "hybrid" or top >= limits.min_dense_score
    if enough or "hybrid" in tried:
        return RoutingDecision(action="rerank", reason=f"{len(hits)} result(s) from {last.channel} search: rerank and write")
    return RoutingDecision(
        action="hybrid_search", reason=f"{len(hits)} weak result(s) from {last.channel} search: add BM25 via hybrid search"
    )


def decide_route(state: RagState, limits: RagLimits) -> RoutingDecision:
    """The router's rule table, as a pure function of the state."""
    searches = state.get("searches", [])
    if not searches:
        return first_route(state, limits)
    return next_route(
        searches, state.get("hits", []), state.get("constraints", []), state.get("relaxations", 0),
        state.get("max_retries", limits.max_retries), limits,
    )


async def route_query(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Record the next routing decision."""
    return {"decisions": [decide_route(state, runtime.context.limits)]}


def summarize(update: RagUpdate) -> str:
    """Describe the decision."""
    d: RoutingDecision = update["decisions"][-1]
    return f"{d.action}: {d.reason}"

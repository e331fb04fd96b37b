"""route_query: choose the next retrieval action and say why."""

from __future__ import annotations

import time

from langgraph.runtime import Runtime
from langgraph.types import Command

from graphs.domain import Constraint, Hit, RoutingDecision, SearchRecord
from graphs.rag.answer.question import CODE
from graphs.rag.context import RagContext, RagLimits
from graphs.rag.edges import RouteNode, node_for
from graphs.rag.question import coverage, echo_free, state_terms
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate

# Intents for which entity filters express what the user asks for.
FILTERED_INTENTS = frozenset({"factual", "comparison", "procedural", "exploratory"})


def _describe(constraints: list[Constraint]) -> str:
    return ", ".join(f"{c.type}={'NOT ' if c.negated else ''}{c.value}" for c in constraints)


ESCALATE_BELOW = 0.6
"""A first search whose best two results cover less of the question's terms than this escalates to the graph."""


def multi_hop(state: RagState) -> str | None:
    """Why the question needs more than one retrieval step, or None. A moderate question about entities
    the store knows stays on the filtered path: its constraints already say where to look."""
    parsed = state["parsed"]
    if parsed.intent == "comparison":
        return "comparison question"
    if parsed.complexity == "complex":
        return "complex question"
    if parsed.complexity == "moderate" and not any(c.type != "DATE" for c in state.get("constraints", [])):
        return "moderate question with no entity to filter on"
    return None


def first_coverage(state: RagState) -> float:
    """Share of the question's terms that the first search's best two results mention."""
    top = state.get("hits", [])[:2]
    return coverage(state_terms(state), echo_free(state, [f"{h.title}\n{h.text}" for h in top]))


def first_route(state: RagState, limits: RagLimits, has_kg: bool = False) -> RoutingDecision:
    """Pick the first search from intent and validated entities (or the caller's explicit mode)."""
    mode = state.get("search_mode", "auto")
    constraints = state.get("constraints", [])
    if mode == "graph":
        if has_kg:
            return RoutingDecision(action="graph_search", reason="caller asked for graph expansion")
        return RoutingDecision(action="hybrid_search", reason="caller asked for graph expansion, but no knowledge "
                                                              "graph is configured: hybrid search")
    if mode == "auto" and has_kg and (why := multi_hop(state)):
        return RoutingDecision(action="graph_search",
                               reason=f"{why}: seed search, then adaptive knowledge-graph expansion")
    if mode == "structured" and constraints:
        return RoutingDecision(action="structured_search", reason=f"caller asked for structured search on {_describe(constraints)}")
    if mode in ("semantic", "hybrid"):
        return RoutingDecision(action=f"{mode}_search", reason=f"caller asked for {mode} search")  # type: ignore[arg-type]
    intent = state["parsed"].intent
    if intent == "conceptual" and (codes := CODE.findall(state["parsed"].original_query)):
        # a code is matched by its spelling, which the keyword channel sees and a meaning vector blurs (E05 reads
        # like E04); an upload's chunks whose vectors still fill are found by keywords alone
        return RoutingDecision(action="hybrid_search", reason=f"conceptual question naming {', '.join(codes)}: "
                                                              "dense + BM25 hybrid search (a code is matched by its spelling)")
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
    max_retries: int, limits: RagLimits, escalate: str | None = None,
) -> RoutingDecision:
    """Decide what follows a search from its outcome and the remaining retry budget.

    ``escalate``: why the results of the first search look insufficient and the graph could help.
    """
    last = searches[-1]
    tried = {s.channel for s in searches}
    if last.channel == "graph":
        return RoutingDecision(action="rerank", reason=f"{len(hits)} result(s) from the graph expansion: rerank and write")
    if escalate and hits:
        return RoutingDecision(action="graph_search", reason=escalate)
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


def escalation(state: RagState, has_kg: bool) -> str | None:
    """After a first hybrid search in auto mode: a reason to expand through the graph, or None."""
    searches = state.get("searches", [])
    if not has_kg or state.get("search_mode", "auto") != "auto" or len(searches) != 1:
        return None
    # a conceptual question asks what something is: one passage about it suffices, links do not help
    if searches[0].channel != "hybrid" or not state.get("hits") or state["parsed"].intent == "conceptual":
        return None
    cov = first_coverage(state)
    if cov >= ESCALATE_BELOW:
        return None
    return (f"the best two results cover {cov:.0%} of the question's terms (< {ESCALATE_BELOW:.0%}): "
            "expand through the knowledge graph")


def budget_spent(state: RagState, now: float) -> str | None:
    """Why the team's turn or time budget is spent (after a search), or None."""
    team = state.get("team_config")
    searches = state.get("searches", [])
    if team is None or not searches:
        return None
    if len(searches) >= team.max_turns:
        return f"turn budget spent ({len(searches)} of {team.max_turns} searches)"
    if now - state.get("started_at", now) > team.time_budget_s:
        return f"time budget of {team.time_budget_s:.0f} s spent"
    return None


def decide_route(state: RagState, limits: RagLimits, has_kg: bool = False,
                 now: float | None = None) -> RoutingDecision:
    """The router's rule table, as a pure function of the state, whether a knowledge graph exists and the
    time (for the team's time budget)."""
    searches = state.get("searches", [])
    if not searches:
        return first_route(state, limits, has_kg)
    decision = next_route(
        searches, state.get("hits", []), state.get("constraints", []), state.get("relaxations", 0),
        state.get("max_retries", limits.max_retries), limits, escalation(state, has_kg),
    )
    if decision.action != "rerank" and now is not None and (spent := budget_spent(state, now)):
        return RoutingDecision(action="rerank", reason=f"{spent} before {decision.action}: rerank and write what "
                                                       "was found, possibly incomplete")
    return decision


SPEC = NodeSpec(purpose="choose the next retrieval action", record="decisions")


async def route_query(state: RagState, runtime: Runtime[RagContext]) -> Command[RouteNode]:
    """Record the next routing decision and go to the node that carries it out.

    The router goes there itself (``Command``) rather than through a conditional edge that re-reads the
    decision: LangGraph gives a conditional edge a fresh copy of every state channel, which cost ~0.9 ms
    per routing pass here, a third of the graph's own overhead on a one-search query.
    """
    ctx = runtime.context
    now = time.time()
    decision = decide_route(state, ctx.limits, ctx.kg is not None, now)
    update: RagUpdate = {"decisions": [decision]}
    if "possibly incomplete" in decision.reason:
        update["possibly_incomplete"] = True
    return Command(update=update, goto=node_for(decision))


def summarize(update: RagUpdate) -> str:
    """Describe the decision."""
    d: RoutingDecision = update["decisions"][-1]
    return f"{d.action}: {d.reason}"

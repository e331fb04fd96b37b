"""search_structured: vector search under the entity/date filter expression."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.domain import Constraint, Hit
from graphs.rag.context import RagContext
from graphs.rag.search import describe_search, embed_question, run_search
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.filters import build_filter


def without_dates(constraints: list[Constraint]) -> list[Constraint] | None:
    """The constraints with their (positive) dates dropped, or None when there is no date to drop. A
    question's date is a preference, not a wall: the passage that answers "2026年A350的推广预算" may be
    a paragraph of the minutes that states no date itself (its chunk has none, or the meeting's), and a
    hard date filter let the dated but unrelated chunks beat it. A negated date ("not in 2024") stays a wall."""
    kept = [c for c in constraints if c.type != "DATE" or c.negated]
    return kept if len(kept) < len(constraints) else None


def date_first(dated: list[Hit], others: list[Hit], limit: int) -> list[Hit]:
    """The hits of the date-filtered search, then those of the search without the date (each once), at most
    ``limit``: the date orders, the reranker and the answer decide."""
    seen = {h.id for h in dated}
    return [*dated, *(h for h in others if h.id not in seen)][:limit]


async def search_structured(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Dense search restricted to chunks matching every constraint; when the question's date is among them
    and the dated search found something, the chunks matching the other constraints follow (no date found
    at all still relaxes the date, as before)."""
    ctx = runtime.context
    constraints = state.get("constraints", [])
    expr = build_filter(constraints)
    vector = await embed_question(ctx, state)
    limit = max(ctx.limits.candidate_k, state.get("top_k", ctx.limits.top_k))
    loose = without_dates(constraints)
    if loose is None:
        return await run_search("structured", expr, vector,
                                lambda: ctx.index.search_dense(vector, filter=expr, limit=limit))
    loose_expr = build_filter(loose)

    def search() -> list[Hit]:
        dated = ctx.index.search_dense(vector, filter=expr, limit=limit)
        if not dated:
            return []  # nothing of that date at all: relax_constraints widens it, and says so
        return date_first(dated, ctx.index.search_dense(vector, filter=loose_expr, limit=limit), 2 * limit)

    shown = f"{expr}; then without the date: {loose_expr or 'no filter'}"
    return await run_search("structured", shown, vector, search)


summarize = describe_search

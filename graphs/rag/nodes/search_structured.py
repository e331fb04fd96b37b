"""search_structured: vector search under the entity/date filter."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.domain import Constraint, Hit
from graphs.rag.context import RagContext
from graphs.rag.question import lexical_query
from graphs.rag.registry import NodeSpec
from graphs.rag.search import dense_search, describe_search, embed_question, run_search
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.filters import build_filter

SPEC = NodeSpec(purpose="run the structured search", record="searches", search_channel="structured")


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
    """Dense search (chunks whose vectors still fill included, ``dense_search``) restricted to chunks matching
    every constraint; when the question's date is among them
    and the dated search found something, the chunks matching the other constraints follow (no date found
    at all still relaxes the date, as before)."""
    ctx = runtime.context
    constraints = state.get("constraints", [])
    where = build_filter(constraints)
    shown = ctx.index.describe_filter(where) if where is not None else None  # the record shows what the index ran
    vector = await embed_question(ctx, state)
    limit = max(ctx.limits.candidate_k, state.get("top_k", ctx.limits.top_k))
    loose = without_dates(constraints)
    text = lexical_query(state)
    if loose is None:
        return await run_search("structured", shown, vector,
                                lambda: dense_search(ctx, vector, text, where, limit))
    loose_where = build_filter(loose)
    loose_shown = ctx.index.describe_filter(loose_where) if loose_where is not None else "no filter"

    def search() -> list[Hit]:
        dated = dense_search(ctx, vector, text, where, limit)
        if not dated:
            return []  # nothing of that date at all: relax_constraints widens it, and says so
        return date_first(dated, dense_search(ctx, vector, text, loose_where, limit), 2 * limit)

    return await run_search("structured", f"{shown}; then without the date: {loose_shown}", vector, search)


summarize = describe_search

"""search_structured: vector search under the entity/date filter."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.rag.context import RagContext
from graphs.rag.registry import NodeSpec
from graphs.rag.search import describe_search, embed_question, run_search
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.filters import build_filter

SPEC = NodeSpec(purpose="run the structured search", record="searches", search_channel="structured")


async def search_structured(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Dense search restricted to chunks matching every constraint."""
    ctx = runtime.context
    where = build_filter(state.get("constraints", []))
    shown = ctx.index.describe_filter(where) if where is not None else None  # the record shows what the index ran
    vector = await embed_question(ctx, state)
    limit = max(ctx.limits.candidate_k, state.get("top_k", ctx.limits.top_k))
    return await run_search("structured", shown, vector, lambda: ctx.index.search_dense(vector, filter=where, limit=limit))


summarize = describe_search

"""search_hybrid: dense + BM25 search fused by RRF or weighted scores."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.rag.context import RagContext
from graphs.rag.question import lexical_query
from graphs.rag.registry import NodeSpec
from graphs.rag.search import describe_search, embed_question, run_search
from graphs.rag.state import RagState, RagUpdate

SPEC = NodeSpec(purpose="run the hybrid search", record="searches", search_channel="hybrid")


async def search_hybrid(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Hybrid search with no filter; the lexical side also matches entities' standard names."""
    ctx = runtime.context
    vector = await embed_question(ctx, state)
    text = lexical_query(state)
    limit = max(ctx.limits.candidate_k, state.get("top_k", ctx.limits.top_k))
    fusion = state.get("fusion", "rrf")
    return await run_search(
        "hybrid", None, vector, lambda: ctx.index.search_hybrid(vector, text, filter=None, limit=limit, fusion=fusion)
    )


summarize = describe_search

"""search_hybrid: dense + BM25 search fused by RRF or weighted scores."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.rag.context import RagContext
from graphs.rag.nodes._search import embed_question, lexical_query, run_search
from graphs.rag.nodes._search import summarize as summarize
from graphs.rag.state import RagState, RagUpdate


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

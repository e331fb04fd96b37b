"""search_semantic: pure vector search (conceptual questions and the fallback)."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.rag.context import RagContext
from graphs.rag.question import lexical_query
from graphs.rag.registry import NodeSpec
from graphs.rag.search import dense_search, describe_search, embed_question, run_search
from graphs.rag.state import RagState, RagUpdate

SPEC = NodeSpec(purpose="run the semantic search", record="searches", search_channel="semantic")


async def search_semantic(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Dense search with no filter (chunks whose vectors still fill included, ``dense_search``)."""
    ctx = runtime.context
    vector = await embed_question(ctx, state)
    limit = max(ctx.limits.candidate_k, state.get("top_k", ctx.limits.top_k))
    text = lexical_query(state)
    return await run_search("semantic", None, vector, lambda: dense_search(ctx, vector, text, None, limit))


summarize = describe_search

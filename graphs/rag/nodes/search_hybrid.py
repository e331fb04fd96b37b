"""search_hybrid: dense + BM25 search fused by RRF or weighted scores."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.domain import Hit
from graphs.ingest.vector_fill import merge_filling
from graphs.rag.context import RagContext
from graphs.rag.question import lexical_query
from graphs.rag.registry import NodeSpec
from graphs.rag.search import describe_search, run_search, run_text, with_question_vector
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.fusion import channel_candidates, fuse

SPEC = NodeSpec(purpose="run the hybrid search", record="searches", search_channel="hybrid")


async def search_hybrid(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Hybrid search with no filter; the lexical side also matches entities' standard names and the question's
    words in the other language (``lexical_text``). While a document's vectors still fill behind its upload, its
    chunks join the dense side scored by the same embedder (``graphs.ingest.vector_fill.FillingChunks``, which
    chooses them by the question's own words), then both sides are fused as the index fuses them. BM25 is no vote against a passage in the other language than
    the question's (``graphs.stores.fusion.rrf_scores``)."""
    ctx = runtime.context
    # the lexical text (the gazetteer's read) while the question's embedding finishes
    vector, crossed = await with_question_vector(ctx, state, lambda: run_text(ctx, state))
    text = lexical_query(state)
    limit = max(ctx.limits.candidate_k, state.get("top_k", ctx.limits.top_k))
    fusion = state.get("fusion", "rrf")

    def search() -> list[Hit]:
        candidates = channel_candidates(limit)
        filling = [] if ctx.filling is None else ctx.filling.search(vector, text, filter=None, limit=candidates)
        if not filling:
            return ctx.index.search_hybrid(vector, crossed, filter=None, limit=limit, fusion=fusion,
                                           question=state["question"])
        dense = merge_filling(ctx.index.search_dense(vector, filter=None, limit=candidates), filling, candidates)
        return fuse(dense, ctx.index.search_bm25(crossed, filter=None, limit=candidates), limit, fusion,
                    question=state["question"])

    return {**await run_search("hybrid", None, vector, search), "lexical_text": crossed}


summarize = describe_search

"""rerank_hits: reorder the hits with the configured reranker and explain each score."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graphs.domain import Hit
from graphs.rag.context import RagContext
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.rerankers import rerank_or_fallback


def dedupe(hits: list[Hit]) -> list[Hit]:
    """Keep the first (best-ranked) chunk of each document, so top_k counts distinct documents."""
    seen: set[str] = set()
    out = []
    for h in hits:
        if h.doc_id not in seen:
            seen.add(h.doc_id)
            out.append(h)
    return out


def ordered_upstream(state: RagState, hits: list[Hit]) -> str | None:
    """The name under which results already ordered upstream keep their order, or None. A plan's results
    are each step's reranked best, interleaved so every sub-question is represented ("plan-merge"); the
    graph route fused dense, BM25 and graph scores and ordered the evidence ("graph-fusion"). The feature
    reranker would undo either (it has no graph feature and would rank one entity above the other); model
    rerankers still rerank."""
    if not hits:
        return None
    if "plan" in state:
        return "plan-merge"
    return "graph-fusion" if hits[0].channel == "graph" else None


SPEC = NodeSpec(purpose="rank the results")


async def rerank_hits(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Rerank (unless disabled) and keep the top_k."""
    ctx = runtime.context
    top_k = state.get("top_k", ctx.limits.top_k)
    hits = dedupe(state.get("hits", []))
    if not state.get("enable_reranking", True):
        kept = [h.model_copy(update={"relevance_explanation": "search order (reranking disabled)"}) for h in hits[:top_k]]
        return {"ranked": kept, "reranker": "none"}
    if ctx.reranker.name == "fusion" and (kept_as := ordered_upstream(state, hits)):
        return {"ranked": hits[:top_k], "reranker": kept_as}
    outcome = await rerank_or_fallback(ctx.reranker, state["parsed"], state.get("constraints", []), hits, top_k)
    update: RagUpdate = {"ranked": outcome.hits, "reranker": outcome.reranker}
    if outcome.llm_calls:
        update["llm_calls"] = outcome.llm_calls
    if outcome.degraded:
        update["degraded"] = ["rerank_hits"]
    return update


def summarize(update: RagUpdate) -> str:
    """Describe the reranking."""
    return f"{len(update['ranked'])} result(s) kept by the {update['reranker']} reranker"

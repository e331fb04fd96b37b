"""Shared plumbing of the search nodes: embed, call the index off the event loop, record."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from graphs.domain import Hit, SearchRecord
from graphs.ingest.vector_fill import merge_filling
from graphs.rag.context import RagContext
from graphs.rag.question import lexical_query
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.filters import Filter
from graphs.text.scripts import in_script_of_other
from graphs.vectors import IDENTITY_SCALE, EmbedderFingerprint, crossing_scale


async def embed_question(ctx: RagContext, state: RagState) -> list[float]:
    """The question's vector: from an earlier search of this run, else the one started as the run began (or kept
    from an earlier run), else embedded off the event loop."""
    cached = state.get("query_vector")
    if cached:
        return cached
    if ctx.query_vectors is not None:
        return await ctx.query_vectors.aget(ctx.embedder, state["question"])
    return await asyncio.to_thread(ctx.embedder.embed_query, state["question"])


def dense_search(ctx: RagContext, state: RagState, vector: list[float], filter: Filter | None,
                 limit: int) -> list[Hit]:
    """Dense search, and the chunks whose vectors are still filling behind an upload scored by the same embedder
    (``FillingChunks``: right after an upload, dense search alone skips them, and a dense-only route or a question
    in the other language missed the new document until its vectors were in); a passage in the other language than
    the question scored on that crossing's scale (``across_languages``), best first. Blocking: call it in a
    thread."""
    hits = ctx.index.search_dense(vector, filter=filter, limit=limit)
    if ctx.filling is not None:
        hits = merge_filling(hits, ctx.filling.search(vector, lexical_query(state), filter=filter, limit=limit), limit)
    return across_languages(ctx, state["question"], hits, rank=True)


def across_languages(ctx: RagContext, question: str, hits: list[Hit], *, rank: bool) -> list[Hit]:
    """The hits with the dense score of each passage in the other language than the question moved onto that
    crossing's scale (``graphs.vectors.CROSSING_SCALES``: e5 scores such a passage ~0.2-0.4 lower than one in the
    question's language, answering or not, where the service's thresholds were set on USE, which does not). With
    ``rank`` (a dense channel, whose score is the dense score) the score too, best first; a fused list keeps its
    order and score. The identity for USE and any embedder not fitted."""
    own = getattr(ctx.embedder, "fingerprint", None)
    scale = crossing_scale(own.name if isinstance(own, EmbedderFingerprint) else None)
    if scale is IDENTITY_SCALE or not hits:
        return hits
    out = []
    for h in hits:
        if h.dense_score is not None and in_script_of_other(question, h.text):
            s = max(-1.0, min(1.0, scale.map(h.dense_score)))
            h = h.model_copy(update={"dense_score": s, "score": s} if rank else {"dense_score": s})
        out.append(h)
    return sorted(out, key=lambda h: -h.score) if rank else out


async def run_search(
    channel: str, filter_expr: str | None, vector: list[float], call: Callable[[], list[Hit]]
) -> RagUpdate:
    """Run a blocking index call in a thread and record what it returned (and the vector, for reuse)."""
    started = time.perf_counter()
    hits = await asyncio.to_thread(call)
    record = SearchRecord(
        channel=channel,  # type: ignore[arg-type]
        filter=filter_expr,
        count=len(hits),
        duration_ms=round((time.perf_counter() - started) * 1000, 3),
    )
    return {"hits": hits, "searches": [record], "query_vector": vector}


def describe_search(update: RagUpdate) -> str:
    """Describe a search (the summary of every search node)."""
    r: SearchRecord = update["searches"][-1]
    where = f" where {r.filter}" if r.filter else ""
    return f"{r.count} hit(s) from {r.channel} search{where} in {r.duration_ms:.0f} ms"

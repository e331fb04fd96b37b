"""Shared plumbing of the search nodes: embed, call the index off the event loop, record."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from graphs.domain import Hit, SearchRecord
from graphs.rag.context import RagContext
from graphs.rag.state import RagState, RagUpdate


async def embed_question(ctx: RagContext, state: RagState) -> list[float]:
    """The question's vector: from an earlier search of this run, else the one started as the run began (or kept
    from an earlier run), else embedded off the event loop."""
    cached = state.get("query_vector")
    if cached:
        return cached
    if ctx.query_vectors is not None:
        return await ctx.query_vectors.aget(ctx.embedder, state["question"])
    return await asyncio.to_thread(ctx.embedder.embed_query, state["question"])


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

"""Shared plumbing of the three search nodes: embed, call the index off the event loop, record."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from graphs.domain import Hit, SearchRecord
from graphs.rag.context import RagContext
from graphs.rag.state import RagState, RagUpdate


def lexical_query(state: RagState) -> str:
    """The question plus the standard names of its entities (so 马斯克 also matches 'Elon Musk')."""
    names = [e.standard_name for e in state.get("entities", []) if e.valid and e.type != "DATE" and e.standard_name]
    extra = [n for n in names if n not in state["question"]]
    return " ".join([state["question"], *extra])


async def embed_question(ctx: RagContext, state: RagState) -> list[float]:
    """The question's vector: from an earlier search of this run, else embedded off the event loop."""
    cached = state.get("query_vector")
    if cached:
        return cached
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


def summarize(update: RagUpdate) -> str:
    """Describe a search."""
    r: SearchRecord = update["searches"][-1]
    where = f" where {r.filter}" if r.filter else ""
    return f"{r.count} hit(s) from {r.channel} search{where} in {r.duration_ms:.0f} ms"

"""Shared plumbing of the search nodes: embed, call the index off the event loop, record."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from graphs.domain import Hit, SearchRecord
from graphs.ingest.vector_fill import merge_filling
from graphs.rag.context import RagContext
from graphs.rag.question import lexical_query
from graphs.rag.retrieval_crossing import other_language_terms
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.filters import Filter

T = TypeVar("T")


async def embed_question(ctx: RagContext, state: RagState) -> list[float]:
    """The question's vector: from an earlier search of this run, else the one started as the run began (or kept
    from an earlier run), else embedded off the event loop."""
    cached = state.get("query_vector")
    if cached:
        return cached
    if ctx.query_vectors is not None:
        return await ctx.query_vectors.aget(ctx.embedder, state["question"])
    return await asyncio.to_thread(ctx.embedder.embed_query, state["question"])


async def with_question_vector(ctx: RagContext, state: RagState, lexical: Callable[[], T]) -> tuple[list[float], T]:
    """The question's vector and what ``lexical`` returns, computed at once: ``lexical`` (work that needs no vector:
    the hybrid search's lexical text) runs in a worker thread while the question's embedding, started as the request
    arrived, finishes; the vector is awaited only where it is needed. Errors keep their order: a failed embedding is
    raised first (an ``EmbedderUnavailable`` stays a 503), then the lexical side's (a ``StoreUnavailable``).

    Not used for the graph route's BM25 and name lookup: measured on the bench's 10k e5 data dir (graph route, 32
    questions, interleaved, load 14-18 on 2 shared cores), running them beside the embedding made the route no
    faster with e5 on 2 engine threads (paired median +15 and +20 ms, p95 +23 and +40 ms in two runs; on 1 engine
    thread −12 ms): the engine's two threads already hold both cores, so the overlapped work slows the embedding it
    waits for."""
    work = asyncio.ensure_future(asyncio.to_thread(lexical))
    try:
        vector = await embed_question(ctx, state)
    except BaseException:
        # the thread cannot be stopped; its outcome is read so that a failure of it is never left unretrieved
        work.add_done_callback(lambda done: done.cancelled() or done.exception())
        raise
    return vector, await work


def lexical_text(ctx: RagContext, state: RagState) -> str:
    """What BM25 reads for the question: ``lexical_query`` (the question and its entities' standard names), then
    its words as the other language writes them (``retrieval_crossing.other_language_terms``: the asked attribute
    by the bilingual lexicon, the names' aliases and pinyin), so that a question over files in the other language
    matches their chunks by more than a shared name."""
    own = lexical_query(state)
    other = other_language_terms(state["question"], ctx.gazetteer())
    return f"{own} {other}" if other else own


def run_text(ctx: RagContext, state: RagState) -> str:
    """``lexical_text`` of this run: an earlier search's (``RagState.lexical_text``), else computed now. Blocking
    (the gazetteer reads the entity store): call it in a thread (``run_lexical_text``, ``with_question_vector``).
    Per question it was computed twice on the graph route (the seed search and ``fuse_scores``); the question and
    its entities do not change within a run."""
    kept = state.get("lexical_text")
    return kept if kept is not None else lexical_text(ctx, state)


async def run_lexical_text(ctx: RagContext, state: RagState) -> str:
    """``run_text`` off the event loop (at once when an earlier search carried it)."""
    kept = state.get("lexical_text")
    if kept is not None:
        return kept
    return await asyncio.to_thread(lexical_text, ctx, state)


def dense_search(ctx: RagContext, vector: list[float], text: str, filter: Filter | None, limit: int) -> list[Hit]:
    """Dense search, and the chunks whose vectors are still filling behind an upload scored by the same embedder
    (``FillingChunks``: right after an upload, dense search alone skips them, and a dense-only route or a question
    in the other language missed the new document until its vectors were in). Blocking: call it in a thread."""
    hits = ctx.index.search_dense(vector, filter=filter, limit=limit)
    if ctx.filling is None:
        return hits
    return merge_filling(hits, ctx.filling.search(vector, text, filter=filter, limit=limit), limit)


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

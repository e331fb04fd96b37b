"""The search nodes' shared plumbing: the question's vector awaited only where it is needed."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from graphs.embeddings import EmbedderFingerprint, EmbedderUnavailable, QueryVectors
from graphs.rag.search import with_question_vector
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, make_context


class Held:
    """An embedder whose question waits until the test lets it finish."""

    def __init__(self, fail: bool = False) -> None:
        self.fingerprint = EmbedderFingerprint("held", 2, "1")
        self.release = threading.Event()
        self.fail = fail

    def embed_query(self, text: str) -> list[float]:
        assert self.release.wait(5)
        if self.fail:
            raise EmbedderUnavailable("engine down")
        return [1.0, 0.0]


def _context(tmp_path: Path, embedder: Held):  # type: ignore[no-untyped-def]
    import dataclasses

    ctx = make_context(tmp_path, ScriptedIndex())
    return dataclasses.replace(ctx, embedder=embedder, query_vectors=QueryVectors(size=0))


async def test_the_lexical_side_runs_while_the_question_is_still_being_embedded(tmp_path: Path) -> None:
    embedder = Held()
    ctx = _context(tmp_path, embedder)
    ctx.query_vectors.prefetch(embedder, "q")  # as the request arrives (app.services.query.head_start)

    def lexical() -> str:
        assert not embedder.release.is_set()  # the vector is not there yet ...
        embedder.release.set()  # ... and this side does not wait for it
        return "bm25 hits"

    vector, lexical_out = await with_question_vector(ctx, {"question": "q"}, lexical)  # type: ignore[arg-type]
    assert (vector, lexical_out) == ([1.0, 0.0], "bm25 hits")
    assert (ctx.query_vectors.joined, ctx.query_vectors.misses) == (1, 0)  # the prefetch's embedding, once
    ctx.query_vectors.close()


async def test_a_failed_embedding_is_raised_first_and_a_failed_lexical_side_after(tmp_path: Path) -> None:
    def outage() -> str:
        raise StoreUnavailable("milvus", "connection refused")

    down = Held(fail=True)
    down.release.set()
    with pytest.raises(EmbedderUnavailable):  # both failed: the embedder's 503, as when the vector came first
        await with_question_vector(_context(tmp_path, down), {"question": "q"}, outage)  # type: ignore[arg-type]
    up = Held()
    up.release.set()
    with pytest.raises(StoreUnavailable):
        await with_question_vector(_context(tmp_path, up), {"question": "q"}, outage)  # type: ignore[arg-type]
    await asyncio.sleep(0.05)

"""The question's embedding starts as the request is accepted, before the graph's own set-up (issue 23)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from app.schemas import QueryRequest
from app.services import query as service
from graphs.embeddings import EmbedderUnavailable, QueryVectors
from tests.support.apps import fast_resources, settings_for


async def test_the_question_is_embedded_before_the_graph_starts_and_only_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    resources = fast_resources(settings_for(tmp_path))
    try:
        asked: list[str] = []

        class Counting(Embeddings):
            def __init__(self, inner: Embeddings) -> None:
                self.inner = inner

            def embed_documents(self, texts: list[str]) -> list[list[float]]:
                return self.inner.embed_documents(texts)

            def embed_query(self, text: str) -> list[float]:
                asked.append(text)
                return self.inner.embed_query(text)

        ctx = dataclasses.replace(resources.context, embedder=Counting(resources.context.embedder))
        kept = ctx.query_vectors
        assert kept is not None and not resources.tracing.enabled
        in_flight: list[bool] = []
        run = service.workflow.ainvoke

        async def graph(inputs: Any, **kwargs: Any) -> Any:
            key = kept._key(ctx.embedder, inputs["question"])
            in_flight.append(key in kept._running or key in kept._handoff)  # embedding, or embedded already
            return await run(inputs, **kwargs)

        monkeypatch.setattr(service.workflow, "ainvoke", graph)
        request = QueryRequest(question="  Where is the Eiffel Tower?  ")
        response = await service.answer(resources, request, context=ctx)
        assert response.answer is not None
        assert in_flight == [True]  # started before the graph was entered
        assert asked == ["Where is the Eiffel Tower?"]  # the graph's prefetch and search joined it: once
        assert kept.misses == 0
    finally:
        resources.close()


async def test_a_vector_no_search_took_is_not_handed_to_the_next_request(tmp_path: Path) -> None:
    """The hand-over is per request: a prefetch its own run never consumed (the LLM rewrote the question, the
    route searched no vectors) is dropped when the run ends, so the next request with the same text embeds again
    and would see the embedder fail (the LRU is off)."""
    resources = fast_resources(settings_for(tmp_path, query_vector_cache=0))
    try:
        kept = resources.context.query_vectors
        assert kept is not None and kept.size == 0
        embedder = resources.context.embedder
        with service.head_start(resources.context, {"question": "Who wrote the report?"}) as inputs:  # type: ignore[typeddict-item]
            assert inputs["question"] == "Who wrote the report?"
            await kept.aget(embedder, "something else")  # the run searched another text only
            for _ in range(200):
                if kept._key(embedder, "Who wrote the report?") in kept._handoff:
                    break
                await asyncio.sleep(0.01)
            assert kept._key(embedder, "Who wrote the report?") in kept._handoff
        assert kept._key(embedder, "Who wrote the report?") not in kept._handoff
        before = kept.misses
        await kept.aget(embedder, "Who wrote the report?")
        assert kept.misses == before + 1  # embedded again, not handed over
    finally:
        resources.close()


class Gated(Embeddings):
    """An embedder whose question embedding blocks until the test opens its gate (a slow engine), then answers
    like ``inner`` or fails as a down embedder does."""

    def __init__(self, inner: Embeddings, fail: bool = False) -> None:
        self.inner, self.fail = inner, fail
        self.gate = threading.Event()
        self.asked: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.asked.append(text)
        if not self.gate.wait(10):
            raise TimeoutError("the test never opened the gate")
        if self.fail:
            raise EmbedderUnavailable("the embedder engine is down")
        return self.inner.embed_query(text)


async def _joined(kept: QueryVectors, task: asyncio.Task[Any]) -> None:
    """Until a search awaits the question's vector still being embedded (or the run ended without one)."""
    for _ in range(1000):
        if kept.joined or task.done():
            return
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("question", ["Where is the Eiffel Tower?", "埃菲尔铁塔在哪里？"])
async def test_the_stages_before_the_dense_search_do_not_wait_for_a_slow_embedding(
    tmp_path: Path, question: str
) -> None:
    """While the engine still embeds the question, the run analyses it, validates its entities, chooses its team and
    route and reaches its dense search, which is the first to wait; the one embedding then serves the run."""
    resources = fast_resources(settings_for(tmp_path))
    try:
        slow = Gated(resources.context.embedder)
        ctx = dataclasses.replace(resources.context, embedder=slow)
        kept = ctx.query_vectors
        assert kept is not None
        run = asyncio.ensure_future(service.answer(resources, QueryRequest(question=question), context=ctx))
        await _joined(kept, run)
        assert not run.done() and kept.joined == 1  # the search is waiting; everything before it ran
        steps_so_far = slow.asked[:]
        slow.gate.set()
        response = await run
        assert steps_so_far == [question] and slow.asked == [question]  # embedded once, started before the search
        nodes = [s.node for s in response.workflow.steps]
        search = next(i for i, n in enumerate(nodes) if n.startswith("search_"))
        assert {"parse_query", "validate_entities", "route_query"} <= set(nodes[:search])
        assert kept.misses == 0
    finally:
        resources.close()


@pytest.mark.parametrize("question", ["Who signed the lease?", "租约是谁签的？"])
async def test_a_failed_embedding_still_fails_the_run_once_the_search_needs_its_vector(
    tmp_path: Path, question: str
) -> None:
    """The embedding runs ahead of the search, but its failure is not lost: the search that needs the vector raises
    it (a 503), and nothing of it is kept (the same question embeds again next time)."""
    resources = fast_resources(settings_for(tmp_path))
    try:
        down = Gated(resources.context.embedder, fail=True)
        ctx = dataclasses.replace(resources.context, embedder=down)
        kept = ctx.query_vectors
        assert kept is not None and kept.size > 0  # kept by default (a local embedder), failures never
        run = asyncio.ensure_future(service.answer(resources, QueryRequest(question=question), context=ctx))
        await _joined(kept, run)
        down.gate.set()
        with pytest.raises(EmbedderUnavailable, match="engine is down"):
            await run
        down.fail = False
        response = await service.answer(resources, QueryRequest(question=question), context=ctx)
        assert response.status is not None and down.asked == [question, question]
    finally:
        resources.close()

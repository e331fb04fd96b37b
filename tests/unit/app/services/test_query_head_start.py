"""The question's embedding starts as the request is accepted, before the graph's own set-up (issue 23)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from app.schemas import QueryRequest
from app.services import query as service
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
    resources = fast_resources(settings_for(tmp_path))
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

"""Run one question through the graph with the process's RagContext."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from langchain_core.messages import AIMessageChunk

from app.api.schemas import QueryRequest, QueryResponse, to_response
from app.container import Resources
from graphs.rag.graph import graph


def graph_input(request: QueryRequest) -> dict[str, Any]:
    """The graph's InputState for an API request."""
    return {
        "question": request.question.strip(),
        "top_k": request.top_k,
        "max_retries": request.max_retries,
        "enable_reranking": request.enable_reranking,
        "search_mode": request.search_mode,
        "fusion": request.fusion,
    }


async def answer(resources: Resources, request: QueryRequest) -> QueryResponse:
    """Answer one question."""
    out = await graph.ainvoke(graph_input(request), context=resources.context)
    return to_response(out, resources.context.llm_name)


async def stream_answer(resources: Resources, request: QueryRequest) -> AsyncIterator[dict[str, Any]]:
    """Yield one ``step`` event per finished node, ``token`` events while an LLM writes, then ``result``."""
    final: dict[str, Any] = {}
    stream = graph.astream(
        graph_input(request), context=resources.context, stream_mode=["updates", "messages", "values"]
    )
    async for mode, payload in stream:
        if mode == "updates":
            for node, update in payload.items():
                for step in (update or {}).get("steps", []):
                    yield {"event": "step", "data": step.model_dump(by_alias=True, mode="json") | {"node": node}}
        elif mode == "messages":
            chunk, meta = payload
            if meta.get("langgraph_node") == "write_answer" and isinstance(chunk, AIMessageChunk) and chunk.content:
                yield {"event": "token", "data": {"text": chunk.content}}
        else:
            final = payload
    response = to_response(final, resources.context.llm_name)
    yield {"event": "result", "data": response.model_dump(by_alias=True, mode="json")}

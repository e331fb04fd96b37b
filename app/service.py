"""Run one question through the graph with the process's RagContext."""

from __future__ import annotations

from typing import Any

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

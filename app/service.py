"""Run one question through the graph with the process's RagContext."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from uuid import uuid4

from langchain_core.messages import AIMessageChunk

from app import langgraph_runs
from app.container import Resources
from app.schemas import QueryRequest, QueryResponse, to_response
from app.tools.trajectories import build_trajectory
from graphs.domain import FusionWeights
from graphs.rag.graph import graph
from graphs.rag.state import InputState


def graph_input(request: QueryRequest) -> InputState:
    """The graph's InputState for an API request."""
    return InputState(
        question=request.question.strip(),
        top_k=request.top_k,
        max_retries=request.max_retries,
        enable_reranking=request.enable_reranking,
        search_mode=request.search_mode,
        fusion=request.fusion,
        fusion_weights=FusionWeights(vector=request.vector_weight, fts=request.fts_weight,
                                     graph=request.graph_weight, decay=request.graph_decay),
        max_depth=request.max_depth,
        use_evidence_selection=request.use_evidence_selection,
        team=request.team,
        max_turns=request.max_turns,
    )


async def record(resources: Resources, run_id: str, out: dict[str, Any], *, question_id: str | None = None,
                 mode: str | None = None) -> None:
    """Append the run's trajectory to the log, when one is configured."""
    if resources.trajectories is not None:
        await resources.trajectories.aappend(build_trajectory(run_id, out, question_id=question_id, mode=mode))


async def answer(resources: Resources, request: QueryRequest, *, question_id: str | None = None,
                 mode: str | None = None) -> QueryResponse:
    """Answer one question (``question_id``/``mode`` label the logged trajectory, e.g. for ``eval``)."""
    run_id = uuid4().hex
    if resources.settings.run_via_langgraph:
        out = await langgraph_runs.run(graph_input(request))
    else:
        out = await graph.ainvoke(graph_input(request), context=resources.context)
    await record(resources, run_id, out, question_id=question_id, mode=mode)
    return to_response(out, resources.context.llm_name, run_id)


async def _graph_events(resources: Resources, request: QueryRequest) -> AsyncIterator[tuple[str, Any]]:
    """``("step", WorkflowStep)``, ``("token", text)`` while the writer's LLM streams, then ``("values", state)``."""
    final: dict[str, Any] = {}
    stream = graph.astream(
        graph_input(request), context=resources.context, stream_mode=["updates", "messages", "values"]
    )
    payload: Any
    async for mode, payload in stream:
        if mode == "updates":
            for update in payload.values():
                for step in (update or {}).get("steps", []):
                    yield "step", step
        elif mode == "messages":
            chunk, meta = payload
            # only this run's writer: a plan step's own run (namespace "execute_step:…|write_answer:…") is not the answer
            top_level = "|" not in str(meta.get("langgraph_checkpoint_ns", ""))
            if (meta.get("langgraph_node") == "write_answer" and top_level and isinstance(chunk, AIMessageChunk)
                    and chunk.content):
                yield "token", chunk.content
        else:
            final = payload
    yield "values", final


async def stream_answer(resources: Resources, request: QueryRequest) -> AsyncIterator[dict[str, Any]]:
    """Yield one ``step`` event per finished node, ``token`` events while an LLM writes, then ``result``."""
    events = (
        langgraph_runs.stream(graph_input(request))
        if resources.settings.run_via_langgraph
        else _graph_events(resources, request)
    )
    async for kind, payload in events:
        if kind == "step":
            yield {"event": "step", "data": payload.model_dump(by_alias=True, mode="json")}
        elif kind == "token":
            yield {"event": "token", "data": {"text": payload}}
        else:
            run_id = uuid4().hex
            await record(resources, run_id, payload)
            response = to_response(payload, resources.context.llm_name, run_id)
            yield {"event": "result", "data": response.model_dump(by_alias=True, mode="json")}

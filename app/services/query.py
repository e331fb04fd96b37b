"""Queries: answer a question through the workflow (JSON or streamed) and resolve a chat's question. Every entry
point (the REST routes, the OpenAI-compatible chat, the MCP tools, the CLI) goes through here, so each run is
counted in the metrics and traced the same way, and every store outage is counted once. The document and entity
writes and reads are ``app.services.documents`` and ``app.services.entities``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import uuid4

from langchain_core.messages import AIMessageChunk

from app import langgraph_runs
from app.container import Resources
from app.observability.metrics import counted_outages
from app.observability.trajectories import build_trajectory
from app.schemas import QueryRequest, QueryResponse, to_response
from app.schemas.chat import ChatMessage
from app.services import chat as conversation
from app.services.documents import documents_pending
from graphs.domain import FusionWeights
from graphs.rag.answer.replies import still_filling, still_ingesting
from graphs.rag.context import RagContext
from graphs.rag.graph import workflow
from graphs.rag.state import InputState

log = logging.getLogger(__name__)


def workflow_input(request: QueryRequest) -> InputState:
    """The workflow's InputState for an API request."""
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
        **({"min_answerability": request.min_answerability} if request.min_answerability is not None else {}),
    )


def via_langgraph(resources: Resources) -> bool:
    """Whether a query runs on the LangGraph server this app is mounted into: only the default workspace's (the
    server's graph is bound to the default workspace's stores; another workspace's question answered there would
    be answered from the wrong documents), so any other workspace runs in this process."""
    return resources.settings.run_via_langgraph and resources.workspace == "default"


async def record(resources: Resources, run_id: str, out: dict[str, Any], *, question_id: str | None = None,
                 mode: str | None = None) -> None:
    """Append the run's trajectory to the log, when one is configured."""
    if resources.trajectories is not None:
        await resources.trajectories.aappend(build_trajectory(run_id, out, question_id=question_id, mode=mode))


@contextmanager
def head_start(ctx: RagContext, inputs: InputState) -> Iterator[InputState]:
    """Start embedding the question as the request is accepted, before the graph starts (its set-up took 2 ms
    at the median and 26 ms at p95 on the busy 2-core machine, docs/performance.md); ``parse_query``'s search
    then joins this embedding instead of starting its own. When the request ends, a vector none of its searches
    took is dropped: a later request never gets it (with the LRU off it must embed, and see the embedder fail)."""
    if ctx.query_vectors is None:
        yield inputs
        return
    ctx.query_vectors.prefetch(ctx.embedder, inputs["question"])
    try:
        yield inputs
    finally:
        ctx.query_vectors.release(ctx.embedder, inputs["question"])


async def _run_workflow(resources: Resources, ctx: RagContext, request: QueryRequest
                     ) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]] | None]:
    """The workflow's output state, and each node's update when tracing needs them (else None)."""
    if via_langgraph(resources):
        return await langgraph_runs.run(workflow_input(request)), None
    with head_start(ctx, workflow_input(request)) as inputs:
        if not resources.tracing.enabled:
            return await workflow.ainvoke(inputs, context=ctx), None
        updates: list[tuple[str, dict[str, Any]]] = []
        out: dict[str, Any] = {}
        payload: Any
        async for kind, payload in workflow.astream(inputs, context=ctx, stream_mode=["updates", "values"]):
            if kind == "updates":
                updates.extend((node, update or {}) for node, update in payload.items())
            else:
                out = payload
        return out, updates


async def answer(resources: Resources, request: QueryRequest, *, question_id: str | None = None,
                 mode: str | None = None, context: RagContext | None = None) -> QueryResponse:
    """Answer one question (``question_id``/``mode`` label the logged trajectory, e.g. for ``eval``;
    ``context`` replaces the process's, e.g. without its LLM for the extractive writer)."""
    ctx = context or resources.context
    run_id = uuid4().hex
    with counted_outages(resources.metrics), resources.tracing.span("rag.query", {"aer.run_id": run_id}) as span:
        out, updates = await _run_workflow(resources, ctx, request)
        resources.tracing.record_run(span, out, updates)
    resources.metrics.run(out)
    await record(resources, run_id, out, question_id=question_id, mode=mode)
    response = to_response(out, ctx.llm_name, run_id)
    return response.model_copy(update={"workspace": resources.workspace, **await _filling(resources, ctx, response)})


def _pending(resources: Resources, ctx: RagContext) -> tuple[int, int]:
    """The documents the workspace's ingest jobs have still to write and the chunks whose dense vectors still fill
    (blocking, made in one worker thread: while nothing changes the job store's file, both are kept answers and
    read no table, ``KeptWhileUnchanged``)."""
    filling = ctx.filling
    # only what the filler will fill: rows pending for another embedder wait for `aer reindex`, not for time;
    # nothing pending (nearly always) is known from the kept list without a count
    docs = [] if filling is None else filling.pending.doc_ids(filling.fingerprint)
    if docs and resources.catalog is not None:  # a document deleted while its vectors filled waits for nothing
        docs = [r.id for r in resources.catalog.get_many(docs)]
    chunks = filling.pending.counts(docs)[1] if filling is not None and docs else 0
    return documents_pending(resources), chunks


async def _filling(resources: Resources, ctx: RagContext, response: QueryResponse) -> dict[str, Any]:
    """While ingest jobs still have documents to write, or recent uploads' dense vectors still fill, the response
    says how many documents or chunks wait, and a "not found" says the answer may come once they are in (a refusal
    given then is not the documents' last word)."""
    documents, chunks = await asyncio.to_thread(_pending, resources, ctx)
    update: dict[str, Any] = {"vectors_pending": chunks, "documents_pending": documents}
    if response.status == "no_results" and (documents or chunks):
        question = response.query_analysis.original_query
        notes = ([still_ingesting(question, documents)] if documents else []) + (
            [still_filling(question, chunks)] if chunks else [])
        update["answer"] = " ".join([response.answer, *notes])
    return update


async def _workflow_events(resources: Resources, request: QueryRequest, ctx: RagContext
                        ) -> AsyncIterator[tuple[str, Any]]:
    """``("step", WorkflowStep)``, ``("token", text)`` while the writer's LLM streams, then ``("values", state)``;
    ``("updates", [(node, update), ...])`` just before the values when tracing needs them."""
    final: dict[str, Any] = {}
    updates: list[tuple[str, dict[str, Any]]] = []
    payload: Any
    with head_start(ctx, workflow_input(request)) as inputs:
        stream = workflow.astream(inputs, context=ctx, stream_mode=["updates", "messages", "values"])
        async for mode, payload in stream:
            if mode == "updates":
                for node, update in payload.items():
                    if resources.tracing.enabled:
                        updates.append((node, update or {}))
                    for step in (update or {}).get("steps", []):
                        yield "step", step
            elif mode == "messages":
                chunk, meta = payload
                # only this run's writer: a plan step's own run (namespace "execute_step:…|write_answer:…") is
                # not the answer
                top_level = "|" not in str(meta.get("langgraph_checkpoint_ns", ""))
                if (meta.get("langgraph_node") == "write_answer" and top_level
                        and isinstance(chunk, AIMessageChunk) and chunk.content):
                    yield "token", chunk.content
            else:
                final = payload
    if updates:
        yield "updates", updates
    yield "values", final


async def stream_events(resources: Resources, request: QueryRequest, *, context: RagContext | None = None
                        ) -> AsyncIterator[tuple[str, Any]]:
    """``("step", WorkflowStep)`` per finished node, ``("token", text)`` while an LLM writes, then
    ``("result", QueryResponse)``; counted and traced like ``answer``."""
    ctx = context or resources.context
    run_id = uuid4().hex
    updates: list[tuple[str, dict[str, Any]]] | None = None
    # not the current span: this generator resumes wherever its consumer iterates it
    with counted_outages(resources.metrics), resources.tracing.span("rag.query", {"aer.run_id": run_id, "aer.streamed": True},
                                                            current=False) as span:
        events = (
            langgraph_runs.stream(workflow_input(request))
            if via_langgraph(resources)
            else _workflow_events(resources, request, ctx)
        )
        async for kind, payload in events:
            if kind == "updates":
                updates = payload
            elif kind != "values":
                yield kind, payload
            else:
                resources.tracing.record_run(span, payload, updates)
                resources.metrics.run(payload)
                await record(resources, run_id, payload)
                response = to_response(payload, ctx.llm_name, run_id)
                yield "result", response.model_copy(
                    update={"workspace": resources.workspace, **await _filling(resources, ctx, response)})


async def stream_answer(resources: Resources, request: QueryRequest) -> AsyncIterator[dict[str, Any]]:
    """Yield one ``step`` event per finished node, ``token`` events while an LLM writes, then ``result``."""
    async for kind, payload in stream_events(resources, request):
        if kind == "step":
            yield {"event": "step", "data": payload.model_dump(by_alias=True, mode="json")}
        elif kind == "token":
            yield {"event": "token", "data": {"text": payload}}
        else:
            yield {"event": "result", "data": payload.model_dump(by_alias=True, mode="json")}


async def resolve_chat(resources: Resources, ctx: RagContext, messages: list[ChatMessage]
                       ) -> conversation.Resolution:
    """The question a chat asks (its last user message, made standalone when it follows others), counted."""
    with counted_outages(resources.metrics), resources.tracing.span("chat.follow_up") as span:
        resolution = await conversation.resolve(ctx, messages)
        span.set_attributes({"aer.follow_up": resolution.mode, "aer.llm_calls": resolution.llm_calls,
                             "aer.carried_entities": [c.standard_name for c in resolution.carried],
                             "aer.degraded": resolution.degraded})
    resources.metrics.followups.labels(resolution.mode).inc()
    if resolution.llm_calls:
        resources.metrics.llm_calls.inc(resolution.llm_calls)
    for node in resolution.degraded:
        resources.metrics.degradation(node)
    return resolution

"""OpenAI-compatible chat: ``GET /v1/models`` and ``POST /v1/chat/completions`` (JSON or streamed chunks).

Chat front ends and OpenAI SDKs ask the service as they would ask a model. The last user message is the
question, made standalone when it follows earlier turns (``app/services/chat.py``); the answer is the service's
own, with its numbered citations listed under it as references and given again, structured, in ``citations``;
``aer`` says how the question was formed, the route it took and the request id.

Streaming sends the answer once it is final (the graph checks and attributes what an LLM wrote, so its raw
tokens are not the answer): one comment line (``: <node> <ms>``) per finished graph node while it runs, which
also keeps the connection alive, then the answer and its references as content deltas, a last chunk with
``finish_reason``, ``citations`` and ``aer``, and ``data: [DONE]``. A failure mid-stream is one
``data: {"error": ...}`` event, which OpenAI clients raise as an error.

Workspaces are models: ``GET /v1/models`` lists ``aer:<workspace>`` for each workspace (the plain model names
answer from the default workspace, or the one ``X-Workspace`` names); ``aer:<workspace>`` answers from that
workspace with its configured writer, ``aer:<workspace>:<model>`` with one of the plain models (``aer-extractive``,
the LLM's name). A model naming a workspace that is not there is 404 ``workspace_not_found`` (the body a key gets
for a workspace it may not see); a model and an ``X-Workspace`` naming two workspaces is 422
``conflicting_workspace``.

A chat front end's background task (a title, tags, follow-up suggestions, ... — ``app/services/chat_tasks.py``) is
answered from the conversation without retrieval. Every error is in OpenAI's shape
(``app/api/openai_errors.py``); the question is at most 2,000 characters, any other message up to
``AER_CHAT_MAX_MESSAGE_CHARS``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import uuid4

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import StreamingResponse
from pydantic import ValidationError

from app.api.deps import workspaces_of
from app.api.errors import ApiError, error_body, service_error
from app.api.openai_errors import openai_error
from app.api.workspace_scope import effective_workspace, principal_of, requested_workspace
from app.container import Resources
from app.errors import ServiceError
from app.schemas import MAX_QUESTION_CHARS, QueryRequest, QueryResponse, numbered_from_one
from app.schemas.chat import (
    EXTRACTIVE_MODEL,
    AerInfo,
    AssistantMessage,
    ChatChoice,
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionRequest,
    ChatMessage,
    ChunkChoice,
    ChunkDelta,
    FollowUp,
    ModelCard,
    ModelList,
    cited_passages,
)
from app.services import chat_tasks, keys
from app.services.chat import Resolution
from app.services.query import answer, resolve_chat, stream_events
from app.services.workspaces import open_workspace
from app.workspaces import NAME_PATTERN, UnknownWorkspace
from graphs.domain import Citation, passages_told_apart
from graphs.embeddings import EmbedderUnavailable
from graphs.rag.context import RagContext
from graphs.stores.base import StoreUnavailable
from graphs.text.normalize import reply_language

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["openai-compatible"])
WORKSPACE_MODEL = "aer:"
"""``aer:<workspace>`` (its configured writer) or ``aer:<workspace>:<model>`` (one of the plain models)."""


def models(resources: Resources) -> dict[str, tuple[RagContext, str]]:
    """Each model name the service answers as: its context and a description."""
    ctx = resources.context
    extractive = dataclasses.replace(ctx, llm=None, llm_name=None) if ctx.llm is not None else ctx
    out = {}
    if ctx.llm is not None and ctx.llm_name:
        out[ctx.llm_name] = (ctx, f"answers written by the LLM {ctx.llm_name}, which also parses questions and "
                                  "condenses follow-ups")
    out[EXTRACTIVE_MODEL] = (extractive, "no LLM: rule-based parsing, an extractive answer (the best sentence of "
                                         "each top passage), follow-ups by carrying the earlier questions' entities or "
                                         "asking the question before of a new subject (割草机呢？)")
    return out


def context_for(resources: Resources, model: str) -> RagContext:
    """The context of a plain model name; 404 ``model_not_found`` (OpenAI's code) for any other name."""
    known = models(resources)
    if model not in known:
        raise ApiError(404, "model_not_found", f"model {model!r} does not exist here; available: "
                       f"{', '.join(known)} and aer:<workspace> (GET /v1/models)",
                       {"available": list(known), "param": "model"})
    return known[model][0]


def split_model(model: str) -> tuple[str | None, str | None]:
    """``aer:<workspace>[:<model>]`` as (workspace, model or None); a plain name as (None, name)."""
    if not model.startswith(WORKSPACE_MODEL):
        return None, model
    workspace, _, plain = model[len(WORKSPACE_MODEL):].partition(":")
    return workspace, plain or None


def visible_workspaces(request: Request, names: list[str]) -> list[str]:
    """The workspaces this request's key may use (every one without keys): a key for one workspace lists that
    one only, and learns of no other."""
    return keys.visible_workspaces(principal_of(request), names)


def resolve_model(request: Request, model: str) -> tuple[Resources, RagContext]:
    """The workspace's resources and the context a chat's model name answers with.

    ``aer:<w>``: workspace ``w`` (404 ``workspace_not_found`` when there is none, the same answer as a workspace
    this key may not see); a plain name: the request's workspace (``X-Workspace``, else the key's, else default).
    """
    workspace, plain = split_model(model)
    if workspace is not None:
        if not NAME_PATTERN.fullmatch(workspace):
            raise _of_model(UnknownWorkspace(workspace))
        requested = requested_workspace(request)
        if requested is not None and requested != workspace:
            raise ServiceError("invalid", "conflicting_workspace",
                               f"the model names workspace {workspace!r} and the request {requested!r}",
                               {"model": model, "workspace": requested})
    name = workspace or effective_workspace(request)
    try:
        resources = open_workspace(workspaces_of(request), name, principal_of(request))
    except ServiceError as exc:
        if workspace is None or exc.code != "workspace_not_found":
            raise
        raise _of_model(exc) from None
    request.state.workspace = name  # the metrics' and traces' workspace (once it is known to be one)
    if plain is None:  # the workspace's configured writer
        return resources, resources.context
    return resources, context_for(resources, plain)


def _of_model(exc: ServiceError) -> ServiceError:
    """The error with ``param: "model"`` (OpenAI's failing field): the workspace was named by the model."""
    exc.details = {**(exc.details if isinstance(exc.details, dict) else {}), "param": "model"}
    return exc


def request_id_of(request: Request) -> str:
    """The request id the telemetry middleware gave this request."""
    return str(getattr(request.state, "request_id", None) or uuid4().hex)


def references(response: QueryResponse, question: str) -> str:
    """The numbered references block under the answer (empty when nothing is cited)."""
    if not response.citations:
        return ""
    heading = {"zh": "参考资料：", "ja": "参考資料：", "en": "References:"}[reply_language(question)]
    cited = [Citation.model_validate(c) for c in response.citations]
    apart = passages_told_apart(cited)
    # where a reader finds it (file, page, section) and, for two passages of one file at one place, which passage:
    # "[1] rules (rules.txt)" and "[2] rules (rules.txt)" read alike
    lines = [f"[{c.index}] {c.title or c.doc_id} ("
             + ", ".join(w for w in (c.location or c.doc_id, apart.get(c.index)) if w) + ")" for c in cited]
    return "\n\n" + heading + "\n" + "\n".join(lines)


def aer_info(response: QueryResponse, resolution: Resolution, request_id: str) -> AerInfo:
    return AerInfo(
        request_id=request_id,
        run_id=response.run_id,
        status=response.status,
        answer_mode=response.answer_mode,
        route=[d.action for d in response.routing_decision.decisions],
        follow_up=FollowUp(mode=resolution.mode, question=resolution.question,  # type: ignore[arg-type]
                           original=resolution.original, carried_entities=resolution.carried),
        llm_calls=response.llm.calls + resolution.llm_calls,
        degraded=[*resolution.degraded, *response.degraded],
    )


@router.get("/models", response_model=ModelList)
async def list_models(request: Request) -> ModelList:
    """The model names to ask: the configured LLM, the extractive writer that needs none (both on the request's
    workspace), and ``aer:<workspace>`` for each workspace this key may use."""
    registry = workspaces_of(request)
    resources: Resources = request.app.state.resources
    created = int(resources.started_at)
    writer = resources.context.llm_name or EXTRACTIVE_MODEL
    cards = [ModelCard(id=name, created=created, description=about) for name, (_, about) in models(resources).items()]
    cards += [ModelCard(id=f"{WORKSPACE_MODEL}{name}", created=created,
                        description=f"workspace {name}: answers from its documents only ({writer}; "
                                    f"aer:{name}:<model> for another of the models above)")
              for name in visible_workspaces(request, registry.names())]
    return ModelList(data=cards)


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    responses={200: {"description": "A chat completion, or chat.completion.chunk events when `stream` is true",
                     "content": {"text/event-stream": {}}}},
)
async def chat_completions(request: Request, body: ChatCompletionRequest) -> Any:
    """Answer the conversation's last user message with citations (OpenAI's chat completion shape)."""
    request.state.action = "chat.completions"
    resources, ctx = resolve_model(request, body.model)
    rid = request_id_of(request)
    task = check_lengths(body.messages, resources.settings.chat_max_message_chars)
    if task is not None:
        return await task_completion(ctx, body, task, rid)
    resolution = await resolve_chat(resources, ctx, body.messages)
    query = question_request(resolution.question, len(body.messages) - 1)
    if body.stream:
        return StreamingResponse(chunks(resources, ctx, query, body.model, resolution, rid),
                                 media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
    response = numbered_from_one(await answer(resources, query, context=ctx))
    completion = ChatCompletion(
        id=f"chatcmpl-{rid}", created=int(time.time()), model=body.model,
        choices=[ChatChoice(message=AssistantMessage(content=response.answer + references(response, query.question)))],
        citations=cited_passages(response), aer=aer_info(response, resolution, rid),
    )
    return completion.model_dump(mode="json")


def question_request(question: str, last: int) -> QueryRequest:
    """The query for the chat's question; a question the main API would refuse is refused here the same way
    (its 422, the failing field being the last message's content), never a 500."""
    try:
        return QueryRequest(question=question)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", "messages", last, "content", *e["loc"][1:])}
                                      for e in exc.errors()]) from exc


def check_lengths(messages: list[ChatMessage], max_chars: int) -> chat_tasks.ChatTask | None:
    """Refuse a message over ``max_chars`` (422 ``message_too_long``) or a question over 2,000 characters
    (422 ``question_too_long``); the background task the last message asks for, if it is one (its length is
    that of a message, not of a question)."""
    for i, m in enumerate(messages):
        if len(m.text()) > max_chars:
            raise ApiError(422, "message_too_long", f"messages[{i}] is over {max_chars} characters "
                           "(AER_CHAT_MAX_MESSAGE_CHARS)", {"param": f"messages[{i}].content"})
    text = messages[-1].text().strip()
    task = chat_tasks.detect(text)
    if task is None and len(text) > MAX_QUESTION_CHARS:
        raise ApiError(422, "question_too_long", f"the question (last user message) is over {MAX_QUESTION_CHARS} "
                       "characters", {"param": f"messages[{len(messages) - 1}].content"})
    return task


async def task_completion(ctx: RagContext, body: ChatCompletionRequest, task: chat_tasks.ChatTask,
                          rid: str) -> Any:
    """A front end's background task answered from the conversation alone: no retrieval, no run."""
    content = await chat_tasks.answer(ctx, task)
    original = body.messages[-1].text().strip()
    aer = AerInfo(request_id=rid, run_id=None, status="task", answer_mode="none", route=[],
                  follow_up=FollowUp(mode="standalone", question="", original=original[:200]),
                  llm_calls=0, degraded=[], task=task.kind)
    if body.stream:
        async def events() -> AsyncIterator[str]:
            cid, created = f"chatcmpl-{rid}", int(time.time())
            for delta in (ChunkDelta(role="assistant", content=""), ChunkDelta(content=content)):
                yield _event(ChatCompletionChunk(id=cid, created=created, model=body.model,
                                                 choices=[ChunkChoice(delta=delta)]))
            yield _event(ChatCompletionChunk(id=cid, created=created, model=body.model, citations=[], aer=aer,
                                             choices=[ChunkChoice(delta=ChunkDelta(), finish_reason="stop")]))
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
    completion = ChatCompletion(id=f"chatcmpl-{rid}", created=int(time.time()), model=body.model,
                                choices=[ChatChoice(message=AssistantMessage(content=content))], citations=[], aer=aer)
    return completion.model_dump(mode="json")


def _event(chunk: ChatCompletionChunk) -> str:
    return f"data: {json.dumps(chunk.model_dump(mode='json', exclude_none=True), ensure_ascii=False)}\n\n"


async def chunks(resources: Resources, ctx: RagContext, query: QueryRequest, model: str, resolution: Resolution,
                 request_id: str) -> AsyncIterator[str]:
    """The streamed completion: node comments while the graph runs, then the answer, references and the end."""
    cid, created = f"chatcmpl-{request_id}", int(time.time())

    def chunk(delta: ChunkDelta, **extra: Any) -> str:
        return _event(ChatCompletionChunk(id=cid, created=created, model=model,
                                          choices=[ChunkChoice(delta=delta, finish_reason=extra.pop("finish", None))],
                                          **extra))

    yield chunk(ChunkDelta(role="assistant", content=""))
    try:
        response: QueryResponse | None = None
        async for kind, payload in stream_events(resources, query, context=ctx):
            if kind == "step":
                yield f": {payload.node} {payload.duration_ms:.1f} ms\n\n"
            elif kind == "result":
                response = numbered_from_one(payload)
        if response is None:
            raise RuntimeError("the graph ended without a result")
    except (StoreUnavailable, EmbedderUnavailable, ServiceError) as exc:
        yield f"data: {json.dumps(openai_error(*service_error(exc)), ensure_ascii=False)}\n\n"
        return
    except Exception:
        # The 200 is sent: without this event the stream would stop with no answer and no reason.
        log.exception("unhandled error in a streamed chat completion")
        yield f"data: {json.dumps(openai_error(500, error_body('internal_error', 'internal server error')))}\n\n"
        return
    yield chunk(ChunkDelta(content=response.answer))
    if refs := references(response, query.question):
        yield chunk(ChunkDelta(content=refs))
    yield chunk(ChunkDelta(), finish="stop", citations=cited_passages(response),
                aer=aer_info(response, resolution, request_id))
    yield "data: [DONE]\n\n"

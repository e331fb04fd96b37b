"""The query resource: one question answered as JSON, or streamed as server-sent events (``step``, ``token``,
``result``, ``error``). ``POST /api/adaptive-entity-rag`` with ``action: query`` serves it (``actions.py``)."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse

from app.api.errors import ApiError, error_body, service_error
from app.container import Resources
from app.errors import ServiceError
from app.schemas import QueryRequest, QueryResponse
from app.services.query import answer, stream_answer
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import StoreUnavailable

log = logging.getLogger(__name__)


def check_models(resources: Resources, body: QueryRequest) -> None:
    """Reject a model the service is not configured with (never silently use another)."""
    if body.llm_model is not None and body.llm_model != resources.context.llm_name:
        raise ApiError(400, "unknown_llm_model", f"LLM model {body.llm_model!r} is not configured",
                       {"available": [resources.context.llm_name] if resources.context.llm_name else []})
    if body.embedding_model is not None and body.embedding_model != resources.embedding_name:
        raise ApiError(400, "unknown_embedding_model", f"embedding model {body.embedding_model!r} is not configured",
                       {"available": [resources.embedding_name]})


async def sse_events(resources: Resources, body: QueryRequest) -> AsyncIterator[dict[str, str]]:
    """Server-sent events of a streamed query; a failure mid-stream becomes an ``error`` event."""
    try:
        async for event in stream_answer(resources, body):
            yield {"event": event["event"], "data": json.dumps(event["data"], ensure_ascii=False)}
    except (StoreUnavailable, EmbedderUnavailable, ServiceError) as exc:  # the body the JSON answer would have
        yield {"event": "error", "data": json.dumps(service_error(exc)[1], ensure_ascii=False)}
    except Exception:
        # Headers are sent: without this event the stream would just stop, with no result and no reason.
        log.exception("unhandled error in a streamed query")
        yield {"event": "error", "data": json.dumps(error_body("internal_error", "internal server error"))}


async def run_query(resources: Resources, body: QueryRequest, accept: str = "") -> dict[str, Any] | JSONResponse \
        | EventSourceResponse:
    """Answer ``body``: streamed when it asks (``stream``) or the client accepts ``text/event-stream``."""
    check_models(resources, body)
    if body.stream or "text/event-stream" in accept:
        return EventSourceResponse(sse_events(resources, body), ping=15)
    response: QueryResponse = await answer(resources, body)
    return response.model_dump(by_alias=True, mode="json")

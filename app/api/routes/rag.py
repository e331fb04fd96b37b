"""``/api/adaptive-entity-rag``: query, add-entity, remove-alias, delete-entity, add-documents, delete-document,
list entities."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field
from sse_starlette.sse import EventSourceResponse

from app import documents, workbench
from app.api.deps import resources_of
from app.api.errors import ApiError, error_body, service_error
from app.api.routes import documents as document_routes
from app.container import Resources
from app.errors import ServiceError
from app.schemas import (
    API_PATH,
    REQUEST_EXAMPLES,
    ActionResponse,
    AddDocumentsRequest,
    AddEntityRequest,
    AddEntityResponse,
    DeleteDocumentRequest,
    DeleteEntityRequest,
    DeleteEntityResponse,
    QueryRequest,
    QueryResponse,
    ReadResponse,
    RemoveAliasRequest,
)
from app.service import add_entity, answer, delete_document, list_entities, remove_aliases, stream_answer
from graphs.domain import ENTITY_TYPES, NO_CONTROL_CHARS, Document, EntityMetadata
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import StoreUnavailable

log = logging.getLogger(__name__)
router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])
# SQLite integers stop at 2**63 - 1; no store holds anywhere near this many entities.
MAX_OFFSET = 1_000_000_000

ActionRequest = Annotated[
    QueryRequest | AddEntityRequest | AddDocumentsRequest | DeleteDocumentRequest | RemoveAliasRequest
    | DeleteEntityRequest,
    Field(discriminator="action")
]


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


@router.post(
    "",
    response_model=None,
    responses={200: {"model": ActionResponse,
                     "description": "JSON response of the action, or server-sent events (step, token, result, "
                                    "error) when a query streams",
                     "content": {"text/event-stream": {}}}},
)
async def post_action(request: Request, body: Annotated[ActionRequest, Body(openapi_examples=REQUEST_EXAMPLES)]) -> Any:
    """Run one action: ``query``, ``add-entity``, ``remove-alias``, ``delete-entity``, ``add-documents`` or
    ``delete-document``."""
    resources = resources_of(request)
    request.state.action = body.action  # the metrics' action label
    if isinstance(body, QueryRequest):
        check_models(resources, body)
        if body.stream or "text/event-stream" in request.headers.get("accept", ""):
            return EventSourceResponse(sse_events(resources, body), ping=15)
        response: QueryResponse = await answer(resources, body)
        return response.model_dump(by_alias=True, mode="json")
    if isinstance(body, AddEntityRequest):
        if body.type not in ENTITY_TYPES:
            raise ApiError(422, "invalid_entity_type", f"type must be one of {', '.join(ENTITY_TYPES)}")
        entity = EntityMetadata.model_validate(body.model_dump(exclude={"action"}))
        write = await add_entity(resources, entity)
        return AddEntityResponse(entity=write.entity, warnings=write.warnings,
                                 retagged=write.retagged).model_dump(by_alias=True)
    if isinstance(body, RemoveAliasRequest):
        removed_from = await remove_aliases(resources, body.standard_name, body.aliases)
        if removed_from is None:
            raise ApiError(404, "entity_not_found", f"no entity named {body.standard_name!r}")
        return AddEntityResponse(entity=removed_from.entity, retagged=removed_from.retagged).model_dump(by_alias=True)
    if isinstance(body, DeleteEntityRequest):
        deleted = await workbench.delete_entity(resources, body.standard_name)
        if deleted is None:
            raise ApiError(404, "entity_not_found", f"no entity named {body.standard_name!r}")
        return DeleteEntityResponse(entity=deleted[0], untagged=deleted[1]).model_dump(by_alias=True)
    if isinstance(body, AddDocumentsRequest):
        docs = [Document.model_validate(d.model_dump()) for d in body.documents]
        ids = [d.id for d in docs]
        if len(set(ids)) != len(ids):
            raise ApiError(400, "duplicate_document_ids", "each document id may appear once per request")
        status, result = await documents.add_documents(resources, docs, skip_unchanged=body.skip_unchanged,
                                                       background=body.background)
        return result if status == 200 else JSONResponse(result, status_code=status)
    removed = await delete_document(resources, body.id)
    if not removed:
        raise ApiError(404, "document_not_found", f"no document with id {body.id!r}")
    return {"success": True, "id": body.id, "deletedChunks": removed}


@router.get("", response_model=None, responses={200: {"model": ReadResponse}})
async def get_action(
    request: Request,
    action: Literal["entities", "documents", "document", "job"],
    type: Annotated[str | None, Query(description="entities: only this type.", examples=["PERSON"])] = None,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    id: Annotated[str | None, Query(max_length=256, pattern=NO_CONTROL_CHARS, description="document / job: its id.")] = None,
    source: Annotated[str | None, Query(max_length=1000, description="documents: file path contains this.")] = None,
    title: Annotated[str | None, Query(max_length=1000, description="documents: title contains this.")] = None,
    root: Annotated[str | None, Query(max_length=4096, description="documents: ingested from this root.")] = None,
    q: Annotated[str | None, Query(max_length=256, description="entities: only those whose name or an alias contains "
                                   "this (normalized; a fuzzy or pinyin match last), best match first.")] = None,
) -> dict[str, Any]:
    """List entities (``entities``), the document inventory (``documents``), one document with its chunks
    (``document``), or an ingest job's status and per-document outcomes (``job``)."""
    request.state.action = action  # the metrics' action label
    resources = resources_of(request)
    if action == "documents":
        return await document_routes.documents_page(resources, offset, limit, source, title, root)
    if action == "document":
        return await document_routes.document(resources, id)
    if action == "job":
        return await document_routes.job(resources, id, offset, limit)
    if type is not None and type not in ENTITY_TYPES:
        raise ApiError(422, "invalid_entity_type", f"type must be one of {', '.join(ENTITY_TYPES)}")
    total, items = await list_entities(resources, type, offset, limit, q)
    return {"success": True, "total": total, "offset": offset, "limit": limit,
            "entities": [e.model_dump(by_alias=True) for e in items]}

"""``/api/adaptive-entity-rag``: the seed's action endpoint, kept as a thin compatibility layer over the resource
modules. ``POST`` runs one action of a union (query, add-entity, remove-alias, delete-entity,
add-documents, delete-document, cancel-job); ``GET ?action=`` reads entities, the document inventory, one document, a job or the newest jobs.
Each action is its resource's handler (``query``, ``entities``, ``documents``, ``jobs``); this module only
dispatches and labels the metrics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from pydantic import Field

from app.api.deps import ResourcesDep, WorkspacesDep
from app.api.routes import documents, entities, jobs, query
from app.schemas import (
    API_PATH,
    REQUEST_EXAMPLES,
    ActionResponse,
    AddDocumentsRequest,
    AddEntityRequest,
    CancelJobRequest,
    DeleteDocumentRequest,
    DeleteEntityRequest,
    QueryRequest,
    ReadAction,
    ReadResponse,
    RemoveAliasRequest,
)
from graphs.domain import NO_CONTROL_CHARS

router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])
# SQLite integers stop at 2**63 - 1; no store holds anywhere near this many entities.
MAX_OFFSET = 1_000_000_000

ActionRequest = Annotated[
    QueryRequest | AddEntityRequest | AddDocumentsRequest | DeleteDocumentRequest | RemoveAliasRequest
    | DeleteEntityRequest | CancelJobRequest,
    Field(discriminator="action")
]


@router.post(
    "",
    response_model=None,
    responses={200: {"model": ActionResponse,
                     "description": "JSON response of the action, or server-sent events (step, token, result, "
                                    "error) when a query streams",
                     "content": {"text/event-stream": {}}}},
)
async def post_action(request: Request, resources: ResourcesDep, workspaces: WorkspacesDep,
                      body: Annotated[ActionRequest, Body(openapi_examples=REQUEST_EXAMPLES)]) -> Any:
    """Run one action: ``query``, ``add-entity``, ``remove-alias``, ``delete-entity``, ``add-documents``,
    ``delete-document`` or ``cancel-job``."""
    request.state.action = body.action  # the metrics' action label
    if isinstance(body, QueryRequest):
        return await query.run_query(resources, body, request.headers.get("accept", ""))
    if isinstance(body, AddEntityRequest):
        return await entities.add_entity(resources, body, workspaces)
    if isinstance(body, RemoveAliasRequest):
        return await entities.remove_alias(resources, body, workspaces)
    if isinstance(body, DeleteEntityRequest):
        return await entities.delete_entity(resources, body, workspaces)
    if isinstance(body, AddDocumentsRequest):
        return await documents.add_documents(resources, body)
    if isinstance(body, CancelJobRequest):
        return await jobs.cancel_job(resources, body.id)
    return await documents.delete_document(resources, body.id)


@router.get("", response_model=None, responses={200: {"model": ReadResponse}})
async def get_action(
    request: Request,
    resources: ResourcesDep,
    action: ReadAction,
    type: Annotated[str | None, Query(description="entities: only this type.", examples=["PERSON"])] = None,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    id: Annotated[str | None, Query(max_length=256, pattern=NO_CONTROL_CHARS, description="document / job: its id.")] = None,
    source: Annotated[str | None, Query(max_length=1000, description="documents: file path contains this.")] = None,
    title: Annotated[str | None, Query(max_length=1000, description="documents: title contains this.")] = None,
    root: Annotated[str | None, Query(max_length=4096, description="documents: ingested from this root.")] = None,
    q: Annotated[str | None, Query(max_length=256, description="entities: only those whose name or an alias contains "
                                   "this (normalized; a fuzzy or pinyin match last), best match first.")] = None,
    unfinished: Annotated[bool, Query(description="jobs: only the queued and running ones.")] = False,
) -> dict[str, Any]:
    """List entities (``entities``), the document inventory (``documents``), one document with its chunks
    (``document``), an ingest job's status and per-document outcomes (``job``), or the workspace's newest ingest
    jobs (``jobs``: at most 50, newest first)."""
    request.state.action = action  # the metrics' action label
    if action == "documents":
        return await documents.documents_page(resources, offset, limit, source, title, root)
    if action == "document":
        return await documents.document(resources, id)
    if action == "job":
        return await jobs.job(resources, id, offset, limit)
    if action == "jobs":
        return await jobs.jobs(resources, limit, unfinished)
    return await entities.list_entities(resources, type, offset, limit, q)

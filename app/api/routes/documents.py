"""The documents resource: the upload endpoint, add-documents and delete-document (``POST
/api/adaptive-entity-rag``), and the inventory reads of ``GET /api/adaptive-entity-rag`` (``actions.py``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse

from app.api.deps import ResourcesDep
from app.api.errors import ApiError
from app.container import Resources
from app.schemas import API_PATH, AddDocumentsRequest
from app.services import documents
from graphs.domain import Document
from graphs.ingest.formats import FILE_TYPES

router = APIRouter(prefix=API_PATH, tags=["documents"])


@router.post(
    "/upload",
    status_code=202,
    responses={202: {"description": "The files' documents are queued as an ingest job: `{jobId, files[]}` with "
                                    "each file's documents or its error, the indexed ones it `replaced` and, "
                                    "with skipUnchanged, those `unchanged` (indexed already with the same content: "
                                    "the job skips them) (`GET ?action=job&id=` follows the job)"},
               413: {"description": "file_too_large, payload_too_large"},
               415: {"description": "unsupported_file_type (no file of a type the service reads; beside one "
                                    "that is, such a file fails alone in `files[]`)"},
               422: {"description": "too_many_files, no_documents (no file could be read), invalid_file_name (a "
                                    "bidirectional, zero-width or other invisible character), invalid_request, "
                                    "invalid_document_id, invalid_metadata_date, invalid_entity_type"}},
)
async def upload(
    request: Request,
    resources: ResourcesDep,
    files: Annotated[list[UploadFile], File(description=f"One or more files: {FILE_TYPES}.")],
    metadata: Annotated[str | None, Form(
        description='JSON object mapping a file name to {"id", "title", "metadata"} for its document.')] = None,
    root: Annotated[str | None, Form(
        description="A name for where the files come from (a folder): the inventory lists it, and a re-ingest "
                    "with prune removes what is gone from it.", max_length=4096)] = None,
    skip_unchanged: Annotated[Literal["true", "false", "1", "0"], Form(
        alias="skipUnchanged", description="Leave alone a document whose content is already indexed: true or "
        "false (1 or 0); any other value is refused (422), never read as one or the other.")] = "true",
    workspace: Annotated[str | None, Form(
        max_length=64, description="The workspace the files go to (the X-Workspace header also names it); "
                                   "default: the key's own, else `default`.")] = None,
) -> Any:
    """Ingest uploaded files as a background job; a file that cannot be read fails alone."""
    request.state.action = "upload"  # the metrics' action label
    # every check is the service's (``check_upload``, then the metadata field's in ``upload``); its errors are
    # ServiceErrors, mapped to HTTP by the app's handler
    names = documents.check_upload(resources.settings, [(f.filename, f.size) for f in files])
    data = [(name, await f.read()) for name, f in zip(names, files, strict=True)]
    body = await documents.upload(resources, data, metadata, root=root,
                                  skip_unchanged=skip_unchanged in ("true", "1"))
    return JSONResponse(body, status_code=202)


async def add_documents(resources: Resources, body: AddDocumentsRequest) -> Any:
    """Add documents: one all-or-nothing write (200), or a job (202) when asked for or over the synchronous size."""
    docs = [Document.model_validate(d.model_dump()) for d in body.documents]
    ids = [d.id for d in docs]
    if len(set(ids)) != len(ids):
        raise ApiError(400, "duplicate_document_ids", "each document id may appear once per request")
    status, result = await documents.add_documents(resources, docs, skip_unchanged=body.skip_unchanged,
                                                   background=body.background)
    return result if status == 200 else JSONResponse(result, status_code=status)


async def delete_document(resources: Resources, doc_id: str) -> dict[str, Any]:
    """Delete a document and its chunks (404 ``document_not_found``)."""
    removed = await documents.delete_document(resources, doc_id)
    if not removed:
        raise await asyncio.to_thread(documents.document_not_found, resources, doc_id)
    return {"success": True, "id": doc_id, "deletedChunks": removed}


async def documents_page(resources: Resources, offset: int, limit: int, source: str | None, title: str | None,
                         root: str | None) -> dict[str, Any]:
    """``GET ?action=documents``: one page of the inventory."""
    return await asyncio.to_thread(documents.list_documents, resources, offset=offset, limit=limit, source=source,
                                   title=title, root=root)


async def document(resources: Resources, doc_id: str | None) -> dict[str, Any]:
    """``GET ?action=document&id=``: a document and its chunks with their entity tags."""
    if not doc_id:
        raise ApiError(422, "invalid_request", "id is required", [{"loc": ["query", "id"], "msg": "Field required",
                                                                    "type": "missing"}])
    body = await asyncio.to_thread(documents.show_document, resources, doc_id)
    if body is None:
        raise await asyncio.to_thread(documents.document_not_found, resources, doc_id)
    return body

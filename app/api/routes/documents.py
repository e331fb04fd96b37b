"""Documents: the upload endpoint, and the inventory and job reads of ``GET /api/adaptive-entity-rag``."""

from __future__ import annotations

import asyncio
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse

from app import documents
from app.api.deps import resources_of
from app.api.errors import ApiError
from app.container import Resources
from app.schemas import API_PATH
from graphs.ingest.loaders import SUPPORTED_SUFFIXES
from graphs.unicode_policy import text_problem

router = APIRouter(prefix=API_PATH, tags=["documents"])


@router.post(
    "/upload",
    status_code=202,
    responses={202: {"description": "The files' documents are queued as an ingest job: `{jobId, files[]}` with "
                                    "each file's documents or its error (`GET ?action=job&id=` follows the job)"},
               413: {"description": "file_too_large, payload_too_large"},
               415: {"description": "unsupported_file_type"},
               422: {"description": "too_many_files, no_documents (no file could be read), invalid_file_name (a "
                                    "bidirectional, zero-width or other invisible character), invalid_request, "
                                    "invalid_document_id, invalid_metadata_date, invalid_entity_type"}},
)
async def upload(
    request: Request,
    files: Annotated[list[UploadFile], File(description="One or more .md, .txt, .html, .pdf, .docx, .csv, .tsv or .jsonl files.")],
    metadata: Annotated[str | None, Form(
        description='JSON object mapping a file name to {"id", "title", "metadata"} for its document.')] = None,
    root: Annotated[str | None, Form(
        description="A name for where the files come from (a folder): the inventory lists it, and a re-ingest "
                    "with prune removes what is gone from it.", max_length=4096)] = None,
    skip_unchanged: Annotated[Literal["true", "false", "1", "0"], Form(
        alias="skipUnchanged", description="Leave alone a document whose content is already indexed: true or "
        "false (1 or 0); any other value is refused (422), never read as one or the other.")] = "true",
) -> Any:
    """Ingest uploaded files as a background job; a file that cannot be read fails alone."""
    request.state.action = "upload"  # the metrics' action label
    resources = resources_of(request)
    settings = resources.settings
    if len(files) > settings.upload_max_files:
        raise ApiError(422, "too_many_files", f"at most {settings.upload_max_files} files per upload",
                       {"maxFiles": settings.upload_max_files, "files": len(files)})
    named = [(documents.upload_name(f.filename, i), f) for i, f in enumerate(files)]
    for name, f in named:
        if (problem := text_problem(name, "file name")) is not None:
            # the name becomes the document's id and source: "gpj.\u202eexe-trav8.md" shows as "...8vart-exe.jpg"
            raise ApiError(422, "invalid_file_name", f"file name {name!r} {problem}",
                           {"file": name.encode("unicode_escape").decode("ascii"), "problem": problem})
        suffix = PurePosixPath(name).suffix.lower()
        if suffix not in SUPPORTED_SUFFIXES:
            raise ApiError(415, "unsupported_file_type", f"{name}: {suffix or 'no suffix'} is not a supported type",
                           {"file": name, "supported": list(SUPPORTED_SUFFIXES)})
        if f.size is not None and f.size > settings.upload_max_file_bytes:
            raise ApiError(413, "file_too_large", f"{name} is over {settings.upload_max_file_bytes} bytes",
                           {"file": name, "maxFileBytes": settings.upload_max_file_bytes, "bytes": f.size})
    if len({name for name, _ in named}) != len(named):
        raise ApiError(422, "duplicate_file_names", "each file name may appear once per upload")
    data = [(name, await f.read()) for name, f in named]
    try:
        body = await documents.upload(resources, data, metadata, root=root,
                                      skip_unchanged=skip_unchanged in ("true", "1"))
    except documents.UploadError as exc:
        raise ApiError(exc.status, exc.code, exc.message, exc.details) from exc
    return JSONResponse(body, status_code=202)


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
        raise ApiError(404, "document_not_found", f"no document with id {doc_id!r}")
    return body


async def job(resources: Resources, job_id: str | None, offset: int, limit: int) -> dict[str, Any]:
    """``GET ?action=job&id=``: a job's status, progress and its documents' outcomes (paginated)."""
    if not job_id:
        raise ApiError(422, "invalid_request", "id is required", [{"loc": ["query", "id"], "msg": "Field required",
                                                                    "type": "missing"}])
    view = await asyncio.to_thread(documents.show_job, resources, job_id, offset, limit)
    if view is None:
        raise ApiError(404, "job_not_found", f"no job with id {job_id!r}")
    return documents.job_body(view)

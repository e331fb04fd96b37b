"""The workspaces resource: ``GET/POST /api/workspaces``, ``GET/DELETE /api/workspaces/{name}``,
``GET /api/workspaces/{name}/export`` and ``POST /api/workspaces/import`` (back up, restore, move). Each workspace
is a knowledge base of its own; every other route works in the one its request names (``X-Workspace``,
``?workspace=``, the body's ``workspace``), else ``default``."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse
from starlette.background import BackgroundTask

from app.api.deps import WorkspacesDep
from app.api.workspace_scope import principal_of
from app.schemas.workspaces import (
    CreateWorkspaceRequest,
    DeleteWorkspaceResponse,
    WorkspaceListResponse,
    WorkspaceResponse,
)
from app.services import workspaces as service
from app.services.keys import visible_workspaces
from app.workspaces import check_workspace_name

WORKSPACES_PATH = "/api/workspaces"
router = APIRouter(prefix=WORKSPACES_PATH, tags=["workspaces"])


@router.get("", response_model=WorkspaceListResponse)
async def list_workspaces(workspaces: WorkspacesDep, request: Request) -> dict[str, Any]:
    """Every workspace the request's key may see (all of them without keys), with its documents, chunks, size on
    disk and last write; ``default`` first. A key for one workspace lists that one only: it learns of no other."""
    infos = await service.list_workspaces(workspaces, visible_workspaces(principal_of(request), workspaces.names()))
    return {"success": True, "workspaces": [i.as_dict() for i in infos]}


@router.post("", status_code=201, response_model=WorkspaceResponse,
             responses={409: {"description": "workspace_exists"}, 422: {"description": "invalid_workspace"}})
async def create_workspace(workspaces: WorkspacesDep, body: CreateWorkspaceRequest) -> Any:
    """Create an empty workspace."""
    info = await service.create_workspace(workspaces, check_workspace_name(body.name))
    return JSONResponse({"success": True, **info.as_dict()}, status_code=201)


@router.get("/{name}", response_model=WorkspaceResponse, responses={404: {"description": "workspace_not_found"}})
async def get_workspace(workspaces: WorkspacesDep, name: str) -> dict[str, Any]:
    """What one workspace holds."""
    info = await service.workspace_info(workspaces, check_workspace_name(name))
    return {"success": True, **info.as_dict()}


@router.delete("/{name}", response_model=DeleteWorkspaceResponse,
               responses={404: {"description": "workspace_not_found"},
                          409: {"description": "workspace_protected (the default workspace)"}})
async def delete_workspace(workspaces: WorkspacesDep, name: str) -> dict[str, Any]:
    """Delete a workspace: its jobs stop, its documents, chunks, vectors, graph, inventory, jobs, entity overlay
    and files are removed."""
    return await service.delete_workspace(workspaces, check_workspace_name(name))


@router.get("/{name}/export", response_class=FileResponse,
            responses={200: {"content": {"application/zip": {}}, "description": "The workspace as one archive file"},
                       404: {"description": "workspace_not_found"},
                       409: {"description": "workspace_busy (an ingest job or vector fill is running)"}})
async def export_workspace(workspaces: WorkspacesDep, name: str) -> FileResponse:
    """One archive file of the workspace: its chunks with their vectors, inventory, knowledge graph, own entities
    and job history; ``POST /api/workspaces/import`` (or ``aer workspaces import``) restores it without
    re-embedding, here or on another service with the same embedder."""
    name = check_workspace_name(name)
    folder = Path(tempfile.mkdtemp(prefix="aer-export-"))
    path = folder / f"{name}.aerws"
    try:
        await service.export_workspace(workspaces, name, path)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return FileResponse(path, media_type="application/zip", filename=path.name,
                        background=BackgroundTask(shutil.rmtree, folder, ignore_errors=True))


@router.post("/import", status_code=201, responses={
    409: {"description": "workspace_not_empty (send replace=true), workspace_protected (default)"},
    422: {"description": "archive_invalid, archive_version, embedder_mismatch, invalid_workspace"}})
async def import_workspace(
    workspaces: WorkspacesDep,
    file: Annotated[UploadFile, File(description="An archive written by export.")],
    name: Annotated[str, Form(description="The workspace to import into (created when it does not exist).")],
    replace: Annotated[bool, Form(description="Replace what the workspace holds.")] = False,
) -> Any:
    """Restore an exported workspace without re-embedding: staged, then swapped in complete."""
    name = check_workspace_name(name)
    folder = Path(tempfile.mkdtemp(prefix="aer-import-"))
    try:
        path = folder / "archive.aerws"
        with path.open("wb") as out:
            while block := await file.read(1 << 20):
                out.write(block)
        result = await service.import_workspace(workspaces, name, path, replace=replace)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return JSONResponse(result, status_code=201)

"""The workspaces resource: ``GET/POST /api/workspaces``, ``GET/DELETE /api/workspaces/{name}``. Each workspace
is a knowledge base of its own; every other route works in the one its request names (``X-Workspace``,
``?workspace=``, the body's ``workspace``), else ``default``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import WorkspacesDep
from app.schemas.workspaces import (
    CreateWorkspaceRequest,
    DeleteWorkspaceResponse,
    WorkspaceListResponse,
    WorkspaceResponse,
)
from app.services import workspaces as service
from app.workspaces import check_workspace_name

WORKSPACES_PATH = "/api/workspaces"
router = APIRouter(prefix=WORKSPACES_PATH, tags=["workspaces"])


@router.get("", response_model=WorkspaceListResponse)
async def list_workspaces(workspaces: WorkspacesDep) -> dict[str, Any]:
    """Every workspace with its documents, chunks, size on disk and last write; ``default`` first."""
    infos = await service.list_workspaces(workspaces)
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

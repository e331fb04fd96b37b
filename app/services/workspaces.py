"""Workspaces: list (with what each holds), create, describe, delete; what the REST routes and the CLI call."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from app.container import Resources
from app.errors import ServiceError, nearest
from app.services.keys import Principal, workspace_not_found
from app.workspaces import UnknownWorkspace, WorkspaceInfo, Workspaces


def open_workspace(workspaces: Workspaces, name: str, principal: Principal) -> Resources:
    """The resources of workspace ``name``; one that does not exist is 404 ``workspace_not_found`` naming the
    workspace most likely meant (``radio`` for ``radoi``: ``details.suggestion``) — only to a caller who may see
    every workspace (no keys, or a key for all): to a key for one workspace a mistyped name and another team's
    workspace answer alike, so a suggestion never tells it which names exist."""
    try:
        return workspaces.get(name)
    except UnknownWorkspace:
        raise unknown_workspace(name, workspaces.names(), principal) from None


def unknown_workspace(name: str, names: list[str], principal: Principal) -> ServiceError:
    """404 ``workspace_not_found`` for ``name``, naming the nearest of ``names`` to a caller who sees them all."""
    error = workspace_not_found(name)
    meant = nearest(name, names) if principal.role is not None and principal.workspace is None else None
    if meant is None:
        return error
    return ServiceError(error.kind, error.code, f"{error.message} (did you mean {meant!r}?)",
                        {"workspace": name, "suggestion": meant})


def list_infos(workspaces: Workspaces, names: list[str] | None = None) -> list[WorkspaceInfo]:
    """What each workspace holds (``names``: only these, e.g. those a key may see), ``default`` first."""
    return [workspaces.info(name) for name in (names if names is not None else workspaces.names())]


async def list_workspaces(workspaces: Workspaces, names: list[str] | None = None) -> list[WorkspaceInfo]:
    """``list_infos`` off the event loop (each workspace is opened to count it)."""
    return await asyncio.to_thread(list_infos, workspaces, names)


async def create_workspace(workspaces: Workspaces, name: str) -> WorkspaceInfo:
    """Create an empty workspace (409 ``workspace_exists``, 422 ``invalid_workspace``)."""
    return await asyncio.to_thread(workspaces.create, name)


async def workspace_info(workspaces: Workspaces, name: str) -> WorkspaceInfo:
    """What workspace ``name`` holds (404 ``workspace_not_found``)."""
    return await asyncio.to_thread(workspaces.info, name)


async def delete_workspace(workspaces: Workspaces, name: str) -> dict[str, Any]:
    """Delete a workspace and everything it holds (409 ``workspace_protected`` for ``default``)."""
    return await asyncio.to_thread(workspaces.delete, name)


async def export_workspace(workspaces: Workspaces, name: str, path: Path) -> dict[str, Any]:
    """Write workspace ``name`` to one archive file (409 ``workspace_busy`` while it ingests)."""
    return await asyncio.to_thread(workspaces.export, name, path)


async def import_workspace(workspaces: Workspaces, name: str, path: Path, *, replace: bool = False) -> dict[str, Any]:
    """Import an archive into workspace ``name`` (created when absent), without re-embedding."""
    return await asyncio.to_thread(workspaces.restore, name, path, replace=replace)

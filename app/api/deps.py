"""Request dependencies of the routes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.api.workspace_scope import effective_workspace, remember_body_workspace
from app.container import Resources
from app.services.keys import principal_in
from app.services.workspaces import open_workspace
from app.workspaces import Workspaces


def workspaces_of(request: Request) -> Workspaces:
    """The service's workspace registry, built by the lifespan."""
    workspaces: Workspaces = request.app.state.workspaces
    return workspaces


async def resources_of(request: Request) -> Resources:
    """The resources of the workspace the request addresses (``X-Workspace``, ``?workspace=``, the JSON body's
    ``workspace``; else the key's own; else ``default``): 404 ``workspace_not_found`` when there is none such
    (naming the one meant to a caller who may see them all),
    422 ``invalid_workspace`` for a name that cannot be one."""
    await remember_body_workspace(request)
    name = effective_workspace(request)
    resources = open_workspace(workspaces_of(request), name, principal_in(request))
    request.state.workspace = name  # the metrics' and traces' workspace: only a name that is one (a bounded set)
    return resources


ResourcesDep = Annotated[Resources, Depends(resources_of)]
"""A route's parameter for the resources of the request's workspace (``resources: ResourcesDep``)."""
WorkspacesDep = Annotated[Workspaces, Depends(workspaces_of)]
"""A route's parameter for the workspace registry."""

"""The workspaces resource: create one (``CreateWorkspaceRequest``), what each holds (``WorkspaceBody``)."""

from __future__ import annotations

from pydantic import Field

from app.schemas.base import WIRE_TIME, Wire, WireRequest, WorkspaceName


class CreateWorkspaceRequest(WireRequest):
    name: WorkspaceName = Field(description="1-32 lower-case letters, digits, `_` and `-`, starting with a letter or "
                                            "a digit (422 invalid_workspace; 409 workspace_exists).")


class WorkspaceBody(Wire):
    name: str
    documents: int = Field(description="Documents in its inventory.")
    chunks: int = Field(description="Chunks in its index.")
    size_bytes: int = Field(description="Bytes its files take on disk (its Milvus Lite file, graph, inventory, jobs).")
    last_write: str | None = Field(description=f"When one of its files last changed ({WIRE_TIME}).")
    created_at: str | None = Field(description=f"When it was created ({WIRE_TIME}; null: the default workspace).")


class WorkspaceResponse(WorkspaceBody):
    success: bool = True


class WorkspaceListResponse(Wire):
    success: bool = True
    workspaces: list[WorkspaceBody]


class DeletedCounts(Wire):
    documents: int
    chunks: int


class DeleteWorkspaceResponse(Wire):
    success: bool = True
    workspace: str
    deleted: DeletedCounts = Field(description="What it held when it was deleted.")

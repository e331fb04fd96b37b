"""The entities resource: add (or merge), remove aliases, delete, and the entity list."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from app.schemas.base import (
    EntityAlias,
    EntityName,
    Wire,
    WorkspaceRequest,
    check_strings,
)
from graphs.domain import (
    EntityMetadata,
    NameWarning,
)


class AddEntityRequest(WorkspaceRequest):
    action: Literal["add-entity"]
    standard_name: EntityName
    type: str
    aliases: list[EntityAlias] = Field(default_factory=list, max_length=200)
    hierarchy: list[EntityAlias] = Field(default_factory=list, max_length=20)
    related_entities: list[EntityAlias] = Field(default_factory=list, max_length=200)
    scope: Literal["workspace", "shared"] = Field(
        default="workspace", description="workspace: the workspace's own dictionary (it overlays the shared one); "
                                         "shared: the dictionary every workspace sees.")

    @model_validator(mode="after")
    def _storable(self) -> AddEntityRequest:
        check_strings({"standardName": self.standard_name, "type": self.type, "aliases": self.aliases,
                       "hierarchy": self.hierarchy, "relatedEntities": self.related_entities})
        return self


class RemoveAliasRequest(WorkspaceRequest):
    action: Literal["remove-alias"]
    standard_name: EntityName
    aliases: list[EntityAlias] = Field(min_length=1, max_length=200)
    scope: Literal["workspace", "shared"] = Field(
        default="workspace", description="workspace: the workspace's own dictionary (it overlays the shared one); "
                                         "shared: the dictionary every workspace sees.")


class DeleteEntityRequest(WorkspaceRequest):
    action: Literal["delete-entity"]
    standard_name: EntityName
    scope: Literal["workspace", "shared"] = Field(
        default="workspace", description="workspace: the workspace's own dictionary (it overlays the shared one); "
                                         "shared: the dictionary every workspace sees.")


# The answers of the other actions, typed so the OpenAPI document describes every 200 body.
class AddEntityResponse(Wire):
    success: Literal[True] = True
    entity: EntityMetadata = Field(description="The entity as stored, merged with what was there.")
    warnings: list[NameWarning] = Field(
        default_factory=list, description="Names or aliases accepted that look like another entity's "
        "(code confusable_name: Unicode confusables, e.g. a Cyrillic А in Аpple).")
    retagged: int | None = Field(
        default=0, description="Indexed chunks re-tagged: those that name the entity now get its tag (and lose it "
        "when they named it only by a removed alias). null: the vector index was unavailable; the entity is saved "
        "and the next write or restart re-tags the chunks.")


class DeleteEntityResponse(Wire):
    success: Literal[True] = True
    entity: EntityMetadata = Field(description="The entity as it was before the delete.")
    untagged: int = Field(description="Indexed chunks that lost its tag (its name and aliases no longer filter).")


class EntityListResponse(Wire):
    success: Literal[True] = True
    total: int = Field(description="Entities that match (of the type, and the search when one is given).")
    offset: int
    limit: int
    entities: list[EntityMetadata]

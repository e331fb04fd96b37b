"""The entities resource: add (or merge), remove aliases, delete, list and search. ``POST`` and
``GET /api/adaptive-entity-rag`` with an entity action serve it (``actions.py``)."""

from __future__ import annotations

from typing import Any

from app.api.errors import ApiError
from app.container import Resources
from app.schemas import (
    AddEntityRequest,
    AddEntityResponse,
    DeleteEntityRequest,
    DeleteEntityResponse,
    RemoveAliasRequest,
)
from app.services import entities
from app.workspaces import Workspaces
from graphs.domain import ENTITY_TYPES, EntityMetadata, EntityType


def entity_type(type: str | None) -> EntityType | None:
    """``type`` as an entity type (None stays None); a 422 ``invalid_entity_type`` when it is none of them."""
    if type is None:
        return None
    if type not in ENTITY_TYPES:
        raise ApiError(422, "invalid_entity_type", f"type must be one of {', '.join(ENTITY_TYPES)}")
    return type


async def add_entity(resources: Resources, body: AddEntityRequest, workspaces: Workspaces) -> dict[str, Any]:
    """Add an entity or merge its aliases into the one of that name: the stored entity, look-alike warnings and
    the chunks re-tagged."""
    entity_type(body.type)
    entity = EntityMetadata.model_validate(body.model_dump(exclude={"action", "workspace", "scope"}))
    write = await entities.add_entity(resources, entity, scope=body.scope, workspaces=workspaces)
    return AddEntityResponse(entity=write.entity, warnings=write.warnings,
                             retagged=write.retagged).model_dump(by_alias=True)


async def remove_alias(resources: Resources, body: RemoveAliasRequest, workspaces: Workspaces) -> dict[str, Any]:
    """Remove aliases from an entity (404 ``entity_not_found``)."""
    removed_from = await entities.remove_aliases(resources, body.standard_name, body.aliases, scope=body.scope,
                                                 workspaces=workspaces)
    if removed_from is None:
        raise ApiError(404, "entity_not_found", f"no entity named {body.standard_name!r}")
    return AddEntityResponse(entity=removed_from.entity, retagged=removed_from.retagged).model_dump(by_alias=True)


async def delete_entity(resources: Resources, body: DeleteEntityRequest, workspaces: Workspaces) -> dict[str, Any]:
    """Delete an entity (404 ``entity_not_found``): its chunks lose the tag, the knowledge graph its edges."""
    deleted = await entities.delete_entity(resources, body.standard_name, scope=body.scope, workspaces=workspaces)
    if deleted is None:
        raise ApiError(404, "entity_not_found", f"no entity named {body.standard_name!r}")
    return DeleteEntityResponse(entity=deleted[0], untagged=deleted[1]).model_dump(by_alias=True)


async def list_entities(resources: Resources, type: str | None, offset: int, limit: int,
                        q: str | None) -> dict[str, Any]:
    """One page of entities (of ``type``; matching ``q``, best match first)."""
    total, items = await entities.list_entities(resources, entity_type(type), offset, limit, q)
    return {"success": True, "total": total, "offset": offset, "limit": limit,
            "entities": [e.model_dump(by_alias=True) for e in items]}

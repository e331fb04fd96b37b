"""Entities: add or merge (with look-alike warnings), remove aliases, delete, list and search. A write re-tags
the indexed chunks that name the entity; every store outage is counted."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from app.container import Resources
from app.errors import ServiceError
from app.observability.metrics import counted_outages
from graphs.domain import EntityMetadata, EntityType, NameWarning
from graphs.stores.base import EntityStore, StoreUnavailable
from graphs.text.confusables import look_alikes

if TYPE_CHECKING:
    from app.workspaces import Workspaces

log = logging.getLogger(__name__)

Scope = Literal["workspace", "shared"]
"""Which dictionary a write goes to: the workspace's own (it overlays the shared one), or the shared one."""


def shared_store(workspaces: Workspaces | None) -> EntityStore:
    """The shared entity dictionary (a write with ``scope: shared`` needs the service's workspaces)."""
    if workspaces is None:
        raise ServiceError("bad_request", "invalid_scope", "the shared dictionary is written through the service")
    return workspaces.shared_entities


def sees_shared(resources: Resources, standard_name: str) -> bool:
    """Whether this workspace sees the shared entity of that name (it has no entity of its own by that name)."""
    own = getattr(resources.context.entities, "own", None)
    return own is None or own.get(standard_name) is None


async def retag_everywhere(workspaces: Workspaces, asking: Resources, entity: EntityMetadata,
                           removed: list[str] | None = None) -> int | None:
    """Re-tag the chunks of every opened workspace that sees the shared ``entity``; the count of ``asking``'s."""
    counts: dict[str, int | None] = {}
    for name, resources in workspaces.opened().items():
        if sees_shared(resources, entity.standard_name):
            counts[name] = await retag(resources, entity, removed)
    return counts.get(asking.workspace, 0)


def name_warnings(resources: Resources, entity: EntityMetadata) -> list[NameWarning]:
    """The names and aliases of ``entity`` that look like another entity's (accepted, with a warning)."""
    warnings = look_alikes(entity, resources.context.entities.surface_forms())
    for w in warnings:
        log.warning("add-entity: %s", w.message)
    return warnings


@dataclass(frozen=True)
class EntityWrite:
    """An entity as stored after a write, the look-alike warnings of its names, and the chunks re-tagged."""

    entity: EntityMetadata
    warnings: list[NameWarning]
    retagged: int | None
    """None: the index was unavailable; the chunks are re-tagged by the next write or start."""


async def retag(resources: Resources, entity: EntityMetadata, removed: list[str] | None = None) -> int | None:
    """Re-tag the indexed chunks that name ``entity`` (or named it by a ``removed`` alias); None when the index
    is unavailable (the entity write stands: the next write or start re-tags them)."""
    try:
        return await asyncio.to_thread(resources.ingestor.retag, entity, removed or [])
    except StoreUnavailable as exc:
        resources.metrics.store_error(exc.store)
        log.warning("saved %s, but could not re-tag the indexed chunks yet: %s", entity.standard_name, exc)
        return None


async def add_entity(resources: Resources, entity: EntityMetadata, *, scope: Scope = "workspace",
                     workspaces: Workspaces | None = None) -> EntityWrite:
    """Add or merge an entity (an alias owned by another entity raises ``AliasConflictError``), with a warning
    for each name that looks like another entity's; the indexed chunks that name it are re-tagged. ``scope:
    shared`` writes the shared dictionary, and re-tags every opened workspace that sees the entity."""
    if scope == "shared":
        store = shared_store(workspaces)
        assert workspaces is not None
        with counted_outages(resources.metrics):
            warnings = look_alikes(entity, await asyncio.to_thread(store.surface_forms))
            saved = await asyncio.to_thread(store.upsert, entity)
        return EntityWrite(saved, warnings, await retag_everywhere(workspaces, resources, saved))
    with counted_outages(resources.metrics):
        warnings = await asyncio.to_thread(name_warnings, resources, entity)
        saved = await asyncio.to_thread(resources.ingestor.upsert_entity, entity)
    return EntityWrite(saved, warnings, await retag(resources, saved))


async def remove_aliases(resources: Resources, standard_name: str, aliases: list[str], *,
                         scope: Scope = "workspace", workspaces: Workspaces | None = None) -> EntityWrite | None:
    """Remove aliases from an entity (None if there is no such entity); chunks that named it only by them lose
    its tag. In the workspace, a shared entity's aliases are removed from the workspace's copy of it."""
    if scope == "shared":
        store = shared_store(workspaces)
        assert workspaces is not None
        with counted_outages(resources.metrics):
            saved = await asyncio.to_thread(store.remove_aliases, standard_name, aliases)
        if saved is None:
            return None
        return EntityWrite(saved, [], await retag_everywhere(workspaces, resources, saved, aliases))
    with counted_outages(resources.metrics):
        saved = await asyncio.to_thread(resources.ingestor.remove_aliases, standard_name, aliases)
    if saved is None:
        return None
    return EntityWrite(saved, [], await retag(resources, saved, aliases))


async def list_entities(resources: Resources, type: EntityType | None, offset: int, limit: int,
                        q: str | None = None) -> tuple[int, list[EntityMetadata]]:
    """The total count of entities (of ``type``; matching ``q`` by name, alias, fuzzily or in pinyin) and one page
    of them."""
    store = resources.context.entities
    with counted_outages(resources.metrics):
        if q is not None and q.strip():
            found = await asyncio.to_thread(store.search, q, type)
            return len(found), found[offset : offset + limit]
        items = await asyncio.to_thread(store.list, type, offset, limit)
        total = await asyncio.to_thread(store.count, type)
    return total, items


async def delete_entity(resources: Resources, standard_name: str, *, scope: Scope = "workspace",
                        workspaces: Workspaces | None = None) -> tuple[EntityMetadata, int] | None:
    """Delete an entity (None if there is none by that name): the chunks lose its tag, the graph its edges.

    In the workspace, only its own entity is deleted (a shared one of that name shows again, and re-tags);
    a shared entity it has no copy of is 409 ``shared_entity`` (delete it with ``scope: shared``). ``scope:
    shared`` deletes the shared one: every opened workspace that sees it untags its chunks first."""
    if scope == "shared":
        store = shared_store(workspaces)
        assert workspaces is not None
        with counted_outages(resources.metrics):
            entity = await asyncio.to_thread(store.get, standard_name)
            if entity is None:
                return None
            untagged: dict[str, int] = {}
            for name, opened in workspaces.opened().items():
                if sees_shared(opened, standard_name):
                    done = await asyncio.to_thread(opened.ingestor.delete_entity, standard_name)
                    untagged[name] = done[1] if done else 0
            await asyncio.to_thread(store.delete, standard_name)
        return entity, untagged.get(resources.workspace, 0)
    entities = resources.context.entities
    if getattr(entities, "is_shared_only", lambda _name: False)(standard_name):
        raise ServiceError("conflict", "shared_entity",
                           f"{standard_name!r} is in the shared dictionary: delete it there with scope \"shared\" "
                           "(every workspace loses it), or override it in this workspace with add-entity",
                           {"standardName": standard_name})
    with counted_outages(resources.metrics):
        deleted = await asyncio.to_thread(resources.ingestor.delete_entity, standard_name)
        if deleted is not None:
            shown = await asyncio.to_thread(entities.get, standard_name)
            if shown is not None:  # the shared entity of that name shows again: its chunks get its tag back
                await retag(resources, shown)
    return deleted

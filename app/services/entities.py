"""Entities: add or merge (with look-alike warnings), remove aliases, delete, list and search. A write re-tags
the indexed chunks that name the entity; every store outage is counted."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from app.container import Resources
from app.observability.metrics import counted_outages
from graphs.domain import EntityMetadata, EntityType, NameWarning
from graphs.stores.base import StoreUnavailable
from graphs.text.confusables import look_alikes

log = logging.getLogger(__name__)


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


async def add_entity(resources: Resources, entity: EntityMetadata) -> EntityWrite:
    """Add or merge an entity (an alias owned by another entity raises ``AliasConflictError``), with a warning
    for each name that looks like another entity's; the indexed chunks that name it are re-tagged."""
    with counted_outages(resources.metrics):
        warnings = await asyncio.to_thread(name_warnings, resources, entity)
        saved = await asyncio.to_thread(resources.ingestor.upsert_entity, entity)
    return EntityWrite(saved, warnings, await retag(resources, saved))


async def remove_aliases(resources: Resources, standard_name: str, aliases: list[str]) -> EntityWrite | None:
    """Remove aliases from an entity (None if there is no such entity); chunks that named it only by them lose
    its tag."""
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


async def delete_entity(resources: Resources, standard_name: str) -> tuple[EntityMetadata, int] | None:
    """Delete an entity (None if there is none by that name): the chunks lose its tag, the graph its edges."""
    with counted_outages(resources.metrics):
        return await asyncio.to_thread(resources.ingestor.delete_entity, standard_name)

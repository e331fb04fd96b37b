"""A workspace's entity dictionary: the shared dictionary overlaid by the workspace's own.

Lookups, the gazetteer, lists and counts see both. The workspace's entry wins: a shared entity with the same
standard name is hidden by the workspace's, and a shared alias (or name) that one of the workspace's entities
names is dropped from the shared entity in this workspace's view, so a workspace can re-point ``Apple`` without
touching any other. Writes go to the workspace's own store: adding aliases to, or removing them from, a shared
entity writes the workspace's copy of it (the shared one stays as it is for every other workspace). The shared
dictionary itself is written only through its own store (``"scope": "shared"`` in the service).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING

from graphs.domain import EntityMetadata, EntityType
from graphs.stores.entities.matcher import (
    DEFAULT_FUZZY_THRESHOLD,
    CachedMatcherStore,
    check_page,
    dump_entity,
    load_entity,
    merge_entity,
    surface_keys,
    without_aliases,
)

if TYPE_CHECKING:
    from graphs.stores.entities.redis_store import RedisEntityStore
    from graphs.stores.entities.sqlite_store import SQLiteEntityStore

    BackendStore = SQLiteEntityStore | RedisEntityStore

VERSION_SHIFT = 1 << 32
"""The overlay's version is ``own * VERSION_SHIFT + shared``: it changes whenever either store does."""


def overlay(own: Sequence[EntityMetadata], shared: Sequence[EntityMetadata]) -> builtins.list[EntityMetadata]:
    """The entities a workspace sees, sorted by standard name: its own, then each shared one whose name it does
    not define, without the surface forms (name or alias, normalized) one of its own entities uses."""
    names = {e.standard_name for e in own}
    taken = {key for e in own for key in surface_keys(e)}
    seen = builtins.list(own)
    for entity in shared:
        if entity.standard_name in names:
            continue
        keys = surface_keys(entity)
        if not keys or next(iter(keys)) in taken:  # its own name is a workspace entity's: hidden
            continue
        dropped = [text for key, text in keys.items() if key in taken]
        seen.append(without_aliases(entity, dropped) or entity if dropped else entity)
    return sorted(seen, key=lambda e: e.standard_name)


class OverlayEntityStore(CachedMatcherStore):
    """EntityStore of one workspace: ``shared`` overlaid by ``own`` (both entity stores with a matcher)."""

    def __init__(self, own: BackendStore, shared: BackendStore, *,
                 fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD) -> None:
        super().__init__(fuzzy_threshold, 0.0)
        self.own = own
        self.shared = shared

    # -- reads ---------------------------------------------------------------------------------------------
    def version(self) -> int:
        """Changes whenever the workspace's own store or the shared one changes."""
        return self.own.version() * VERSION_SHIFT + self.shared.version()

    def _snapshot(self) -> tuple[int, builtins.list[str | bytes]]:
        own_version, own_raws = self.own._snapshot()
        shared_version, shared_raws = self.shared._snapshot()
        merged = overlay([load_entity(r) for r in own_raws], [load_entity(r) for r in shared_raws])
        return own_version * VERSION_SHIFT + shared_version, [dump_entity(e) for e in merged]

    def _view(self, type: EntityType | None) -> builtins.list[EntityMetadata]:
        entities = self.matcher().entities
        return sorted((e for e in entities if type is None or e.type == type), key=lambda e: e.standard_name)

    def get(self, standard_name: str) -> EntityMetadata | None:
        """The entity this workspace sees under exactly this name (its own, else the shared one)."""
        own = self.own.get(standard_name)
        if own is not None:
            return own
        return next((e for e in self.matcher().entities if e.standard_name == standard_name), None)

    def list(self, type: EntityType | None = None, offset: int = 0,
             limit: int = 100) -> builtins.list[EntityMetadata]:
        """A page of the entities this workspace sees, sorted by standard name."""
        check_page(offset, limit)
        return self._view(type)[offset : offset + limit]

    def count(self, type: EntityType | None = None) -> int:
        """How many entities (of one type) this workspace sees."""
        return len(self._view(type))

    def is_shared_only(self, standard_name: str) -> bool:
        """Whether this name is a shared entity the workspace has no copy of (deleting it needs the shared
        scope)."""
        return self.own.get(standard_name) is None and self.shared.get(standard_name) is not None

    # -- writes (the workspace's own store) ------------------------------------------------------------------
    def upsert(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge into the workspace's own entity; merging into a shared one starts from the shared
        entity as this workspace sees it (its copy then hides the shared one here)."""
        base = None if self.own.get(entity.standard_name) is not None else self.get(entity.standard_name)
        saved = self.own.upsert(merge_entity(base, entity) if base is not None else entity)
        self._invalidate()
        return saved

    def remove_aliases(self, standard_name: str, aliases: Sequence[str]) -> EntityMetadata | None:
        """Remove aliases from the workspace's entity; from a shared one, by writing the workspace's copy without
        them. None if the workspace sees no such entity."""
        if self.own.get(standard_name) is not None:
            saved = self.own.remove_aliases(standard_name, aliases)
        else:
            seen = self.get(standard_name)
            if seen is None:
                return None
            copy = without_aliases(seen, aliases)
            saved = self.own.upsert(copy) if copy is not None else None
        self._invalidate()
        return saved

    def delete(self, standard_name: str) -> bool:
        """Delete the workspace's own entity (a shared one of that name shows again); False when it has none."""
        removed = self.own.delete(standard_name)
        self._invalidate()
        return removed

    def ping(self) -> None:
        """Raise StoreUnavailable if either store cannot be read."""
        self.own.ping()
        self.shared.ping()

    def close(self) -> None:
        """Close the workspace's own store (the shared one belongs to every workspace: its owner closes it)."""
        self.own.close()

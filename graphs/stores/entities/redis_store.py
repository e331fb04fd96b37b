"""The entity store in Redis (when configured): a JSON hash, sorted name sets, a surface index hash and a version
key, each write one optimistic transaction."""

from __future__ import annotations

import builtins
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis

from graphs.domain import EntityMetadata, EntityType
from graphs.stores.base import StoreUnavailable
from graphs.stores.entities.matcher import (
    DEFAULT_FUZZY_THRESHOLD,
    CachedMatcherStore,
    ChangeWrites,
    check_conflicts,
    check_page,
    dump_entity,
    load_entity,
    surface_keys,
)

T = TypeVar("T")


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisEntityStore(ChangeWrites, CachedMatcherStore):
    """EntityStore in Redis: a JSON hash, sorted name sets, a surface index hash and a version key."""

    def __init__(
        self,
        client_or_url: redis.Redis | str,
        prefix: str = "aer:",
        *,
        fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
        socket_timeout: float = 5.0,
        max_retries: int = 200,
        max_staleness: float = 0.0,
    ) -> None:
        super().__init__(fuzzy_threshold, max_staleness)
        if isinstance(client_or_url, str):
            client_or_url = redis.Redis.from_url(
                client_or_url, socket_timeout=socket_timeout, socket_connect_timeout=socket_timeout
            )
        self._redis = client_or_url
        self._max_retries = max_retries
        self._k_entities = f"{prefix}entities"
        self._k_names = f"{prefix}names"
        self._k_index = f"{prefix}index"
        self._k_version = f"{prefix}version"

    def _k_type(self, type: str) -> str:
        return f"{self._k_names}:{type}"

    def _call(self, fn: Callable[[], T]) -> T:
        try:
            return fn()
        except redis.RedisError as exc:
            raise StoreUnavailable("redis", f"{type(exc).__name__}: {exc}") from exc

    def _transact(self, body: Callable[[Any], T]) -> T:
        """Run ``body(pipe)`` under WATCH on the version key, retrying when another write wins."""

        def attempt() -> T:
            for n in range(self._max_retries):
                with self._redis.pipeline() as pipe:
                    try:
                        pipe.watch(self._k_version)
                        return body(pipe)
                    except redis.WatchError:
                        time.sleep(random.uniform(0, 0.001 * min(n + 1, 20)))
            raise StoreUnavailable("redis", f"write contention: gave up after {self._max_retries} retries")

        try:
            return self._call(attempt)
        finally:
            self._invalidate()

    def _change(self, name: str, change: Callable[[EntityMetadata | None], EntityMetadata | None]
                ) -> EntityMetadata | None:
        """Write ``change(existing)`` as the entity named ``name``, with its surface forms, in one transaction."""

        def body(pipe: Any) -> EntityMetadata | None:
            raw = pipe.hget(self._k_entities, name)
            existing = load_entity(raw) if raw else None
            merged = change(existing)
            if merged is None or merged == existing:
                return merged
            keys = surface_keys(merged)
            owners = [
                _text(o) if o is not None else None for o in pipe.hmget(self._k_index, builtins.list(keys))
            ]
            check_conflicts(keys, owners, name)
            stale = set(surface_keys(existing)) - set(keys) if existing else set()
            pipe.multi()
            pipe.hset(self._k_entities, name, dump_entity(merged))
            pipe.zadd(self._k_names, {name: 0})
            if existing and existing.type != merged.type:
                pipe.zrem(self._k_type(existing.type), name)
            pipe.zadd(self._k_type(merged.type), {name: 0})
            if stale:
                pipe.hdel(self._k_index, *stale)
            pipe.hset(self._k_index, mapping=dict.fromkeys(keys, name))
            pipe.incr(self._k_version)
            pipe.execute()
            return merged

        return self._transact(body)

    def get(self, standard_name: str) -> EntityMetadata | None:
        """Return the entity with exactly this standard name, or None."""
        raw = self._call(lambda: self._redis.hget(self._k_entities, standard_name))
        return load_entity(raw) if raw else None

    def delete(self, standard_name: str) -> bool:
        """Remove an entity and its aliases; return whether it existed."""

        def body(pipe: Any) -> bool:
            raw = pipe.hget(self._k_entities, standard_name)
            if not raw:
                return False
            existing = load_entity(raw)
            pipe.multi()
            pipe.hdel(self._k_entities, standard_name)
            pipe.zrem(self._k_names, standard_name)
            pipe.zrem(self._k_type(existing.type), standard_name)
            pipe.hdel(self._k_index, *surface_keys(existing))
            pipe.incr(self._k_version)
            pipe.execute()
            return True

        return self._transact(body)

    def list(
        self, type: EntityType | None = None, offset: int = 0, limit: int = 100
    ) -> builtins.list[EntityMetadata]:
        """Return a page of entities sorted by standard name, optionally of one type."""
        check_page(offset, limit)
        if limit == 0:
            return []
        key = self._k_type(type) if type else self._k_names

        def page() -> builtins.list[Any]:
            names: builtins.list[Any] = builtins.list(self._redis.zrange(key, offset, offset + limit - 1))
            return builtins.list(self._redis.hmget(self._k_entities, names)) if names else []

        # A concurrent delete between the two reads leaves a hole; skip it rather than fail.
        return [load_entity(raw) for raw in self._call(page) if raw]

    def count(self, type: EntityType | None = None) -> int:
        """Return how many entities (of one type) are stored."""
        key = self._k_type(type) if type else self._k_names
        return int(self._call(lambda: self._redis.zcard(key)))

    def version(self) -> int:
        """Return the write counter (an INCR key bumped in every write transaction)."""
        return int(self._call(lambda: self._redis.get(self._k_version)) or 0)

    def _snapshot(self) -> tuple[int, builtins.list[str | bytes]]:
        def read() -> builtins.list[Any]:
            with self._redis.pipeline(transaction=True) as pipe:
                pipe.get(self._k_version)
                pipe.hgetall(self._k_entities)
                return builtins.list(pipe.execute())

        raw_version, raw_entities = self._call(read)
        return int(raw_version or 0), [
            raw for _, raw in sorted(raw_entities.items(), key=lambda kv: _text(kv[0]))
        ]

    def ping(self) -> None:
        """Raise StoreUnavailable if Redis does not answer."""
        self._call(self._redis.ping)

    def clear(self) -> None:
        """Remove every key of this store (its prefix's entities, name sets, surface index, version)."""
        from graphs.domain import ENTITY_TYPES

        keys = [self._k_entities, self._k_names, self._k_index, self._k_version,
                *(self._k_type(t) for t in ENTITY_TYPES)]
        self._call(lambda: self._redis.delete(*keys))
        self._invalidate()

    def close(self) -> None:
        """Release the connection pool."""
        self._call(self._redis.close)

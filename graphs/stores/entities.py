"""Entity store adapters (SQLite, Redis) and the in-memory matcher that serves their lookups.

Writes go to the backend in one atomic transaction that also bumps a version counter; lookups
go through an ``EntityMatcher`` rebuilt only when that counter changes, so a lookup costs one
cheap version read plus in-memory dictionary / rapidfuzz work.
"""

from __future__ import annotations

import bisect
import builtins
import json
import logging
import math
import random
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import redis
from pydantic import ValidationError
from rapidfuzz import fuzz, process

from graphs.domain import EntityMatch, EntityMetadata, EntityType, MatchKind
from graphs.stores.base import AliasConflictError, StoreUnavailable
from graphs.stores.sqlite import open_sqlite
from graphs.text.normalize import has_han, normalize, pinyin_variants

logger = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_FUZZY_THRESHOLD = 0.8
PINYIN_SCORE = 0.9
HOMOPHONE_SCORE = 0.8
_DIGITS = re.compile(r"\d+")
_PINYIN_QUERY = re.compile(r"[a-z0-9 ]+")


@dataclass(frozen=True, slots=True)
class SurfaceForm:
    """A name or alias of an entity, normalized and spelled in pinyin for matching."""

    text: str
    norm: str
    entity: EntityMetadata
    is_name: bool
    pinyin: tuple[str, ...]


def entity_surfaces(entity: EntityMetadata) -> tuple[SurfaceForm, ...]:
    """Normalize an entity's name and aliases (and spell the Chinese ones in pinyin) for a matcher."""
    out = []
    for text, is_name in [(entity.standard_name, True), *((a, False) for a in entity.aliases)]:
        norm = normalize(text)
        if norm:
            out.append(
                SurfaceForm(text, norm, entity, is_name, pinyin_variants(norm) if has_han(norm) else ())
            )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _FuzzyBucket:
    """Fuzzy-match candidates sorted by length, so a query only scores lengths that can match."""

    lengths: builtins.list[int]
    norms: builtins.list[str]
    surfaces: builtins.list[SurfaceForm]


class EntityMatcher:
    """Immutable in-memory index answering exact, alias, fuzzy and pinyin lookups."""

    def __init__(
        self,
        entities: Iterable[EntityMetadata],
        *,
        fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
        min_fuzzy_length: int = 3,
        min_pinyin_length: int = 4,
        surfaces: Callable[[EntityMetadata], Sequence[SurfaceForm]] = entity_surfaces,
    ) -> None:
        self.entities: builtins.list[EntityMetadata] = builtins.list(entities)
        self.fuzzy_threshold = fuzzy_threshold
        self.min_fuzzy_length = min_fuzzy_length
        self.min_pinyin_length = min_pinyin_length
        self._surfaces: builtins.list[SurfaceForm] = [s for e in self.entities for s in surfaces(e)]
        self._exact: dict[str, builtins.list[SurfaceForm]] = {}
        self._pinyin: dict[str, builtins.list[SurfaceForm]] = {}
        self._fuzzy: dict[tuple[EntityType | None, bool], _FuzzyBucket] = {}
        for surface in self._surfaces:
            self._exact.setdefault(surface.norm, []).append(surface)
            for key in surface.pinyin:
                self._pinyin.setdefault(key, []).append(surface)

    def __len__(self) -> int:
        return len(self.entities)

    def surface_forms(self) -> builtins.list[tuple[str, EntityMetadata]]:
        """Return every (name or alias, entity) pair."""
        return [(s.text, s.entity) for s in self._surfaces]

    def lookup(self, text: str, type: EntityType | None = None) -> EntityMatch | None:
        """Return the best match of ``text``: exact name, alias, fuzzy, then pinyin; None if unknown."""
        query = normalize(text)
        if not query:
            return None
        surface = _pick(self._exact.get(query, []), type)
        if surface is not None:
            return _match(surface, "exact" if surface.is_name else "alias", 1.0)
        return self._lookup_fuzzy(query, type) or self._lookup_pinyin(query, type)

    def _lookup_fuzzy(self, query: str, type: EntityType | None) -> EntityMatch | None:
        if len(query) < self.min_fuzzy_length:
            return None
        bucket = self._fuzzy_bucket(type, has_han(query))
        # ratio = 2*matches/(len(a)+len(b)) bounds the candidate lengths that can reach the threshold.
        t = min(max(self.fuzzy_threshold, 0.01), 1.0)
        lo = bisect.bisect_left(bucket.lengths, math.floor(len(query) * t / (2 - t)))
        hi = bisect.bisect_right(bucket.lengths, math.ceil(len(query) * (2 - t) / t))
        digits = _DIGITS.findall(query)
        # fuzz.ratio, not WRatio: WRatio's partial matching scores "apple" vs "apple watch" at 0.9.
        results = process.extract(
            query, bucket.norms[lo:hi], scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold * 100, limit=5
        )
        for _, score, index in results:
            surface = bucket.surfaces[lo + index]
            # "iphone 16" must not fuzzy-match "iphone 15": numbers are identity, not typos.
            if _DIGITS.findall(surface.norm) == digits:
                return _match(surface, "fuzzy", min(score / 100, 1.0))
        return None

    def _fuzzy_bucket(self, type: EntityType | None, han: bool) -> _FuzzyBucket:
        """Return the candidates of one type and script sorted by length, built on first use."""
        bucket = self._fuzzy.get((type, han))
        if bucket is None:
            surfaces = sorted(
                (
                    s
                    for s in self._surfaces
                    if len(s.norm) >= self.min_fuzzy_length
                    and bool(s.pinyin) == han
                    and (type is None or s.entity.type == type)
                ),
                key=lambda s: len(s.norm),
            )
            bucket = _FuzzyBucket([len(s.norm) for s in surfaces], [s.norm for s in surfaces], surfaces)
            self._fuzzy[(type, han)] = bucket  # benign race: the value is deterministic
        return bucket

    def _lookup_pinyin(self, query: str, type: EntityType | None) -> EntityMatch | None:
        if has_han(query):
            if sum(1 for ch in query if has_han(ch)) < 2:
                return None
            score, keys = HOMOPHONE_SCORE, pinyin_variants(query)
        elif _PINYIN_QUERY.fullmatch(query):
            score, keys = PINYIN_SCORE, (query.replace(" ", ""),)
        else:
            return None
        for key in keys:
            if len(key) >= self.min_pinyin_length:
                surface = _pick(self._pinyin.get(key, []), type)
                if surface is not None:
                    return _match(surface, "pinyin", score)
        return None


def _pick(candidates: Iterable[SurfaceForm], type: EntityType | None) -> SurfaceForm | None:
    """Return the first candidate of the wanted type, standard names before aliases."""
    best: SurfaceForm | None = None
    for surface in candidates:
        if type is not None and surface.entity.type != type:
            continue
        if surface.is_name:
            return surface
        best = best or surface
    return best


def _match(surface: SurfaceForm, kind: MatchKind, score: float) -> EntityMatch:
    return EntityMatch(entity=surface.entity, match=kind, score=score, matched=surface.text)


def _unique(
    items: Iterable[str], key: Callable[[str], str], exclude: Iterable[str] = ()
) -> builtins.list[str]:
    """Keep the first item of each key, in order, dropping empty keys and excluded ones."""
    seen = set(exclude)
    out = []
    for item in items:
        k = key(item)
        if k and k not in seen:
            seen.add(k)
            out.append(item)
    return out


def merge_entity(existing: EntityMetadata | None, new: EntityMetadata) -> EntityMetadata:
    """Merge ``new`` into ``existing``: union aliases and relations, new type, non-empty hierarchy wins."""
    if not normalize(new.standard_name):
        raise ValueError(f"standard name {new.standard_name!r} is blank")
    old = existing or EntityMetadata(standard_name=new.standard_name, type=new.type)
    return EntityMetadata(
        standard_name=new.standard_name,
        type=new.type,
        aliases=_unique([*old.aliases, *new.aliases], normalize, exclude=[normalize(new.standard_name)]),
        hierarchy=builtins.list(new.hierarchy or old.hierarchy),
        related_entities=_unique([*old.related_entities, *new.related_entities], str),
    )


def surface_keys(entity: EntityMetadata) -> dict[str, str]:
    """Return normalized surface form -> original (name first, then aliases) of an entity."""
    keys: dict[str, str] = {}
    for text in [entity.standard_name, *entity.aliases]:
        keys.setdefault(normalize(text), text)
    keys.pop("", None)
    return keys


def _check_conflicts(keys: dict[str, str], owners: Iterable[str | None], name: str) -> None:
    for (_, text), owner in zip(keys.items(), owners, strict=True):
        if owner is not None and owner != name:
            raise AliasConflictError(text, owner)


def _dump(entity: EntityMetadata) -> str:
    return entity.model_dump_json(by_alias=True)


def _load(raw: str | bytes) -> EntityMetadata:
    return EntityMetadata.model_validate_json(raw)


def _parse_surfaces(raw: str | bytes) -> tuple[EntityMetadata, tuple[SurfaceForm, ...]]:
    entity = _load(raw)
    return entity, entity_surfaces(entity)


class _CachedMatcher:
    """Keep an EntityMatcher in sync with a backend's version counter."""

    def __init__(self, fuzzy_threshold: float, max_staleness: float) -> None:
        self._fuzzy_threshold = fuzzy_threshold
        self._max_staleness = max_staleness
        self._checked_at = -math.inf
        self._writes = 0  # bumped by this instance's writes; a check older than one is void
        self._cached: tuple[int, EntityMatcher] | None = None
        self._rebuild_lock = threading.Lock()
        # Parsed entities by stored JSON: a rebuild only parses and normalizes what changed.
        self._memo: dict[str | bytes, tuple[EntityMetadata, tuple[SurfaceForm, ...]]] = {}

    def version(self) -> int:
        raise NotImplementedError

    def _snapshot(self) -> tuple[int, builtins.list[str | bytes]]:
        """Return the version and every entity's stored JSON sorted by name, read consistently."""
        raise NotImplementedError

    def matcher(self) -> EntityMatcher:
        """Return the matcher for the current version, rebuilding it if the store changed."""
        cached, writes, now = self._cached, self._writes, time.monotonic()
        if cached is not None and now - self._checked_at < self._max_staleness:
            return cached[1]
        current = self.version()
        if cached is not None and cached[0] == current:
            self._mark_checked(now, writes)
            return cached[1]
        with self._rebuild_lock:
            cached = self._cached
            if cached is not None and cached[0] == current:
                return cached[1]
            started = time.perf_counter()
            version, raws = self._snapshot()
            memo = {raw: self._memo.get(raw) or _parse_surfaces(raw) for raw in raws}
            by_id = {id(entity): surfaces for entity, surfaces in memo.values()}
            matcher = EntityMatcher(
                [entity for entity, _ in memo.values()],
                fuzzy_threshold=self._fuzzy_threshold,
                surfaces=lambda entity: by_id[id(entity)],
            )
            self._memo, self._cached = memo, (version, matcher)
            self._mark_checked(now, writes)
            logger.debug(
                "entity matcher rebuilt: %d entities, version %d, %.1f ms",
                len(memo),
                version,
                (time.perf_counter() - started) * 1000,
            )
            return matcher

    def _mark_checked(self, now: float, writes: int) -> None:
        if writes == self._writes:
            self._checked_at = now

    def _invalidate(self) -> None:
        """Make the next lookup read the version, so this instance sees its own writes at once."""
        self._writes += 1
        self._checked_at = -math.inf

    def lookup(self, text: str, type: EntityType | None = None) -> EntityMatch | None:
        """Best match of a surface form: exact/alias, then fuzzy, then pinyin."""
        return self.matcher().lookup(text, type)

    def surface_forms(self) -> builtins.list[tuple[str, EntityMetadata]]:
        """Every (name or alias, entity) pair, for gazetteer matching in text."""
        return self.matcher().surface_forms()


def _check_page(offset: int, limit: int) -> None:
    if offset < 0 or limit < 0:
        raise ValueError(f"offset and limit must be >= 0, got offset={offset}, limit={limit}")


_SCHEMA = """
CREATE TABLE IF NOT EXISTS entities (
  name TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entities_type_name ON entities(type, name);
CREATE TABLE IF NOT EXISTS surface_index (
  norm TEXT PRIMARY KEY,
  owner TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS surface_index_owner ON surface_index(owner);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('version', 0);
"""


class SQLiteEntityStore(_CachedMatcher):
    """EntityStore in a SQLite file (WAL), safe to share between threads."""

    def __init__(
        self,
        path: str | Path,
        *,
        fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
        timeout: float = 5.0,
        max_staleness: float = 0.0,
    ) -> None:
        super().__init__(fuzzy_threshold, max_staleness)
        self.path = str(path)
        self._lock = threading.RLock()
        self._conn = open_sqlite(self.path, _SCHEMA, "sqlite", timeout)

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise StoreUnavailable("sqlite", f"{self.path}: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """Run the block in one BEGIN IMMEDIATE transaction; roll back on any error."""
        with self._read() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            finally:
                self._invalidate()

    def upsert(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge (aliases, hierarchy, relations) an entity; AliasConflictError on clash."""
        name = entity.standard_name
        with self._write() as conn:
            row = conn.execute("SELECT data FROM entities WHERE name = ?", (name,)).fetchone()
            existing = _load(row[0]) if row else None
            merged = merge_entity(existing, entity)
            if merged == existing:
                return merged
            keys = surface_keys(merged)
            owners = [
                (r[0] if r else None)
                for r in (
                    conn.execute("SELECT owner FROM surface_index WHERE norm = ?", (k,)).fetchone()
                    for k in keys
                )
            ]
            _check_conflicts(keys, owners, name)
            conn.execute(
                "INSERT INTO entities (name, type, data) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET type = excluded.type, data = excluded.data",
                (name, merged.type, _dump(merged)),
            )
            conn.execute("DELETE FROM surface_index WHERE owner = ?", (name,))
            conn.executemany(
                "INSERT INTO surface_index (norm, owner) VALUES (?, ?)", [(k, name) for k in keys]
            )
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'version'")
        return merged

    def get(self, standard_name: str) -> EntityMetadata | None:
        """Return the entity with exactly this standard name, or None."""
        with self._read() as conn:
            row = conn.execute("SELECT data FROM entities WHERE name = ?", (standard_name,)).fetchone()
        return _load(row[0]) if row else None

    def delete(self, standard_name: str) -> bool:
        """Remove an entity and its aliases; return whether it existed."""
        with self._write() as conn:
            removed = conn.execute("DELETE FROM entities WHERE name = ?", (standard_name,)).rowcount
            if removed:
                conn.execute("DELETE FROM surface_index WHERE owner = ?", (standard_name,))
                conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'version'")
        return bool(removed)

    def list(
        self, type: EntityType | None = None, offset: int = 0, limit: int = 100
    ) -> builtins.list[EntityMetadata]:
        """Return a page of entities sorted by standard name, optionally of one type."""
        _check_page(offset, limit)
        where, args = ("WHERE type = ?", [type]) if type else ("", [])
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT data FROM entities {where} ORDER BY name LIMIT ? OFFSET ?", [*args, limit, offset]
            ).fetchall()
        return [_load(r[0]) for r in rows]

    def count(self, type: EntityType | None = None) -> int:
        """Return how many entities (of one type) are stored."""
        where, args = ("WHERE type = ?", [type]) if type else ("", [])
        with self._read() as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM entities {where}", args).fetchone()[0])

    def version(self) -> int:
        """Return the write counter, bumped in the same transaction as every write."""
        with self._read() as conn:
            return int(conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])

    def _snapshot(self) -> tuple[int, builtins.list[str | bytes]]:
        with self._read() as conn:
            conn.execute("BEGIN")
            try:
                version = int(conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])
                rows = conn.execute("SELECT data FROM entities ORDER BY name").fetchall()
            finally:
                conn.execute("COMMIT")
        return version, [r[0] for r in rows]

    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be read."""
        self.version()

    def close(self) -> None:
        """Close the connection; later calls raise StoreUnavailable."""
        with self._lock:
            self._conn.close()


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisEntityStore(_CachedMatcher):
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

    def upsert(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge (aliases, hierarchy, relations) an entity; AliasConflictError on clash."""
        name = entity.standard_name

        def body(pipe: Any) -> EntityMetadata:
            raw = pipe.hget(self._k_entities, name)
            existing = _load(raw) if raw else None
            merged = merge_entity(existing, entity)
            if merged == existing:
                return merged
            keys = surface_keys(merged)
            owners = [
                _text(o) if o is not None else None for o in pipe.hmget(self._k_index, builtins.list(keys))
            ]
            _check_conflicts(keys, owners, name)
            stale = set(surface_keys(existing)) - set(keys) if existing else set()
            pipe.multi()
            pipe.hset(self._k_entities, name, _dump(merged))
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
        return _load(raw) if raw else None

    def delete(self, standard_name: str) -> bool:
        """Remove an entity and its aliases; return whether it existed."""

        def body(pipe: Any) -> bool:
            raw = pipe.hget(self._k_entities, standard_name)
            if not raw:
                return False
            existing = _load(raw)
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
        _check_page(offset, limit)
        if limit == 0:
            return []
        key = self._k_type(type) if type else self._k_names

        def page() -> builtins.list[Any]:
            names: builtins.list[Any] = builtins.list(self._redis.zrange(key, offset, offset + limit - 1))
            return builtins.list(self._redis.hmget(self._k_entities, names)) if names else []

        # A concurrent delete between the two reads leaves a hole; skip it rather than fail.
        return [_load(raw) for raw in self._call(page) if raw]

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

    def close(self) -> None:
        """Release the connection pool."""
        self._call(self._redis.close)


def load_entities_jsonl(path: str | Path) -> builtins.list[EntityMetadata]:
    """Read entities (camelCase fields) from a JSONL file or a JSON array; ValueError names the bad record."""
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: invalid JSON: {exc}") from exc
        records = [(f"item {i}", item) for i, item in enumerate(items)]
    else:
        records = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"line {lineno}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}: line {lineno}: invalid JSON: {exc}") from exc
    entities = []
    for where, record in records:
        try:
            entities.append(EntityMetadata.model_validate(record))
        except ValidationError as exc:
            raise ValueError(f"{path}: {where}: invalid entity: {exc}") from exc
    return entities

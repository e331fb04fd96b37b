"""The entity store in a SQLite file (the default): entities, a surface-form index for alias conflicts and the
version counter, each write one transaction."""

from __future__ import annotations

import builtins
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from graphs.domain import EntityMetadata, EntityType
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
from graphs.stores.sqlite import LockedSQLite

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


class SQLiteEntityStore(LockedSQLite, ChangeWrites, CachedMatcherStore):
    """EntityStore in a SQLite file (WAL), safe to share between threads."""

    SCHEMA = _SCHEMA
    STORE = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
        timeout: float = 5.0,
        max_staleness: float = 0.0,
    ) -> None:
        CachedMatcherStore.__init__(self, fuzzy_threshold, max_staleness)
        LockedSQLite.__init__(self, path, timeout=timeout)

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """Run the block in one BEGIN IMMEDIATE transaction; roll back on any error."""
        with self._lock:
            try:
                with super()._write() as conn:
                    yield conn
            finally:
                self._invalidate()

    def _change(self, name: str, change: Callable[[EntityMetadata | None], EntityMetadata | None]
                ) -> EntityMetadata | None:
        """Write ``change(existing)`` as the entity named ``name``, with its surface forms, in one transaction."""
        with self._write() as conn:
            row = conn.execute("SELECT data FROM entities WHERE name = ?", (name,)).fetchone()
            existing = load_entity(row[0]) if row else None
            merged = change(existing)
            if merged is None or merged == existing:
                return merged
            keys = surface_keys(merged)
            owners = [
                (r[0] if r else None)
                for r in (
                    conn.execute("SELECT owner FROM surface_index WHERE norm = ?", (k,)).fetchone()
                    for k in keys
                )
            ]
            check_conflicts(keys, owners, name)
            conn.execute(
                "INSERT INTO entities (name, type, data) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET type = excluded.type, data = excluded.data",
                (name, merged.type, dump_entity(merged)),
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
        return load_entity(row[0]) if row else None

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
        check_page(offset, limit)
        where, args = ("WHERE type = ?", [type]) if type else ("", [])
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT data FROM entities {where} ORDER BY name LIMIT ? OFFSET ?", [*args, limit, offset]
            ).fetchall()
        return [load_entity(r[0]) for r in rows]

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

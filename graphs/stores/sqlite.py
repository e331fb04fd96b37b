"""SQLite the same way for every store file (the job store, the document catalog, the entity store, the knowledge
graph and its ingest journal): opening it (WAL, shared across threads, schema applied), one write transaction,
and ``LockedSQLite``, the base class that holds one connection behind one lock and turns every sqlite error into
``StoreUnavailable``."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from graphs.stores.base import StoreUnavailable


def open_sqlite(path: str, schema: str, store: str, timeout: float) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) with WAL and ``schema`` applied atomically;
    an error is a ``StoreUnavailable`` naming ``store``."""
    try:
        conn = sqlite3.connect(path, timeout=timeout, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(f"BEGIN IMMEDIATE;{schema}COMMIT;")
    except sqlite3.Error as exc:
        raise StoreUnavailable(store, f"{path}: {exc}") from exc
    return conn


def commit_marks(path: str) -> tuple[tuple[int, ...], ...]:
    """What a commit by any connection changes: the database file's and its write-ahead log's inode, size and
    change times (a commit appends to the log, a checkpoint writes the file)."""
    out: list[tuple[int, ...]] = []
    for name in (path, path + "-wal"):
        try:
            st = os.stat(name)
        except OSError:
            out.append((-1,))
            continue
        out.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


T = TypeVar("T")


class KeptWhileUnchanged:
    """Values read from a SQLite file (WAL), kept while no connection has committed to it.

    For reads made on every question whose answer almost never changes (nothing pending): a kept value costs two
    ``stat`` calls instead of the store's lock and a query. Correct across processes sharing the file: any commit
    (this process's or another's) changes the write-ahead log's or the file's size or change time, and a change
    reads again; the owner's own writes call ``forget``, and nothing is kept longer than ``kept_s`` (a file's change
    time moves in clock ticks of a few ms: two commits by other processes within one tick could leave the same
    size and times)."""

    def __init__(self, path: str, kept_s: float = 1.0) -> None:
        self.path = path
        self.kept_s = kept_s
        self.reads = 0
        """Reads made (not kept): the tests and the bench count them."""
        self._lock = threading.Lock()
        self._kept: dict[Hashable, Any] = {}
        self._marks: tuple[tuple[int, ...], ...] | None = None
        self._at = 0.0

    def get(self, key: Hashable, read: Callable[[], T]) -> T:
        """The value kept for ``key`` while the file is unchanged, else ``read()`` (kept from then on)."""
        marks = commit_marks(self.path)
        with self._lock:
            now = time.monotonic()
            if marks != self._marks or now - self._at >= self.kept_s:
                self._kept, self._marks, self._at = {}, marks, now
            if key in self._kept:
                return self._kept[key]
            self.reads += 1
        value = read()  # outside the lock: ``read`` takes the store's own
        with self._lock:
            if self._marks == marks:  # not if the owner wrote meanwhile (``forget``): that value may be older
                self._kept[key] = value
        return value

    def forget(self) -> None:
        """Read again next time (the owner has written)."""
        with self._lock:
            self._marks, self._kept = None, {}


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block in one ``BEGIN IMMEDIATE`` transaction: committed at its end, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


class LockedSQLite:
    """One SQLite file behind one (re-entrant) lock, safe to share between threads.

    A subclass names its ``SCHEMA`` (applied idempotently on open) and its ``STORE`` (how an outage names it);
    ``_read`` and ``_write`` hold the lock and turn every ``sqlite3.Error`` into ``StoreUnavailable``, and
    ``_write`` runs its block in one ``BEGIN IMMEDIATE`` transaction. ``_synced`` is called under the lock
    before every use (the knowledge graph notices other processes' commits there).
    """

    SCHEMA: ClassVar[str]
    STORE: ClassVar[str]

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._conn = open_sqlite(self.path, self.SCHEMA, self.STORE, timeout)

    def _unavailable(self, exc: sqlite3.Error) -> StoreUnavailable:
        return StoreUnavailable(self.STORE, f"{self.path}: {exc}")

    def _synced(self) -> None:
        """Hook run under the lock before the connection is used (nothing by default)."""

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock over the block; a sqlite error in it is a ``StoreUnavailable``."""
        with self._lock:
            try:
                self._synced()
                yield self._conn
            except sqlite3.Error as exc:
                raise self._unavailable(exc) from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """``_read`` with the block in one ``BEGIN IMMEDIATE`` transaction, rolled back on any error."""
        with self._read() as conn, transaction(conn):
            yield conn

    @contextmanager
    def _use(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """``_write`` if ``write`` else ``_read``."""
        with self._write() if write else self._read() as conn:
            yield conn

    # -- whole-file copies (a workspace's export and import: app/services/workspace_archive.py) ----------

    def row_counts(self) -> dict[str, int]:
        """Rows of each table of the file (virtual tables' shadow tables left out)."""
        with self._read() as conn:
            return {name: int(conn.execute(f'SELECT COUNT(*) FROM main."{name}"').fetchone()[0])
                    for name, _ in _tables(conn, "main")}

    def snapshot(self, dest: str | Path) -> None:
        """Write a consistent copy of the whole file to ``dest`` (SQLite's online backup: other connections
        may keep writing; the copy is one committed state)."""
        with self._read() as conn:
            target = sqlite3.connect(str(dest))
            try:
                conn.backup(target)
            finally:
                target.close()

    def copy_from(self, source: str | Path) -> dict[str, int]:
        """Add every row of ``source`` (a ``snapshot`` of a file of the same store) to this file's tables, in
        one transaction: all of it or, on any error, nothing. Columns are matched by name (a column only one
        side has is left to its default); a row whose key is already here is replaced (a fresh store's own
        bookkeeping rows). Returns the rows copied per table."""
        with self._read() as conn:
            conn.execute("ATTACH DATABASE ? AS archive", (str(source),))
            try:
                ours = dict(_tables(conn, "main"))
                copied: dict[str, int] = {}
                with self._write() as tx:
                    for name, virtual in _tables(tx, "archive"):
                        if name not in ours:
                            continue
                        columns = [c for c in _columns(tx, "archive", name) if c in _columns(tx, "main", name)]
                        cols = ", ".join(f'"{c}"' for c in (["rowid", *columns] if virtual else columns))
                        cur = tx.execute(f'INSERT OR REPLACE INTO main."{name}" ({cols}) SELECT {cols} FROM archive."{name}"')
                        copied[name] = cur.rowcount
            finally:
                conn.execute("DETACH DATABASE archive")
            self._loaded()
        return copied

    def clear(self) -> None:
        """Delete every row of every table, in one transaction (a workspace emptied or replaced)."""
        with self._write() as conn:
            for name, _ in _tables(conn, "main"):
                conn.execute(f'DELETE FROM main."{name}"')
        self._loaded()

    def _loaded(self) -> None:
        """Hook run after ``copy_from`` committed (drop what caches the file's contents)."""

    def close(self) -> None:
        """Close the connection; later calls raise StoreUnavailable."""
        with self._lock:
            self._conn.close()


def _tables(conn: sqlite3.Connection, schema: str) -> list[tuple[str, bool]]:
    """``(name, is virtual)`` of the tables in ``schema``, without SQLite's own and virtual tables' shadows."""
    rows = conn.execute(f"SELECT name, sql FROM {schema}.sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    virtual = [str(n) for n, sql in rows if str(sql or "").upper().startswith("CREATE VIRTUAL TABLE")]
    return [(str(n), str(n) in virtual) for n, _ in rows
            if not str(n).startswith("sqlite_") and not any(str(n).startswith(f"{v}_") for v in virtual)]


def _columns(conn: sqlite3.Connection, schema: str, table: str) -> list[str]:
    return [str(row[1]) for row in conn.execute(f'PRAGMA {schema}.table_info("{table}")')]

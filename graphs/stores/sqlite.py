"""SQLite the same way for every store file (the entity store, the knowledge graph and its ingest journal):
opening it (WAL, shared across threads, schema applied) and one write transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

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

"""Opening a SQLite store file the same way everywhere: WAL, shared across threads, schema applied."""

from __future__ import annotations

import sqlite3

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

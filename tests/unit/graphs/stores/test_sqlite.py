"""LockedSQLite: the one base of the SQLite stores (jobs, catalog, entity store, knowledge graph)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from graphs.ingest.jobs import JobStore
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.stores.base import StoreUnavailable
from graphs.stores.catalog import SQLiteDocumentCatalog
from graphs.stores.entities.sqlite_store import SQLiteEntityStore
from graphs.stores.sqlite import LockedSQLite


class Notes(LockedSQLite):
    SCHEMA = "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
    STORE = "notes"

    def __init__(self, path: Path) -> None:
        self.synced = 0
        super().__init__(path, timeout=0.2)

    def _synced(self) -> None:
        self.synced += 1

    def add(self, *texts: str, fail_after: int | None = None) -> None:
        with self._write() as conn:
            for i, text in enumerate(texts):
                if i == fail_after:
                    raise RuntimeError("stop")
                conn.execute("INSERT INTO notes (text) VALUES (?)", (text,))

    def texts(self) -> list[str]:
        with self._read() as conn:
            return [r[0] for r in conn.execute("SELECT text FROM notes ORDER BY id")]


def test_write_is_one_transaction_rolled_back_on_any_error(tmp_path: Path) -> None:
    notes = Notes(tmp_path / "notes.db")
    notes.add("a", "b")
    with pytest.raises(RuntimeError):
        notes.add("c", "d", fail_after=1)
    assert notes.texts() == ["a", "b"]
    assert notes.synced == 3  # the hook runs before every use


def test_sqlite_errors_are_store_unavailable_naming_the_store(tmp_path: Path) -> None:
    notes = Notes(tmp_path / "notes.db")
    with pytest.raises(StoreUnavailable, match="notes unavailable") as raised, notes._read() as conn:
        conn.execute("SELECT nothing FROM nowhere")
    assert raised.value.store == "notes"
    notes.close()
    with pytest.raises(StoreUnavailable, match="notes unavailable"):
        notes.texts()
    with pytest.raises(StoreUnavailable, match="notes unavailable"):
        Notes(tmp_path / "missing" / "notes.db")


def test_a_write_waiting_for_another_connection_times_out_as_unavailable(tmp_path: Path) -> None:
    first, second = Notes(tmp_path / "notes.db"), Notes(tmp_path / "notes.db")
    with first._write(), pytest.raises(StoreUnavailable):
        second.add("x")
    second.add("y")
    assert first.texts() == ["y"]


def test_the_lock_serializes_threads_and_is_reentrant(tmp_path: Path) -> None:
    notes = Notes(tmp_path / "notes.db")
    with notes._write() as conn:  # a read inside a write (same thread) does not deadlock
        conn.execute("INSERT INTO notes (text) VALUES ('outer')")
        assert notes.texts() == ["outer"]
    threads = [threading.Thread(target=notes.add, args=(f"t{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(notes.texts()) == sorted(["outer", *(f"t{i}" for i in range(8))])


@pytest.mark.parametrize("store", [JobStore, SQLiteDocumentCatalog, SQLiteEntityStore, SQLiteKnowledgeGraph])
def test_every_sqlite_store_shares_the_base(tmp_path: Path, store: type[LockedSQLite]) -> None:
    opened = store(tmp_path / "store.db")
    assert isinstance(opened, LockedSQLite)
    opened.close()
    with pytest.raises(StoreUnavailable, match=f"{opened.STORE} unavailable"), opened._read() as conn:
        conn.execute("SELECT 1")

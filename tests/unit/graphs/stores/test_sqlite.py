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


# -- whole-file copies: a workspace's export (snapshot) and import (copy_from) ----------------------------------


class Tagged(LockedSQLite):
    """Two tables and a full-text index, one column only a newer schema has."""

    SCHEMA = ("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL, tag TEXT DEFAULT 'x');"
              "CREATE TABLE IF NOT EXISTS links (src INTEGER NOT NULL, dst INTEGER NOT NULL);"
              "CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(body, tokenize='trigram');")
    STORE = "tagged"

    def fill(self, n: int, start: int = 0) -> None:
        with self._write() as conn:
            for i in range(start, start + n):
                conn.execute("INSERT INTO notes (id, text, tag) VALUES (?, ?, ?)", (i, f"note {i}", f"t{i}"))
                conn.execute("INSERT INTO links VALUES (?, ?)", (i, i + 1))
                conn.execute("INSERT INTO search (rowid, body) VALUES (?, ?)", (i, f"the body of note {i}"))

    def rows(self) -> dict[str, list[tuple[object, ...]]]:
        with self._read() as conn:
            return {"notes": conn.execute("SELECT * FROM notes ORDER BY id").fetchall(),
                    "links": conn.execute("SELECT * FROM links ORDER BY src").fetchall(),
                    "search": conn.execute("SELECT rowid, body FROM search WHERE search MATCH 'note 3'").fetchall()}


def test_snapshot_then_copy_from_gives_the_same_rows(tmp_path: Path) -> None:
    source, target = Tagged(tmp_path / "a.db"), Tagged(tmp_path / "b.db")
    source.fill(50)
    source.snapshot(tmp_path / "snap.db")
    source.fill(5, start=100)  # written after the snapshot: not in it
    assert target.copy_from(tmp_path / "snap.db") == {"links": 50, "notes": 50, "search": 50}
    expected = Tagged(tmp_path / "snap.db")
    assert target.rows() == expected.rows() and target.rows()["search"]
    assert target.row_counts() == {"links": 50, "notes": 50, "search": 50}, "no shadow table of the index counted"
    target.clear()
    assert target.row_counts() == {"links": 0, "notes": 0, "search": 0}
    for store in (source, target, expected):
        store.close()


def test_copy_from_is_all_or_nothing(tmp_path: Path) -> None:
    source, target = Tagged(tmp_path / "a.db"), Tagged(tmp_path / "b.db")
    source.fill(20)
    source.snapshot(tmp_path / "snap.db")
    with target._write() as conn:  # a row the copy cannot take, met after others were copied
        conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON links WHEN NEW.src = 15 BEGIN "
                     "SELECT RAISE(ABORT, 'refused'); END")
    with pytest.raises(StoreUnavailable):
        target.copy_from(tmp_path / "snap.db")
    assert target.row_counts() == {"links": 0, "notes": 0, "search": 0}
    with target._read() as conn:
        assert conn.execute("PRAGMA database_list").fetchall()[-1][1] == "main", "the archive was detached"
    source.close()
    target.close()


def test_a_graph_forgets_its_name_index_after_copy_from_and_clear(tmp_path: Path) -> None:
    source, target = SQLiteKnowledgeGraph(tmp_path / "a.db"), SQLiteKnowledgeGraph(tmp_path / "b.db")
    source.upsert_entity("Quillfeather Observatory", related=["Copper Dome"])
    source.snapshot(tmp_path / "snap.db")
    assert target.find_nodes("Quillfeather Observatory") == []  # loads the (empty) name index
    target.copy_from(tmp_path / "snap.db")
    assert target.find_nodes("Quillfeather Observatory")
    target.clear()
    assert target.find_nodes("Quillfeather Observatory") == []
    source.close()
    target.close()


def test_a_value_is_kept_while_no_connection_commits_to_the_file(tmp_path: Path) -> None:
    from graphs.stores.sqlite import KeptWhileUnchanged

    notes = Notes(tmp_path / "kept.db")
    kept = KeptWhileUnchanged(notes.path, kept_s=3600.0)

    def count() -> int:
        with notes._read() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM notes").fetchone()[0])

    assert [kept.get("n", count) for _ in range(3)] == [0, 0, 0] and kept.reads == 1
    Notes(tmp_path / "kept.db").add("a commit by another connection")
    assert kept.get("n", count) == 1 and kept.reads == 2
    kept.forget()  # the owner wrote: read again, even with the file's marks unchanged
    assert kept.get("n", count) == 1 and kept.reads == 3
    kept.kept_s = 0.0  # nothing is kept longer than kept_s
    kept.get("n", count)
    assert kept.reads == 4

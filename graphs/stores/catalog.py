"""The document inventory: one row per ingested document (id, title, file, chunks, bytes, content hash, when).

It is written inside the ingest's write, after the chunks are in Milvus and before the kg rows: a write
that fails puts the rows of its documents back as they were (``restore``), and the ingest journal's recovery
removes them with the rest of a document a killed process left unsettled (``delete``). The content hash is
what lets a re-ingest skip a document that has not changed.
"""

from __future__ import annotations

import builtins
import sqlite3
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from graphs.domain import DocumentRecord
from graphs.stores.sqlite import LockedSQLite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL DEFAULT '',
  source TEXT,
  root TEXT,
  chunks INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  content_hash TEXT,
  ingested_at TEXT
);
CREATE INDEX IF NOT EXISTS documents_root ON documents(root);
CREATE TABLE IF NOT EXISTS catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMNS = "id, title, source, root, chunks, bytes, content_hash, ingested_at"


@runtime_checkable
class DocumentCatalog(Protocol):
    """The inventory of ingested documents."""

    def put(self, records: Sequence[DocumentRecord]) -> None:
        """Add or replace these records, in one transaction."""
        ...

    def restore(self, ids: Sequence[str], previous: Sequence[DocumentRecord]) -> None:
        """Put back what ``get_many(ids)`` returned before a write: ids not in ``previous`` are removed."""
        ...

    def delete(self, doc_id: str) -> bool: ...

    def get(self, doc_id: str) -> DocumentRecord | None: ...

    def get_many(self, ids: Sequence[str]) -> builtins.list[DocumentRecord]: ...

    def list(self, *, offset: int = 0, limit: int = 100, source: str | None = None,
             title: str | None = None, root: str | None = None) -> tuple[int, builtins.list[DocumentRecord]]:
        """``(total matching, one page)`` ordered by id; ``source``/``title``: case-insensitive substrings;
        ``root``: exactly that root."""
        ...

    def under(self, root: str) -> builtins.list[DocumentRecord]:
        """The records of the documents ingested from ``root``."""
        ...

    def of_size(self, n_bytes: int) -> builtins.list[DocumentRecord]:
        """The records of the documents whose text is ``n_bytes`` long (UTF-8): the candidates for a file that
        may be one of them under another name."""
        ...

    def backfilled(self) -> bool:
        """Whether documents indexed before the inventory existed have been listed."""
        ...

    def mark_backfilled(self, records: Sequence[DocumentRecord]) -> None:
        """Add the records of documents indexed before the inventory (keeping any it holds) and remember it."""
        ...

    def close(self) -> None: ...


def _record(row: tuple[object, ...]) -> DocumentRecord:
    return DocumentRecord.model_validate(dict(zip(_COLUMNS.split(", "), row, strict=True)))


class SQLiteDocumentCatalog(LockedSQLite):
    """DocumentCatalog in a SQLite file (WAL), safe to share between threads."""

    SCHEMA = _SCHEMA
    STORE = "document inventory"

    @staticmethod
    def _insert(conn: sqlite3.Connection, records: Sequence[DocumentRecord], *, replace: bool = True) -> None:
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        conn.executemany(
            f"{verb} INTO documents ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.id, r.title, r.source, r.root, r.chunks, r.bytes, r.content_hash, r.ingested_at) for r in records],
        )

    def put(self, records: Sequence[DocumentRecord]) -> None:
        """Add or replace these records, in one transaction."""
        if records:
            with self._use(write=True) as conn:
                self._insert(conn, records)

    def restore(self, ids: Sequence[str], previous: Sequence[DocumentRecord]) -> None:
        """Put back the records of ``ids`` as they were (``previous``), in one transaction."""
        with self._use(write=True) as conn:
            conn.executemany("DELETE FROM documents WHERE id = ?", [(i,) for i in ids])
            self._insert(conn, previous)

    def delete(self, doc_id: str) -> bool:
        """Forget a document; True if it was listed."""
        with self._use(write=True) as conn:
            return conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,)).rowcount > 0

    def get(self, doc_id: str) -> DocumentRecord | None:
        """One document's record, or None."""
        found = self.get_many([doc_id])
        return found[0] if found else None

    def get_many(self, ids: Sequence[str]) -> list[DocumentRecord]:
        """The records of those ids that are listed."""
        out: list[DocumentRecord] = []
        with self._use() as conn:
            for start in range(0, len(ids), 500):
                part = list(ids[start : start + 500])
                marks = ", ".join("?" * len(part))
                rows = conn.execute(f"SELECT {_COLUMNS} FROM documents WHERE id IN ({marks})", part).fetchall()
                out.extend(_record(r) for r in rows)
        return out

    def list(self, *, offset: int = 0, limit: int = 100, source: str | None = None,
             title: str | None = None, root: str | None = None) -> tuple[int, list[DocumentRecord]]:
        """``(total matching, one page)`` ordered by id; ``source``/``title`` are case-insensitive substrings,
        ``root`` exact."""
        where, params = [], []
        for column, value in (("source", source), ("title", title)):
            if value:
                where.append(f"instr(lower(coalesce({column}, '')), lower(?)) > 0")
                params.append(value)
        if root is not None:
            where.append("root = ?")
            params.append(root)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        with self._use() as conn:
            (total,) = conn.execute(f"SELECT COUNT(*) FROM documents {clause}", params).fetchone()
            rows = conn.execute(f"SELECT {_COLUMNS} FROM documents {clause} ORDER BY id LIMIT ? OFFSET ?",
                                [*params, limit, offset]).fetchall()
        return int(total), [_record(r) for r in rows]

    def under(self, root: str) -> builtins.list[DocumentRecord]:
        """The records of the documents ingested from ``root``."""
        with self._use() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM documents WHERE root = ? ORDER BY id", (root,)).fetchall()
        return [_record(r) for r in rows]

    def of_size(self, n_bytes: int) -> builtins.list[DocumentRecord]:
        """The records of the documents whose text is ``n_bytes`` long (UTF-8)."""
        with self._use() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM documents WHERE bytes = ? ORDER BY id", (n_bytes,)).fetchall()
        return [_record(r) for r in rows]

    def backfilled(self) -> bool:
        """Whether the documents indexed before the inventory existed are listed."""
        with self._use() as conn:
            return conn.execute("SELECT 1 FROM catalog_meta WHERE key = 'backfilled'").fetchone() is not None

    def mark_backfilled(self, records: Sequence[DocumentRecord]) -> None:
        """Add records the inventory lacks (never replacing one) and remember that this was done."""
        with self._use(write=True) as conn:
            self._insert(conn, records, replace=False)
            conn.execute("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('backfilled', '1')")

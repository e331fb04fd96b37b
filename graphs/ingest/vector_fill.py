"""Dense vectors filled in behind an upload: a document is searchable at once, its e5 vectors follow.

e5 costs 60-95 ms a passage on 2 cores (USE ~6 ms), so an upload that waited for its vectors would be
answerable only after every chunk was embedded (a 30-page file: ~100 chunks, 10-20 s on an idle machine,
minutes on a loaded one). A job's documents are therefore written with a **placeholder vector** (all zeros):
BM25, the entity fields, dates and the knowledge graph answer from them at once, and dense search skips them:
the stored vector is the marker (the search mirror keeps a "has its own vector" column and never scores a row
without one; a hit of Milvus's own search scoring exactly 0 is checked on its stored vector), so a real chunk
orthogonal to a question, which scores exactly 0 too, stays a match. No schema field: collections written before
this open and search as they are. Each such document is listed in ``pending_vectors`` (the job store's SQLite file) with the
fingerprint of the embedder that must fill it, and ``VectorFiller``, one thread per process, embeds its chunks
and rewrites them with their vectors, one document at a time.

Crash safety: a document's pending row is committed **before** its placeholder chunks reach the index (under
the ingestor's write lock), and deleted only after its vectors are written; a fill killed half-way leaves the
row, and the next start fills the document again (the rewrite is idempotent: a chunk's row id hashes its
vector, so rows already written with their vector stay and the placeholder rows left are deleted). A document
re-ingested while its fill runs gets a new row token: the fill that embedded the old text writes nothing (it
re-reads the chunks under the lock and compares texts) and leaves the new row to the next round.

The fill never mixes embedders: a row whose fingerprint is not the filler's (``same_model``) is not filled; it
stays pending and the filler says which embedder it wants (``blocked``): `aer reindex` re-embeds everything,
after which such a row (its chunks all carry vectors) is dropped.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from graphs.domain import Chunk
from graphs.embeddings import EmbedderUnavailable, fingerprint_of
from graphs.stores.base import StoreUnavailable
from graphs.stores.sqlite import open_sqlite, transaction
from graphs.vectors import EmbedderFingerprint

if TYPE_CHECKING:
    from graphs.ingest.pipeline import Ingestor

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pending_vectors (
  doc_id TEXT PRIMARY KEY,
  token TEXT NOT NULL,
  embedder TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  version TEXT NOT NULL DEFAULT '',
  chunks INTEGER NOT NULL DEFAULT 0,
  queued_at TEXT NOT NULL
);
"""


def placeholder(dimension: int) -> list[float]:
    """The vector a chunk carries until its own is computed: zeros (dense search skips it)."""
    return [0.0] * dimension


@dataclass(frozen=True)
class PendingDocument:
    doc_id: str
    token: str
    fingerprint: EmbedderFingerprint
    chunks: int


class PendingVectors:
    """The documents whose chunks still carry placeholder vectors, in a SQLite file (WAL)."""

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn = open_sqlite(self.path, _SCHEMA, "vector fill", timeout)

    @contextmanager
    def _use(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                if write:
                    with transaction(self._conn) as conn:
                        yield conn
                else:
                    yield self._conn
            except sqlite3.Error as exc:
                raise StoreUnavailable("vector fill", f"{self.path}: {exc}") from exc

    def add(self, docs: Sequence[tuple[str, int]], fingerprint: EmbedderFingerprint) -> str:
        """List ``(doc id, chunks)`` as pending for ``fingerprint`` (a new token replaces an older row)."""
        token = uuid.uuid4().hex
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._use(write=True) as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO pending_vectors VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(doc_id, token, fingerprint.name, fingerprint.dimension, fingerprint.version, n, now)
                 for doc_id, n in docs])
        return token

    def next(self, limit: int = 1, skip: Sequence[str] = ()) -> list[PendingDocument]:
        """The oldest pending documents (not those in ``skip``)."""
        marks = ",".join("?" * len(skip))
        where = f"WHERE doc_id NOT IN ({marks})" if skip else ""
        with self._use() as conn:
            rows = conn.execute(
                f"SELECT doc_id, token, embedder, dimension, version, chunks FROM pending_vectors {where} "
                "ORDER BY queued_at, rowid LIMIT ?", (*skip, limit)).fetchall()
        return [PendingDocument(r[0], r[1], EmbedderFingerprint(r[2], int(r[3]), r[4]), int(r[5])) for r in rows]

    def done(self, doc_id: str, token: str) -> bool:
        """Drop a document's row if it is still the one filled (a re-ingest since gave it a new token)."""
        with self._use(write=True) as conn:
            return conn.execute("DELETE FROM pending_vectors WHERE doc_id = ? AND token = ?",
                                (doc_id, token)).rowcount > 0

    def counts(self, doc_ids: Sequence[str] | None = None) -> tuple[int, int]:
        """(documents, chunks) pending, of ``doc_ids`` or of all."""
        with self._use() as conn:
            if doc_ids is None:
                row = conn.execute("SELECT COUNT(*), COALESCE(SUM(chunks), 0) FROM pending_vectors").fetchone()
                return int(row[0]), int(row[1])
            docs = chunks = 0
            ids = list(dict.fromkeys(doc_ids))
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                row = conn.execute(
                    f"SELECT COUNT(*), COALESCE(SUM(chunks), 0) FROM pending_vectors WHERE doc_id IN "
                    f"({','.join('?' * len(part))})", part).fetchone()
                docs, chunks = docs + int(row[0]), chunks + int(row[1])
            return docs, chunks

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class VectorFiller:
    """Embeds the pending documents' chunks and rewrites them with their vectors, on one worker thread."""

    def __init__(self, pending: PendingVectors, ingestor: Ingestor, *, dimension: int,
                 slice_size: int = 1, idle_s: float = 2.0, yield_s: float = 0.005) -> None:
        self.pending = pending
        self.ingestor = ingestor
        self.fingerprint = fingerprint_of(ingestor.embedder, dimension)
        self.dimension = dimension
        self.slice_size = slice_size
        """Chunks per embedder call: a query waits at most one slice for the (locked) engine. One: a question
        asked while a file's vectors fill waits for one passage (60-95 ms idle), not a batch."""
        self.yield_s = yield_s
        """A pause between slices, so that a query waiting for the engine's lock takes it before the next slice
        (a lock is not fair: the fill would take it back at once)."""
        self.idle_s = idle_s
        self.blocked: dict[str, str] = {}
        """doc id -> why it is not filled (another embedder's row)."""
        self.filled_chunks = 0
        self.fill_seconds = 0.0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- what the ingestor calls ---------------------------------------------------------------

    def register(self, docs: Sequence[tuple[str, int]]) -> None:
        """List documents about to be written with placeholders (called under the ingestor's write lock)."""
        if docs:
            self.pending.add(docs, self.fingerprint)

    def written(self) -> None:
        """Placeholders were written: fill them."""
        self._wake.set()

    # -- the worker ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker (it first fills what a previous process left pending)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="aer-vector-fill", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 60.0) -> None:
        """Stop after the slice in progress (what is left stays pending for the next start)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self.fill_next() == 0:
                    self._wake.wait(timeout=self.idle_s)
                    self._wake.clear()
            except (StoreUnavailable, EmbedderUnavailable):
                log.warning("the vector fill waits for its stores or embedder; retrying", exc_info=True)
                self._stop.wait(5.0)
            except Exception:  # a bug must not stop the fill silently: log it and go on
                log.exception("the vector fill failed")
                self._stop.wait(5.0)

    def fill_next(self) -> int:
        """Fill the oldest pending document this embedder may fill; the chunks written (0: nothing to do)."""
        for doc in self.pending.next(limit=1, skip=list(self.blocked)):
            if not doc.fingerprint.same_model(self.fingerprint):
                stored = self.ingestor.index.chunk_vectors(doc.doc_id)
                if all(any(v) for v in stored.values()):  # re-embedded since (`aer reindex`) or deleted
                    self.pending.done(doc.doc_id, doc.token)
                    return 0
                why = (f"document {doc.doc_id!r} waits for vectors of {doc.fingerprint.describe()}, this process "
                       f"embeds with {self.fingerprint.describe()}: run `aer reindex` to re-embed every chunk")
                self.blocked[doc.doc_id] = why
                log.error("vector fill: %s", why)
                return 0
            return self.fill(doc)
        return 0

    def fill(self, doc: PendingDocument) -> int:
        """Embed one document's current chunks and write them with their vectors; the chunks written."""
        started = time.perf_counter()
        chunks = _unique(self.ingestor.index.document_chunks(doc.doc_id))
        if not chunks:  # deleted (or rolled back) since: nothing to fill
            self.pending.done(doc.doc_id, doc.token)
            return 0
        from graphs.ingest.pipeline import embedding_text

        texts = {c.id: embedding_text(c) for c in chunks}
        vectors: dict[str, list[float]] = {}
        ids = list(texts)
        for start in range(0, len(ids), self.slice_size):
            if self._stop.wait(self.yield_s if start else 0):
                return 0
            part = ids[start : start + self.slice_size]
            out = self.ingestor.embedder.embed_documents([texts[i] for i in part])
            if len(out) != len(part):
                raise ValueError(f"the embedder returned {len(out)} vectors for {len(part)} chunks")
            vectors.update(zip(part, out, strict=True))
        written = self.ingestor.write_filled_vectors(doc.doc_id, texts, vectors)
        if written is None:  # changed while it was embedded: its new version is filled next round
            return 0
        self.pending.done(doc.doc_id, doc.token)
        self.filled_chunks += written
        self.fill_seconds += time.perf_counter() - started
        return written


def _unique(chunks: Sequence[Chunk]) -> list[Chunk]:
    """One chunk per id (a fill killed between its write and its delete leaves a chunk twice)."""
    return list({c.id: c for c in chunks}.values())

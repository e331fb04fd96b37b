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

**Searched while they fill** (``FillingChunks``): dense search skips a placeholder, so the structured and semantic
routes (dense only) could not see a document asked right after its upload, and a question in the other language
(which BM25 cannot match) missed it until its vectors were in. Each dense search therefore also takes a few chunks
of the documents still pending under the same filter (all of them while they are few, else those BM25 finds for
the question) and embeds them **with the index's own embedder**, as the fill will: their scores are the very
scores dense search gives them once filled (the same vector, the same score scale), so nothing of another model
is ever compared with the index's vectors. A search embeds for at most ``EMBED_BUDGET_S`` (a question on a loaded
machine is not held for seconds); the vectors computed are kept for the fill, which writes them instead of
embedding the chunk again, and the fill's for the searches.
"""

from __future__ import annotations

import logging
import math
import os
import sqlite3
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np
from langchain_core.embeddings import Embeddings

from graphs.domain import Chunk, Hit
from graphs.embeddings import (
    EmbedderMismatch,
    EmbedderUnavailable,
    PassageCost,
    fingerprint_of,
    passage_tokens,
)
from graphs.ingest.chunking import embedding_text
from graphs.stores.base import ChunkSearch, StoreUnavailable
from graphs.stores.filters import And, Filter, InList, and_filters, doc_filter, docs_filter, or_filters
from graphs.stores.sentence_vectors import SENTENCE_CHARS, SentenceVectors
from graphs.stores.sqlite import KeptWhileUnchanged, open_sqlite, transaction
from graphs.text.normalize import han_count
from graphs.text.sentences import passage_sentences
from graphs.vectors import EmbedderFingerprint, score_scale

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

    def __init__(self, path: str | Path, *, timeout: float = 5.0, kept_s: float = 1.0) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn = open_sqlite(self.path, _SCHEMA, "vector fill", timeout)
        self._kept = KeptWhileUnchanged(self.path, kept_s)
        """``doc_ids`` per model, kept while the file is unchanged: a dense search asks on every question, and
        nothing is pending almost always."""

    @property
    def kept_s(self) -> float:
        """At most this long between two reads even with the file unchanged (``KeptWhileUnchanged``)."""
        return self._kept.kept_s

    @kept_s.setter
    def kept_s(self, seconds: float) -> None:
        self._kept.kept_s = seconds

    @property
    def reads(self) -> int:
        """Reads of the pending table by ``doc_ids`` (the tests and the bench count them)."""
        return self._kept.reads

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
        self._kept.forget()
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
            dropped = conn.execute("DELETE FROM pending_vectors WHERE doc_id = ? AND token = ?",
                                   (doc_id, token)).rowcount > 0
        self._kept.forget()
        return dropped

    def doc_ids(self, fingerprint: EmbedderFingerprint) -> list[str]:
        """The documents pending for ``fingerprint``'s model (name and dimension).

        Kept in memory between calls while the SQLite file is unchanged, so a search with nothing pending reads no
        table. Correct across processes sharing the file: any commit (this process's ``add``/``done``, another
        process's upload or fill, the job store's writes in the same file) changes the write-ahead log's or the
        file's size or change time, and a change re-reads the table; this object's own writes drop what it kept
        as well, and nothing is kept longer than ``kept_s``."""
        key = (fingerprint.name, fingerprint.dimension)

        def read() -> list[str]:
            with self._use() as conn:
                return [r[0] for r in conn.execute(
                    "SELECT doc_id FROM pending_vectors WHERE embedder = ? AND dimension = ? "
                    "ORDER BY queued_at, rowid", key)]

        return list(self._kept.get(key, read))

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


FILL_NICENESS = 5
"""The fill's worker runs this much nicer than the rest of the process (Linux: per thread; the engine's OpenMP
threads, created by the worker's first call, inherit it): a question asked during the fill, its embedding and
searches included, gets the cores first, and the fill takes what the questions leave. Not more: the other jobs of a
shared machine (run at nice 10 here) must not starve it."""


def lower_priority(niceness: int) -> None:
    """Lower the calling thread's CPU priority by ``niceness`` (where the platform has per-thread priorities)."""
    if niceness <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + niceness)
    except OSError as exc:  # not allowed here: the fill runs at the process's priority
        log.info("vector fill: cannot lower its priority (%s)", exc)


class VectorFiller:
    """Embeds the pending documents' chunks and rewrites them with their vectors, on one worker thread."""

    def __init__(self, pending: PendingVectors, ingestor: Ingestor, *, dimension: int,
                 slice_size: int = 1, idle_s: float = 2.0, yield_s: float = 0.005,
                 computed: FilledVectors | None = None, niceness: int = FILL_NICENESS,
                 sentences: SentenceVectors | None = None, sentence_slice: int = 16) -> None:
        self.pending = pending
        self.sentences = sentences
        """Where the filled documents' sentence vectors go (None: none are embedded ahead)."""
        self.sentence_slice = sentence_slice
        """Sentences per embedder call. e5's CPU per ~60-character sentence, measured at load 7-8 on 2 cores: 235-300
        ms one at a time, 105 ms in batches of 8, 67-82 ms in batches of 32; questions never wait for these calls
        (they embed on their own lane), only a new upload's chunks wait for the call in progress."""
        self._sentences_due: deque[tuple[str, list[str]]] = deque()
        """Documents whose chunk vectors are in and whose sentences are still to embed, oldest first, each with the
        sentences of the chunks it was filled with (the fill has them in hand: they are not read back)."""
        self.filled_sentences = 0
        self.computed = computed if computed is not None else FilledVectors()
        """Vectors a search already computed for pending chunks (``FillingChunks``): written, not embedded again."""
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
        self.niceness = niceness
        """How much lower than the process's the worker's CPU priority is (its engine threads inherit it)."""
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
        lower_priority(self.niceness)
        while not self._stop.is_set():
            try:
                if self.fill_next() == 0:
                    self._wake.wait(timeout=self.idle_s)
                    self._wake.clear()
            except Exception as exc:
                if self._stop.is_set():  # stores closed under the slice at shutdown: it stays pending, no bug
                    log.warning("the vector fill stopped mid-slice as the service shut down; the rest fills at "
                                "the next start")
                    return
                if isinstance(exc, StoreUnavailable | EmbedderUnavailable):
                    log.warning("the vector fill waits for its stores or embedder; retrying", exc_info=True)
                else:  # a bug must not stop the fill silently: log it and go on
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
        return self.fill_sentences()

    def fill_sentences(self) -> int:
        """Embed the sentences of the oldest filled document not yet done, when no chunk waits for its vector
        (the sentences come after every chunk: an upload is searchable and answerable as soon as before); the
        sentences embedded (0: nothing to do).

        The answer layer compares a question with the sentences of passages in the other language by meaning
        (``write_answer._meaning``); reading their vectors from ``sentences`` instead of embedding them takes e5's
        cost off the question (+46 ms of CPU per structured question at 100k, docs/performance.md). They are the
        answer layer's own sentences (``passage_sentences``), embedded by the same prefix as there, so what is
        read is what it would compute. Kept in memory only: a restart leaves a document's sentences to the
        questions (each embedded once then, and kept)."""
        if self.sentences is None or not self._sentences_due:
            return 0
        due = self._sentences_due.popleft()
        owner = self.fingerprint.describe()
        todo = self.sentences.missing(owner, due[1])
        done = 0
        while todo:
            if self._stop.wait(self.yield_s) or self.pending.next(limit=1, skip=list(self.blocked)):
                # stopped, or an upload's chunks wait: they go first, this document's rest after them
                self._sentences_due.appendleft((due[0], todo))
                return done or 1
            part, todo = todo[:self.sentence_slice], todo[self.sentence_slice:]
            out = self.ingestor.embedder.embed_documents(part)
            self.sentences.put(owner, dict(zip(part, out, strict=True)))
            done += len(part)
        self.filled_sentences += done
        return done or 1

    def _await_search(self, chunk_id: str, most_s: float = 2.0) -> None:
        """Wait (at most ``most_s``) while a search embeds this chunk: its vector is taken instead of a second pass."""
        waited = 0.0
        while self.computed.busy(chunk_id) and waited < most_s and not self._stop.wait(self.yield_s):
            waited += self.yield_s

    def fill(self, doc: PendingDocument) -> int:
        """Embed one document's current chunks and write them with their vectors; the chunks written."""
        started = time.perf_counter()
        chunks = _unique(self.ingestor.index.document_chunks(doc.doc_id))
        if not chunks:  # deleted (or rolled back) since: nothing to fill
            self.pending.done(doc.doc_id, doc.token)
            return 0
        texts = {c.id: embedding_text(c) for c in chunks}
        vectors: dict[str, list[float]] = {}
        ids, deferred, first = list(texts), set[str](), True
        while ids:
            if self._stop.wait(0 if first else self.yield_s):
                return 0
            first = False
            # a chunk a search embedded meanwhile (the questions' lane, ``FillingChunks``) is not embedded again, and
            # one a search is embedding now waits (once) behind the others: its vector will be there
            part: list[str] = []
            while ids and len(part) < self.slice_size:
                i = ids.pop(0)
                if not ids:  # the last one: a search embedding it ends within its budget (a fraction of a second)
                    self._await_search(i)
                if (known := self.computed.get(i, texts[i])) is not None:
                    vectors[i] = known
                elif self.computed.busy(i) and i not in deferred and ids:
                    deferred.add(i)
                    ids.append(i)
                else:
                    part.append(i)
            if not part:
                continue
            with self.computed.embedding(part, [texts[i] for i in part]):
                out = self.ingestor.embedder.embed_documents([texts[i] for i in part])
            if len(out) != len(part):
                raise ValueError(f"the embedder returned {len(out)} vectors for {len(part)} chunks")
            for i, v in zip(part, out, strict=True):
                vectors[i] = list(v)
                self.computed.put(i, texts[i], vectors[i])  # a search asked meanwhile takes it from here
        written = self.ingestor.write_filled_vectors(doc.doc_id, texts, vectors)
        if written is None:  # changed while it was embedded: its new version is filled next round
            return 0
        self.pending.done(doc.doc_id, doc.token)
        self.computed.forget(texts)
        if self.sentences is not None:
            self._sentences_due.append((doc.doc_id, sentence_texts(chunks)))
        self.filled_chunks += written
        self.fill_seconds += time.perf_counter() - started
        return written


def sentence_texts(chunks: Sequence[Chunk]) -> list[str]:
    """The texts the answer layer embeds for these chunks' sentences (``passage_sentences``, cut to
    ``SENTENCE_CHARS``), each once, blank ones left out."""
    return list(dict.fromkeys(t for c in chunks for s in passage_sentences(c.text) if (t := s[:SENTENCE_CHARS]).strip()))


def _unique(chunks: Sequence[Chunk]) -> list[Chunk]:
    """One chunk per id (a fill killed between its write and its delete leaves a chunk twice)."""
    return list({c.id: c for c in chunks}.values())


class FilledVectors:
    """What the fill and the searches share: vectors computed ahead of the fill (by a search, ``FillingChunks``),
    keyed by chunk id and embedded text (a re-ingested chunk with another text is embedded again; bounded, oldest
    dropped first), the chunks being embedded right now (``busy``: neither embeds what the other is embedding),
    and what a passage costs the embedder now (``cost``, timed on both sides' calls)."""

    def __init__(self, size: int = 4096, cost: PassageCost | None = None) -> None:
        self.size = size
        self.cost = cost if cost is not None else PassageCost()
        self._vectors: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._units: dict[tuple[str, str], np.ndarray] = {}
        """Each held vector at unit length, as one array: ``nearest`` ranks thousands in one product."""
        self._busy: dict[str, int] = {}
        self._lock = threading.Lock()

    @contextmanager
    def embedding(self, chunk_ids: Sequence[str], texts: Sequence[str]) -> Iterator[None]:
        """Around one embedder call over these chunks: marks them busy and times the call (``cost``)."""
        with self._lock:
            for i in chunk_ids:
                self._busy[i] = self._busy.get(i, 0) + 1
        try:
            with self.cost.timed(texts):
                yield
        finally:
            with self._lock:
                for i in chunk_ids:
                    if self._busy.get(i, 0) <= 1:
                        self._busy.pop(i, None)
                    else:
                        self._busy[i] -= 1

    def busy(self, chunk_id: str) -> bool:
        """Whether the fill or a search is embedding this chunk now."""
        with self._lock:
            return chunk_id in self._busy

    def get(self, chunk_id: str, text: str) -> list[float] | None:
        with self._lock:
            return self._vectors.get((chunk_id, text))

    def put(self, chunk_id: str, text: str, vector: list[float]) -> None:
        unit = np.asarray(vector, dtype=np.float64)
        norm = float(np.linalg.norm(unit))
        with self._lock:
            self._vectors[(chunk_id, text)] = vector
            self._units[(chunk_id, text)] = unit / norm if norm > 0 else unit
            self._vectors.move_to_end((chunk_id, text))
            while len(self._vectors) > self.size:
                old, _ = self._vectors.popitem(last=False)
                self._units.pop(old, None)

    def forget(self, texts: dict[str, str]) -> None:
        """Drop the vectors of these chunks (written by the fill)."""
        with self._lock:
            for key in texts.items():
                self._vectors.pop(key, None)
                self._units.pop(key, None)

    def nearest(self, vector: Sequence[float], doc_ids: Collection[str],
                skip: Collection[str] = ()) -> list[tuple[str, str, float]]:
        """``(chunk id, embedded text, cosine with vector)`` of the vectors held for chunks of ``doc_ids`` (those
        of ``skip`` left out), best first. One matrix product: a search late in a large file's fill scored its
        thousands of held vectors one by one in Python (2 of its 4 s, at load 16)."""
        with self._lock:
            keys = [k for k in self._units if k[0] not in skip and chunk_document(k[0]) in doc_ids]
            units = [self._units[k] for k in keys]
        if not keys:
            return []
        q = np.asarray(vector, dtype=np.float64)
        norm = float(np.linalg.norm(q))
        scores = np.stack(units) @ (q / norm if norm > 0 else q)
        order = np.argsort(-scores, kind="stable")
        return [(keys[i][0], keys[i][1], float(scores[i])) for i in order]

    def __len__(self) -> int:
        return len(self._vectors)


class PendingChunkIndex(ChunkSearch, Protocol):
    """What ``FillingChunks`` reads: searches, a count and the chunks a filter matches."""

    def count(self, filter: Filter | None = None) -> int: ...

    def chunks_where(self, filter: Filter) -> list[Chunk]: ...


HELD_WINDOW = 64
"""Held chunks read from the index at a time, best first, until a search has its ``limit`` under its filter."""
SCORED_PER_SEARCH = 8
"""Most pending chunks one dense search scores: a 1-page upload (2-5 chunks) whole, of a longer one those BM25
finds for the question. Vectors computed once serve every later search and the fill."""
EMBED_BUDGET_S = 0.3
"""Most seconds one dense search spends embedding pending chunks, one passage at a time, each started only when
its predicted time (``FilledVectors.cost``: seconds per token now, by the passage's tokens) fits in what is left:
e5 takes 60-95 ms a 630-character English passage on 2 idle cores, so an idle machine scores a 1-page upload
whole on the first ask, while on a loaded one (0.7 passages/s at load 15), or for Chinese chunks (about twice the
tokens of English ones of the same length), a question is not held for seconds: what it could not embed, the fill
or the next question does (a chunk is never embedded twice: both take each other's vectors, and neither starts a
chunk the other is embedding). Before the prediction, a search started the first chunk whatever it cost and
finished it: a Chinese 1-page upload's first ask took 7 s at load 13, its hybrid search 7.8 s at load 8."""

CROSSING_BUDGET_S = 2.0
"""Most seconds a search spends embedding pending chunks in the other language than the question's (a Chinese
chunk for an English question, or the reverse): no word of the question matches them, and the answer layer judges a
passage in the other language by its dense score, so without its vector such a chunk is neither found nor
answered from. A question in the chunk's own language is found by BM25 and answered by its words at once, so its
searches keep ``EMBED_BUDGET_S``. Measured on newuser4 through ``aer trial`` right after its uploads (load 14): with
0.3 s for every chunk, 3 English questions over Chinese files answered before were refused."""


class FillingChunks:
    """Dense search over the chunks of documents whose vectors are still filling, scored by the index's embedder.

    A search lists the pending documents (``PendingVectors``), restricts the caller's filter to them, and takes
    every chunk it matches when they are at most ``budget`` (those BM25 ranks for the question first), else the
    ``budget`` chunks BM25 ranks best for the question's words, then for its words as the other language writes them where those found fewer (``crossing``:
    a question in the other language shares no word with the file), and every chunk whose vector the fill (or an
    earlier search) has computed already, which costs no embedding. Each chunk taken is embedded as the fill embeds it (its
    ``embedding_text``, the index's embedder) and scored as dense search scores a stored vector (cosine, the
    embedder's score scale), so a hit here has exactly the score it has after the fill. A search embeds a chunk
    only when its predicted time fits in what is left of ``budget_s`` and nobody is embedding it already: the
    chunks left wait for the fill (or a later question).
    """

    def __init__(self, pending: PendingVectors, index: PendingChunkIndex, embedder: Embeddings,
                 fingerprint: EmbedderFingerprint, *, computed: FilledVectors | None = None,
                 budget: int = SCORED_PER_SEARCH, budget_s: float = EMBED_BUDGET_S,
                 crossing_budget_s: float = CROSSING_BUDGET_S,
                 crossing: Callable[[str], str] | None = None) -> None:
        own = fingerprint_of(embedder, fingerprint.dimension)
        if not own.same_model(fingerprint):  # a vector of another model is never compared with the index's
            raise EmbedderMismatch("the chunks whose vectors still fill", fingerprint, own)
        self.pending = pending
        self.index = index
        self.embedder = embedder
        self.fingerprint = fingerprint
        """The index's embedder: only documents pending for its model are scored, with it."""
        self.computed = computed if computed is not None else FilledVectors()
        self.budget = budget
        self.budget_s = budget_s
        self.crossing_budget_s = max(budget_s, crossing_budget_s)
        """The budget where the chunk's language is not the question's (``CROSSING_BUDGET_S``)."""
        self.crossing = crossing
        """The question's words in the other language (``graphs.rag.retrieval_crossing``): BM25 over them chooses
        candidates where the question's own words find fewer than ``budget`` (a question in the other language)."""
        self.embedded = 0
        """Chunks embedded by searches (not by the fill), for the bench and tests."""

    def candidates(self, text: str, filter: Filter | None) -> list[Hit]:
        """The pending chunks one search scores: every one the filter allows while at most ``budget``, else those
        BM25 finds for ``text`` (best first)."""
        docs = self.pending.doc_ids(self.fingerprint)
        if not docs:
            return []
        where = and_filters(filter, docs_filter(docs))
        assert where is not None
        if self.index.count(where) <= self.budget:  # all of them, those BM25 finds first (embedded first)
            chunks = self.index.chunks_where(where)
            ranked = {h.id: r for r, h in enumerate(self.index.search_bm25(text, filter=where, limit=self.budget))
                      } if text.strip() and len(chunks) > 1 else {}
            return [_as_hit(c) for c in sorted(chunks, key=lambda c: ranked.get(c.id, len(ranked)))]
        found = self.index.search_bm25(text, filter=where, limit=self.budget) if text.strip() else []
        other = self.crossing(text) if self.crossing is not None and len(found) < self.budget else ""
        if other.strip():  # a question in the other language: its words as that language writes them
            seen = {h.id for h in found}
            found += [h for h in self.index.search_bm25(other, filter=where, limit=self.budget) if h.id not in seen]
            found = found[: self.budget]
        return found

    def held(self, vector: Sequence[float], filter: Filter | None, skip: Collection[str],
             limit: int) -> list[tuple[Chunk, float]]:
        """The pending chunks whose vector the fill (or a search) has computed already, scored at no embedding
        cost: the ``limit`` best under ``filter`` (``skip``: chunks scored otherwise), each with its cosine. Ranked
        first on the held vectors, then read a window at a time (a large file's fill holds thousands: reading
        every one of its chunks for each search cost a second of it)."""
        docs = self.pending.doc_ids(self.fingerprint)
        ranked = self.computed.nearest(vector, set(docs), skip) if docs and len(self.computed) else []
        out: list[tuple[Chunk, float]] = []
        window = max(4 * limit, HELD_WINDOW)
        for start in range(0, len(ranked), window):
            part = ranked[start : start + window]
            by_doc: dict[str, list[int]] = {}
            for chunk_id, _, _ in part:
                by_doc.setdefault(chunk_document(chunk_id), []).append(chunk_position(chunk_id))
            where = and_filters(filter, or_filters([And((doc_filter(d), InList("chunk_index", tuple(ix))))
                                                    for d, ix in by_doc.items()]))
            assert where is not None
            read = {c.id: c for c in self.index.chunks_where(where)}
            out += [(c, cosine) for chunk_id, text, cosine in part
                    if (c := read.get(chunk_id)) is not None and embedding_text(c) == text]
            if len(out) >= limit:
                break
        return out[:limit]

    def search(self, vector: Sequence[float], text: str, *, filter: Filter | None, limit: int) -> list[Hit]:
        """The pending chunks' hits for a question (its vector from the same embedder), best first, at most
        ``limit``, on the channel dense search gives (structured under a filter, else semantic); none when nothing
        is pending."""
        if limit <= 0 or not any(vector):
            return []
        found = self.candidates(text, filter)
        if not found and not len(self.computed):
            return []
        texts = [embedding_text(h) for h in found]
        started, chinese = time.perf_counter(), mostly_chinese(text)
        for h, t in zip(found, texts, strict=True):  # best candidates first, one at a time, within the budget
            if self.computed.get(h.id, t) is not None or self.computed.busy(h.id):  # had, or the fill's under way
                continue
            budget = self.budget_s if mostly_chinese(h.text) == chinese else self.crossing_budget_s
            if self.computed.cost.predict(t) > budget - (time.perf_counter() - started):
                continue  # would not end within the budget: a shorter chunk may
            with self.computed.embedding([h.id], [t]):
                out = self.embedder.embed_documents([t])
            if len(out) != 1:
                raise EmbedderUnavailable(f"the embedder returned {len(out)} vectors for one chunk")
            self.computed.put(h.id, t, list(out[0]))
            self.embedded += 1
        scale = score_scale(self.fingerprint.name)
        channel: Literal["structured", "semantic"] = "structured" if filter is not None else "semantic"
        q = _unit(vector)
        hits = []
        for h, t in zip(found, texts, strict=True):
            stored = self.computed.get(h.id, t)
            if stored is None:  # not embedded within the budget, or written by the fill since (dense search has it)
                continue
            s = max(-1.0, min(1.0, scale.map(_dot(q, _unit(stored)))))
            hits.append(h.model_copy(update={"score": s, "dense_score": s, "bm25_score": None, "channel": channel}))
        for chunk, cosine in self.held(vector, filter, {h.id for h in found}, limit):
            s = max(-1.0, min(1.0, scale.map(cosine)))
            hits.append(_as_hit(chunk).model_copy(update={"score": s, "dense_score": s, "bm25_score": None,
                                                          "channel": channel}))
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]


def chunk_document(chunk_id: str) -> str:
    """The document of a chunk id (``graphs.ingest.chunking`` writes ``{doc id}#{position}``)."""
    return chunk_id.rpartition("#")[0]


def chunk_position(chunk_id: str) -> int:
    """The position of a chunk in its document, from its id."""
    return int(chunk_id.rpartition("#")[2])


def mostly_chinese(text: str) -> bool:
    """Whether most of what an embedder reads in ``text`` is Chinese (a question's lexical text carries a few words
    of the other language, a chunk a few names)."""
    return 2 * han_count(text) > passage_tokens(text)


def merge_filling(hits: Sequence[Hit], filling: Sequence[Hit], limit: int) -> list[Hit]:
    """Dense hits and pending chunks' hits (the same embedder's scores), best first, each chunk once, at most
    ``limit`` (equal scores: dense search's first)."""
    if not filling:
        return list(hits)
    seen = {h.id for h in hits}
    merged = [*hits, *(h for h in filling if h.id not in seen)]
    return sorted(merged, key=lambda h: -h.score)[:limit]


def _as_hit(chunk: Chunk) -> Hit:
    return Hit(id=chunk.id, doc_id=chunk.doc_id, title=chunk.title, text=chunk.text, score=0.0, channel="semantic",
               date=chunk.date, entities={str(k): list(v) for k, v in chunk.entities.items()}, source=chunk.source,
               section=chunk.section, page=chunk.page)


def _unit(vector: Sequence[float]) -> list[float]:
    values = [float(x) for x in vector]
    norm = math.sqrt(math.fsum(x * x for x in values))
    return [x / norm for x in values] if norm > 0 else values


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b, strict=True))

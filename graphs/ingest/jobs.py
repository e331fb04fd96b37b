"""Ingest jobs: large ingests run in the background, persisted so that a restart loses nothing.

A job is its documents (each stored whole, with its outcome: pending, done, skipped or failed) in a SQLite
file, and one worker thread per process runs them one batch at a time through the ``Ingestor`` (each batch
one all-or-nothing write; the first batch is one document and later ones about a second of work each, so the
progress and its ETA move per document where documents are slow, ``BatchSizer``). A document's outcome is committed after its batch is written, so after a restart
(or a kill) the job picks up where it was: its pending documents, the batch that was being written among
them (the ingest journal made that batch absent), are ingested when the service starts again, and the job
says it was resumed. A store or embedder that is down fails the job with the reason; its pending documents
are listed as not ingested.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import Field

from graphs.domain import Document, Model
from graphs.embeddings import EmbedderUnavailable
from graphs.ingest.chunking import IngestCancelled
from graphs.ingest.pipeline import Ingestor, IngestReport
from graphs.ingest.progress import BATCH_TARGET_S, BatchSizer, Progress
from graphs.stores.base import StoreUnavailable
from graphs.stores.sqlite import KeptWhileUnchanged, LockedSQLite

log = logging.getLogger(__name__)

JobStatus = Literal["queued", "running", "done", "failed", "cancelled"]
"""``cancelled``: stopped by its user (``JobStore.cancel``) before its next document (a batch whose write began is
written); the documents written before stay in the index, its pending ones are not ingested."""
OutcomeStatus = Literal["pending", "done", "replaced", "reread", "skipped", "failed"]
"""``replaced``: written over an earlier version of the same id (a ``done`` that says so). ``reread``: written
again over the same content because the ingest pipeline (parsers, chunker) changed since it was indexed
(``graphs.ingest.fingerprint``; a ``done`` too)."""
OUTAGES: tuple[type[BaseException], ...] = (EmbedderUnavailable, StoreUnavailable)
"""Failures of what the ingest depends on: they stop a job (every later batch would fail the same way)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  error TEXT,
  options TEXT NOT NULL DEFAULT '{}',
  resumed INTEGER NOT NULL DEFAULT 0,
  work_s REAL NOT NULL DEFAULT 0,
  chunks INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS job_documents (
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  doc_id TEXT NOT NULL,
  payload TEXT,
  status TEXT NOT NULL DEFAULT 'pending',
  chunks INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX IF NOT EXISTS job_documents_pending ON job_documents(job_id, status, seq);
CREATE TABLE IF NOT EXISTS job_links (
  job_id TEXT NOT NULL,
  line TEXT NOT NULL,
  failed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS job_links_job ON job_links(job_id);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class DocumentOutcome(Model):
    """What became of one document of a job."""

    id: str
    status: OutcomeStatus
    chunks: int = 0
    error: str | None = None


class JobProgress(Model):
    total: int
    done: int = Field(description="Documents written (those that replaced an earlier version included).")
    replaced: int = Field(default=0, description="Of the documents written, those that replaced an earlier "
                                                 "version of the same id.")
    reread: int = Field(default=0, description="Of the documents written, those whose content was unchanged but "
                                               "that were read again because the ingest pipeline (parsers, "
                                               "chunker) changed since they were indexed.")
    skipped: int = Field(description="Documents left alone: unchanged since they were indexed, by the same ingest "
                                     "pipeline.")
    failed: int
    pending: int = Field(description="Documents not ingested (yet, or ever when the job failed).")
    writing: int = Field(default=0, description="Of the pending documents of a cancelled job, those of the batch "
                                                "that was already being written when the job was cancelled: they "
                                                "go into the index still, and are counted done once written.")
    chunks: int
    stage: str | None = Field(default=None, description="What the batch in progress is doing now (\"reading and "
                              "tagging big.pdf (1 of 3)\", \"embedding 5,000 chunk(s)\", \"writing 5,000 "
                              "chunk(s)\"); None between batches, once finished, or seen from another process.")
    seconds: float = Field(description="Time the job has been running (all its runs).")
    chunks_per_s: float | None
    eta_s: float | None = Field(description="Estimated seconds left while running: the pending documents' text "
                                            "(in chunks) at the rate the job has written chunks; before its first "
                                            "document is done, at the rate of the earlier jobs (None: no earlier "
                                            "job, or past that estimate).")
    vectors_pending: int | None = Field(
        default=None, description="Chunks of the job's documents written without their dense vectors yet: searchable "
        "by keywords, entities and the graph now, by meaning once the background fill reaches them (None: the "
        "service embeds before it writes).")


class JobQueue(Model):
    """Where a queued job stands and why it waits (a queued job said only "queued" while a cancelled one ahead
    of it was still finishing its step)."""

    position: int = Field(description="1: the next job the ingest worker starts; 2: one job is before it; …")
    waiting_for: str | None = Field(description="The job the ingest worker is on now (a cancelled one still "
                                                "stopping included); None when the worker is between jobs.")
    reason: str = Field(description="Why it waits, in words: \"waiting for job 3f2a9c1e (2 of 40 documents "
                                    "written)\", \"the cancelled job 3f2a9c1e is stopping at its next passage\".")


class JobView(Model):
    """A job's status, progress and a page of its documents' outcomes."""

    id: str
    kind: str
    status: JobStatus
    created_at: str
    started_at: str | None
    finished_at: str | None
    error: str | None
    resumed: int = Field(description="How often the job was resumed after the service restarted.")
    progress: JobProgress
    documents: list[DocumentOutcome]
    offset: int
    limit: int
    linked: list[str] = Field(default_factory=list, description="Names the job's documents linked across scripts "
                              "(a Chinese and a Latin name of one thing, now one entity with an alias), each with "
                              "why: \"鸥岩灯塔 = Gull Rock Lighthouse (linked by meaning: …)\".")
    link_error: str | None = Field(default=None, description="Why names could not be linked after a batch (its "
                                   "documents are written; the next ingest links them).")
    queue: JobQueue | None = Field(default=None, description="A queued job's place in the queue and why it "
                                   "waits; None once it runs (or ended).")


@dataclass
class _Batch:
    """A running job's batch in progress: when it began (``time.monotonic``), how many documents it holds, and
    what it is doing now."""

    since: float
    documents: int
    stage: str | None = None


class JobStore(LockedSQLite):
    """Jobs and their documents in a SQLite file (WAL), safe to share between threads."""

    SCHEMA = _SCHEMA
    STORE = "job store"

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        super().__init__(path, timeout=timeout)
        self._pending = KeptWhileUnchanged(self.path)
        self._batches: dict[str, _Batch] = {}
        """Each running job's batch in progress (this process's runner)."""
        self._allow_cancelled()

    def _allow_cancelled(self) -> None:
        """A job file written before jobs could be cancelled checks its status against the four earlier ones:
        rebuild its ``jobs`` table (same columns, the new check) in one transaction."""
        with self._use(write=True) as conn:
            (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'jobs'").fetchone()
            if "'cancelled'" in sql:
                return
            conn.execute("ALTER TABLE jobs RENAME TO jobs_before_cancel")
            conn.execute(_SCHEMA.split(";")[0])  # this module's CREATE TABLE jobs
            conn.execute("INSERT INTO jobs SELECT * FROM jobs_before_cancel")
            conn.execute("DROP TABLE jobs_before_cancel")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        try:
            with super()._write() as conn:
                yield conn
        finally:
            self._pending.forget()  # this store's own writes read again whatever the file shows

    def create(self, kind: str, docs: Sequence[Document], options: dict[str, Any] | None = None,
               outcomes: Sequence[DocumentOutcome] = ()) -> str:
        """Persist a queued job of ``docs`` (plus ``outcomes`` already known, e.g. files that failed to parse)."""
        job_id = uuid.uuid4().hex
        rows: list[tuple[Any, ...]] = [
            (job_id, seq, doc.id, doc.model_dump_json(), "pending", 0, None) for seq, doc in enumerate(docs)
        ]
        rows += [(job_id, len(docs) + i, o.id, None, o.status, o.chunks, o.error) for i, o in enumerate(outcomes)]
        with self._use(write=True) as conn:
            conn.execute("INSERT INTO jobs (id, kind, status, created_at, options) VALUES (?, ?, 'queued', ?, ?)",
                         (job_id, kind, _now(), json.dumps(options or {})))
            conn.executemany("INSERT INTO job_documents VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        return job_id

    def next_job(self) -> str | None:
        """The oldest job to run: one that was running when the process stopped, else the oldest queued."""
        with self._use() as conn:
            row = conn.execute(
                "SELECT id FROM jobs WHERE status IN ('running', 'queued') "
                "ORDER BY status = 'queued', created_at, rowid LIMIT 1"
            ).fetchone()
        return str(row[0]) if row else None

    def ahead(self, job_id: str) -> list[tuple[str, JobStatus]]:
        """The queued and running jobs ``next_job`` takes before ``job_id`` (a queued one), in that order."""
        with self._use() as conn:
            rows = conn.execute("SELECT id, status FROM jobs WHERE status IN ('running', 'queued') "
                                "ORDER BY status = 'queued', created_at, rowid").fetchall()
        ids = [str(r[0]) for r in rows]
        return [(str(i), cast(JobStatus, st)) for i, st in rows[: ids.index(job_id)]] if job_id in ids else []

    def start(self, job_id: str) -> tuple[bool, dict[str, Any]]:
        """Mark a job running; ``(resumed, options)``: resumed when it was already running (a restart)."""
        with self._use(write=True) as conn:
            status, options = conn.execute("SELECT status, options FROM jobs WHERE id = ?", (job_id,)).fetchone()
            resumed = status == "running"
            conn.execute(
                "UPDATE jobs SET status = 'running', started_at = coalesce(started_at, ?), "
                "resumed = resumed + ? WHERE id = ? AND status IN ('queued', 'running')",
                (_now(), int(resumed), job_id))
        return resumed, json.loads(options)

    def pending(self, job_id: str, limit: int) -> list[tuple[int, Document]]:
        """The next ``limit`` documents not ingested yet, in order."""
        with self._use() as conn:
            rows = conn.execute(
                "SELECT seq, payload FROM job_documents WHERE job_id = ? AND status = 'pending' ORDER BY seq LIMIT ?",
                (job_id, limit)).fetchall()
        return [(int(seq), Document.model_validate_json(payload)) for seq, payload in rows]

    def batch_begins(self, job_id: str, documents: int = 0) -> None:
        """The runner starts a batch of ``documents`` of ``job_id``: its time left counts down while the batch
        runs (it sat on the same number for the whole of a large file's batch)."""
        self._batches[job_id] = _Batch(since=time.monotonic(), documents=documents)

    def batch_ends(self, job_id: str) -> None:
        """No batch of ``job_id`` runs any more (recorded, or dropped before its write)."""
        self._batches.pop(job_id, None)

    def batch_stage(self, job_id: str, stage: str) -> None:
        """What the batch of ``job_id`` in progress is doing now (shown while the job runs)."""
        if (batch := self._batches.get(job_id)) is not None:
            batch.stage = stage

    def settle(self, job_id: str, wait_s: float) -> bool:
        """Wait up to ``wait_s`` for the batch of ``job_id`` in progress to end (a cancelled job's batch stops at
        its next check, or is past its last one and being written); True when no batch runs any more."""
        deadline = time.monotonic() + wait_s
        while job_id in self._batches and time.monotonic() < deadline:
            time.sleep(0.05)
        return job_id not in self._batches

    def record(self, job_id: str, outcomes: Sequence[tuple[int, DocumentOutcome]], seconds: float) -> None:
        """Commit the outcomes of a batch (a written document's payload is dropped: it is in the index now)."""
        self.batch_ends(job_id)
        with self._use(write=True) as conn:
            conn.executemany(
                "UPDATE job_documents SET status = ?, chunks = ?, error = ?, "
                "payload = CASE WHEN ? = 'failed' THEN payload ELSE NULL END WHERE job_id = ? AND seq = ?",
                [(o.status, o.chunks, o.error, o.status, job_id, seq) for seq, o in outcomes])
            conn.execute("UPDATE jobs SET work_s = work_s + ?, chunks = chunks + ? WHERE id = ?",
                         (seconds, sum(o.chunks for _, o in outcomes), job_id))

    def record_links(self, job_id: str, linked: Sequence[str], error: str | None) -> None:
        """Keep the name links a batch made (and why linking failed, if it did) for the job's view."""
        rows = [(job_id, line, 0) for line in linked] + ([(job_id, error, 1)] if error else [])
        if rows:
            with self._use(write=True) as conn:
                conn.executemany("INSERT INTO job_links VALUES (?, ?, ?)", rows)

    def pending_job(self, doc_id: str) -> str | None:
        """The newest queued or running job that has ``doc_id`` still to write; None when none has."""
        with self._use() as conn:
            row = conn.execute("SELECT j.id FROM job_documents d JOIN jobs j ON j.id = d.job_id WHERE d.doc_id = ? "
                               "AND d.status = 'pending' AND j.status IN ('queued', 'running') "
                               "ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1", (doc_id,)).fetchone()
        return str(row[0]) if row else None

    def doc_ids(self, job_id: str) -> list[str]:
        """The ids of a job's documents."""
        with self._use() as conn:
            return [str(r[0]) for r in conn.execute("SELECT doc_id FROM job_documents WHERE job_id = ?", (job_id,))]

    def kind(self, job_id: str) -> str:
        """What queued a job (``upload``, ``add-documents``)."""
        with self._use() as conn:
            return str(conn.execute("SELECT kind FROM jobs WHERE id = ?", (job_id,)).fetchone()[0])

    def status(self, job_id: str) -> JobStatus | None:
        """A job's status; None for an unknown id."""
        with self._use() as conn:
            row = conn.execute("SELECT status FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return cast(JobStatus, row[0]) if row else None

    def cancel(self, job_id: str) -> JobStatus | None:
        """Cancel a queued or running job: its worker stops before the next document it would chunk or write (the
        documents written stay in the index; those still pending are not ingested, and a restart does not resume
        it). Returns the job's status after the call (``cancelled``, or the finished status it already had); None for an unknown
        id."""
        with self._use(write=True) as conn:
            conn.execute("UPDATE jobs SET status = 'cancelled', finished_at = ?, error = ? "
                         "WHERE id = ? AND status IN ('queued', 'running')",
                         (_now(), "cancelled by its user", job_id))
        return self.status(job_id)

    def finish(self, job_id: str, status: JobStatus, error: str | None = None) -> None:
        """Mark a job done or failed."""
        with self._use(write=True) as conn:
            conn.execute("UPDATE jobs SET status = ?, error = ?, finished_at = ? WHERE id = ?",
                         (status, error, _now(), job_id))

    def counts(self, job_id: str) -> dict[str, int]:
        """Documents per outcome."""
        with self._use() as conn:
            rows = conn.execute("SELECT status, COUNT(*) FROM job_documents WHERE job_id = ? GROUP BY status",
                                (job_id,)).fetchall()
        return {str(status): int(n) for status, n in rows}

    def recent(self, limit: int = 20, *, unfinished: bool = False) -> list[str]:
        """The ids of the newest jobs, newest first (``unfinished``: only those queued or running, which a
        restart resumes): what a page opened after the upload, or after a restart, follows."""
        query = ("SELECT id FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at DESC, rowid DESC "
                 "LIMIT ?" if unfinished else "SELECT id FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?")
        with self._use() as conn:
            rows = conn.execute(query, (limit,)).fetchall()
        return [str(r[0]) for r in rows]

    def pending_documents(self) -> int:
        """Documents that queued or running jobs have still to write (a question asked now cannot find them).

        Asked by every question (``app.services.query``) and nearly always 0: kept while no connection has
        committed to the file (``KeptWhileUnchanged``), so a question asked while no job runs reads no table and
        never waits for the store's lock behind a writer."""

        def read() -> int:
            with self._use() as conn:
                row = conn.execute("SELECT COUNT(*) FROM job_documents d JOIN jobs j ON j.id = d.job_id "
                                   "WHERE j.status IN ('queued', 'running') AND d.status = 'pending'").fetchone()
            return int(row[0])

        return self._pending.get("documents", read)

    def view(self, job_id: str, offset: int = 0, limit: int = 100) -> JobView | None:
        """A job's status, progress and a page of its documents' outcomes; None for an unknown id."""
        with self._use() as conn:
            row = conn.execute(
                "SELECT id, kind, status, created_at, started_at, finished_at, error, resumed, work_s, chunks "
                "FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if row is None:
                return None
            docs = conn.execute(
                "SELECT doc_id, status, chunks, error FROM job_documents WHERE job_id = ? ORDER BY seq "
                "LIMIT ? OFFSET ?", (job_id, limit, offset)).fetchall()
            # files that failed to load were failed at submission: not work of the job, not in its rate
            unread = conn.execute("SELECT COUNT(*) FROM job_documents WHERE job_id = ? AND status = 'failed' "
                                  "AND payload IS NULL", (job_id,)).fetchone()[0]
            links = conn.execute("SELECT line, failed FROM job_links WHERE job_id = ? ORDER BY rowid",
                                 (job_id,)).fetchall()
            running = row[2] == "running"
            left_chunks = _pending_chunks(conn, job_id) if running else 0.0  # read once, for either estimate
            first_eta = _first_eta(conn, job_id, row[4], left_chunks) if running and float(row[8]) == 0 else None
        counts = self.counts(job_id)
        total = sum(counts.values())
        # the rate and the ETA from the seconds as reported (to the millisecond)
        work_s, chunks = round(float(row[8]), 3), int(row[9])
        finished = sum(counts.get(s, 0) for s in ("done", "replaced", "reread", "skipped", "failed")) - int(unread)
        status = cast(JobStatus, row[2])
        # the time left: the pending documents' text, in chunks, at the rate the job has written chunks (a large
        # file behind a small one was "about 1 s left" for minutes when documents were counted alike); a job that
        # wrote no chunk yet (every document skipped) by its rate of documents
        # a job cancelled while its batch was past the last check, being written: those documents go in still
        batch = self._batches.get(job_id)
        writing = batch.documents if batch is not None and status == "cancelled" else 0
        eta: float | None = first_eta
        if status == "running" and work_s > 0 and chunks > 0:
            eta = round(left_chunks / (chunks / work_s), 1)
        elif status == "running" and work_s > 0 and finished > 0:
            eta = round(counts.get("pending", 0) / (finished / work_s), 1)
        if eta is not None and first_eta is None and status == "running" and \
                batch is not None:
            # less the time the batch in progress has run; an estimate that has run out is no estimate
            left = eta - (time.monotonic() - batch.since)
            eta = round(left, 1) if left > 0 else None
        return JobView(
            id=row[0], kind=row[1], status=status, created_at=row[3], started_at=row[4], finished_at=row[5],
            error=row[6], resumed=int(row[7]),
            progress=JobProgress(
                total=total, done=counts.get("done", 0) + counts.get("replaced", 0) + counts.get("reread", 0),
                replaced=counts.get("replaced", 0), reread=counts.get("reread", 0), skipped=counts.get("skipped", 0),
                failed=counts.get("failed", 0), pending=counts.get("pending", 0), chunks=chunks,
                seconds=round(work_s, 3), chunks_per_s=round(chunks / work_s, 1) if work_s > 0 else None,
                eta_s=eta, writing=writing,
                stage=batch.stage if batch is not None and status in ("running", "cancelled") else None,
            ),
            documents=[DocumentOutcome(id=d, status=cast(OutcomeStatus, s), chunks=int(c), error=e)
                       for d, s, c, e in docs],
            offset=offset, limit=limit, linked=[str(line) for line, failed in links if not failed],
            link_error=next((str(line) for line, failed in reversed(links) if failed), None),
        )


CHARS_PER_CHUNK = 700
"""About how many characters of a document make one chunk (the chunker's 800-character chunks overlap by 100)."""


def _pending_chunks(conn: Any, job_id: str) -> float:
    """About how many chunks a job's pending documents make: each document's stored text in chunks, one at least
    (a short note is one chunk)."""
    (chunks,) = conn.execute("SELECT SUM(MAX(1.0, LENGTH(payload) / ?)) FROM job_documents WHERE job_id = ? "
                             "AND status = 'pending'", (float(CHARS_PER_CHUNK), job_id)).fetchone()
    return float(chunks or 0.0)


def _first_eta(conn: Any, job_id: str, started_at: str | None, left_chunks: float) -> float | None:
    """The time left of a running job that has not finished a document yet (its own rate is unknown until then:
    a one-file upload read "ETA unknown" for minutes): its pending text (``left_chunks``), at the rate this store's
    earlier jobs wrote chunks, less the time it has run. None when no earlier job has a rate, or the estimate
    has run out."""
    chunks, work_s = conn.execute("SELECT SUM(chunks), SUM(work_s) FROM jobs WHERE id != ? AND work_s > 0 "
                                  "AND chunks > 0", (job_id,)).fetchone()
    if not chunks or not work_s:
        return None
    ran = (datetime.now(UTC) - datetime.fromisoformat(started_at)).total_seconds() if started_at else 0.0
    left = left_chunks / (chunks / work_s) - ran
    return round(left, 1) if left > 0 else None


def plain_failure(exc: BaseException) -> str:
    """Why a document or a job failed, as its status tells a client: what failed in plain words, never a
    driver's text (a gRPC status, a file path), which the log keeps. A ``ValueError`` is the service's own
    refusal of the document and says why."""
    if isinstance(exc, StoreUnavailable):
        return f"the {exc.store} store is unavailable (the cause is in the server log)"
    if isinstance(exc, EmbedderUnavailable | ValueError):
        return f"{type(exc).__name__}: {exc}"
    return f"the document could not be indexed ({type(exc).__name__}; the cause is in the server log)"


def ingest_each(ingestor: Ingestor, docs: Sequence[Document], *, skip_unchanged: bool = False,
                root: str | None = None, defer_vectors: bool = False,
                cancelled: Callable[[], bool] | None = None,
                stage: Callable[[str], None] | None = None) -> tuple[list[DocumentOutcome], IngestReport]:
    """Ingest a batch as one write and say what became of each document.

    A document the stores refuse (rather than a store that is down) fails alone: the batch is written again
    one document at a time, so the others go in. An outage (``OUTAGES``) is raised: nothing of the batch
    was written; so is ``IngestCancelled`` (``cancelled`` said stop before the write).
    """
    try:
        report = ingestor.ingest(docs, atomic=True, skip_unchanged=skip_unchanged, root=root,
                                 defer_vectors=defer_vectors, cancelled=cancelled, stage=stage)
    except OUTAGES:
        raise
    except IngestCancelled:
        raise
    except Exception as exc:
        if len(docs) == 1:
            log.warning("document %s could not be ingested: %s", docs[0].id, exc)
            return [DocumentOutcome(id=docs[0].id, status="failed", error=plain_failure(exc))], \
                IngestReport()
        report = IngestReport()
        outcomes = []
        for doc in docs:
            found, part = ingest_each(ingestor, [doc], skip_unchanged=skip_unchanged, root=root,
                                      defer_vectors=defer_vectors, cancelled=cancelled, stage=stage)
            outcomes += found
            report.add(part)
        return outcomes, report
    skipped, replaced, reread = set(report.skipped), set(report.replaced), set(report.reread)
    return [
        DocumentOutcome(id=d.id, status="skipped") if d.id in skipped
        else DocumentOutcome(id=d.id, status="reread" if d.id in reread else "replaced" if d.id in replaced else "done",
                             chunks=report.chunk_counts.get(d.id, 0))
        for d in docs
    ], report


class JobRunner:
    """Runs persisted jobs one batch at a time on one worker thread; resumes unfinished jobs when started."""

    def __init__(self, store: JobStore, ingestor: Ingestor, *, batch_size: int = 32,
                 batch_target_s: float | None = BATCH_TARGET_S,
                 on_status: Callable[[str], None] = lambda _status: None,
                 on_written: Callable[[str, int, int], None] = lambda _kind, _docs, _chunks: None,
                 defer_vectors: bool = False) -> None:
        self.store = store
        self.ingestor = ingestor
        self.batch_size = batch_size
        """The largest batch (batches start at one document and grow to about ``batch_target_s`` of work;
        ``batch_target_s=None``: every batch is ``batch_size``)."""
        self.batch_target_s = batch_target_s
        self.on_status = on_status
        """Told each status a job enters (queued, running, done, failed): the service counts them."""
        self.on_written = on_written
        """Told ``(job kind, documents, chunks)`` as each batch is written: the service counts them."""
        self.defer_vectors = defer_vectors
        """Write documents with placeholder vectors, searchable at once, and leave their dense vectors to the
        ingestor's ``vector_fill`` (``graphs.ingest.vector_fill``)."""
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.active: str | None = None
        """The job the worker is on now (until its run returns: a cancelled job stops at its next passage)."""

    def start(self) -> None:
        """Start the worker (it first resumes any job a previous process left unfinished)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="aer-ingest-jobs", daemon=True)
            self._thread.start()

    def submit(self, kind: str, docs: Sequence[Document], options: dict[str, Any] | None = None,
               outcomes: Sequence[DocumentOutcome] = ()) -> str:
        """Persist a job and wake the worker; return its id."""
        job_id = self.store.create(kind, docs, options, outcomes)
        self.on_status("queued")
        self._wake.set()
        return job_id

    def stop(self, timeout_s: float = 60.0) -> None:
        """Stop after the batch in progress (an unfinished job resumes at the next start)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                log.warning("the ingest job worker is still writing a batch after %.0f s; its stores close under "
                            "it (a job not cancelled resumes at the next start)", timeout_s)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                job_id = self.store.next_job()
                if job_id is None:
                    self._wake.wait(timeout=5.0)
                    self._wake.clear()
                    continue
                self.run_job(job_id)
            except Exception as exc:
                if self._stop.is_set():
                    # the service stopped past its wait and closed the stores under this batch: the batch was
                    # rolled back (the ingest journal) and resumes at the next start; no traceback, it is no bug
                    log.warning("the ingest job worker stopped mid-batch as its workspace closed (the service "
                                "stopping, or the workspace deleted); a job not cancelled resumes at the next start")
                    return
                if isinstance(exc, StoreUnavailable):
                    log.warning("the job store is unavailable; retrying", exc_info=True)
                else:  # a bug must not kill the worker silently: log it and go on with the next job
                    log.exception("the ingest job worker failed")
                self._stop.wait(5.0)

    def _retire_renamed(self, renames: dict[str, str], outcomes: Sequence[DocumentOutcome]) -> None:
        """Remove the document each written one was renamed from (``renames``: new id → old id), only once the
        new one is in: a renamed upload never leaves the content out of the index, nor two copies of it."""
        for outcome in outcomes:
            if (old := renames.get(outcome.id)) and outcome.status != "failed":
                self.ingestor.delete(old)

    def _cancelled(self, job_id: str, progress: Progress) -> None:
        self.store.batch_ends(job_id)  # a batch cancelled before its write: nothing to record
        progress.close()
        self.on_status("cancelled")
        log.warning("ingest job %s cancelled: %d document(s) not ingested", job_id,
                    self.store.counts(job_id).get("pending", 0))

    def queue(self, job_id: str) -> JobQueue | None:
        """Where a queued job stands and why it waits; None for a job that is not queued."""
        if self.store.status(job_id) != "queued":
            return None
        ahead = self.store.ahead(job_id)
        active = self.active
        running = next((other for other, status in ahead if status == "running"), None)
        queued = sum(1 for _, status in ahead if status == "queued")
        before = f"; {queued} queued job(s) before it" if queued else ""
        if active is not None and active != running and self.store.status(active) == "cancelled":
            reason = f"the cancelled job {active[:8]} is stopping at its next passage{before}"
        elif running is not None:
            counts = self.store.counts(running)
            left, total = counts.get("pending", 0), sum(counts.values())
            reason = f"waiting for job {running[:8]} ({total - left} of {total} documents written){before}"
        elif queued:
            reason = f"{queued} queued job(s) before it"
        else:
            reason = "next: the ingest worker starts it now"
        return JobQueue(position=len(ahead) + 1, waiting_for=active or running, reason=reason)

    def run_job(self, job_id: str) -> None:
        """Run (or resume) one job until it is done, fails on an outage, is cancelled (checked before each
        batch and each passage of a document), or the runner stops."""
        self.active = job_id
        try:
            self._run_job(job_id)
        finally:
            self.active = None

    def _run_job(self, job_id: str) -> None:
        resumed, options = self.store.start(job_id)
        kind = self.store.kind(job_id)
        self.on_status("running")
        counts = self.store.counts(job_id)
        total, left = sum(counts.values()), counts.get("pending", 0)
        if resumed:
            log.warning("resuming ingest job %s after a restart: %d of %d document(s) left", job_id, left, total)
        progress = Progress(total, desc=f"job {job_id[:8]}", done=total - left, tty=False)
        skip, root = bool(options.get("skip_unchanged")), options.get("root")
        sizer = BatchSizer(self.batch_size, self.batch_target_s)
        def cancelled() -> bool:
            return self.store.status(job_id) == "cancelled"

        while not self._stop.is_set():
            if cancelled():
                self._cancelled(job_id, progress)
                return
            batch = self.store.pending(job_id, sizer.size)
            if not batch:
                break
            started = time.perf_counter()
            self.store.batch_begins(job_id, len(batch))
            try:
                outcomes, report = ingest_each(self.ingestor, [doc for _, doc in batch], skip_unchanged=skip,
                                               root=root, defer_vectors=self.defer_vectors, cancelled=cancelled,
                                               stage=lambda what: self.store.batch_stage(job_id, what))
            except IngestCancelled:  # before the batch's write: none of it went in
                self._cancelled(job_id, progress)
                return
            except OUTAGES as exc:
                if self._stop.is_set():
                    raise  # the stores closed under the batch at shutdown: the job resumes, it has not failed
                self.store.record(job_id, [], time.perf_counter() - started)
                self.store.finish(job_id, "failed", plain_failure(exc))
                self.on_status("failed")
                log.error("ingest job %s failed: %s; %d document(s) not ingested", job_id, exc,
                          self.store.counts(job_id).get("pending", 0))
                return
            seconds = time.perf_counter() - started
            self.store.record(job_id, list(zip([seq for seq, _ in batch], outcomes, strict=True)), seconds)
            self._retire_renamed(options.get("renames") or {}, outcomes)
            self.store.record_links(job_id, report.linked, report.link_error)
            sizer.record(len(batch), seconds)
            progress.update(len(batch), sum(o.chunks for o in outcomes))
            if report.documents:
                self.on_written(kind, report.documents, report.chunks)
        if self._stop.is_set():
            return  # still "running": resumed when the service starts again
        progress.close()
        counts = self.store.counts(job_id)
        failed = counts.get("failed", 0)
        status: JobStatus = "failed" if failed and failed == sum(counts.values()) else "done"
        self.store.finish(job_id, status, f"{failed} document(s) failed" if failed else None)
        self.on_status(status)

"""Crash recovery and the journal protocol of every write.

Writes are crash-consistent through the ingest journal (``graphs.stores.journal``): a document is
journaled before its chunks reach Milvus and settled after its graph rows are committed; whatever a
crash leaves unsettled is rolled back by ``Ingestor.recover``, which runs before a process's first write
and when the service starts. ``Recovery`` is the ``Ingestor``'s part that begins, settles, fails, undoes and
rolls back writes (``graphs.ingest.indexer`` and ``graphs.ingest.entities`` write through it).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING

from graphs.domain import (
    DocumentRecord,
    EntityMetadata,
)
from graphs.ingest.swaps import DocumentSwaps
from graphs.stores.base import EntityStore, IndexedChunks, StagedWrite
from graphs.stores.catalog import DocumentCatalog
from graphs.stores.journal import IngestJournal, JournalEntry

log = logging.getLogger(__name__)


class Recovery:
    """Journals writes and repairs what a crash or a failed write left (a part of ``Ingestor``)."""

    index: IndexedChunks
    entities: EntityStore
    journal: IngestJournal | None
    catalog: DocumentCatalog | None
    _write_lock: threading.Lock
    _inflight: set[str]
    _inflight_lock: threading.Lock
    _recovered: bool
    swaps: DocumentSwaps

    if TYPE_CHECKING:  # the document and entity writers, composed in ``Ingestor``
        def _purge(self, doc_id: str) -> int: ...
        def _mirror(self, saved: EntityMetadata) -> None: ...
        def _retag_locked(self, entity: EntityMetadata, removed: Sequence[str] = ()) -> int: ...

    def backfill_inventory(self) -> int:
        """List in the inventory, once, the documents indexed before it existed (title and chunks from the
        index; no content hash, so their next ingest rewrites them); return how many were added."""
        if self.catalog is None or self.catalog.backfilled():
            return 0
        with self._write_lock:
            summaries = self.index.document_summaries()
            known = {r.id for r in self.catalog.get_many(list(summaries))}
            records = [DocumentRecord(id=doc_id, title=title, chunks=n, bytes=size)
                       for doc_id, (title, n, size) in sorted(summaries.items()) if doc_id not in known]
            self.catalog.mark_backfilled(records)
        if records:
            log.warning("listed %d document(s) indexed before the inventory existed", len(records))
        return len(records)

    # -- crash consistency -----------------------------------------------------------------------

    def recover(self) -> list[str]:
        """Roll back the documents of every unsettled write and re-mirror unsettled entities into the
        graph; return the ids of the documents rolled back (now absent: ingest them again)."""
        with self._write_lock:
            return self._recover_locked(only_once=False)

    def _recover_locked(self, *, only_once: bool) -> list[str]:
        if self.journal is None or (only_once and self._recovered):
            return []
        with self._inflight_lock:
            inflight = set(self._inflight)
        stale = [p for p in self.journal.journal_pending() if p[0] not in inflight]
        docs = sorted({key for _, kind, key in stale if kind == "doc"})
        names = sorted({key for _, kind, key in stale if kind == "entity"})
        self._roll_back(docs, names)
        for name in names:  # an entity write or re-tag left unfinished: bring the chunks in step with it
            if (saved := self.entities.get(name)) is not None:
                self._retag_locked(saved)
        if stale:
            self.journal.journal_settle(sorted({batch for batch, _, _ in stale}))
        self._recovered = True
        if docs or names:
            log.warning(
                "recovered interrupted writes: rolled back %d document(s) (ingest them again: %s), "
                "re-mirrored %d entit(y/ies)", len(docs), ", ".join(docs[:10]), len(names),
            )
        return docs

    def _undo(self, batch: str, doc_ids: list[str], staged: StagedWrite | None,
              previous: list[DocumentRecord] | None) -> None:
        """Take back a write that failed before its old chunks were deleted: remove its new chunks and put the
        inventory rows back (the graph's transaction rolled back by itself). If that fails too, roll back."""
        try:
            if staged is not None:
                staged.abort()
            if previous is not None and self.catalog is not None:
                self.catalog.restore(doc_ids, previous)
        except Exception:
            log.warning("could not undo a failed write of %d document(s)", len(doc_ids), exc_info=True)
            self._fail(batch, docs=doc_ids)
            return
        self._settle(batch)
        log.warning("undid a failed write of %d document(s): each is as it was (%s)", len(doc_ids),
                    ", ".join(doc_ids[:10]))

    def _begin(self, entries: list[JournalEntry]) -> str:
        batch = uuid.uuid4().hex
        if self.journal is not None:
            with self._inflight_lock:
                self._inflight.add(batch)
            try:
                self.journal.journal_begin(batch, entries)
            except BaseException:
                with self._inflight_lock:
                    self._inflight.discard(batch)
                raise
        return batch

    def _settle(self, batch: str) -> None:
        if self.journal is None:
            return
        try:
            self.journal.journal_settle([batch])
        finally:
            with self._inflight_lock:
                self._inflight.discard(batch)

    def _fail(self, batch: str, *, docs: Sequence[str] = (), names: Sequence[str] = ()) -> None:
        """A write raised: roll its documents back (absent, not partial) and re-mirror its entities
        now if the stores answer, else leave the journal to the next recovery."""
        if self.journal is None:
            return
        with self._inflight_lock:
            self._inflight.discard(batch)
        try:
            self._roll_back(docs, names)
            self.journal.journal_settle([batch])
        except Exception:
            self._recovered = False  # the next document write recovers first
            log.warning("could not repair a failed write (%d document(s), %d entit(y/ies)) yet; the next "
                        "write or start will", len(docs), len(names), exc_info=True)
        else:
            if docs:
                log.warning("rolled back a failed write of %d document(s): %s", len(docs), ", ".join(docs[:10]))

    def _roll_back(self, docs: Sequence[str], names: Sequence[str]) -> None:
        """Make unsettled documents absent (not partial) and mirror unsettled entities again from the store."""
        for doc_id in docs:
            with self.swaps.writing([doc_id]):  # a reader sees the document whole, or absent
                self._purge(doc_id)
        for name in names:
            saved = self.entities.get(name)  # the store's write is atomic: it holds the truth
            if saved is not None:
                self._mirror(saved)

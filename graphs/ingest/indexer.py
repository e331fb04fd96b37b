"""Document indexing: chunk, tag, embed and write documents; re-ingesting an id replaces its chunks.

A write that fails (rather than a process that dies: ``graphs.ingest.recovery``) is undone instead: every document
of it is embedded before anything is written, the new chunks go in beside the old ones, then the inventory and the
graph (one transaction each), and only then are the old chunks deleted; a failure before that last step removes
the new chunks and puts the inventory rows back, so every document of the write is as it was. One call of
``ingest(..., atomic=True)`` is one such write (a synchronous API request); otherwise each batch is.
``DocumentIndexer`` is the ``Ingestor``'s indexing part (``graphs.ingest.pipeline``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings

from graphs.domain import (
    Chunk,
    Document,
    DocumentRecord,
)
from graphs.embeddings import EmbedderUnavailable
from graphs.ingest.chunking import content_hash, embedding_text, kg_document, stop_if
from graphs.ingest.fingerprint import content_part, pipeline_fingerprint
from graphs.ingest.swaps import DocumentSwaps
from graphs.ingest.vector_fill import VectorFiller, placeholder
from graphs.kg.base import KnowledgeGraph
from graphs.stores.base import DocumentChunks, IndexedChunks, StagedWrite, StoreError
from graphs.stores.catalog import DocumentCatalog
from graphs.stores.journal import JournalEntry

if TYPE_CHECKING:
    from graphs.ingest.name_links import NameLink

log = logging.getLogger(__name__)

EMBED_SLICE = 256
"""Chunks embedded between two asks of an ingest's ``cancelled``."""


@dataclass
class IngestReport:
    documents: int = 0
    chunks: int = 0
    extracted: int = 0
    doc_ids: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Documents left as they were: their content hash is the one already indexed, by this ingest pipeline
    (``skip_unchanged``)."""
    reread: list[str] = field(default_factory=list)
    """Documents written again with the content already indexed, because the ingest pipeline changed since
    (``graphs.ingest.fingerprint``; also in ``replaced``)."""
    replaced: list[str] = field(default_factory=list)
    """Documents written over an earlier version of the same id (never silent: responses, jobs and the page
    say ``replaced``)."""
    chunk_counts: dict[str, int] = field(default_factory=dict)
    """Chunks of each document written."""
    seconds: float = 0.0
    embed_seconds: float = 0.0
    """Time inside the embedder's ``embed_documents`` (the rest is chunking, entity extraction, the writes)."""
    linked: list[str] = field(default_factory=list)
    """Names linked across scripts after the write (``graphs.ingest.name_links``), each with its reason."""
    link_error: str | None = None
    """Why the names could not be linked (the documents are written; the next ingest links them)."""

    def add(self, other: IngestReport) -> None:
        """Add another report's counts and times to this one."""
        self.documents += other.documents
        self.chunks += other.chunks
        self.extracted += other.extracted
        self.doc_ids.extend(other.doc_ids)
        self.skipped.extend(other.skipped)
        self.reread.extend(other.reread)
        self.replaced.extend(other.replaced)
        self.chunk_counts.update(other.chunk_counts)
        self.seconds += other.seconds
        self.embed_seconds += other.embed_seconds
        self.linked.extend(other.linked)
        self.link_error = other.link_error or self.link_error

    @property
    def chunks_per_s(self) -> float | None:
        """Chunks written per second of ingest."""
        return self.chunks / self.seconds if self.seconds > 0 else None

    @property
    def embed_chunks_per_s(self) -> float | None:
        """The embedder's own rate: chunks per second inside ``embed_documents``."""
        return self.chunks / self.embed_seconds if self.embed_seconds > 0 else None

    @property
    def outside_embedder(self) -> float | None:
        """The share of ingest time spent outside the embedder (parsing, extraction, Milvus and graph writes)."""
        return max(0.0, 1 - self.embed_seconds / self.seconds) if self.seconds > 0 and self.chunks else None


@dataclass(frozen=True)
class _Prepared:
    """A document ready to write: its chunks, their vectors, its inventory record."""

    doc: Document
    chunks: list[Chunk]
    vectors: list[list[float]]
    extracted: bool
    record: DocumentRecord
    deferred: bool = False
    """Written with placeholder vectors: ``vector_fill`` computes its own behind it."""



class DocumentIndexer:
    """Indexes, deletes and reads documents (a part of ``Ingestor``, whose dataclass fields it reads)."""

    embedder: Embeddings
    index: IndexedChunks
    link_names_on_ingest: bool
    kg: KnowledgeGraph | None
    catalog: DocumentCatalog | None
    vector_fill: VectorFiller | None
    _write_lock: threading.Lock
    swaps: DocumentSwaps

    if TYPE_CHECKING:  # chunking and the journal protocol, composed in ``Ingestor``
        def chunks(self, doc: Document, cancelled: Callable[[], bool] | None = None) -> tuple[list[Chunk], bool]: ...
        def link_names(self, new: Sequence[str] | None = None) -> list[NameLink]: ...
        def _recover_locked(self, *, only_once: bool) -> list[str]: ...
        def _begin(self, entries: list[JournalEntry]) -> str: ...
        def _settle(self, batch: str) -> None: ...
        def _fail(self, batch: str, *, docs: Sequence[str] = (), names: Sequence[str] = ()) -> None: ...
        def _undo(self, batch: str, doc_ids: list[str], staged: StagedWrite | None,
                  previous: list[DocumentRecord] | None) -> None: ...

    def pipeline(self) -> str:
        """The fingerprint of this ingestor's pipeline (its code and splitter), part of each document's key."""
        return pipeline_fingerprint(getattr(self, "splitter", None))

    def ingest(self, docs: Iterable[Document], batch_size: int = 32,
               progress: Callable[[int], None] | None = None, *, atomic: bool = False,
               skip_unchanged: bool = False, root: str | None = None, defer_vectors: bool = False,
               cancelled: Callable[[], bool] | None = None,
               stage: Callable[[str], None] | None = None) -> IngestReport:
        """Index documents in batches; re-ingesting an id replaces its chunks.

        ``atomic``: the whole call is one write: every document is chunked and embedded before any is
        written, and a failure anywhere leaves every one of them as it was (a synchronous API request).
        Otherwise each batch of ``batch_size`` is one such write. ``skip_unchanged``: a document whose
        content hash is the one in the inventory is left alone (``report.skipped``). ``root``: the folder or
        upload the documents come from, recorded in the inventory. ``defer_vectors`` (with a ``vector_fill``):
        write placeholder vectors now, searchable by BM25, entities and the graph at once, and leave the dense
        vectors to the background fill. ``cancelled``: asked before each document is chunked, before each of its
        passages is tagged, and before each write; when it says so, ``IngestCancelled`` is raised and the batch
        in hand is not written (an ingest job's cancel takes effect inside a large document, not only between
        batches). ``stage``: told what the batch in hand is doing ("reading and tagging big.pdf (1 of 3)",
        "embedding 5,000 chunks", "writing 5,000 chunks"): one large file's job said "0 of 1 document(s) · 0
        chunk(s)" for minutes.
        """
        defer = defer_vectors and self.vector_fill is not None
        started = time.perf_counter()
        report = IngestReport()
        for batch in ([list(docs)] if atomic else _batches(docs, batch_size)):
            # An id repeated within a batch: the last version wins, as it would one document at a time.
            unique = list({doc.id: doc for doc in batch}.values())
            if skip_unchanged and self.catalog is not None:
                unique = self._changed(unique, root, report)
            if unique:
                if self.catalog is not None:
                    report.replaced += [r.id for r in self.catalog.get_many([d.id for d in unique])]
                prepared = self._prepare(unique, root, report, defer=defer, cancelled=cancelled, stage=stage)
                stop_if(cancelled)
                if stage is not None:
                    stage(f"writing {sum(len(p.chunks) for p in prepared):,} chunk(s)")
                self._write_documents(prepared)
                for p in prepared:
                    report.documents += 1
                    report.chunks += len(p.chunks)
                    report.extracted += int(p.extracted)
                    report.doc_ids.append(p.doc.id)
                    report.chunk_counts[p.doc.id] = len(p.chunks)
            if progress is not None:
                progress(len(batch))
        self.index.flush()
        if report.documents and self.link_names_on_ingest:
            self._link_after_ingest(report)
        report.seconds = time.perf_counter() - started
        return report

    def _link_after_ingest(self, report: IngestReport) -> None:
        """Link the workspace's names across scripts; a store that fails here leaves the documents written and
        says so in the report (and the log), never silently."""
        try:
            report.linked = [link.describe() for link in self.link_names(report.doc_ids)]
        except (StoreError, EmbedderUnavailable) as exc:
            report.link_error = f"names not linked across scripts: {exc}"
            log.warning("%s", report.link_error)

    def _changed(self, docs: list[Document], root: str | None, report: IngestReport) -> list[Document]:
        """The documents whose content differs from the indexed version; the others go to ``report.skipped``
        (an unchanged document ingested from another root just has its inventory row moved)."""
        assert self.catalog is not None
        known = {r.id: r for r in self.catalog.get_many([d.id for d in docs])}
        changed, moved = [], []
        pipeline = self.pipeline()
        for doc in docs:
            record = known.get(doc.id)
            key = content_hash(doc, pipeline)
            if record is None or record.content_hash != key:
                changed.append(doc)
                if record is not None and content_part(record.content_hash) == content_part(key):
                    report.reread.append(doc.id)  # same content, another pipeline indexed it
                continue
            report.skipped.append(doc.id)
            if root is not None and record.root != root:
                moved.append(record.model_copy(update={"root": root}))
        if moved:
            self.catalog.put(moved)
        return changed

    def _prepare(self, docs: list[Document], root: str | None, report: IngestReport, *,
                 defer: bool = False, cancelled: Callable[[], bool] | None = None,
                 stage: Callable[[str], None] | None = None) -> list[_Prepared]:
        """Chunk, tag and embed documents (no store is written); ``defer``: placeholder vectors instead."""
        chunked = []
        for n, doc in enumerate(docs, 1):
            stop_if(cancelled)
            if stage is not None:
                stage(f"reading and tagging {doc.id} ({n} of {len(docs)})")
            chunked.append((doc, *self.chunks(doc, cancelled)))
        flat = [c for _, chunks, _ in chunked for c in chunks]
        embed_started = time.perf_counter()
        if defer and self.vector_fill is not None:
            vectors = [placeholder(self.vector_fill.dimension) for _ in flat]
        else:
            if stage is not None:
                stage(f"embedding {len(flat):,} chunk(s)")
            texts = [embedding_text(c) for c in flat]
            # a cancellable ingest embeds a slice at a time, asking between them (a large file's e5 vectors take
            # minutes on a CPU); otherwise in one call
            step = EMBED_SLICE if cancelled is not None else max(len(texts), 1)
            try:
                vectors = []
                for start in range(0, len(texts), step):
                    stop_if(cancelled)
                    vectors += self.embedder.embed_documents(texts[start : start + step])
            except EmbedderUnavailable as exc:
                ids = [doc.id for doc in docs]
                raise EmbedderUnavailable(f"{exc}; none of the {len(ids)} document(s) was written", ids) from exc
            report.embed_seconds += time.perf_counter() - embed_started
        if len(vectors) != len(flat):
            raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(flat)} chunks")
        now = datetime.now(UTC).isoformat(timespec="seconds")
        pipeline = self.pipeline()
        out, offset = [], 0
        for doc, chunks, extracted in chunked:
            record = DocumentRecord(id=doc.id, title=doc.title, source=doc.source, root=root, chunks=len(chunks),
                                    bytes=len(doc.text.encode()), content_hash=content_hash(doc, pipeline), ingested_at=now)
            out.append(_Prepared(doc, chunks, vectors[offset : offset + len(chunks)], extracted, record, defer))
            offset += len(chunks)
        return out

    def delete(self, doc_id: str) -> int:
        """Remove every chunk of a document, and the document from the graph and the inventory."""
        with self._write_lock:
            self._recover_locked(only_once=True)
            batch = self._begin([("doc", doc_id)])
            try:
                with self.swaps.writing([doc_id]):
                    removed = self._purge(doc_id)
            except Exception:
                self._fail(batch, docs=[doc_id])
                raise
            self._settle(batch)
        return removed

    def _write_documents(self, prepared: list[_Prepared]) -> None:
        """Write one unit to Milvus, the inventory and the graph between a journal begin and settle.

        New chunks go in beside the old ones; the inventory and the graph are one transaction each; the old
        chunks are deleted last. A failure before that undoes the write (every document as it was); a
        failure of the last step, or of the undo, leaves the documents to the journal's roll-back (absent).
        """
        doc_ids = [p.doc.id for p in prepared]
        replacements: list[DocumentChunks] = [(p.doc.id, p.chunks, p.vectors) for p in prepared]
        with self._write_lock:
            self._recover_locked(only_once=True)
            batch = self._begin([("doc", doc_id) for doc_id in doc_ids])
            staged: StagedWrite | None = None
            previous: list[DocumentRecord] | None = None
            deferred = [(p.doc.id, len(p.chunks)) for p in prepared if p.deferred]
            with self.swaps.writing(doc_ids):  # from the new chunks' write to the old ones' delete
                try:
                    if deferred and self.vector_fill is not None:
                        # listed before any placeholder is written: a crash never leaves one unlisted
                        self.vector_fill.register(deferred)
                    staged = self.index.stage_documents(replacements)
                    staged.write()
                    if self.catalog is not None:
                        previous = self.catalog.get_many(doc_ids)
                        self.catalog.put([p.record for p in prepared])
                    if self.kg is not None:
                        self.kg.add_documents([kg_document(p.doc, p.chunks) for p in prepared])
                except Exception:
                    self._undo(batch, doc_ids, staged, previous)
                    raise
                try:
                    staged.commit()
                except Exception:
                    self._fail(batch, docs=doc_ids)
                    raise
            self._settle(batch)
        if deferred and self.vector_fill is not None:
            self.vector_fill.written()

    def write_filled_vectors(self, doc_id: str, texts: Mapping[str, str],
                             vectors: Mapping[str, list[float]]) -> int | None:
        """Rewrite a document's chunks with the vectors the background fill computed from ``texts`` (chunk id
        -> embedded text); None, and nothing written, when its chunks changed since (a re-ingest, a delete).
        The chunks are re-read under the write lock, so tags a re-tag changed meanwhile are kept."""
        with self._write_lock, self.swaps.writing([doc_id]):
            chunks = list({c.id: c for c in self.index.document_chunks(doc_id)}.values())
            if not chunks or {c.id for c in chunks} != set(texts) or any(
                    embedding_text(c) != texts[c.id] for c in chunks):
                return None
            self.index.replace_documents([(doc_id, chunks, [vectors[c.id] for c in chunks])])
            self.index.flush()
            return len(chunks)

    def read_document(self, doc_id: str) -> tuple[DocumentRecord | None, list[Chunk]]:
        """A document's inventory row and chunks as one version: a replace of it in progress is waited out,
        never read half-way (both versions' chunks, or the old row with the new chunks)."""
        with self.swaps.reading(doc_id):
            record = self.catalog.get(doc_id) if self.catalog is not None else None
            return record, self.index.document_chunks(doc_id)

    def _purge(self, doc_id: str) -> int:
        removed = self.index.delete_document(doc_id)
        if self.kg is not None:
            self.kg.delete_document(doc_id)
        if self.catalog is not None:
            self.catalog.delete(doc_id)
        return removed




def _batches(items: Iterable[Document], size: int) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch

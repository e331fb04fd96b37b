"""Ingest: chunk documents, attach normalized entity fields and a date, embed, and index.

Writes are crash-consistent through the ingest journal (``graphs.stores.journal``): a document is
journaled before its chunks reach Milvus and settled after its graph rows are committed; whatever a
crash leaves unsettled is rolled back by ``Ingestor.recover``, which runs before a process's first write
and when the service starts.

A write that fails (rather than a process that dies) is undone instead: every document of it is embedded
before anything is written, the new chunks go in beside the old ones, then the inventory and the graph
(one transaction each), and only then are the old chunks deleted; a failure before that last step removes
the new chunks and puts the inventory rows back, so every document of the write is as it was. One call of
``ingest(..., atomic=True)`` is one such write (a synchronous API request); otherwise each batch is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_text_splitters import RecursiveCharacterTextSplitter

from graphs.domain import (
    ENTITY_TYPE_KEYS,
    Chunk,
    Document,
    DocumentRecord,
    DocumentSection,
    EntityMetadata,
    EntityType,
    iso_date,
)
from graphs.embeddings import EmbedderUnavailable
from graphs.ingest.swaps import DocumentSwaps
from graphs.ingest.tags import confident_tags
from graphs.ingest.vector_fill import VectorFiller, placeholder
from graphs.kg.base import KgDocument, KnowledgeGraph
from graphs.kg.mentions import canonical, contains_key, name_key
from graphs.stores.base import DocumentChunks, EntityStore, IndexedChunks, StagedWrite
from graphs.stores.catalog import DocumentCatalog
from graphs.stores.filters import mention_filter
from graphs.stores.journal import IngestJournal, JournalEntry
from graphs.text.dates import first_date
from graphs.text.entity_spotting import extract_entities
from graphs.text.gazetteer import Gazetteer
from graphs.text.normalize import normalize

log = logging.getLogger(__name__)

SEPARATORS = ["\n\n", "\n", "。", "！", "？", ". ", "! ", "? ", "；", "; ", "，", ", ", " ", ""]
_TYPE_KEYS = ENTITY_TYPE_KEYS


def make_splitter(chunk_size: int = 800, overlap: int = 100) -> RecursiveCharacterTextSplitter:
    """A splitter that cuts Chinese and English text at sentence boundaries first."""
    return RecursiveCharacterTextSplitter(
        chunk_size=chunk_size, chunk_overlap=overlap, separators=SEPARATORS, keep_separator="end"
    )


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, Iterable):
        return [str(v) for v in value if str(v).strip()]
    return [str(value)]


def metadata_entities(metadata: Mapping[str, Any]) -> dict[EntityType, list[str]]:
    """Typed entity values from metadata: ``{"entities": {"PERSON": [...]}}`` or ``{"person": ...}``."""
    found: dict[EntityType, list[str]] = {}
    sources: list[Mapping[str, Any]] = [metadata]
    nested = metadata.get("entities")
    if isinstance(nested, Mapping):
        sources.append(nested)
    elif isinstance(nested, list):
        for item in nested:
            if isinstance(item, Mapping) and str(item.get("type", "")).lower() in _TYPE_KEYS:
                found.setdefault(_TYPE_KEYS[str(item["type"]).lower()], []).extend(_as_list(item.get("text") or item.get("name")))
    for source in sources:
        for key, value in source.items():
            etype = _TYPE_KEYS.get(str(key).lower())
            if etype and etype != "DATE":
                found.setdefault(etype, []).extend(_as_list(value))
    return found


def metadata_date(metadata: Mapping[str, Any], today: date) -> int | None:
    """The document date from ``metadata['date']`` as YYYYMMDD (an ISO date or a YYYYMMDD integer, checked
    when the document was built: ``graphs.domain.iso_date``); None when it has none."""
    try:
        return iso_date(metadata.get("date"))
    except ValueError:  # a document built before dates were checked (a resumed job's)
        return None


def metadata_related(metadata: Mapping[str, Any], title: str = "") -> list[tuple[str, str]]:
    """(entity, related entity) pairs from ``metadata['relatedEntities']`` (or ``related_entities``).

    Accepts ``{"A": ["B", ...]}``, ``[["A", "B"], ...]``, ``[{"source": "A", "target": "B"}]``, and
    plain names, which are related to the document's title.
    """
    raw = metadata.get("relatedEntities", metadata.get("related_entities"))
    pairs: list[tuple[str, str]] = []
    if isinstance(raw, Mapping):
        pairs = [(str(a), b) for a, values in raw.items() for b in _as_list(values)]
    elif isinstance(raw, Iterable) and not isinstance(raw, str):
        for item in raw:
            if isinstance(item, Mapping):
                a, b = item.get("source") or item.get("from"), item.get("target") or item.get("to")
                if a is not None and b is not None:
                    pairs.append((str(a), str(b)))
            elif isinstance(item, list | tuple) and len(item) == 2:
                pairs.append((str(item[0]), str(item[1])))
            elif isinstance(item, str) and title.strip():
                pairs.append((title, item))
    elif isinstance(raw, str) and title.strip():
        pairs = [(title, raw)]
    return list(dict.fromkeys((a.strip(), b.strip()) for a, b in pairs if a.strip() and b.strip()))


def kg_document(doc: Document, chunks: Iterable[Chunk]) -> KgDocument:
    """What the knowledge graph keeps of a document: its entity fields (all types but DATE) and relations."""
    entities = [name for c in chunks for etype, names in c.entities.items() if etype != "DATE" for name in names]
    return KgDocument(
        doc_id=doc.id, title=doc.title, text=doc.text, entities=list(dict.fromkeys(entities)),
        related=metadata_related(doc.metadata, doc.title),
    )


def content_hash(doc: Document) -> str:
    """SHA-256 of what a document's index entries are made of (all but its id): equal hashes, equal chunks."""
    payload = json.dumps(doc.model_dump(mode="json", exclude={"id"}), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass
class IngestReport:
    documents: int = 0
    chunks: int = 0
    extracted: int = 0
    doc_ids: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Documents left as they were: their content hash is the one already indexed (``skip_unchanged``)."""
    replaced: list[str] = field(default_factory=list)
    """Documents written over an earlier version of the same id (never silent: responses, jobs and the page
    say ``replaced``)."""
    chunk_counts: dict[str, int] = field(default_factory=dict)
    """Chunks of each document written."""
    seconds: float = 0.0
    embed_seconds: float = 0.0
    """Time inside the embedder's ``embed_documents`` (the rest is chunking, entity extraction, the writes)."""

    def add(self, other: IngestReport) -> None:
        """Add another report's counts and times to this one."""
        self.documents += other.documents
        self.chunks += other.chunks
        self.extracted += other.extracted
        self.doc_ids.extend(other.doc_ids)
        self.skipped.extend(other.skipped)
        self.replaced.extend(other.replaced)
        self.chunk_counts.update(other.chunk_counts)
        self.seconds += other.seconds
        self.embed_seconds += other.embed_seconds

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


@dataclass
class Ingestor:
    """Turns documents into indexed chunks (and graph nodes); the same document id replaces the old ones."""

    embedder: Embeddings
    index: IndexedChunks
    entities: EntityStore
    gazetteer: Callable[[], Gazetteer]
    today: Callable[[], date] = date.today
    splitter: RecursiveCharacterTextSplitter = field(default_factory=make_splitter)
    kg: KnowledgeGraph | None = None
    journal: IngestJournal | None = None
    """Where write intents go (the graph's SQLite file in the service); None: no crash recovery."""
    catalog: DocumentCatalog | None = None
    """The document inventory (ids, files, content hashes); None: no inventory, nothing is skipped."""
    vector_fill: VectorFiller | None = None
    """Where ``ingest(defer_vectors=True)`` lists documents written with placeholder vectors (their dense
    vectors follow in the background, ``graphs.ingest.vector_fill``); None: every write embeds first."""
    # Document writes (journal, Milvus, graph, settle) run one batch at a time per process, so that
    # recovery, which holds the same lock, never rolls back a batch this process is still writing.
    # Embedding, the slow part, runs outside it.
    _write_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _inflight: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _inflight_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _recovered: bool = field(default=False, init=False, repr=False, compare=False)
    swaps: DocumentSwaps = field(default_factory=DocumentSwaps, init=False, repr=False, compare=False)
    """Readers of one document wait out a write of it (``read_document``): one version at a time."""

    def normalize_entities(self, raw: Mapping[EntityType, list[str]]) -> dict[EntityType, list[str]]:
        """Map each value to its standard name (and add hierarchy ancestors); unknown values stay."""
        out: dict[EntityType, list[str]] = {}
        for etype, values in raw.items():
            for value in values:
                match = self.entities.lookup(value)
                if match is not None and match.match in ("exact", "alias"):
                    target = out.setdefault(match.entity.type, [])
                    target.extend([*match.entity.ancestors, match.entity.standard_name])
                else:
                    out.setdefault(etype, []).append(value.strip())
        return {t: list(dict.fromkeys(v)) for t, v in out.items()}

    def document_fields(self, doc: Document, *, extract: bool = True) -> tuple[dict[EntityType, list[str]], int | None, bool]:
        """Entity fields and date of a document; extracted from the text when metadata has none (``extract``
        False: only the date is, and the entities are left to each chunk)."""
        raw = metadata_entities(doc.metadata)
        when = metadata_date(doc.metadata, self.today())
        extracted = False
        if not raw and not extract:
            return {}, when if when is not None else first_date(f"{doc.title}\n{doc.text}", self.today()), True
        if not raw:
            extracted = True
            found = extract_entities(f"{doc.title}\n{doc.text}", self.gazetteer(), self.today())
            for e in found:
                if e.type == "DATE" and when is None and e.date_range is not None:
                    when = e.date_range.start
            # Dictionary hits and jieba's 人名/地名/机构名 that reach the tag confidence (``graphs.ingest.tags``).
            raw = confident_tags(found, f"{doc.title}\n{doc.text}")
        return self.normalize_entities(raw), when, extracted

    def chunks(self, doc: Document) -> tuple[list[Chunk], bool]:
        """Split one document into chunks carrying its entity fields, date and location.

        A document with structure (a loaded file) is split section by section (a heading's text, a PDF page),
        so no chunk crosses a heading or a page; when its metadata names no entities, each chunk gets those
        its own section and text name (a long file names many things, each in its own place).
        """
        fields, _, extracted = self.document_fields(doc, extract=not doc.sections)
        explicit = metadata_date(doc.metadata, self.today())
        parts = doc.sections or [DocumentSection(text=doc.text)]
        pieces = [(piece, part) for part in parts for piece in self.splitter.split_text(part.text)]
        if not pieces:
            pieces = [(doc.text, parts[0] if doc.sections else DocumentSection(text=doc.text))]
        per_chunk = extracted and bool(doc.sections)
        gazetteer = self.gazetteer() if per_chunk else None
        chunks = []
        for i, (piece, part) in enumerate(pieces):
            entities = fields
            if gazetteer is not None:
                head = " ".join(p for p in (doc.title, part.section) if p)
                entities = self.normalize_entities(self._extracted(f"{head}\n{piece}", gazetteer, doc.text))
            chunks.append(Chunk(id=f"{doc.id}#{i}", doc_id=doc.id, chunk_index=i, title=doc.title, text=piece,
                                date=explicit if explicit is not None else self.chunk_date(doc.title, part, piece),
                                entities=entities, source=doc.source, section=part.section,
                                page=part.page))
        return chunks, extracted

    def chunk_date(self, title: str, part: DocumentSection, piece: str) -> int | None:
        """The date a chunk states: in its own text, else in the title or heading it is shown under; never a
        date found elsewhere in its file (a file's first date is not the date of its every chunk)."""
        for text in (piece, " ".join(p for p in (title, part.section) if p)):
            if (found := first_date(text, self.today())) is not None:
                return found
        return None

    def _extracted(self, text: str, gazetteer: Gazetteer, document: str = "") -> dict[EntityType, list[str]]:
        """Dictionary hits and jieba's 人名/地名/机构名 in a text that reach the tag confidence (no dates: a
        chunk's date is found apart, ``chunk_date``); ``document``: the whole text, where a guessed name's repetition counts."""
        return confident_tags(extract_entities(text, gazetteer, self.today()), document or text)

    def ingest(self, docs: Iterable[Document], batch_size: int = 32,
               progress: Callable[[int], None] | None = None, *, atomic: bool = False,
               skip_unchanged: bool = False, root: str | None = None, defer_vectors: bool = False) -> IngestReport:
        """Index documents in batches; re-ingesting an id replaces its chunks.

        ``atomic``: the whole call is one write: every document is chunked and embedded before any is
        written, and a failure anywhere leaves every one of them as it was (a synchronous API request).
        Otherwise each batch of ``batch_size`` is one such write. ``skip_unchanged``: a document whose
        content hash is the one in the inventory is left alone (``report.skipped``). ``root``: the folder or
        upload the documents come from, recorded in the inventory. ``defer_vectors`` (with a ``vector_fill``):
        write placeholder vectors now, searchable by BM25, entities and the graph at once, and leave the dense
        vectors to the background fill.
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
                prepared = self._prepare(unique, root, report, defer=defer)
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
        report.seconds = time.perf_counter() - started
        return report

    def _changed(self, docs: list[Document], root: str | None, report: IngestReport) -> list[Document]:
        """The documents whose content differs from the indexed version; the others go to ``report.skipped``
        (an unchanged document ingested from another root just has its inventory row moved)."""
        assert self.catalog is not None
        known = {r.id: r for r in self.catalog.get_many([d.id for d in docs])}
        changed, moved = [], []
        for doc in docs:
            record = known.get(doc.id)
            if record is None or record.content_hash != content_hash(doc):
                changed.append(doc)
                continue
            report.skipped.append(doc.id)
            if root is not None and record.root != root:
                moved.append(record.model_copy(update={"root": root}))
        if moved:
            self.catalog.put(moved)
        return changed

    def _prepare(self, docs: list[Document], root: str | None, report: IngestReport, *,
                 defer: bool = False) -> list[_Prepared]:
        """Chunk, tag and embed documents (no store is written); ``defer``: placeholder vectors instead."""
        chunked = [(doc, *self.chunks(doc)) for doc in docs]
        flat = [c for _, chunks, _ in chunked for c in chunks]
        embed_started = time.perf_counter()
        if defer and self.vector_fill is not None:
            vectors = [placeholder(self.vector_fill.dimension) for _ in flat]
        else:
            try:
                vectors = self.embedder.embed_documents([embedding_text(c) for c in flat])
            except EmbedderUnavailable as exc:
                ids = [doc.id for doc in docs]
                raise EmbedderUnavailable(f"{exc}; none of the {len(ids)} document(s) was written", ids) from exc
            report.embed_seconds += time.perf_counter() - embed_started
        if len(vectors) != len(flat):
            raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(flat)} chunks")
        now = datetime.now(UTC).isoformat(timespec="seconds")
        out, offset = [], 0
        for doc, chunks, extracted in chunked:
            record = DocumentRecord(id=doc.id, title=doc.title, source=doc.source, root=root, chunks=len(chunks),
                                    bytes=len(doc.text.encode()), content_hash=content_hash(doc), ingested_at=now)
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

    def upsert_entity(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge an entity in the entity store, then mirror the merged entity into the graph."""
        batch = self._begin([("entity", entity.standard_name)])
        try:
            saved = self.entities.upsert(entity)
            self._mirror(saved)
        except Exception:
            self._fail(batch, names=[entity.standard_name])
            raise
        self._settle(batch)
        return saved

    def remove_aliases(self, standard_name: str, aliases: Sequence[str]) -> EntityMetadata | None:
        """Remove aliases from an entity in the store (its graph node stays); None if there is no such entity."""
        batch = self._begin([("entity", standard_name)])
        try:
            saved = self.entities.remove_aliases(standard_name, aliases)
            if saved is not None:
                self._mirror(saved)
        except Exception:
            self._fail(batch, names=[standard_name])
            raise
        self._settle(batch)
        return saved

    def delete_entity(self, standard_name: str) -> tuple[EntityMetadata, int] | None:
        """Delete an entity: the indexed chunks lose its tag first (while the store still holds it, so an
        interrupted delete is re-tagged by recovery and nothing is half-deleted), then the store forgets it and
        the graph drops the edges its tags and the store gave it. The entity as it was and the chunks untagged;
        None if there is no such entity."""
        entity = self.entities.get(standard_name)
        if entity is None:
            return None
        with self._write_lock:
            self._recover_locked(only_once=True)
            batch = self._begin([("entity", entity.standard_name)])
            try:
                untagged = self._untag_locked(entity)
                self.entities.delete(entity.standard_name)
                if self.kg is not None:
                    self.kg.delete_entity(entity.standard_name)
            except Exception:
                self._fail(batch, names=[entity.standard_name])
                raise
            self._settle(batch)
        return entity, untagged

    def _untag_locked(self, entity: EntityMetadata) -> int:
        """Remove ``entity``'s tag (its standard name or an alias as a tag value) from every indexed chunk; the
        number of chunks changed. Documents are rewritten with their stored vectors."""
        expr = mention_filter(_spellings([entity.standard_name, *entity.aliases]))
        if expr is None:
            return 0
        names = {normalize(n) for n in (entity.standard_name, *entity.aliases)}
        changed: dict[str, dict[str, Chunk]] = {}
        for chunk in self.index.chunks_where(expr):
            tags = {t: [v for v in values if not (t == entity.type and normalize(v) in names)]
                    for t, values in chunk.entities.items()}
            tags = {t: v for t, v in tags.items() if v}
            if tags != {t: v for t, v in chunk.entities.items() if v}:
                changed.setdefault(chunk.doc_id, {})[chunk.id] = chunk.model_copy(update={"entities": tags})
        self._rewrite(changed)
        return sum(len(c) for c in changed.values())

    def _rewrite(self, changed: dict[str, dict[str, Chunk]]) -> None:
        """Rewrite the documents of ``changed`` (doc id -> chunk id -> its new chunk) with their stored vectors,
        a batch at a time, each document held from readers while its chunks are replaced."""
        doc_ids = sorted(changed)
        for start in range(0, len(doc_ids), self.RETAG_BATCH):
            batch: list[DocumentChunks] = []
            for doc_id in doc_ids[start : start + self.RETAG_BATCH]:
                vectors = self.index.chunk_vectors(doc_id)
                chunks = [changed[doc_id].get(c.id, c) for c in self.index.document_chunks(doc_id)]
                batch.append((doc_id, chunks, [vectors[c.id] for c in chunks]))
            with self.swaps.writing(doc_ids[start : start + self.RETAG_BATCH]):
                self.index.replace_documents(batch)

    RETAG_BATCH = 32
    """Documents rewritten per write when re-tagging."""

    def retag(self, entity: EntityMetadata, removed: Sequence[str] = ()) -> int:
        """Bring the indexed chunks in step with an entity added or changed after they were ingested.

        Chunks whose title, section or text names the entity (its standard name or an alias, at word
        boundaries) get its tag and its hierarchy; a value tagged under one of its names (a metadata value
        written before it was known to be an alias) becomes its standard name; a chunk that named it only by a
        ``removed`` alias loses the tag. The documents' ``mentions`` edges in the knowledge graph follow.
        Each changed document is rewritten with its stored vectors (nothing is embedded again), all or nothing
        per batch. Returns the number of chunks re-tagged.
        """
        with self._write_lock:
            self._recover_locked(only_once=True)
            # journaled like a write: a re-tag the index could not finish is redone by the next recovery
            batch = self._begin([("entity", entity.standard_name)])
            try:
                retagged = self._retag_locked(entity, removed)
            except Exception:
                with self._inflight_lock:
                    self._inflight.discard(batch)
                self._recovered = False  # the next write (or start) re-tags it first
                raise
            self._settle(batch)
            return retagged

    def _retag_locked(self, entity: EntityMetadata, removed: Sequence[str] = ()) -> int:
        """``retag`` with the write lock held."""
        forms = [entity.standard_name, *entity.aliases]
        expr = mention_filter(_spellings([*forms, *removed]))
        if expr is None:
            return 0
        keys = [k for f in forms if (k := name_key(f)) is not None]
        gone = [k for f in removed if (k := name_key(f)) is not None]
        changed: dict[str, dict[str, Chunk]] = {}
        named: set[str] = set()
        unnamed: set[str] = set()
        for chunk in self.index.chunks_where(expr):
            new, tagged = retagged(chunk, entity, keys, gone)
            (named if tagged else unnamed).add(chunk.doc_id)
            if new is not None:
                changed.setdefault(chunk.doc_id, {})[chunk.id] = new
        self._rewrite(changed)
        if self.kg is not None:
            self.kg.set_mentions(entity.standard_name, add=sorted(named), remove=sorted(unnamed - named))
        return sum(len(c) for c in changed.values())

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

    def _purge(self, doc_id: str) -> int:
        removed = self.index.delete_document(doc_id)
        if self.kg is not None:
            self.kg.delete_document(doc_id)
        if self.catalog is not None:
            self.catalog.delete(doc_id)
        return removed

    def _mirror(self, saved: EntityMetadata) -> None:
        if self.kg is not None:
            ancestors = saved.ancestors
            self.kg.upsert_entity(
                saved.standard_name, related=saved.related_entities, parent=ancestors[-1] if ancestors else None
            )


def _spellings(forms: Iterable[str]) -> list[str]:
    """The ways a name is likely written in stored text (Milvus matches case-sensitively): as given, lower
    case, capitalised."""
    out: dict[str, None] = {}
    for form in forms:
        form = form.strip()
        if form:
            out.update(dict.fromkeys([form, form.lower(), form[:1].upper() + form[1:]]))
    return list(out)


def retagged(chunk: Chunk, entity: EntityMetadata, keys: Sequence[str], gone: Sequence[str]) -> tuple[Chunk | None, bool]:
    """The chunk with its tags brought in step with ``entity`` (None when they already are), and whether it
    carries the entity's tag (``keys``: its names' lookup keys; ``gone``: those of removed aliases)."""
    text = canonical(" ".join(p for p in (chunk.title, chunk.section or "", chunk.text) if p))
    folded = {normalize(f) for f in (entity.standard_name, *entity.aliases)}
    tags = {t: [v for v in values if normalize(v) not in folded] for t, values in chunk.entities.items()}
    # a value written under an alias (not the standard name the tag would carry): what the text may not say
    own = normalize(entity.standard_name)
    by_value = any(normalize(v) in folded - {own} for values in chunk.entities.values() for v in values)
    names_it = any(contains_key(text, k) for k in keys)
    mine = tags.setdefault(entity.type, [])
    if names_it or by_value:
        mine.extend(n for n in [*entity.ancestors, entity.standard_name] if n not in mine)
    elif not any(contains_key(text, g) for g in gone):
        tags = {t: list(v) for t, v in chunk.entities.items()}  # named neither way: leave it as it was
    tags = {t: v for t, v in tags.items() if v}
    carries = entity.standard_name in tags.get(entity.type, [])
    if tags == {t: v for t, v in chunk.entities.items() if v}:
        return None, carries
    return chunk.model_copy(update={"entities": tags}), carries


def embedding_text(chunk: Chunk) -> str:
    """What gets embedded for a chunk: its title (and section) give the passage its subject."""
    head = " — ".join(part for part in (chunk.title, chunk.section) if part)
    return f"{head}\n{chunk.text}" if head else chunk.text


def _batches(items: Iterable[Document], size: int) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch

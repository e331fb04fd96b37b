"""Ingest: chunk documents, attach normalized entity fields and a date, embed, and index.

Writes are crash-consistent through the ingest journal (``graphs.stores.journal``): a document is
journaled before its chunks reach Milvus and settled after its graph rows are committed; whatever a
crash (or a failed write) leaves unsettled is rolled back by ``Ingestor.recover``, which runs before
a process's first write and when the service starts.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_text_splitters import RecursiveCharacterTextSplitter

from graphs.domain import ENTITY_TYPES, Chunk, Document, EntityMetadata, EntityType
from graphs.kg.base import GraphDocument, KnowledgeGraph
from graphs.stores.base import DocumentChunks, EntityStore, VectorIndex
from graphs.stores.journal import IngestJournal, JournalEntry
from graphs.text.dates import first_date
from graphs.text.gazetteer import Gazetteer
from graphs.text.rules import extract_entities

log = logging.getLogger(__name__)

SEPARATORS = ["\n\n", "\n", "。", "！", "？", ". ", "! ", "? ", "；", "; ", "，", ", ", " ", ""]
_TYPE_KEYS: dict[str, EntityType] = {t.lower(): t for t in ENTITY_TYPES} | {
    "persons": "PERSON", "people": "PERSON", "organizations": "ORGANIZATION", "orgs": "ORGANIZATION",
    "org": "ORGANIZATION", "products": "PRODUCT", "events": "EVENT", "locations": "LOCATION",
    "places": "LOCATION", "concepts": "CONCEPT",
}


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
    """The document date from ``metadata['date']`` as YYYYMMDD, if one parses."""
    raw = metadata.get("date")
    if raw is None or raw == "":
        return None
    if isinstance(raw, int) and 10000101 <= raw <= 99991231:
        return raw
    return first_date(str(raw), today)


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


def graph_document(doc: Document, chunks: Iterable[Chunk]) -> GraphDocument:
    """What the knowledge graph keeps of a document: its entity fields (all types but DATE) and relations."""
    entities = [name for c in chunks for etype, names in c.entities.items() if etype != "DATE" for name in names]
    return GraphDocument(
        doc_id=doc.id, title=doc.title, text=doc.text, entities=list(dict.fromkeys(entities)),
        related=metadata_related(doc.metadata, doc.title),
    )


@dataclass
class IngestReport:
    documents: int = 0
    chunks: int = 0
    extracted: int = 0
    doc_ids: list[str] = field(default_factory=list)


@dataclass
class Ingestor:
    """Turns documents into indexed chunks (and graph nodes); the same document id replaces the old ones."""

    embedder: Embeddings
    index: VectorIndex
    entities: EntityStore
    gazetteer: Callable[[], Gazetteer]
    today: Callable[[], date] = date.today
    splitter: RecursiveCharacterTextSplitter = field(default_factory=make_splitter)
    kg: KnowledgeGraph | None = None
    journal: IngestJournal | None = None
    """Where write intents go (the graph's SQLite file in the service); None: no crash recovery."""
    # Document writes (journal, Milvus, graph, settle) run one batch at a time per process, so that
    # recovery, which holds the same lock, never rolls back a batch this process is still writing.
    # Embedding, the slow part, runs outside it.
    _write_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _inflight: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _inflight_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _recovered: bool = field(default=False, init=False, repr=False, compare=False)

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

    def document_fields(self, doc: Document) -> tuple[dict[EntityType, list[str]], int | None, bool]:
        """Entity fields and date of a document; extracted from the text when metadata has none."""
        raw = metadata_entities(doc.metadata)
        when = metadata_date(doc.metadata, self.today())
        extracted = False
        if not raw:
            extracted = True
            found = extract_entities(f"{doc.title}\n{doc.text}", self.gazetteer(), self.today())
            for e in found:
                if e.type == "DATE":
                    if when is None and e.date_range is not None:
                        when = e.date_range.start
                elif e.source in ("gazetteer", "pos"):
                    # Dictionary hits and jieba's 人名/地名/机构名; capitalised-word guesses are too noisy to filter on.
                    raw.setdefault(e.type, []).append(e.text)
        return self.normalize_entities(raw), when, extracted

    def chunks(self, doc: Document) -> tuple[list[Chunk], bool]:
        """Split one document into chunks carrying its entity fields and date."""
        fields, when, extracted = self.document_fields(doc)
        pieces = self.splitter.split_text(doc.text) or [doc.text]
        return [
            Chunk(id=f"{doc.id}#{i}", doc_id=doc.id, chunk_index=i, title=doc.title, text=piece, date=when,
                  entities=fields)
            for i, piece in enumerate(pieces)
        ], extracted

    def ingest(self, docs: Iterable[Document], batch_size: int = 32,
               progress: Callable[[int], None] | None = None) -> IngestReport:
        """Index documents in batches; re-ingesting an id replaces its chunks."""
        report = IngestReport()
        for batch in _batches(docs, batch_size):
            # An id repeated within a batch: the last version wins, as it would one document at a time.
            unique = list({doc.id: doc for doc in batch}.values())
            prepared = [(doc, *self.chunks(doc)) for doc in unique]
            flat = [c for _, chunks, _ in prepared for c in chunks]
            vectors = self.embedder.embed_documents([embedding_text(c) for c in flat])
            replacements: list[DocumentChunks] = []
            offset = 0
            for doc, chunks, _ in prepared:
                replacements.append((doc.id, chunks, vectors[offset : offset + len(chunks)]))
                offset += len(chunks)
            self._write_documents(replacements, [graph_document(doc, chunks) for doc, chunks, _ in prepared])
            for doc, chunks, extracted in prepared:
                n = len(chunks)
                report.documents += 1
                report.chunks += n
                report.extracted += int(extracted)
                report.doc_ids.append(doc.id)
            if progress is not None:
                progress(len(batch))
        self.index.flush()
        return report

    def delete(self, doc_id: str) -> int:
        """Remove every chunk of a document, and the document from the graph."""
        with self._write_lock:
            self._recover_locked(only_once=True)
            batch = self._begin([("doc", doc_id)])
            try:
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
        if stale:
            self.journal.journal_settle(sorted({batch for batch, _, _ in stale}))
        self._recovered = True
        if docs or names:
            log.warning(
                "recovered interrupted writes: rolled back %d document(s) (ingest them again: %s), "
                "re-mirrored %d entit(y/ies)", len(docs), ", ".join(docs[:10]), len(names),
            )
        return docs

    def _write_documents(self, replacements: list[DocumentChunks], graph_docs: list[GraphDocument]) -> None:
        """Write one batch to Milvus and the graph between a journal begin and settle."""
        doc_ids = [doc_id for doc_id, _, _ in replacements]
        with self._write_lock:
            self._recover_locked(only_once=True)
            batch = self._begin([("doc", doc_id) for doc_id in doc_ids])
            try:
                self.index.replace_documents(replacements)
                if self.kg is not None:
                    self.kg.add_documents(graph_docs)
            except Exception:
                self._fail(batch, docs=doc_ids)
                raise
            self._settle(batch)

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
            self._purge(doc_id)
        for name in names:
            saved = self.entities.get(name)  # the store's write is atomic: it holds the truth
            if saved is not None:
                self._mirror(saved)

    def _purge(self, doc_id: str) -> int:
        removed = self.index.delete_document(doc_id)
        if self.kg is not None:
            self.kg.delete_document(doc_id)
        return removed

    def _mirror(self, saved: EntityMetadata) -> None:
        if self.kg is not None:
            ancestors = saved.ancestors
            self.kg.upsert_entity(
                saved.standard_name, related=saved.related_entities, parent=ancestors[-1] if ancestors else None
            )


def embedding_text(chunk: Chunk) -> str:
    """What gets embedded for a chunk: its title gives the passage its subject."""
    return f"{chunk.title}\n{chunk.text}" if chunk.title else chunk.text


def _batches(items: Iterable[Document], size: int) -> Iterator[list[Document]]:
    batch: list[Document] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch

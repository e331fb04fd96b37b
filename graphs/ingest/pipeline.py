"""The ingest pipeline: ``Ingestor``, composed of its parts, each in its own module and sharing these fields:

- ``graphs.ingest.chunking``: ``Chunker``, documents into tagged chunks, and the pure helpers around it;
- ``graphs.ingest.indexer``: ``DocumentIndexer``, ingest, delete and read documents, all or nothing per write;
- ``graphs.ingest.entities``: ``EntityWriter``, entity writes and re-tagging the indexed chunks;
- ``graphs.ingest.recovery``: ``Recovery``, the journal protocol and crash recovery.

The names callers import from here (``Ingestor``, ``IngestReport``, the chunking helpers) stay importable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from langchain_core.embeddings import Embeddings
from langchain_text_splitters import RecursiveCharacterTextSplitter

from graphs.ingest.chunking import (
    SEPARATORS,
    Chunker,
    content_hash,
    embedding_text,
    kg_document,
    make_splitter,
    metadata_date,
    metadata_entities,
    metadata_related,
)
from graphs.ingest.entities import EntityWriter, retagged
from graphs.ingest.indexer import DocumentIndexer, IngestReport
from graphs.ingest.name_links import NameLinker
from graphs.ingest.recovery import Recovery
from graphs.ingest.swaps import DocumentSwaps
from graphs.ingest.vector_fill import VectorFiller
from graphs.kg.base import KnowledgeGraph
from graphs.stores.base import EntityStore, IndexedChunks
from graphs.stores.catalog import DocumentCatalog
from graphs.stores.journal import IngestJournal
from graphs.text.gazetteer import Gazetteer

__all__ = [
    "SEPARATORS",
    "IngestReport",
    "Ingestor",
    "content_hash",
    "embedding_text",
    "kg_document",
    "make_splitter",
    "metadata_date",
    "metadata_entities",
    "metadata_related",
    "retagged",
]


@dataclass
class Ingestor(DocumentIndexer, EntityWriter, NameLinker, Recovery, Chunker):
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
    link_names_on_ingest: bool = True
    """After an ingest, link the workspace's names across scripts (``graphs.ingest.name_links``)."""
    # Document writes (journal, Milvus, graph, settle) run one batch at a time per process, so that
    # recovery, which holds the same lock, never rolls back a batch this process is still writing.
    # Embedding, the slow part, runs outside it.
    _write_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _inflight: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _inflight_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _recovered: bool = field(default=False, init=False, repr=False, compare=False)
    swaps: DocumentSwaps = field(default_factory=DocumentSwaps, init=False, repr=False, compare=False)
    """Readers of one document wait out a write of it (``read_document``): one version at a time."""

"""Store protocols the graph depends on, and the errors adapters raise.

Nodes never import a driver; they talk to these protocols through ``runtime.context``. The chunk index is three
narrow protocols — ``ChunkSearch`` (the search nodes), ``ChunkWriter`` (staged writes: the ingest pipeline) and
``ChunkInspection`` (reading chunks back) — plus ``StoreHandle`` (ping, close); ``VectorIndex`` is all of them,
what an adapter such as Milvus implements. Each user types its dependency as the narrowest one it calls.
Adapters translate every driver error into ``StoreUnavailable`` so that an outage can
never look like "zero hits" (which would wrongly trigger constraint relaxation).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

from graphs.domain import Chunk, EntityMatch, EntityMetadata, EntityType, Hit
from graphs.stores.filters import Filter


class StoreError(Exception):
    """Base class of store errors."""


class StoreUnavailable(StoreError):
    """The backing service (Milvus, Redis, SQLite file) could not serve the call."""

    def __init__(self, store: str, message: str) -> None:
        super().__init__(f"{store} unavailable: {message}")
        self.store = store


class AliasConflictError(StoreError):
    """An alias is already owned by another entity."""

    def __init__(self, alias: str, owner: str) -> None:
        super().__init__(f"alias {alias!r} already belongs to {owner!r}")
        self.alias = alias
        self.owner = owner


FusionMethod = Literal["rrf", "weighted"]
# One document's replacement: (doc_id, chunks, one vector per chunk).
DocumentChunks = tuple[str, Sequence[Chunk], Sequence[Sequence[float]]]


@runtime_checkable
class StagedWrite(Protocol):
    """A replacement of some documents' chunks in three steps, so that a write that fails at any point
    before ``commit`` leaves every document as it was: ``write`` adds the new rows beside the old ones,
    ``commit`` deletes the old ones, ``abort`` deletes the rows ``write`` added (raising if it cannot)."""

    chunks: int
    """How many chunks the documents have after the write."""

    def write(self) -> None: ...

    def commit(self) -> None: ...

    def abort(self) -> None: ...


@runtime_checkable
class StoreHandle(Protocol):
    """What the service does with any store besides using it: probe it (``/readyz``) and close it on shutdown."""

    def ping(self) -> None:
        """Raise StoreUnavailable if the store cannot serve calls."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class ChunkSearch(Protocol):
    """Dense, BM25 and hybrid search over the chunks under a filter (a tree: ``graphs.stores.filters``): all a
    search node needs."""

    def search_dense(self, vector: Sequence[float], *, filter: Filter | None, limit: int) -> list[Hit]: ...

    def search_bm25(self, text: str, *, filter: Filter | None, limit: int, raw: bool = False) -> list[Hit]: ...

    def search_hybrid(
        self,
        vector: Sequence[float],
        text: str,
        *,
        filter: Filter | None,
        limit: int,
        fusion: FusionMethod = "rrf",
        dense_weight: float | None = None,
        question: str | None = None,
    ) -> list[Hit]:
        """Dense + BM25 fused; given the ``question`` that ``text`` was read from, BM25 is no vote against a
        passage in its other language (``graphs.stores.fusion.rrf_scores``)."""
        ...

    def describe_filter(self, filter: Filter) -> str:
        """The filter in the backend's own query language (what a search runs), for search records and traces."""
        ...


@runtime_checkable
class ChunkWriter(Protocol):
    """Replacing and deleting documents' chunks, staged so that a failed write leaves every document as it was."""

    def replace_document(self, doc_id: str, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> int:
        """Make ``chunks`` the only chunks of ``doc_id``; return how many were written."""
        ...

    def replace_documents(self, docs: Sequence[DocumentChunks]) -> int:
        """``replace_document`` for many ``(doc_id, chunks, vectors)`` at once; return the chunks written.

        On failure no document of the batch is left with a mix of its old and new chunks.
        """
        ...

    def stage_documents(self, docs: Sequence[DocumentChunks]) -> StagedWrite:
        """Check the batch and find the rows to add and to remove; nothing is written until ``write``."""
        ...

    def delete_document(self, doc_id: str) -> int:
        """Remove every chunk of ``doc_id``; return how many were removed."""
        ...

    def flush(self) -> None:
        """Persist buffered writes (after a bulk load)."""
        ...


@runtime_checkable
class ChunkInspection(Protocol):
    """Reading the stored chunks back by document or filter (the inventory, re-tagging, the workbench, re-index)."""

    def count(self, filter: Filter | None = None) -> int: ...

    def document_ids(self) -> set[str]: ...

    def document_chunks(self, doc_id: str) -> builtins.list[Chunk]:
        """Every chunk of ``doc_id`` in order, with its entity fields, date and location."""
        ...

    def document_summaries(self) -> dict[str, tuple[str, int, int]]:
        """``doc_id -> (title, chunks, bytes of chunk text)`` of every indexed document."""
        ...

    def chunks_where(self, filter: Filter) -> builtins.list[Chunk]:
        """Every chunk a filter matches (with entity fields, date and location), by document and order."""
        ...

    def chunk_vectors(self, doc_id: str) -> dict[str, builtins.list[float]]:
        """The stored dense vector of each chunk of ``doc_id`` (chunk id → vector): a rewrite keeps them."""
        ...


@runtime_checkable
class IndexedChunks(ChunkWriter, ChunkInspection, Protocol):
    """What the ingest pipeline needs: the staged writer, and reading back the chunks it re-writes (re-tagging
    keeps their vectors) and the documents the inventory lists."""


@runtime_checkable
class VectorIndex(ChunkSearch, ChunkWriter, ChunkInspection, StoreHandle, Protocol):
    """A whole chunk-index adapter (Milvus): what the composition root builds and hands out, each user getting the
    narrowest of ``ChunkSearch``, ``ChunkWriter``/``IndexedChunks`` and ``ChunkInspection`` it uses."""


@runtime_checkable
class EntityStore(StoreHandle, Protocol):
    """Entities with aliases, hierarchy and relations; exact, fuzzy and pinyin lookup."""

    def upsert(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge (aliases, hierarchy, relations) an entity; AliasConflictError on clash."""
        ...

    def remove_aliases(self, standard_name: str, aliases: Sequence[str]) -> EntityMetadata | None:
        """Remove these aliases (compared normalized) from an entity; the entity as stored, None if unknown."""
        ...

    def get(self, standard_name: str) -> EntityMetadata | None: ...

    def delete(self, standard_name: str) -> bool: ...

    def list(
        self, type: EntityType | None = None, offset: int = 0, limit: int = 100
    ) -> builtins.list[EntityMetadata]: ...

    def count(self, type: EntityType | None = None) -> int: ...

    def lookup(self, text: str, type: EntityType | None = None) -> EntityMatch | None:
        """Best match of a surface form: exact/alias, then fuzzy, then pinyin."""
        ...

    def surface_forms(self) -> builtins.list[tuple[str, EntityMetadata]]:
        """Every (name or alias, entity) pair, for gazetteer matching in text."""
        ...

    def search(self, text: str, type: EntityType | None = None) -> builtins.list[EntityMetadata]:
        """Entities whose name or an alias contains ``text``, best first (then a fuzzy or pinyin match)."""
        ...

    def version(self) -> int:
        """A number that changes whenever the store changes (to refresh caches)."""
        ...

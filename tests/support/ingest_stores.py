"""The real stores an ingest process writes (a Milvus Lite file, the knowledge graph, the entity store, the
document inventory and the jobs file), opened in one folder so that a test can start a "fresh process" on them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.stores.catalog import SQLiteDocumentCatalog
from graphs.stores.entities.sqlite_store import SQLiteEntityStore
from graphs.stores.milvus import MilvusIndex


@contextmanager
def ingest_stores(folder: Path, dim: int) -> Iterator[dict[str, Any]]:
    """``index``, ``graph``, ``entities``, ``catalog`` (open, closed on exit) and ``jobs`` (the file's path)."""
    parts = {"index": MilvusIndex(str(folder / "milvus.db"), "chunks", dim),
             "graph": SQLiteKnowledgeGraph(folder / "graph.db"),
             "entities": SQLiteEntityStore(folder / "entities.sqlite3"),
             "catalog": SQLiteDocumentCatalog(folder / "documents.db"), "jobs": folder / "jobs.db"}
    try:
        yield parts
    finally:
        for name in ("index", "graph", "entities", "catalog"):
            parts[name].close()

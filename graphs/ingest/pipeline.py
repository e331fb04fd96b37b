"""The ingest pipeline's public names (``Ingestor`` and its helpers), kept importable from here."""

from graphs.ingest.indexer import (
    SEPARATORS,
    Ingestor,
    IngestReport,
    content_hash,
    embedding_text,
    kg_document,
    make_splitter,
    metadata_date,
    metadata_entities,
    metadata_related,
    retagged,
)

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

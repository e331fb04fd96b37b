"""The Milvus adapter (a server or a Milvus Lite file): the only code that speaks Milvus.

``index``: ``MilvusIndex``, the ``VectorIndex`` over one collection; ``mirror``: the in-process search mirror
of a Lite file.
"""

from graphs.stores.milvus.index import DEFAULT_ANALYZER, MilvusIndex, SchemaMismatchError

__all__ = ["DEFAULT_ANALYZER", "MilvusIndex", "SchemaMismatchError"]

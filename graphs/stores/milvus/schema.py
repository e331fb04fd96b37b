"""The collection's schema and indexes: the fields a chunk row has, their limits, and the checks an existing
collection must pass before an index uses it (explicit and idempotent: nothing is ever dropped)."""

from __future__ import annotations

from typing import Any

from pymilvus import DataType, Function, FunctionType, MilvusClient

from graphs.stores.base import StoreError
from graphs.stores.bm25 import DEFAULT_B, DEFAULT_K1
from graphs.stores.filters import DATE_FIELD, ENTITY_FIELDS
from graphs.vectors import LEGACY_EMBEDDER, PROPERTY, EmbedderFingerprint, EmbedderMismatch, parse_fingerprint

# Lengths are bytes (Milvus counts bytes; Lite counts characters, which is never more).
ID_MAX = 2048
DOC_ID_MAX = 1024
TITLE_MAX = 2048
TEXT_MAX = 65535
ENTITY_MAX = 8192
ENTITIES_JSON_MAX = 32768
SOURCE_MAX = 2048
SECTION_MAX = 2048
MAX_TOPK = 16384
# FLAT: exact search; HNSW/AUTOINDEX drop matches under selective filters. Dense vectors are stored and
# searched as unit vectors, so inner product is their cosine similarity, the same scores without the work of
# Milvus Lite's COSINE, which renormalizes every stored vector on every search (0.1-0.5 s a search at 100k
# rows here). A collection made with COSINE keeps it.
DENSE_METRIC = "IP"
# BM25's k1 and b are stated so that every backend scores alike: Milvus Lite defaults to k1 = 1.5 (what the
# eval figures were measured with), Milvus standalone to 1.2.
BM25_PARAMS: dict[str, Any] = {"bm25_k1": DEFAULT_K1, "bm25_b": DEFAULT_B}
INDEXES: tuple[tuple[str, str, str | None], ...] = (
    ("dense", "FLAT", DENSE_METRIC),
    ("sparse", "SPARSE_INVERTED_INDEX", "BM25"),
    ("doc_id", "INVERTED", None),
    (DATE_FIELD, "INVERTED", None),
)
INDEX_PARAMS: dict[str, dict[str, Any]] = {"sparse": BM25_PARAMS}
# On a Milvus server the dense index may be approximate (AER_MILVUS_DENSE_INDEX). Approximate indexes drop
# allowed rows under a selective filter (HNSW's graph walk meets too few of them: with 15 of 3,000 rows allowed,
# FAISS HNSW at ef 64 returned fewer than 10 of them for 50 of 50 queries), and a filtered search that finds too
# few rows, or none, would have the router relax a constraint for nothing. So a filtered search on such an
# index first counts the rows the filter allows (scalar indexes answer it): none is a confirmed zero; up to
# EXACT_MAX are scored exactly here; more are searched by the index, and scored exactly after all if the index
# returns fewer than it should. A Lite file is always searched exactly by its mirror.
DENSE_INDEXES: dict[str, dict[str, Any]] = {
    "FLAT": {},
    "HNSW": {"M": 16, "efConstruction": 200},
    "IVF_FLAT": {"nlist": 1024},
    "AUTOINDEX": {},
}
# English function words and punctuation carry no evidence for BM25 (jieba keeps punctuation as tokens).
# An explicit list: Milvus Lite does not know the server's "_english_" stop-word set.
STOP_WORDS: tuple[str, ...] = (
    *["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "she", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "were", "what", "when", "where", "which", "who", "whom", "whose", "why", "will", "with", "would", "you", "your", "did", "do", "does"],
    *"，。、；：？！“”‘’（）《》【】,.;:?!\"'()[]-",
    "的", "了", "是", "在", "和", "与", "及", "吗", "呢", "啊",
)
DEFAULT_ANALYZER: dict[str, Any] = {
    "tokenizer": "jieba",
    "filter": ["lowercase", {"type": "stop", "stop_words": list(STOP_WORDS)}],
}
OUTPUT_FIELDS = [
    "id",
    "doc_id",
    "chunk_index",
    "title",
    "text",
    DATE_FIELD,
    "entities_json",
    *ENTITY_FIELDS.values(),
]
# Where in its file a chunk is (a citation's file, page and section). Collections created before these fields
# existed keep working without them (Milvus Lite cannot add a field to a collection): their hits have no location.
# Empty string and 0 stand for "none", as the date field's 0 does.
LOCATION_FIELDS = ("source", "section", "page")


class SchemaMismatchError(StoreError):
    """The existing collection does not have the schema this index needs."""


def ensure_indexes(client: MilvusClient, collection: str, new_dense_index: str, timeout: float) -> None:
    """Create whichever index is missing (also repairs a creation cut short)."""
    for field, index_type, metric in INDEXES:
        if client.list_indexes(collection, field_name=field, timeout=timeout):
            continue
        extra = INDEX_PARAMS.get(field, {})
        if field == "dense" and new_dense_index != "FLAT":
            index_type, extra = new_dense_index, DENSE_INDEXES[new_dense_index]
        params = client.prepare_index_params()
        params.add_index(field, index_type=index_type, metric_type=metric, params=extra)
        # sync=False: pymilvus would poll index state every 0.5 s; load waits for it anyway.
        client.create_index(collection, params, sync=False, timeout=timeout)


def build_schema(client: MilvusClient, dim: int, analyzer: dict[str, Any]) -> Any:
    """The schema of a new collection of ``dim``-dimensional chunks whose BM25 text ``analyzer`` reads."""
    schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=ID_MAX)
    schema.add_field("doc_id", DataType.VARCHAR, max_length=DOC_ID_MAX)
    schema.add_field("chunk_index", DataType.INT64)
    schema.add_field("title", DataType.VARCHAR, max_length=TITLE_MAX)
    schema.add_field("text", DataType.VARCHAR, max_length=TEXT_MAX)
    # BM25 reads the title too: a passage's title names its subject, often the words a question uses.
    schema.add_field(
        "search_text",
        DataType.VARCHAR,
        max_length=TEXT_MAX,
        enable_analyzer=True,
        analyzer_params=analyzer,
    )
    schema.add_field("dense", DataType.FLOAT_VECTOR, dim=dim)
    schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
    for field in ENTITY_FIELDS.values():
        schema.add_field(field, DataType.VARCHAR, max_length=ENTITY_MAX)
    schema.add_field(DATE_FIELD, DataType.INT64)
    schema.add_field("entities_json", DataType.VARCHAR, max_length=ENTITIES_JSON_MAX)
    schema.add_field("source", DataType.VARCHAR, max_length=SOURCE_MAX)
    schema.add_field("section", DataType.VARCHAR, max_length=SECTION_MAX)
    schema.add_field("page", DataType.INT64)
    schema.add_function(
        Function(
            name="text_bm25",
            function_type=FunctionType.BM25,
            input_field_names=["search_text"],
            output_field_names=["sparse"],
        )
    )
    return schema


def check_fields(desc: dict[str, Any], collection: str, dim: int, embedder: EmbedderFingerprint | None) -> bool:
    """Refuse a collection that lacks a field or whose vectors have another dimension; whether it has the
    location fields (a collection created before them has not)."""
    fields = {f["name"]: f for f in desc.get("fields", [])}
    missing = [f for f in ("id", "dense", "sparse", "search_text", *OUTPUT_FIELDS) if f not in fields]
    if missing:
        raise SchemaMismatchError(
            f"collection {collection!r} lacks fields {missing}; use another collection name"
        )
    stored_dim = int(fields["dense"].get("params", {}).get("dim", -1))
    if stored_dim != dim and embedder is not None:
        stored = parse_fingerprint((desc.get("properties") or {}).get(PROPERTY))
        if stored is None:
            stored = (LEGACY_EMBEDDER if stored_dim == LEGACY_EMBEDDER.dimension
                      else EmbedderFingerprint("unrecorded", stored_dim))
        raise EmbedderMismatch(f"collection {collection!r}", stored, embedder)
    if stored_dim != dim:
        raise SchemaMismatchError(
            f"collection {collection!r} has dense dim {stored_dim}, the embedder gives {dim}; "
            "use another collection name or the matching embedder"
        )
    return all(f in fields for f in LOCATION_FIELDS)

"""Milvus (server or Lite file) implementation of the ``VectorIndex`` protocol."""

from __future__ import annotations

import hashlib
import json
import logging
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from pymilvus import (
    DataType,
    Function,
    FunctionType,
    MilvusClient,
    MilvusException,
)

from graphs.domain import ENTITY_TYPES, Chunk, Hit
from graphs.stores import fusion as fuse
from graphs.stores.base import DocumentChunks, FusionMethod, StagedWrite, StoreError, StoreUnavailable
from graphs.stores.filters import (
    DATE_FIELD,
    ENTITY_FIELDS,
    and_filters,
    decode_entity_field,
    doc_filter,
    docs_filter,
    encode_entity_field,
    ids_filter,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")
Channel = Literal["structured", "semantic", "hybrid", "bm25"]

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
UPSERT_BATCH = 256
# Lite searches and filters its in-memory table row by row in Python (O(n) per call, ~70 us/row),
# and only flushes it to indexed Parquet segments at 128 MB: flush it ourselves every this many rows.
# Lite also keeps BM25 statistics per segment (scores across segments are not comparable), so few large
# segments rank better than many small ones; the Ingestor flushes once more at the end of a load.
LITE_FLUSH_ROWS = 8192
_HASH_LEN = 16
_SERVER_SCHEMES = ("http://", "https://", "tcp://", "unix:")
_DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    MilvusException,
    ConnectionError,
    TimeoutError,
    OSError,
)
# grpc and milvus_lite (imported lazily by pymilvus for .db URIs) errors are matched by module.
_DRIVER_MODULES = frozenset({"pymilvus", "milvus_lite", "grpc"})
# FLAT: exact search; HNSW/AUTOINDEX drop matches under selective filters. Dense vectors are stored and
# searched as unit vectors, so inner product is their cosine similarity, the same scores without the work of
# Milvus Lite's COSINE, which renormalizes every stored vector on every search (0.1-0.5 s a search at 100k
# rows here). A collection made with COSINE keeps it.
DENSE_METRIC = "IP"
INDEXES: tuple[tuple[str, str, str | None], ...] = (
    ("dense", "FLAT", DENSE_METRIC),
    ("sparse", "SPARSE_INVERTED_INDEX", "BM25"),
    ("doc_id", "INVERTED", None),
    (DATE_FIELD, "INVERTED", None),
)
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


# Lite keeps one in-process server per .db path; release it when the last index on it closes.
_local_users: dict[str, int] = {}
_local_lock = threading.Lock()


class SchemaMismatchError(StoreError):
    """The existing collection does not have the schema this index needs."""


def _is_driver_error(exc: BaseException) -> bool:
    return isinstance(exc, _DRIVER_ERRORS) or type(exc).__module__.split(".")[0] in _DRIVER_MODULES


def _truncate(value: str, max_bytes: int) -> str:
    data = value.encode()
    if len(data) <= max_bytes:
        return value
    return data[:max_bytes].decode(errors="ignore")


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def _strip_hash(pk: str) -> str:
    head, sep, tail = pk.rpartition("@")
    return head if sep and len(tail) == _HASH_LEN else pk


def _row_key(chunk: Chunk, vector: Sequence[float]) -> str:
    fields = chunk.model_dump(mode="json")
    for name in LOCATION_FIELDS:  # a chunk without a location hashes as it did before locations existed
        if fields.get(name) is None:
            fields.pop(name, None)
    payload = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(payload.encode())
    digest.update(json.dumps([round(float(x), 6) for x in vector]).encode())
    return f"{chunk.id}@{digest.hexdigest()[:_HASH_LEN]}"


class MilvusIndex:
    """Chunks in one Milvus collection: dense (FLAT, cosine as inner product of unit vectors), BM25 and hybrid
    search."""

    def __init__(
        self,
        uri: str,
        collection: str,
        dim: int,
        token: str | None = None,
        analyzer: dict[str, Any] | None = None,
        timeout: float = 30.0,
    ) -> None:
        if dim <= 0:
            raise ValueError("dim must be positive")
        self._local = not uri.startswith(_SERVER_SCHEMES)
        if self._local and not uri.endswith(".db"):
            raise ValueError(f"a local Milvus Lite path must end with .db, got {uri!r}")
        self.uri = str(Path(uri).resolve()) if self._local else uri
        self.collection = collection
        self.dim = dim
        self._token = token or ""
        self._analyzer = analyzer or DEFAULT_ANALYZER
        self._timeout = timeout
        self._client: MilvusClient | None = None
        self._ready = False
        self._dense_metric = DENSE_METRIC  # replaced by the collection's own when it is opened
        self._location = True  # False for a collection created before chunk locations (source/section/page)
        self._output_fields = [*OUTPUT_FIELDS, *LOCATION_FIELDS]
        self._unflushed = 0
        self._lock = threading.Lock()

    # -- plumbing -------------------------------------------------------------------------

    def _call(self, op: str, fn: Callable[[MilvusClient], T]) -> T:
        """Run ``fn`` on a ready client under the lock, translating driver errors."""
        with self._lock:
            try:
                client = self._ensure()
                return fn(client)
            except StoreError:
                raise
            except Exception as exc:
                if not _is_driver_error(exc):
                    raise
                self._ready = False  # re-check the collection on the next call
                hint = (
                    f" (is another process using {self.uri}?)" if self._local and self._client is None else ""
                )
                logger.warning("milvus %s failed: %s%s", op, exc, hint)
                raise StoreUnavailable("milvus", f"{op} failed: {exc}{hint}") from exc

    def _ensure(self) -> MilvusClient:
        if self._client is None:
            if self._local:
                Path(self.uri).parent.mkdir(parents=True, exist_ok=True)
            self._client = MilvusClient(uri=self.uri, token=self._token, timeout=self._timeout)
            if self._local:
                with _local_lock:
                    _local_users[self.uri] = _local_users.get(self.uri, 0) + 1
        if not self._ready:
            self._ensure_collection(self._client)
            self._ready = True
        return self._client

    def _ensure_collection(self, client: MilvusClient) -> None:
        name = self.collection
        if not client.has_collection(name, timeout=self._timeout):
            try:
                client.create_collection(
                    name, schema=self._schema(client), consistency_level="Strong", timeout=self._timeout
                )
                logger.info("created milvus collection %s (dim=%d)", name, self.dim)
            except MilvusException:
                if not client.has_collection(name, timeout=self._timeout):
                    raise  # a concurrent creator is fine; anything else is not
        self._check_schema(client.describe_collection(name, timeout=self._timeout))
        self._ensure_indexes(client)
        [dense_index] = client.list_indexes(name, field_name="dense", timeout=self._timeout)
        self._dense_metric = str(client.describe_index(name, dense_index, timeout=self._timeout)["metric_type"])
        client.load_collection(name, timeout=self._timeout)

    def _ensure_indexes(self, client: MilvusClient) -> None:
        """Create whichever index is missing (also repairs a creation cut short)."""
        for field, index_type, metric in INDEXES:
            if client.list_indexes(self.collection, field_name=field, timeout=self._timeout):
                continue
            params = client.prepare_index_params()
            params.add_index(field, index_type=index_type, metric_type=metric)
            # sync=False: pymilvus would poll index state every 0.5 s; load waits for it anyway.
            client.create_index(self.collection, params, sync=False, timeout=self._timeout)

    def _schema(self, client: MilvusClient) -> Any:
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
            analyzer_params=self._analyzer,
        )
        schema.add_field("dense", DataType.FLOAT_VECTOR, dim=self.dim)
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

    def _check_schema(self, desc: dict[str, Any]) -> None:
        fields = {f["name"]: f for f in desc.get("fields", [])}
        missing = [f for f in ("id", "dense", "sparse", "search_text", *OUTPUT_FIELDS) if f not in fields]
        if missing:
            raise SchemaMismatchError(
                f"collection {self.collection!r} lacks fields {missing}; use another collection name"
            )
        dim = int(fields["dense"].get("params", {}).get("dim", -1))
        if dim != self.dim:
            raise SchemaMismatchError(
                f"collection {self.collection!r} has dense dim {dim}, the embedder gives {self.dim}; "
                "use another collection name or the matching embedder"
            )
        location = all(f in fields for f in LOCATION_FIELDS)
        if not location and self._location:
            logger.warning(
                "collection %r was created before chunk locations: it keeps working, but its hits and citations "
                "name no file, page or section; ingest into a new AER_COLLECTION to have them", self.collection,
            )
        self._location = location
        self._output_fields = [*OUTPUT_FIELDS, *(LOCATION_FIELDS if location else ())]

    # -- rows and hits --------------------------------------------------------------------

    def _check_vector(self, vector: Sequence[float]) -> list[float]:
        """The vector scaled to unit length (a zero vector stays zero), after checking its dimension."""
        if len(vector) != self.dim:
            raise ValueError(f"vector has dim {len(vector)}, expected {self.dim}")
        values = [float(x) for x in vector]
        norm = math.sqrt(math.fsum(x * x for x in values))
        return [x / norm for x in values] if norm > 0 else values

    def _row(self, chunk: Chunk, vector: Sequence[float]) -> dict[str, Any]:
        pk = _row_key(chunk, vector)
        if len(pk.encode()) > ID_MAX or len(chunk.doc_id.encode()) > DOC_ID_MAX:
            raise ValueError(f"chunk id {chunk.id!r} or its doc_id is too long")
        entities_json = json.dumps(chunk.entities, ensure_ascii=False)
        if len(entities_json.encode()) > ENTITIES_JSON_MAX:
            logger.warning("entities of chunk %s too long for entities_json; kept in fields only", chunk.id)
            entities_json = ""
        row: dict[str, Any] = {
            "id": pk,
            "doc_id": chunk.doc_id,
            "chunk_index": chunk.chunk_index,
            "title": _truncate(chunk.title, TITLE_MAX),
            "text": _truncate(chunk.text, TEXT_MAX),
            "search_text": _truncate(search_text(chunk), TEXT_MAX),
            "dense": self._check_vector(vector),
            DATE_FIELD: chunk.date or 0,
            "entities_json": entities_json,
            "source": _truncate(chunk.source or "", SOURCE_MAX),
            "section": _truncate(chunk.section or "", SECTION_MAX),
            "page": chunk.page or 0,
        }
        for etype, field in ENTITY_FIELDS.items():
            row[field] = encode_entity_field(chunk.entities.get(etype, []), max_bytes=ENTITY_MAX)
        return row

    @staticmethod
    def _entities(entity: dict[str, Any]) -> dict[str, list[str]]:
        raw = entity.get("entities_json") or ""
        if raw:
            try:
                parsed = json.loads(raw)
                return {str(k): [str(v) for v in vs] for k, vs in parsed.items() if vs}
            except (ValueError, AttributeError, TypeError):
                logger.warning("bad entities_json on %s", entity.get("id"))
        decoded = {t: decode_entity_field(entity.get(f) or "") for t, f in ENTITY_FIELDS.items()}
        return {t: names for t, names in decoded.items() if names}

    def _hit(
        self,
        raw: Any,
        channel: Channel,
        score: float,
        *,
        dense: float | None = None,
        bm25: float | None = None,
    ) -> Hit:
        entity = raw["entity"]
        date = int(entity.get(DATE_FIELD) or 0)
        return Hit(
            id=_strip_hash(str(entity.get("id", raw["id"]))),
            doc_id=entity.get("doc_id", ""),
            title=entity.get("title", ""),
            text=entity.get("text", ""),
            score=score,
            channel=channel,
            dense_score=dense,
            bm25_score=bm25,
            date=date or None,
            entities=self._entities(entity),
            source=entity.get("source") or None,
            section=entity.get("section") or None,
            page=int(entity.get("page") or 0) or None,
        )

    @staticmethod
    def _bm25_scores(raws: Sequence[Any], raw: bool = False) -> list[float]:
        # Lite returns BM25 negated, server positive: compare magnitudes, best = 1 (unless raw).
        values = [abs(float(r["distance"])) for r in raws]
        if raw:
            return values
        top = max(values, default=0.0)
        return [v / top if top > 0 else 0.0 for v in values]

    # -- VectorIndex ----------------------------------------------------------------------

    def _search(
        self, op: str, query: Any, field: Literal["dense", "sparse"], filter: str | None, limit: int
    ) -> list[Any]:
        """One search of one vector field (dense vector or BM25 text), translated errors included. The dense
        metric is the collection's own, read when it opens (so inside the call)."""
        return self._call(
            op,
            lambda c: c.search(
                self.collection,
                data=[query],
                anns_field=field,
                filter=filter or "",
                limit=min(limit, MAX_TOPK),
                output_fields=self._output_fields,
                search_params={"metric_type": self._dense_metric if field == "dense" else "BM25"},
                timeout=self._timeout,
            )[0],
        )

    def search_dense(self, vector: Sequence[float], *, filter: str | None, limit: int) -> list[Hit]:
        """Exact cosine search (inner product of unit vectors), optionally under a filter."""
        if limit <= 0:
            return []
        raws = self._search("search_dense", self._check_vector(vector), "dense", filter, limit)
        channel: Channel = "structured" if filter else "semantic"
        hits = []
        for r in raws:
            s = _clamp(float(r["distance"]), -1.0, 1.0)
            hits.append(self._hit(r, channel, s, dense=s))
        return hits

    def search_bm25(self, text: str, *, filter: str | None, limit: int, raw: bool = False) -> list[Hit]:
        """BM25 full-text search; scores scaled so the best hit is 1, or the raw BM25 magnitudes
        (``raw``: comparable across searches of the same text, e.g. a later search under a filter)."""
        if limit <= 0 or not text.strip():
            return []
        raws = self._search("search_bm25", text, "sparse", filter, limit)
        return [self._hit(r, "bm25", s, bm25=s) for r, s in zip(raws, self._bm25_scores(raws, raw), strict=True)]

    def search_hybrid(
        self,
        vector: Sequence[float],
        text: str,
        *,
        filter: str | None,
        limit: int,
        fusion: FusionMethod = "rrf",
        dense_weight: float | None = None,
    ) -> list[Hit]:
        """Dense + BM25 searched separately and fused here (weighted RRF or weighted scores).

        Fusing client-side keeps both component scores on every hit and, in Milvus Lite, is faster than
        ``hybrid_search``; each channel fetches more than ``limit`` so fusion can promote lower-ranked hits.
        """
        if limit <= 0:
            return []
        if dense_weight is not None and not 0.0 <= dense_weight <= 1.0:
            raise ValueError("dense_weight must lie in [0, 1]")
        candidates = min(max(2 * limit, 20), MAX_TOPK)
        dense = self.search_dense(vector, filter=filter, limit=candidates)
        bm25 = self.search_bm25(text, filter=filter, limit=candidates)
        if fusion == "rrf":
            return fuse.rrf(dense, bm25, limit, dense_weight=fuse.RRF_DENSE_WEIGHT if dense_weight is None else dense_weight)
        return fuse.weighted(
            dense, bm25, limit, dense_weight=fuse.WEIGHTED_DENSE_WEIGHT if dense_weight is None else dense_weight
        )

    def count(self, filter: str | None = None) -> int:
        """Count rows matching ``filter`` (all rows for None)."""
        return self._call("count", lambda c: self._count(c, filter))

    def _count(self, client: MilvusClient, filter: str | None) -> int:
        res = client.query(
            self.collection, filter=filter or "", output_fields=["count(*)"], timeout=self._timeout
        )
        return int(res[0]["count(*)"]) if res else 0

    def _ids(self, client: MilvusClient, filter: str) -> set[str]:
        return {str(v) for v in self._scan(client, filter, "id")}

    def _scan(self, client: MilvusClient, filter: str, field: str) -> Iterator[Any]:
        """Yield ``field`` of every row matching ``filter``."""
        if self._local:
            # Lite has no result window cap, and its query_iterator logs errors (no AllocTimestamp).
            rows = client.query(self.collection, filter=filter, output_fields=[field], timeout=self._timeout)
            yield from (row[field] for row in rows)
            return
        rows = client.query(
            self.collection, filter=filter, output_fields=[field], limit=MAX_TOPK, timeout=self._timeout
        )
        if len(rows) < MAX_TOPK:
            yield from (row[field] for row in rows)
            return
        it = client.query_iterator(
            self.collection, batch_size=1000, filter=filter, output_fields=[field], timeout=self._timeout
        )
        try:
            while batch := it.next():
                yield from (row[field] for row in batch)
        finally:
            it.close()

    def replace_document(
        self, doc_id: str, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]
    ) -> int:
        """Make ``chunks`` the only chunks of ``doc_id``; return how many were written.

        New rows go in first under content-hashed ids, then the doc's other rows are deleted,
        so a failure leaves the old version intact (new rows written so far are removed).
        """
        return self.replace_documents([(doc_id, chunks, vectors)])

    def replace_documents(self, docs: Sequence[DocumentChunks]) -> int:
        """Make each ``chunks`` the only chunks of its ``doc_id``; return the number of chunks given.

        One query finds the existing rows of every document, one batched upsert writes the rows
        whose content-hashed id is not stored yet (an unchanged chunk keeps its row), and one
        delete removes the other rows of these documents. A failed upsert or delete removes the
        rows written so far, so each document keeps its old version: none is left with a mix of
        old and new chunks.
        """
        staged = self.stage_documents(docs)
        try:
            staged.write()
            staged.commit()
        except Exception:
            try:
                staged.abort()
            except StoreError:
                logger.exception("could not remove the partially written chunks of %d document(s)", len(docs))
            raise
        return staged.chunks

    def stage_documents(self, docs: Sequence[DocumentChunks]) -> StagedWrite:
        """Check the batch and build its rows (no I/O); the returned write adds them, then removes the old ones."""
        return _StagedRows(self, [doc_id for doc_id, _, _ in docs], self._rows(docs))

    def _rows(self, docs: Sequence[DocumentChunks]) -> list[dict[str, Any]]:
        """Check a batch against the contract and build its rows (no I/O)."""
        seen_docs: set[str] = set()
        seen_chunks: set[str] = set()
        rows: list[dict[str, Any]] = []
        for doc_id, chunks, vectors in docs:
            if len(chunks) != len(vectors):
                raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors for document {doc_id!r}")
            if doc_id in seen_docs:
                raise ValueError(f"document {doc_id!r} appears twice in one batch")
            seen_docs.add(doc_id)
            if any(c.doc_id != doc_id for c in chunks):
                raise ValueError(f"every chunk must belong to document {doc_id!r}")
            ids = {c.id for c in chunks}
            if len(ids) != len(chunks) or ids & seen_chunks:
                raise ValueError(f"duplicate chunk ids in document {doc_id!r}")
            seen_chunks |= ids
            rows.extend(self._row(c, v) for c, v in zip(chunks, vectors, strict=True))
        return rows

    def _wrote(self, client: MilvusClient, rows: int) -> None:
        if not self._local:
            return  # the server seals and indexes segments itself
        self._unflushed += rows
        if self._unflushed >= LITE_FLUSH_ROWS:
            self._flush(client)

    def _flush(self, client: MilvusClient) -> None:
        client.flush(self.collection, timeout=self._timeout)
        self._unflushed = 0

    def flush(self) -> None:
        """Persist pending writes now (call after a bulk ingest; Milvus Lite searches them faster)."""
        self._call("flush", self._flush)

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        """Every chunk of ``doc_id`` in chunk order, with entity fields, date and location."""
        return self._chunks("document_chunks", doc_filter(doc_id))

    def chunks_where(self, filter: str) -> list[Chunk]:
        """Every chunk ``filter`` matches, by document and chunk order (past the server's result window)."""
        return self._chunks("chunks_where", filter)

    def chunk_vectors(self, doc_id: str) -> dict[str, list[float]]:
        """The stored dense vector of each chunk of ``doc_id`` (chunk id → vector)."""

        def run(client: MilvusClient) -> dict[str, list[float]]:
            rows = client.query(self.collection, filter=doc_filter(doc_id), output_fields=["id", "dense"],
                                **({} if self._local else {"limit": MAX_TOPK}), timeout=self._timeout)
            return {_strip_hash(str(r["id"])): [float(x) for x in r["dense"]] for r in rows}

        return self._call("chunk_vectors", run)

    def _chunks(self, op: str, filter: str) -> list[Chunk]:
        fields = [f for f in self._output_fields if f != "id"] + ["id"]
        rows = self._call(op, lambda client: list(self._scan_rows(client, fields, filter)))
        chunks = []
        for row in sorted(rows, key=lambda r: (str(r.get("doc_id")), int(r.get("chunk_index") or 0))):
            hit = self._hit({"entity": row, "id": row["id"]}, "bm25", 0.0)
            chunks.append(Chunk(id=hit.id, doc_id=hit.doc_id, chunk_index=int(row.get("chunk_index") or 0),
                                title=hit.title, text=hit.text, date=hit.date,
                                entities={k: v for k, v in hit.entities.items() if k in ENTITY_TYPES},
                                source=hit.source, section=hit.section, page=hit.page))
        return chunks

    def delete_document(self, doc_id: str) -> int:
        """Remove every chunk of ``doc_id``; return how many were removed."""

        def run(client: MilvusClient) -> int:
            expr = doc_filter(doc_id)
            n = self._count(client, expr)
            if n:
                client.delete(self.collection, filter=expr, timeout=self._timeout)
                self._wrote(client, n)
            return n

        return self._call("delete_document", run)

    def document_ids(self) -> set[str]:
        """Return the distinct ids of indexed documents."""
        return self._call("document_ids", lambda c: {str(v) for v in self._scan(c, "", "doc_id")})

    def document_summaries(self) -> dict[str, tuple[str, int, int]]:
        """``doc_id -> (title, chunks, bytes of chunk text)`` of every indexed document (one scan)."""

        def run(client: MilvusClient) -> dict[str, tuple[str, int, int]]:
            out: dict[str, tuple[str, int, int]] = {}
            for row in self._scan_rows(client, ["doc_id", "title", "text"]):
                doc_id = str(row["doc_id"])
                title, n, size = out.get(doc_id, (str(row.get("title") or ""), 0, 0))
                out[doc_id] = (title, n + 1, size + len(str(row.get("text") or "").encode()))
            return out

        return self._call("document_summaries", run)

    def _scan_rows(self, client: MilvusClient, fields: list[str], filter: str = "") -> Iterator[dict[str, Any]]:
        """``fields`` of every row ``filter`` matches (as ``_scan``: one query, an iterator past the server's
        result window)."""
        if self._local:
            yield from client.query(self.collection, filter=filter, output_fields=fields, timeout=self._timeout)
            return
        rows = client.query(self.collection, filter=filter, output_fields=fields, limit=MAX_TOPK,
                            timeout=self._timeout)
        if len(rows) < MAX_TOPK:
            yield from rows
            return
        it = client.query_iterator(self.collection, batch_size=1000, filter=filter, output_fields=fields,
                                   timeout=self._timeout)
        try:
            while batch := it.next():
                yield from batch
        finally:
            it.close()

    def ping(self) -> None:
        """Raise StoreUnavailable if the collection cannot serve queries."""

        def run(client: MilvusClient) -> None:
            if not client.has_collection(self.collection, timeout=self._timeout):
                self._ready = False  # recreate it on the next call
                raise StoreUnavailable("milvus", f"collection {self.collection!r} is missing")

        self._call("ping", run)

    def close(self) -> None:
        """Close the client; for Lite, stop the local server when no index uses it."""
        with self._lock:
            client, self._client, self._ready = self._client, None, False
            if client is None:
                return
            try:
                if self._local and self._unflushed:
                    self._flush(client)
                client.close()
            except Exception as exc:
                if not _is_driver_error(exc):
                    raise
                logger.warning("error closing milvus client", exc_info=True)
            if self._local:
                _release_local(self.uri)


def search_text(chunk: Chunk) -> str:
    """What BM25 reads of a chunk: its title and section name its subject, often the words a question uses."""
    head = " — ".join(part for part in (chunk.title, chunk.section) if part)
    return f"{head}\n{chunk.text}" if head else chunk.text


class _StagedRows:
    """The three steps of ``MilvusIndex.stage_documents`` (``StagedWrite``)."""

    def __init__(self, index: MilvusIndex, doc_ids: list[str], rows: list[dict[str, Any]]) -> None:
        self._index = index
        self._doc_ids = doc_ids
        self._rows = rows
        self._new_ids = [r["id"] for r in rows]
        self._old_ids: set[str] = set()
        self._fresh_ids: list[str] = []
        self.chunks = len(rows)

    def write(self) -> None:
        """Add the rows whose content-hashed id is not stored yet (an unchanged chunk keeps its row)."""
        if not self._doc_ids:
            return
        index = self._index

        def run(client: MilvusClient) -> None:
            self._old_ids = index._ids(client, docs_filter(self._doc_ids))
            fresh = [r for r in self._rows if r["id"] not in self._old_ids]
            self._fresh_ids = [r["id"] for r in fresh]  # before writing: abort removes whatever got in
            if not index._location:
                fresh = [{k: v for k, v in r.items() if k not in LOCATION_FIELDS} for r in fresh]
            for start in range(0, len(fresh), UPSERT_BATCH):
                client.upsert(index.collection, fresh[start : start + UPSERT_BATCH], timeout=index._timeout)
            index._wrote(client, len(fresh))

        index._call("replace_documents", run)

    def commit(self) -> None:
        """Delete the documents' rows that are not part of this write."""
        if not self._doc_ids or not self._old_ids - set(self._new_ids):
            return
        index = self._index
        # A filter (not the stale ids) also catches rows a concurrent writer added.
        docs_expr = docs_filter(self._doc_ids)
        keep = ids_filter(self._new_ids, negate=True) if self._new_ids else None
        stale = and_filters(docs_expr, keep) or docs_expr

        def run(client: MilvusClient) -> None:
            client.delete(index.collection, filter=stale, timeout=index._timeout)
            index._wrote(client, len(self._old_ids - set(self._new_ids)))

        index._call("replace_documents", run)

    def abort(self) -> None:
        """Delete the rows ``write`` added (or may have added): the documents are back to their old rows."""
        if not self._fresh_ids:
            return
        index = self._index
        ids = self._fresh_ids
        index._call("abort_write", lambda c: c.delete(index.collection, filter=ids_filter(ids), timeout=index._timeout))
        self._fresh_ids = []


def _release_local(path: str) -> None:
    with _local_lock:
        users = _local_users.get(path, 0) - 1
        if users > 0:
            _local_users[path] = users
            return
        _local_users.pop(path, None)
    from milvus_lite.server_manager import server_manager_instance

    server_manager_instance.release_server(path)


__all__ = ["MilvusIndex", "SchemaMismatchError"]

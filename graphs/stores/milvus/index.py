"""Milvus (server or Lite file) implementation of the ``VectorIndex`` protocol."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from pymilvus import MilvusClient, MilvusException

from graphs.domain import Chunk, Hit
from graphs.stores import fusion as fuse
from graphs.stores.base import DocumentChunks, FusionMethod, StagedWrite, StoreError, StoreUnavailable
from graphs.stores.bm25 import DEFAULT_B, DEFAULT_K1, Analyzer, UnsupportedAnalyzer
from graphs.stores.filters import Filter, doc_filter, ids_filter
from graphs.stores.milvus.expressions import render, render_optional
from graphs.stores.milvus.mirror import MIRROR_FIELDS, SearchMirror
from graphs.stores.milvus.rows import (
    Channel,
    batch_rows,
    bm25_scores,
    strip_hash,
    to_chunk,
    to_hit,
    unit_vector,
)
from graphs.stores.milvus.schema import (
    DEFAULT_ANALYZER,
    DENSE_INDEXES,
    DENSE_METRIC,
    LOCATION_FIELDS,
    MAX_TOPK,
    OUTPUT_FIELDS,
    SchemaMismatchError,
    build_schema,
    check_fields,
    ensure_indexes,
)
from graphs.stores.milvus.staging import StagedRows
from graphs.vectors import (
    LEGACY_EMBEDDER,
    PROPERTY,
    EmbedderFingerprint,
    EmbedderMismatch,
    parse_fingerprint,
    score_scale,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Lite searches and filters its in-memory table row by row in Python (O(n) per call, ~70 us/row),
# and only flushes it to indexed Parquet segments at 128 MB: flush it ourselves every this many rows.
# Lite also keeps BM25 statistics per segment (scores across segments are not comparable), so few large
# segments rank better than many small ones; the Ingestor flushes once more at the end of a load.
LITE_FLUSH_ROWS = 8192
WARM_UP_TEXT = "預熱 warm up 星河科技"  # Chinese (traditional too) and English: every tokenizer path
# pymilvus pings its channel every 10 s even with no call in flight (keepalive_permit_without_calls); the Lite
# server's gRPC keeps the default policy (no pings without calls), so after ~30 s idle it answers GOAWAY
# too_many_pings, which gRPC's C core logs as an error on stderr (the server's log). A Lite server is a child
# process on loopback: nothing between to keep alive, so no keepalive pings at all (INT_MAX: off).
LITE_GRPC_OPTIONS = {"grpc.keepalive_time_ms": 2**31 - 1, "grpc.keepalive_permit_without_calls": False}
_SERVER_SCHEMES = ("http://", "https://", "tcp://", "unix:")
_DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    MilvusException,
    ConnectionError,
    TimeoutError,
    OSError,
)
# grpc and milvus_lite (imported lazily by pymilvus for .db URIs) errors are matched by module.
_DRIVER_MODULES = frozenset({"pymilvus", "milvus_lite", "grpc"})
EXACT_INDEX_TYPES = frozenset({"FLAT", "BRUTE_FORCE"})
# A filtered search on an approximate dense index scores up to this many allowed rows exactly (see DENSE_INDEXES).
EXACT_MAX = 4096
MIRROR_BATCH = 512  # rows read from Milvus Lite per call when the search mirror catches up

# Lite keeps one in-process server per .db path; release it when the last index on it closes.
_local_users: dict[str, int] = {}
_local_lock = threading.Lock()


class _SharedMirror:
    """The search mirror of one Lite collection, shared by every index on it in this process."""

    def __init__(self, mirror: SearchMirror, directory: Path) -> None:
        self.mirror = mirror
        self.directory = directory
        self.users = 0
        self.verified = False  # checked against Lite's primary keys since it was loaded or last went wrong


_mirrors: dict[tuple[str, str], _SharedMirror] = {}


class _MirrorMiss(Exception):
    """The mirror named a row Milvus Lite does not hold (it is re-checked; the call is answered by Lite)."""


def _is_driver_error(exc: BaseException) -> bool:
    return isinstance(exc, _DRIVER_ERRORS) or type(exc).__module__.split(".")[0] in _DRIVER_MODULES


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
        dense_index: str = "FLAT",
        exact_max: int = EXACT_MAX,
        embedder: EmbedderFingerprint | None = None,
    ) -> None:
        """``embedder``: the fingerprint of the embedder whose vectors this index is given; a new collection
        records it, an existing one written by another embedder is refused (``EmbedderMismatch``). None: not
        checked (tests with fake vectors)."""
        if dim <= 0:
            raise ValueError("dim must be positive")
        if dense_index not in DENSE_INDEXES:
            raise ValueError(f"dense_index must be one of {sorted(DENSE_INDEXES)}, got {dense_index!r}")
        if not 0 <= exact_max <= MAX_TOPK:
            raise ValueError(f"exact_max must lie in [0, {MAX_TOPK}]")
        self._local = not uri.startswith(_SERVER_SCHEMES)
        if self._local and not uri.endswith(".db"):
            raise ValueError(f"a local Milvus Lite path must end with .db, got {uri!r}")
        self.uri = str(Path(uri).resolve()) if self._local else uri
        self.collection = collection
        self.dim = dim
        self.embedder = embedder
        self.stored_embedder: EmbedderFingerprint | None = None
        """The embedder the collection records (read when it opens)."""
        self._token = token or ""
        self._analyzer = analyzer or DEFAULT_ANALYZER
        self._timeout = timeout
        self._client: MilvusClient | None = None
        self._ready = False
        self._dense_metric = DENSE_METRIC  # replaced by the collection's own when it is opened
        self._location = True  # False for a collection created before chunk locations (source/section/page)
        self._output_fields = [*OUTPUT_FIELDS, *LOCATION_FIELDS]
        # The dense index a new collection gets (a Lite file: FLAT; its mirror searches it), and the one the
        # collection has, read when it opens.
        self._new_dense_index = "FLAT" if self._local else dense_index
        self._dense_index = self._new_dense_index
        self._exact_max = exact_max
        self._unflushed = 0
        self._lock = threading.Lock()
        self._shared: _SharedMirror | None = None  # Lite files only: see graphs/stores/milvus/mirror.py
        self.use_mirror = True
        """Answer a Lite file's searches from the in-process mirror (False: by Milvus Lite's own search, for
        measurements and differential tests; writes keep the mirror up to date either way)."""

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
                self._distrust()
                if not _is_driver_error(exc):
                    raise
                hint = (
                    f" (is another process using {self.uri}?)" if self._local and self._client is None else ""
                )
                logger.warning("milvus %s failed: %s%s", op, exc, hint)
                raise StoreUnavailable("milvus", f"{op} failed: {exc}{hint}") from exc
            except BaseException:
                self._distrust()  # cut short (a cancellation, a crash simulated in-process)
                raise

    def _distrust(self) -> None:
        """After a call that failed or was cut short: a write may have half happened, so the collection and
        the search mirror are checked again (against Lite's keys) before the next call trusts them."""
        self._ready = False
        if self._shared is not None:
            self._shared.verified = False

    def _ensure(self) -> MilvusClient:
        if getattr(self, "_retired", False):
            raise StoreUnavailable("milvus", f"collection {self.collection!r} was closed for good (deleted)")
        if self._client is None:
            if self._local:
                Path(self.uri).parent.mkdir(parents=True, exist_ok=True)
            self._client = MilvusClient(uri=self.uri, token=self._token, timeout=self._timeout,
                                        **({"grpc_options": LITE_GRPC_OPTIONS} if self._local else {}))
            if self._local:
                with _local_lock:
                    _local_users[self.uri] = _local_users.get(self.uri, 0) + 1
        if not self._ready:
            self._ensure_collection(self._client)
            if self._local:
                self._open_mirror(self._client)
            self._ready = True
        return self._client

    def _ensure_collection(self, client: MilvusClient) -> None:
        name = self.collection
        if not client.has_collection(name, timeout=self._timeout):
            try:
                client.create_collection(
                    name, schema=build_schema(client, self.dim, self._analyzer), consistency_level="Strong", timeout=self._timeout
                )
                logger.info("created milvus collection %s (dim=%d)", name, self.dim)
            except MilvusException:
                if not client.has_collection(name, timeout=self._timeout):
                    raise  # a concurrent creator is fine; anything else is not
        desc = client.describe_collection(name, timeout=self._timeout)
        self._check_schema(desc)
        ensure_indexes(client, name, self._new_dense_index, self._timeout)
        [dense_index] = client.list_indexes(name, field_name="dense", timeout=self._timeout)
        info = client.describe_index(name, dense_index, timeout=self._timeout)
        self._dense_metric = str(info["metric_type"])
        self._dense_index = str(info.get("index_type") or "FLAT")
        client.load_collection(name, timeout=self._timeout)
        self._check_embedder(client, desc)

    def _check_schema(self, desc: dict[str, Any]) -> None:
        location = check_fields(desc, self.collection, self.dim, self.embedder)
        if not location and self._location:
            logger.warning(
                "collection %r was created before chunk locations: it keeps working, but its hits and citations "
                "name no file, page or section; ingest into a new AER_COLLECTION to have them", self.collection,
            )
        self._location = location
        self._output_fields = [*OUTPUT_FIELDS, *(LOCATION_FIELDS if location else ())]

    def _check_embedder(self, client: MilvusClient, desc: dict[str, Any]) -> None:
        """Refuse a collection written by another embedder; record ours on a collection that has none."""
        stored = parse_fingerprint((desc.get("properties") or {}).get(PROPERTY))
        if stored is None and self.dim == LEGACY_EMBEDDER.dimension and self._count(client, None) > 0:
            stored = LEGACY_EMBEDDER  # written before embedders were recorded: by the USE default of that time
        if stored is not None and self.embedder is not None and not stored.same_model(self.embedder):
            raise EmbedderMismatch(f"collection {self.collection!r}", stored, self.embedder)
        if stored is None and self.embedder is not None:
            stored = self.embedder
        if stored is not None and (desc.get("properties") or {}).get(PROPERTY) is None:
            client.alter_collection_properties(
                self.collection, properties={PROPERTY: json.dumps(stored.as_dict())}, timeout=self._timeout
            )
        self.stored_embedder = stored

    # -- VectorIndex ----------------------------------------------------------------------

    def _search(
        self, op: str, query: Any, field: Literal["dense", "sparse"], filter: Filter | None, limit: int
    ) -> list[Any]:
        """One search of one vector field (dense vector or BM25 text), translated errors included: from the
        search mirror for a Lite file, else by Milvus. Raw hits are Milvus's ``{id, distance, entity}``."""

        def run(client: MilvusClient) -> list[Any]:
            found = self._mirror_search(client, query, field, filter, limit)
            return found if found is not None else self._milvus_search(client, query, field, render_optional(filter), limit)

        return self._call(op, run)

    def _milvus_search(
        self, client: MilvusClient, query: Any, field: Literal["dense", "sparse"], filter: str, limit: int
    ) -> list[Any]:
        """The search by Milvus itself (``filter``: an expression, "" for none); the dense metric and index are the collection's own, read when it
        opened. Under a filter, an approximate dense index is kept from dropping allowed rows (see EXACT_MAX)."""
        limit = min(limit, MAX_TOPK)
        exact = field != "dense" or self._dense_index in EXACT_INDEX_TYPES
        allowed = 0
        if not exact and filter:
            allowed = self._count(client, filter)
            if allowed == 0:
                return []  # a confirmed zero, not an index miss
            if allowed <= self._exact_max:
                return self._exact_dense(client, query, filter, limit)
        search_params: dict[str, Any] = {"metric_type": self._dense_metric if field == "dense" else "BM25"}
        if not exact and self._dense_index == "HNSW":
            search_params["params"] = {"ef": max(64, limit)}
        elif not exact and self._dense_index.startswith("IVF"):
            search_params["params"] = {"nprobe": 32}
        raws: list[Any] = client.search(
            self.collection,
            data=[query],
            anns_field=field,
            filter=filter or "",
            limit=limit,
            output_fields=self._output_fields,
            search_params=search_params,
            timeout=self._timeout,
        )[0]
        if not exact and filter and len(raws) < min(limit, allowed):
            logger.info("%s index returned %d of %d allowed rows: scoring exactly", self._dense_index, len(raws),
                        min(limit, allowed))  # fmt: skip
            return self._exact_dense(client, query, filter, limit)
        return raws

    def _rows_by_id(self, client: MilvusClient, pks: Sequence[str], fields: list[str]) -> list[Any]:
        """``fields`` of the rows with these primary keys (ours escaped: pymilvus's ``get`` quotes ids unescaped,
        so an id holding a quote or an unusual character broke it)."""
        if not pks:
            return []
        return client.query(
            self.collection, filter=render(ids_filter(pks)), output_fields=fields, limit=len(pks), timeout=self._timeout
        )

    def _exact_dense(self, client: MilvusClient, query: Sequence[float], filter: str, limit: int) -> list[Any]:
        """Exact dense search of the rows ``filter`` allows: their vectors read from Milvus, scored here."""
        import numpy as np

        pks: list[str] = []
        vectors: list[Any] = []
        for row in self._scan_rows(client, filter, ["id", "dense"]):
            pks.append(str(row["id"]))
            vectors.append(row["dense"])
        if not pks:
            return []
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(pks), -1)
        q = np.asarray(query, dtype=np.float32)
        if self._dense_metric == "COSINE":
            norms = np.linalg.norm(matrix, axis=1)
            matrix = np.divide(matrix, norms[:, None], out=np.zeros_like(matrix), where=norms[:, None] > 0)
            q_norm = float(np.linalg.norm(q))
            q = q / q_norm if q_norm > 0 else q
        scores = matrix @ q
        order = np.argsort(-scores, kind="stable")[:limit]
        top = [pks[i] for i in order]
        rows = {str(r["id"]): r for r in self._rows_by_id(client, top, self._output_fields)}
        return [{"id": pks[i], "distance": float(scores[i]), "entity": rows[pks[i]]} for i in order if pks[i] in rows]

    # -- the search mirror (Lite files) ---------------------------------------------------------

    def _mirror(self) -> SearchMirror | None:
        """The checked mirror of this Lite collection (writes keep it in step), or None (a server, a collection
        whose analyzer it cannot reproduce, or a mirror being re-checked)."""
        shared = self._shared
        return shared.mirror if shared is not None and shared.verified else None

    def _reader(self) -> SearchMirror | None:
        """The mirror, when it answers searches and counts."""
        return self._mirror() if self.use_mirror else None

    def _mirror_settings(self, client: MilvusClient) -> tuple[Analyzer, float, float] | None:
        """The collection's own BM25 analyzer and parameters, or None when the mirror cannot reproduce them."""
        fields = {f["name"]: f for f in client.describe_collection(self.collection, timeout=self._timeout)["fields"]}
        raw = (fields["search_text"].get("params") or {}).get("analyzer_params")
        try:
            params = json.loads(raw) if isinstance(raw, str) else dict(raw or {})
            analyzer = Analyzer.from_params(params)
        except (ValueError, TypeError) as exc:  # UnsupportedAnalyzer is a ValueError
            level = logging.INFO if isinstance(exc, UnsupportedAnalyzer) else logging.WARNING
            logger.log(level, "searching %s through Milvus Lite: analyzer %s (%s)", self.collection, raw, exc)
            return None
        [sparse] = client.list_indexes(self.collection, field_name="sparse", timeout=self._timeout)
        info = client.describe_index(self.collection, sparse, timeout=self._timeout)
        return analyzer, float(info.get("bm25_k1", DEFAULT_K1)), float(info.get("bm25_b", DEFAULT_B))

    def _open_mirror(self, client: MilvusClient) -> None:
        key = (self.uri, self.collection)
        with _local_lock:
            shared = _mirrors.get(key)
        if shared is None:
            settings = self._mirror_settings(client)
            if settings is None:
                return
            directory = Path(self.uri).with_name(Path(self.uri).name + ".mirror") / self.collection
            recorded = self.stored_embedder or self.embedder
            loaded = SearchMirror.load(directory, self.dim, *settings, normalize=True,
                                       embedder=recorded.as_dict() if recorded else None)
            with _local_lock:
                shared = _mirrors.setdefault(key, _SharedMirror(loaded, directory))
        if self._shared is None:
            with _local_lock:
                shared.users += 1
            self._shared = shared
        if not shared.verified:
            self._sync_mirror(client, shared)

    def _sync_mirror(self, client: MilvusClient, shared: _SharedMirror) -> None:
        """Make the mirror hold exactly the rows Lite holds: drop the others, read the missing ones."""
        mirror = shared.mirror
        with mirror.lock:
            started = time.perf_counter()
            live = {str(pk) for pk in self._scan(client, "", "id")}
            stale = [pk for pk in mirror.pk_row if pk not in live]
            missing = [pk for pk in live if pk not in mirror.pk_row]
            mirror.kill(stale)
            for i in range(0, len(missing), MIRROR_BATCH):
                rows = self._rows_by_id(client, missing[i : i + MIRROR_BATCH], list(MIRROR_FIELDS))
                mirror.add([dict(r) for r in rows])
            if len(mirror.pk_row) != len(live):
                raise StoreUnavailable("milvus", f"{self.collection}: rows changed while the search mirror was read")
            if stale or missing:
                mirror.compact_if_needed()
                _save(mirror, shared.directory)
            shared.verified = True
            logger.info(
                "search mirror of %s: %d rows (%d read from Milvus Lite, %d dropped) in %.1f s",
                self.collection, len(live), len(missing), len(stale), time.perf_counter() - started,
            )  # fmt: skip

    def _mirror_search(
        self, client: MilvusClient, query: Any, field: Literal["dense", "sparse"], filter: Filter | None, limit: int
    ) -> list[Any] | None:
        """Exact top hits from the mirror with their fields read from Lite by primary key; None without one."""
        mirror = self._reader()
        if mirror is None:
            return None
        with mirror.lock:
            mask = mirror.filter_mask(filter, lambda node: self._ids(client, render(node)))
            limit = min(limit, MAX_TOPK)
            if field == "dense":
                top = mirror.dense_search(query, mask, limit)
            else:
                top = mirror.bm25_search(query, mask, limit)
            pks = [pk for pk, _ in top]
            rows = self._rows_by_id(client, pks, self._output_fields)
        entities = {str(r["id"]): r for r in rows}
        if len(entities) < len(pks):
            assert self._shared is not None
            self._shared.verified = False
            self._ready = False  # re-checked on the next call; this one is answered by Milvus Lite
            logger.warning("search mirror of %s named rows Milvus Lite lacks; re-checking it", self.collection)
            return None
        return [{"id": pk, "distance": score, "entity": entities[pk]} for pk, score in top]

    def _save_mirror(self) -> None:
        shared = self._shared
        if shared is not None and shared.verified:
            with shared.mirror.lock:
                shared.mirror.compact_if_needed()
                _save(shared.mirror, shared.directory)

    def search_dense(self, vector: Sequence[float], *, filter: Filter | None, limit: int) -> list[Hit]:
        """Exact cosine search (inner product of unit vectors), optionally under a filter."""
        if limit <= 0:
            return []
        query = unit_vector(vector, self.dim)
        raws = self._search("search_dense", query, "dense", filter, limit)
        channel: Channel = "structured" if filter is not None else "semantic"
        hits = []
        scale = score_scale((self.stored_embedder or self.embedder or LEGACY_EMBEDDER).name)
        # A placeholder (a zero vector: its own is still being computed, graphs.ingest.vector_fill) is never a match.
        # The search mirror skips them; a hit of Milvus's own search scoring exactly 0 is checked on its stored
        # vector, so a real chunk orthogonal to the question stays.
        zero = [str(r["id"]) for r in raws if float(r["distance"]) == 0.0] if any(query) else []
        placeholders = self._placeholders(zero) if zero else set()
        for r in raws:
            if str(r["id"]) in placeholders:
                continue
            s = max(-1.0, min(1.0, scale.map(float(r["distance"]))))  # on USE's scale: see ScoreScale
            hits.append(to_hit(r, channel, s, dense=s))
        return hits

    def warm_up(self) -> None:
        """Load Milvus's own BM25 analyzer now, with one BM25 search by Milvus itself (the mirror answers the
        questions, so nothing else would): its tokenizer loads on first use, and the first write after a start
        waited for it (~5 s at load 15 on 2 cores, 0.3 s once loaded), so the first upload was slow to answer."""
        self._call("warm_up", lambda client: self._milvus_search(client, WARM_UP_TEXT, "sparse", "", 1))

    def _placeholders(self, pks: Sequence[str]) -> set[str]:
        """Those of ``pks`` whose stored vector is a placeholder (all zeros)."""

        def run(client: MilvusClient) -> set[str]:
            return {str(r["id"]) for r in self._rows_by_id(client, pks, ["id", "dense"]) if not any(r["dense"])}

        return self._call("search_dense", run)

    def search_bm25(self, text: str, *, filter: Filter | None, limit: int, raw: bool = False) -> list[Hit]:
        """BM25 full-text search; scores scaled so the best hit is 1, or the raw BM25 magnitudes
        (``raw``: comparable across searches of the same text, e.g. a later search under a filter)."""
        if limit <= 0 or not text.strip():
            return []
        raws = self._search("search_bm25", text, "sparse", filter, limit)
        return [to_hit(r, "bm25", s, bm25=s) for r, s in zip(raws, bm25_scores(raws, raw), strict=True)]

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
        """Dense + BM25 searched separately and fused here (weighted RRF or weighted scores; given the
        ``question``, BM25 is no vote against a passage in its other language).

        Fusing client-side keeps both component scores on every hit and, in Milvus Lite, is faster than
        ``hybrid_search``; each channel fetches more than ``limit`` so fusion can promote lower-ranked hits.
        """
        if limit <= 0:
            return []
        if dense_weight is not None and not 0.0 <= dense_weight <= 1.0:
            raise ValueError("dense_weight must lie in [0, 1]")
        candidates = fuse.channel_candidates(limit, MAX_TOPK)
        dense = self.search_dense(vector, filter=filter, limit=candidates)
        bm25 = self.search_bm25(text, filter=filter, limit=candidates)
        return fuse.fuse(dense, bm25, limit, fusion, dense_weight, question)

    def describe_filter(self, filter: Filter) -> str:
        """The filter as Milvus runs it (its expression), for search records and traces."""
        return render(filter)

    def count(self, filter: Filter | None = None) -> int:
        """Count rows matching ``filter`` (all rows for None)."""

        def run(client: MilvusClient) -> int:
            mirror = self._reader()
            if mirror is None:
                return self._count(client, render_optional(filter))
            with mirror.lock:
                return mirror.count(mirror.filter_mask(filter, lambda node: self._ids(client, render(node))))

        return self._call("count", run)

    def _count(self, client: MilvusClient, filter: str | None) -> int:
        res = client.query(
            self.collection, filter=filter or "", output_fields=["count(*)"], timeout=self._timeout
        )
        return int(res[0]["count(*)"]) if res else 0

    def _ids(self, client: MilvusClient, filter: str) -> set[str]:
        return {str(v) for v in self._scan(client, filter, "id")}

    def _scan(self, client: MilvusClient, filter: str, field: str) -> Iterator[Any]:
        """Yield ``field`` of every row matching ``filter``."""
        yield from (row[field] for row in self._scan_rows(client, filter, [field]))

    def _scan_rows(self, client: MilvusClient, filter: str, fields: list[str]) -> Iterator[Any]:
        """Yield ``fields`` of every row matching ``filter``."""
        if self._local:
            # Lite has no result window cap, and its query_iterator logs errors (no AllocTimestamp).
            yield from client.query(self.collection, filter=filter, output_fields=fields, timeout=self._timeout)
            return
        rows = client.query(
            self.collection, filter=filter, output_fields=fields, limit=MAX_TOPK, timeout=self._timeout
        )
        if len(rows) < MAX_TOPK:
            yield from rows
            return
        it = client.query_iterator(
            self.collection, batch_size=1000, filter=filter, output_fields=fields, timeout=self._timeout
        )
        try:
            while batch := it.next():
                yield from batch
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
        return StagedRows(self, [doc_id for doc_id, _, _ in docs], batch_rows(docs, self.dim))

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
        """Persist pending writes now (call after a bulk ingest; Milvus Lite searches them faster) and the
        search mirror's new rows."""

        def run(client: MilvusClient) -> None:
            self._flush(client)
            self._save_mirror()

        self._call("flush", run)

    def delete_document(self, doc_id: str) -> int:
        """Remove every chunk of ``doc_id``; return how many were removed."""

        def run(client: MilvusClient) -> int:
            expr = render(doc_filter(doc_id))
            mirror = self._mirror()
            with mirror.lock if mirror is not None else contextlib.nullcontext():
                n = len(mirror.document_pks([doc_id])) if mirror is not None else self._count(client, expr)
                if n:
                    client.delete(self.collection, filter=expr, timeout=self._timeout)
                    self._wrote(client, n)
                    if mirror is not None:
                        mirror.kill(mirror.document_pks([doc_id]))
                return n

        return self._call("delete_document", run)

    def document_ids(self) -> set[str]:
        """Return the distinct ids of indexed documents."""

        def run(client: MilvusClient) -> set[str]:
            mirror = self._reader()
            return mirror.document_ids() if mirror is not None else {str(v) for v in self._scan(client, "", "doc_id")}

        return self._call("document_ids", run)

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        """Every chunk of ``doc_id`` in chunk order, with entity fields, date and location."""
        return self._chunks("document_chunks", render(doc_filter(doc_id)))

    def chunks_where(self, filter: Filter) -> list[Chunk]:
        """Every chunk ``filter`` matches, by document and chunk order (past the server's result window)."""
        return self._chunks("chunks_where", render(filter))

    def chunk_vectors(self, doc_id: str) -> dict[str, list[float]]:
        """The stored dense vector of each chunk of ``doc_id`` (chunk id → vector)."""

        def run(client: MilvusClient) -> dict[str, list[float]]:
            rows = client.query(self.collection, filter=render(doc_filter(doc_id)), output_fields=["id", "dense"],
                                **({} if self._local else {"limit": MAX_TOPK}), timeout=self._timeout)
            return {strip_hash(str(r["id"])): [float(x) for x in r["dense"]] for r in rows}

        return self._call("chunk_vectors", run)

    def _chunks(self, op: str, filter: str) -> list[Chunk]:
        fields = [f for f in self._output_fields if f != "id"] + ["id"]
        rows = self._call(op, lambda client: list(self._scan_rows(client, filter, fields)))
        return [to_chunk(row) for row in sorted(rows, key=lambda r: (str(r.get("doc_id")), int(r.get("chunk_index") or 0)))]

    def document_summaries(self) -> dict[str, tuple[str, int, int]]:
        """``doc_id -> (title, chunks, bytes of chunk text)`` of every indexed document (one scan)."""

        def run(client: MilvusClient) -> dict[str, tuple[str, int, int]]:
            out: dict[str, tuple[str, int, int]] = {}
            for row in self._scan_rows(client, "", ["doc_id", "title", "text"]):
                doc_id = str(row["doc_id"])
                title, n, size = out.get(doc_id, (str(row.get("title") or ""), 0, 0))
                out[doc_id] = (title, n + 1, size + len(str(row.get("text") or "").encode()))
            return out

        return self._call("document_summaries", run)

    def ping(self) -> None:
        """Raise StoreUnavailable if the collection cannot serve queries."""

        def run(client: MilvusClient) -> None:
            if not client.has_collection(self.collection, timeout=self._timeout):
                self._ready = False  # recreate it on the next call
                raise StoreUnavailable("milvus", f"collection {self.collection!r} is missing")

        self._call("ping", run)

    def retire(self) -> None:
        """Close for good: a call still in flight afterwards is a ``StoreUnavailable``, never a reopened Lite file
        (deleting a workspace must not leave a new one behind)."""
        with self._lock:
            self._retired = True
        self.close()

    def drop(self) -> None:
        """Drop this index's collection (deleting a workspace on a Milvus server); the next call recreates it."""

        def run(client: MilvusClient) -> None:
            client.drop_collection(self.collection, timeout=self._timeout)

        self._call("drop", run)
        self._ready = False

    def close(self) -> None:
        """Close the client; for Lite, stop the local server when no index uses it."""
        with self._lock:
            client, self._client, self._ready = self._client, None, False
            if client is None:
                return
            try:
                if self._local and self._unflushed:
                    self._flush(client)
                self._release_mirror()
                client.close()
            except Exception as exc:
                if not _is_driver_error(exc):
                    raise
                logger.warning("error closing milvus client", exc_info=True)
            if self._local:
                _release_local(self.uri)

    def _release_mirror(self) -> None:
        shared, self._shared = self._shared, None
        if shared is None:
            return
        with _local_lock:
            shared.users -= 1
            last = shared.users <= 0
            if last:
                _mirrors.pop((self.uri, self.collection), None)
        if last and shared.verified:
            with shared.mirror.lock:
                _save(shared.mirror, shared.directory)



def _save(mirror: SearchMirror, directory: Path) -> None:
    """Save the mirror's new rows; a failure (a full disk) only costs the next start a longer catch-up."""
    try:
        mirror.save(directory)
    except OSError as exc:
        logger.warning("could not save the search mirror in %s (%s); it is rebuilt from Milvus Lite on open",
                       directory, exc)  # fmt: skip


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

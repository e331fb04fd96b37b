"""An exact, in-process search mirror of a Milvus Lite collection (the embedded default's read path).

Why: Milvus Lite 3.x is pure Python. Every search builds its row masks in Python loops over all rows
(deduplication by primary key and tombstones, about 40-80 ms at 100k rows), its FLAT search copies the whole
vector matrix before scoring it (``vectors[valid_indices]``: 200 MB at 100k rows), and its BM25 scores every
posting in a Python loop (0.2-0.4 s a search at 100k rows). No index choice removes the masks, so at 100k rows
every route of the service took about a second (README, "Evaluation and benchmarks").

What: a Lite file is held by one process (Lite locks it), and that process writes only through
``MilvusIndex``, so the index can keep, next to Lite, what its searches need — the primary keys, the scalar
fields that filters read, the unit dense vectors and BM25 postings — and answer searches with a few numpy
operations: exact inner product over the rows a filter allows, BM25 with collection-wide statistics
(``graphs.stores.bm25``), filters evaluated from their tree (``graphs.stores.filters``; a tree on fields the
mirror does not hold is rendered and run by Milvus). Milvus Lite stays the store of record: rows are written
there first, hits' titles and texts are read from it by primary key, and on open the mirror is checked against
the primary keys Lite holds (missing rows are read from Lite, extra ones dropped).

Persistence: the vectors and postings are saved next to the Lite file (``<name>.db.mirror/``) in Arrow IPC
files, one appended per flush, so a restart does not re-read 100k vectors through gRPC or re-tokenize every
passage. The files are only a cache: a primary key carries its content hash, so a saved row is either exactly
the stored row or absent from Lite (and dropped).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphs.stores.bm25 import DEFAULT_B, DEFAULT_K1, Analyzer, BM25Postings, Growable, gather_rows
from graphs.stores.filters import (
    DATE_FIELD,
    DELIMITER,
    ENTITY_FIELDS,
    And,
    Compare,
    Filter,
    InList,
    Like,
    Not,
    Or,
)

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
INT_FIELDS = ("chunk_index", DATE_FIELD)
TOKEN_FIELDS = tuple(ENTITY_FIELDS.values())
# Columns a mirror row is built from (besides the primary key "id" and "dense").
SCALAR_FIELDS = ("doc_id", *INT_FIELDS, *TOKEN_FIELDS)
MIRROR_FIELDS = ("id", *SCALAR_FIELDS, "search_text", "dense")
MAX_FILES = 32  # saved files beyond this are merged into one
COMPACT_DEAD_SHARE = 0.25  # rebuild the arrays when this share of rows is dead
# A filtered dense search scores only the allowed rows below this share, all rows (then masks) above it.
GATHER_SHARE = 0.3


class UnsupportedFilter(ValueError):
    """A filter the mirror cannot evaluate (a field it does not hold, a value of the wrong type): Milvus is asked."""


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


class SearchMirror:
    """Rows of one collection (primary key, filterable fields, unit vector, BM25 terms), searched exactly."""

    def __init__(
        self, dim: int, analyzer: Analyzer, k1: float = DEFAULT_K1, b: float = DEFAULT_B, normalize: bool = True
    ) -> None:
        self.dim = dim
        self.analyzer = analyzer
        self.normalize = normalize
        self.lock = threading.RLock()
        self.embedder: dict[str, Any] | None = None
        """The fingerprint of the embedder whose vectors these are (``EmbedderFingerprint.as_dict``), saved in the
        manifest: saved files of another embedder are never loaded (a mirror saved before it was recorded is)."""
        self._clear(k1, b)

    def _clear(self, k1: float, b: float) -> None:
        self.pks: list[str] = []
        self.doc_ids: list[str] = []
        self.pk_row: dict[str, int] = {}
        self.doc_rows: dict[str, list[int]] = {}
        self.raw: dict[str, list[str]] = {f: [] for f in TOKEN_FIELDS}
        self.tokens: dict[str, dict[str, list[int]]] = {f: {} for f in TOKEN_FIELDS}
        self.ints = {f: Growable(np.int64) for f in INT_FIELDS}
        self.alive = Growable(np.bool_)
        self.dense = Growable(np.float32, self.dim)
        self.vectored = Growable(np.bool_)
        """Whether a row's stored vector is its own: a placeholder (all zeros, ``graphs.ingest.vector_fill``) is not,
        and dense search never returns it, whatever the query."""
        self.bm25 = BM25Postings(k1, b)
        self.saved_rows = 0  # rows [0, saved_rows) are in the files
        self.dead_saved = 0

    # -- contents ---------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return len(self.pks)

    @property
    def live(self) -> int:
        return len(self.pk_row)

    def add(self, rows: Sequence[dict[str, Any]], terms: Sequence[Counter[str] | dict[str, float]] | None = None) -> None:
        """Append rows (dicts with ``MIRROR_FIELDS``; ``terms`` instead of analyzing ``search_text``).
        A primary key already present is replaced."""
        if not rows:
            return
        with self.lock:
            self.kill([str(r["id"]) for r in rows if str(r["id"]) in self.pk_row])
            counts = list(terms) if terms is not None else [self.analyzer.term_counts(r["search_text"]) for r in rows]
            start = self.rows
            for i, r in enumerate(rows):
                row = start + i
                pk, doc = str(r["id"]), str(r["doc_id"])
                self.pks.append(pk)
                self.doc_ids.append(doc)
                self.pk_row[pk] = row
                self.doc_rows.setdefault(doc, []).append(row)
                for f in TOKEN_FIELDS:
                    value = str(r.get(f) or "")
                    self.raw[f].append(value)
                    for token in value.split(DELIMITER):
                        if token:
                            self.tokens[f].setdefault(token, []).append(row)
            for f in INT_FIELDS:
                self.ints[f].extend(np.asarray([int(r.get(f) or 0) for r in rows], dtype=np.int64))
            vectors = np.asarray([r["dense"] for r in rows], dtype=np.float32).reshape(len(rows), self.dim)
            self.dense.extend(_unit(vectors) if self.normalize else vectors)
            self.vectored.extend(np.any(vectors != 0, axis=1))
            self.alive.extend(np.ones(len(rows), dtype=np.bool_))
            self.bm25.add(counts)

    def kill(self, pks: Iterable[str]) -> int:
        """Remove rows by primary key; return how many were present."""
        with self.lock:
            rows = [self.pk_row.pop(pk) for pk in pks if pk in self.pk_row]
            alive = self.alive.view
            for r in rows:
                alive[r] = False
                doc_rows = self.doc_rows.get(self.doc_ids[r])
                if doc_rows is not None:
                    doc_rows.remove(r)
                    if not doc_rows:
                        del self.doc_rows[self.doc_ids[r]]
                if r < self.saved_rows:
                    self.dead_saved += 1
            self.bm25.kill(rows)
            return len(rows)

    def document_pks(self, doc_ids: Iterable[str]) -> set[str]:
        with self.lock:
            return {self.pks[r] for d in doc_ids for r in self.doc_rows.get(d, ())}

    def document_ids(self) -> set[str]:
        with self.lock:
            return set(self.doc_rows)

    def compact_if_needed(self) -> bool:
        """Rebuild the arrays without dead rows once they are a quarter of all rows."""
        with self.lock:
            dead = self.rows - self.live
            if dead < 1024 or dead < COMPACT_DEAD_SHARE * self.rows:
                return False
            self._compact()
            return True

    def _compact(self) -> None:
        keep = np.flatnonzero(self.alive.view)
        pks, docs = [self.pks[r] for r in keep], [self.doc_ids[r] for r in keep]
        raw = {f: [self.raw[f][r] for r in keep] for f in TOKEN_FIELDS}
        ints = {f: self.ints[f].view[keep] for f in INT_FIELDS}
        dense = self.dense.view[keep]
        bm25 = self.bm25.compacted(keep)
        self._clear(bm25.k1, bm25.b)
        self._load_columns(pks, docs, raw, ints, dense, bm25)

    def _load_columns(
        self, pks: list[str], docs: list[str], raw: dict[str, list[str]], ints: dict[str, np.ndarray],
        dense: np.ndarray, bm25: BM25Postings,
    ) -> None:
        """Replace the contents with these columns (every row live, already unit vectors)."""
        self.pks, self.doc_ids, self.raw, self.bm25 = pks, docs, raw, bm25
        self.pk_row = {pk: r for r, pk in enumerate(pks)}
        self.doc_rows = {}
        for r, d in enumerate(docs):
            self.doc_rows.setdefault(d, []).append(r)
        self.tokens = {f: {} for f in TOKEN_FIELDS}
        for f in TOKEN_FIELDS:
            index = self.tokens[f]
            for r, value in enumerate(raw[f]):
                if value:
                    for token in value.split(DELIMITER):
                        if token:
                            index.setdefault(token, []).append(r)
        for f in INT_FIELDS:
            self.ints[f].replace(ints[f])
        self.dense.adopt(dense)
        self.vectored.replace(np.any(dense != 0, axis=1))
        self.alive.replace(np.ones(len(pks), dtype=np.bool_))
        self.saved_rows = 0
        self.dead_saved = 0

    # -- filters ----------------------------------------------------------------------------

    def mask(self, node: Filter) -> np.ndarray:
        """Rows matching a filter (dead rows included: callers AND with ``alive``)."""
        n = self.rows
        if isinstance(node, And):
            out = self.mask(node.operands[0]).copy()
            for o in node.operands[1:]:
                out &= self.mask(o)
            return out
        if isinstance(node, Or):
            out = self.mask(node.operands[0]).copy()
            for o in node.operands[1:]:
                out |= self.mask(o)
            return out
        if isinstance(node, Not):
            return ~self.mask(node.operand)
        field = node.field
        if field in INT_FIELDS:
            return self._int_mask(node, self.ints[field].view)
        if field in ("id", "doc_id", *TOKEN_FIELDS):
            return self._str_mask(node, field, n)
        raise UnsupportedFilter(f"field {field!r} is not mirrored")

    @staticmethod
    def _int_mask(node: Filter, column: np.ndarray) -> np.ndarray:
        if isinstance(node, InList):
            if not all(isinstance(v, int) for v in node.values):
                raise UnsupportedFilter("a string in an integer list")
            hit = np.isin(column, np.asarray(node.values, dtype=np.int64))
            return ~hit if node.negate else hit
        if isinstance(node, Compare) and isinstance(node.value, int):
            ops: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
                "==": np.equal, "!=": np.not_equal, ">=": np.greater_equal,
                "<=": np.less_equal, ">": np.greater, "<": np.less,
            }  # fmt: skip
            return np.asarray(ops[node.op](column, node.value))
        raise UnsupportedFilter(f"{node} on an integer field")

    def _strings(self, field: str) -> list[str]:
        return self.pks if field == "id" else self.doc_ids if field == "doc_id" else self.raw[field]

    def _rows_mask(self, rows: Iterable[int], n: int) -> np.ndarray:
        out = np.zeros(n, dtype=np.bool_)
        idx = np.fromiter(rows, dtype=np.int64)
        out[idx] = True
        return out

    def _equal_rows(self, field: str, value: str) -> list[int]:
        if field == "id":
            row = self.pk_row.get(value)
            return [] if row is None else [row]
        if field == "doc_id":
            return self.doc_rows.get(value, [])
        column = self.raw[field]
        return [r for r, v in enumerate(column) if v == value]

    def _str_mask(self, node: Filter, field: str, n: int) -> np.ndarray:
        if isinstance(node, InList):
            if not all(isinstance(v, str) for v in node.values):
                raise UnsupportedFilter("an integer in a string list")
            rows = [r for v in dict.fromkeys(node.values) for r in self._equal_rows(field, str(v))]
            hit = self._rows_mask(rows, n)
            return ~hit if node.negate else hit
        if isinstance(node, Compare) and isinstance(node.value, str) and node.op in ("==", "!="):
            hit = self._rows_mask(self._equal_rows(field, node.value), n)
            return hit if node.op == "==" else ~hit
        if isinstance(node, Like):
            lit = node.literal
            if node.kind == "equals":
                return self._rows_mask(self._equal_rows(field, lit), n)
            if (
                node.kind == "contains" and field in TOKEN_FIELDS and len(lit) > 2
                and lit[0] == DELIMITER and lit[-1] == DELIMITER and DELIMITER not in lit[1:-1]
            ):  # fmt: skip
                return self._rows_mask(self.tokens[field].get(lit[1:-1], ()), n)
            column = self._strings(field)
            test: Callable[[str], bool] = {
                "contains": lambda v: lit in v, "prefix": lambda v: v.startswith(lit),
                "suffix": lambda v: v.endswith(lit),
            }[node.kind]  # fmt: skip
            return self._rows_mask((r for r, v in enumerate(column) if test(v)), n)
        raise UnsupportedFilter(f"{node} on a string field")

    def filter_mask(self, node: Filter | None, fallback: Callable[[Filter], Iterable[str]]) -> np.ndarray | None:
        """Live rows matching ``node`` (None: every live row). A filter this mirror cannot evaluate is sent to
        ``fallback``, which returns the primary keys Milvus finds for it."""
        if node is None:
            return None
        try:
            out = self.mask(node)
        except UnsupportedFilter as exc:
            logger.debug("filter evaluated by Milvus (%s): %s", exc, node)
            out = self._rows_mask((self.pk_row[pk] for pk in fallback(node) if pk in self.pk_row), self.rows)
        return out & self.alive.view

    # -- searches ---------------------------------------------------------------------------

    def count(self, mask: np.ndarray | None) -> int:
        return self.live if mask is None else int(np.count_nonzero(mask))

    def dense_search(self, vector: Sequence[float], mask: np.ndarray | None, limit: int) -> list[tuple[str, float]]:
        """Exact top ``limit`` (primary key, inner product) among the rows ``mask`` allows."""
        q = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        if self.normalize:
            q = q / norm if norm > 0 else q
        matrix = self.dense.view
        # placeholders wait for their vectors (a zero question, which means nothing, scores every row 0 as before)
        searchable = self.alive.view & self.vectored.view if norm > 0 else self.alive.view
        if mask is None:
            rows = None
            scores = matrix @ q
            scores[~searchable] = -np.inf
        else:
            rows = np.flatnonzero(mask & self.vectored.view[: len(mask)] if norm > 0 else mask)
            if len(rows) <= GATHER_SHARE * len(matrix):
                scores = matrix[rows] @ q
            else:
                scores = matrix @ q
                scores = scores[rows]
        valid = len(scores) if rows is not None else int(np.count_nonzero(searchable))
        return self._top(rows, scores, min(limit, valid))

    def bm25_search(self, text: str, mask: np.ndarray | None, limit: int) -> list[tuple[str, float]]:
        """Top ``limit`` (primary key, BM25 score) among the rows ``mask`` allows that hold a query term."""
        rows, scores = self.bm25.scores(self.analyzer.term_counts(text), mask)
        return self._top(rows, scores, min(limit, len(rows)))

    def _top(self, rows: np.ndarray | None, scores: np.ndarray, k: int) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        # Best first; equal scores in row (insertion) order, as Milvus Lite orders equal distances, also
        # at the cut: of the rows tied with the k-th best score, the earliest ones are kept.
        part = np.arange(len(scores))
        if k < len(scores):
            kth = np.partition(-scores, k - 1)[k - 1]
            better = np.flatnonzero(-scores < kth)
            part = np.concatenate([better, np.flatnonzero(-scores == kth)[: k - len(better)]])
        ids = part if rows is None else rows[part]
        order = np.lexsort((ids, -scores[part]))
        return [(self.pks[int(ids[i])], float(scores[part][i])) for i in order]

    # -- persistence -----------------------------------------------------------------------

    def fingerprint(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "dim": self.dim,
            "normalize": self.normalize,
            "stop_words": sorted(self.analyzer.stop_words),
            "bm25": [self.bm25.k1, self.bm25.b],
        }

    def save(self, directory: Path) -> int:
        """Write the rows added since the last save as one more file (merge all when too many); the rows
        written."""
        import pyarrow as pa
        import pyarrow.ipc as ipc

        with self.lock:
            manifest_path = directory / "manifest.json"
            manifest = _read_manifest(manifest_path)
            if manifest is None or manifest.get("fingerprint") != self.fingerprint() or not _same_embedder(
                manifest.get("embedder"), self.embedder
            ):
                manifest = {"fingerprint": self.fingerprint(), "files": []}
                self.saved_rows = 0
                self.dead_saved = 0
            if self.embedder is not None:
                manifest["embedder"] = self.embedder
            merge = len(manifest["files"]) >= MAX_FILES or self.dead_saved > COMPACT_DEAD_SHARE * max(self.saved_rows, 1)
            start = 0 if merge else self.saved_rows
            rows = [r for r in range(start, self.rows) if self.alive.view[r]]
            if not rows and not merge:
                return 0
            directory.mkdir(parents=True, exist_ok=True)
            idx = np.asarray(rows, dtype=np.int64)
            row_ptr, terms, tfs, vocab = self.bm25.export()
            offsets, take = gather_rows(row_ptr, idx)
            columns = {
                "id": pa.array([self.pks[r] for r in rows], type=pa.string()),
                "doc_id": pa.array([self.doc_ids[r] for r in rows], type=pa.string()),
                **{f: pa.array(self.ints[f].view[idx], type=pa.int64()) for f in INT_FIELDS},
                **{f: pa.array([self.raw[f][r] for r in rows], type=pa.string()) for f in TOKEN_FIELDS},
                # Term ids index the vocabulary in the file's metadata.
                "term_ids": pa.ListArray.from_arrays(
                    pa.array(offsets.astype(np.int32)), pa.array(terms[take], type=pa.int32())
                ),
                "tfs": pa.ListArray.from_arrays(
                    pa.array(offsets.astype(np.int32)), pa.array(tfs[take], type=pa.float32())
                ),
                "dense": pa.FixedSizeListArray.from_arrays(
                    pa.array(self.dense.view[idx].reshape(-1), type=pa.float32()), self.dim
                ),
            }
            table = pa.table(columns).replace_schema_metadata({"vocab": json.dumps(vocab, ensure_ascii=False)})
            name = f"rows-{time.time_ns()}.arrow"
            tmp = directory / f".{name}.tmp"
            with pa.OSFile(str(tmp), "wb") as sink, ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
            os.replace(tmp, directory / name)
            old = list(manifest["files"]) if merge else []
            manifest["files"] = [name] if merge else [*manifest["files"], name]
            _write_manifest(manifest_path, manifest)
            for stale in old:
                (directory / stale).unlink(missing_ok=True)
            self.saved_rows = self.rows
            if merge:
                self.dead_saved = 0
            return len(rows)

    @classmethod
    def load(
        cls, directory: Path, dim: int, analyzer: Analyzer, k1: float, b: float, normalize: bool,
        embedder: dict[str, Any] | None = None,
    ) -> SearchMirror:
        """The rows saved in ``directory`` (empty when there is nothing compatible, or saved by another
        embedder), each primary key once."""
        import pyarrow as pa
        import pyarrow.ipc as ipc

        mirror = cls(dim, analyzer, k1, b, normalize)
        mirror.embedder = embedder
        manifest = _read_manifest(directory / "manifest.json")
        if manifest is None or manifest.get("fingerprint") != mirror.fingerprint():
            return mirror
        if not _same_embedder(manifest.get("embedder"), embedder):
            logger.warning("search mirror in %s was saved by the embedder %s, not %s: read again from Milvus",
                           directory, manifest.get("embedder"), embedder)  # fmt: skip
            return mirror
        # Two passes over memory-mapped files: the keys first (a key saved twice: its later row), then
        # the kept rows copied once into the mirror's own arrays; nothing is concatenated whole.
        tables: list[Any] = []
        for name in manifest["files"]:
            try:
                with pa.memory_map(str(directory / name), "r") as source:
                    table = ipc.open_file(source).read_all()
                json.loads((table.schema.metadata or {})[b"vocab"])
                tables.append(table)
            except (OSError, KeyError, ValueError, pa.ArrowInvalid) as exc:
                logger.warning("search mirror file %s unreadable (%s); its rows will be read from Milvus", name, exc)
        if not tables:
            return mirror
        ids = [t.column("id").to_pylist() for t in tables]
        last = {pk: (f, r) for f, file_ids in enumerate(ids) for r, pk in enumerate(file_ids)}
        keep: list[list[int]] = [[] for _ in tables]
        for f, r in last.values():
            keep[f].append(r)
        n = len(last)
        # One file holding every kept row (the usual case: the files are merged when there are many): its
        # vectors are used where the file maps them, no copy; otherwise the kept rows are copied once.
        whole = len(tables) == 1 and len(keep[0]) == tables[0].num_rows
        dense: np.ndarray | None = None if whole else np.empty((n, dim), dtype=np.float32)
        ints = {f: np.empty(n, dtype=np.int64) for f in INT_FIELDS}
        pks: list[str] = []
        docs: list[str] = []
        raw: dict[str, list[str]] = {f: [] for f in TOKEN_FIELDS}
        vocab: dict[str, int] = {}
        lens: list[np.ndarray] = []
        term_parts: list[np.ndarray] = []
        tf_parts: list[np.ndarray] = []
        at = 0
        for f, table in enumerate(tables):
            rows = np.asarray(sorted(keep[f]), dtype=np.int64)
            if not len(rows):
                continue
            every = len(rows) == table.num_rows
            end = at + len(rows)
            local = json.loads(table.schema.metadata[b"vocab"])
            to_global = np.fromiter((vocab.setdefault(t, len(vocab)) for t in local), dtype=np.int32, count=len(local))
            term_col = _one_chunk(table.column("term_ids"))
            offsets = np.asarray(term_col.offsets, dtype=np.int64)
            term_values = term_col.values.to_numpy()[offsets[0] : offsets[-1]]
            tf_col = _one_chunk(table.column("tfs"))
            tf_offsets = np.asarray(tf_col.offsets, dtype=np.int64)
            tf_values = tf_col.values.to_numpy()[tf_offsets[0] : tf_offsets[-1]]
            if every:
                lens.append(np.diff(offsets))
                term_parts.append(to_global[term_values])
                tf_parts.append(tf_values)
            else:
                row_ptr, take = gather_rows(offsets - offsets[0], rows)
                lens.append(np.diff(row_ptr))
                term_parts.append(to_global[term_values[take]])
                tf_parts.append(tf_values[take])
            values = _one_chunk(table.column("dense")).values.to_numpy(zero_copy_only=False).reshape(-1, dim)
            if dense is None:
                dense = values
            else:
                np.take(values, rows, axis=0, out=dense[at:end])
            del values
            for field in INT_FIELDS:
                ints[field][at:end] = table.column(field).to_numpy()[rows]
            chosen = rows.tolist()
            pks.extend(ids[f][r] for r in chosen)
            for field, out in (("doc_id", docs), *((t, raw[t]) for t in TOKEN_FIELDS)):
                column = table.column(field).to_pylist()
                out.extend(column if every else [column[r] for r in chosen])
            at = end
        del tables
        row_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.concatenate(lens), out=row_ptr[1:])
        bm25 = BM25Postings.from_arrays(row_ptr, np.concatenate(term_parts), np.concatenate(tf_parts), list(vocab), k1, b)
        del term_parts, tf_parts
        assert dense is not None
        mirror._load_columns(pks, docs, raw, ints, dense, bm25)
        pa.default_memory_pool().release_unused()
        mirror.saved_rows = mirror.rows
        return mirror


def _one_chunk(column: Any) -> Any:
    """A column as one array: its only chunk as it is (``combine_chunks`` copies even one chunk)."""
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def saved_embedder(directory: Path) -> dict[str, Any] | None:
    """The embedder a saved mirror records (None: no saved mirror, or one saved before embedders were recorded)."""
    manifest = _read_manifest(directory / "manifest.json")
    embedder = manifest.get("embedder") if manifest else None
    return embedder if isinstance(embedder, dict) else None


def _same_embedder(saved: Any, current: dict[str, Any] | None) -> bool:
    """Saved and current name the same model (either unknown: no objection; the index checks the collection)."""
    if not isinstance(saved, dict) or current is None:
        return True
    return saved.get("name") == current.get("name") and saved.get("dimension") == current.get("dimension")


def _read_manifest(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("files"), list) else None


def _write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)

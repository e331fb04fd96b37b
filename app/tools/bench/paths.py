"""The bench's search-path comparison: each kind of search the routes make, timed through the search mirror
and through Milvus Lite's own search on the same data in the same run (so load on a shared machine moves both),
the results of both compared, and optionally an HNSW index measured against exact search. Also BM25 recall
after incremental writes against one bulk write (``python -m app.tools.bench.paths --docs 2000 --per-call 16``).

A filter comes from the bench's own structured questions (person and city of a tagged document); the
question texts are the BM25 queries; the query vectors are the questions' embeddings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.tools.bench.corpus import SyntheticCorpus, generate_corpus
from graphs.domain import Constraint
from graphs.stores.filters import Filter, build_filter
from graphs.stores.milvus import MilvusIndex

LIMIT = 20  # what the graph's searches ask for (candidate_k)
BM25_LIMIT = 2 * LIMIT  # a hybrid search's BM25 side fetches more, to fuse


def search_filters(corpus: SyntheticCorpus, n: int) -> list[Filter]:
    """``n`` filters of the structured route: a tagged document's first person, and its city."""
    by_name = {e.standard_name: e for e in corpus.entities}
    alias = {a: e for e in corpus.entities for a in e.aliases}
    out: list[Filter] = []
    for doc in corpus.documents:
        meta = doc.metadata.get("entities")
        if not isinstance(meta, dict):
            continue
        person = by_name.get(meta["PERSON"][0]) or alias[meta["PERSON"][0]]
        place = by_name[meta["LOCATION"][0]]
        expr = build_filter([
            Constraint(type="PERSON", value=person.standard_name),
            Constraint(type="LOCATION", value=place.hierarchy[1]),  # the city
        ])  # fmt: skip
        if expr is not None:
            out.append(expr)
        if len(out) == n:
            break
    return out


def compare_paths(
    index: MilvusIndex, vectors: Sequence[Sequence[float]], texts: Sequence[str], filters: Sequence[Filter]
) -> dict[str, Any]:
    """Per kind of search, the median ms through the mirror and through Milvus Lite, and whether they agree."""
    kinds: dict[str, Callable[[int], Any]] = {
        "dense": lambda i: index.search_dense(vectors[i % len(vectors)], filter=None, limit=LIMIT),
        "dense + filter": lambda i: index.search_dense(
            vectors[i % len(vectors)], filter=filters[i % len(filters)], limit=LIMIT
        ),
        "bm25": lambda i: index.search_bm25(texts[i % len(texts)], filter=None, limit=BM25_LIMIT),
        "count + filter": lambda i: index.count(filters[i % len(filters)]),
    }
    n = max(len(vectors), len(texts), len(filters))
    out: dict[str, Any] = {}
    saved = index.use_mirror
    try:
        for kind, call in kinds.items():
            row: dict[str, Any] = {}
            results: dict[bool, list[Any]] = {}
            for mirror in (True, False):
                index.use_mirror = mirror
                call(0)  # warm: Lite builds its BM25 postings on the first BM25 search
                times = []
                results[mirror] = []
                for i in range(n):
                    started = time.perf_counter()
                    results[mirror].append(call(i))
                    times.append((time.perf_counter() - started) * 1000)
                row["mirror_ms" if mirror else "lite_ms"] = {
                    "p50": round(float(np.percentile(times, 50)), 2), "p95": round(float(np.percentile(times, 95)), 2),
                }  # fmt: skip
            row["speedup_p50"] = round(row["lite_ms"]["p50"] / max(row["mirror_ms"]["p50"], 1e-3), 1)
            row["same_results"] = sum(_same(a, b) for a, b in zip(results[True], results[False], strict=True))
            if kind != "count + filter":  # how much of Lite's top list the mirror's holds
                row["overlap"] = round(float(np.mean([
                    len({h.id for h in a} & {h.id for h in b}) / len(b) if b else float(not a)
                    for a, b in zip(results[True], results[False], strict=True)
                ])), 4)  # fmt: skip
            row["searches"] = n
            out[kind] = row
    finally:
        index.use_mirror = saved
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int):
        return a == b
    return [h.id for h in a] == [h.id for h in b] and np.allclose(
        [h.score for h in a], [h.score for h in b], rtol=1e-4, atol=1e-5
    )


def measure_hnsw(
    index: MilvusIndex, queries: Sequence[Sequence[float]], k: int = 10, efs: Sequence[int] = (32, 64, 128, 256, 512)
) -> dict[str, Any]:
    """An HNSW index (FAISS, as Milvus Lite builds it: M 16, efConstruction 200) over the mirror's vectors:
    build time, recall@k against exact search per ``ef``, and the time of each search kind."""
    import faiss

    shared = index._shared
    if shared is None:
        return {"skipped": "no search mirror"}
    mirror = shared.mirror
    with mirror.lock:
        live = np.flatnonzero(mirror.alive.view)
        vectors = np.ascontiguousarray(mirror.dense.view[live], dtype=np.float32)
    q = np.asarray(queries, dtype=np.float32)
    q /= np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
    started = time.perf_counter()
    exact = np.stack([np.argsort(-(vectors @ row), kind="stable")[:k] for row in q])
    exact_ms = (time.perf_counter() - started) * 1000 / len(q)
    faiss.omp_set_num_threads(1)
    hnsw = faiss.IndexHNSWFlat(vectors.shape[1], 16, faiss.METRIC_INNER_PRODUCT)
    hnsw.hnsw.efConstruction = 200
    started = time.perf_counter()
    hnsw.add(vectors)
    build_s = time.perf_counter() - started
    out: dict[str, Any] = {
        "rows": len(vectors), "k": k, "queries": len(q), "build_s": round(build_s, 1),
        "exact_numpy_ms": round(exact_ms, 2), "by_ef": {},
    }  # fmt: skip
    for ef in efs:
        hnsw.hnsw.efSearch = ef
        started = time.perf_counter()
        _, found = hnsw.search(q, k)
        ms = (time.perf_counter() - started) * 1000 / len(q)
        hits = sum(len(set(f.tolist()) & set(e.tolist())) for f, e in zip(found, exact, strict=True))
        out["by_ef"][ef] = {"recall_at_k": round(hits / exact.size, 4), "ms": round(ms, 3)}
    return out


def incremental_bm25(work_dir: Path, docs: int = 2000, per_call: int = 16, k: int = 10) -> dict[str, Any]:
    """BM25 recall@k after writing ``docs`` bench documents ``per_call`` at a time (one flush per call, as API
    ingests of a few documents do: one Milvus Lite segment each) against one bulk write, for Milvus Lite's
    own BM25 (statistics per segment) and the search mirror's (statistics over the collection)."""
    from graphs.domain import Chunk

    corpus = generate_corpus(docs)
    rng = np.random.default_rng(0)
    rows = []
    for doc in corpus.documents:
        chunk = Chunk(id=f"{doc.id}#0", doc_id=doc.id, chunk_index=0, title=doc.title, text=doc.text)
        rows.append((doc.id, [chunk], [rng.standard_normal(8).tolist()]))
    indexes: dict[str, MilvusIndex] = {}
    try:
        for name, step in (("bulk", docs), ("incremental", per_call)):
            index = indexes[name] = MilvusIndex(str(work_dir / f"{name}.db"), "chunks", dim=8)
            for start in range(0, docs, step):
                index.replace_documents(rows[start : start + step])
                index.flush()
        questions = [q.text for q in corpus.questions] + [d.title for d in corpus.documents[:: max(docs // 64, 1)]]

        def top(index: MilvusIndex, mirror: bool, text: str) -> set[str]:
            index.use_mirror = mirror
            return {h.id for h in index.search_bm25(text, filter=None, limit=k)}

        out: dict[str, Any] = {"docs": docs, "per_call": per_call, "k": k, "questions": len(questions)}
        for label, mirror in (("milvus_lite", False), ("mirror", True)):
            overlaps = []
            for text in questions:
                truth = top(indexes["bulk"], False, text)
                got = top(indexes["incremental"], mirror, text)
                overlaps.append(len(truth & got) / len(truth) if truth else float(not got))
            out[f"{label}_recall_at_k"] = round(float(np.mean(overlaps)), 4)
            out[f"{label}_min"] = round(float(np.min(overlaps)), 4)
        return out
    finally:
        for index in indexes.values():
            index.close()


if __name__ == "__main__":
    import sys
    import tempfile

    args = sys.argv[1:]
    n = int(args[args.index("--docs") + 1]) if "--docs" in args else 2000
    step = int(args[args.index("--per-call") + 1]) if "--per-call" in args else 16
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(incremental_bm25(Path(tmp), n, step), indent=2))

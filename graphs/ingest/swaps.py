"""Readers see one version of a document: never the old and the new chunks of a replace at once.

A replace writes the new chunks beside the old ones, then the inventory and the graph, and deletes the old
chunks last (``indexer.DocumentIndexer._write_documents``): between the first and the last step a scan of the
document's chunks finds both versions (the probe read 10 chunks of a document the inventory said has 5, in
437 of 923 reads during rewrites). ``DocumentSwaps`` is a reader-writer lock per document id: a write holds
its documents from the first step to the last, a reader of one document (its inventory row and its chunks)
holds that one id while it reads, so a reader sees the old version until the swap and the new one after.
Writers go first: a reader waits while a write of its document is waiting, so a stream of reads never holds
a write back. Readers of other documents never wait.

It orders the threads of one process (the service: its jobs, uploads and API writes, and every read); a
second process writing the same Milvus standalone collection is outside it.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager


class DocumentSwaps:
    """A reader-writer lock per document id (writers preferred)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._writing: dict[str, tuple[int, int]] = {}
        """doc id -> (the writing thread, how many times it holds the id)."""
        self._waiting: Counter[str] = Counter()
        self._reading: Counter[str] = Counter()

    def _free(self, ids: set[str], me: int) -> bool:
        return all(self._writing.get(i, (me, 0))[0] == me and not self._reading[i] for i in ids)

    @contextmanager
    def writing(self, doc_ids: Iterable[str]) -> Iterator[None]:
        """Hold ``doc_ids`` for a write: no reader of them runs until it ends. A thread that holds them
        already may take them again (a failed write rolls back its documents while it holds them)."""
        ids = set(doc_ids)
        me = threading.get_ident()
        with self._cond:
            self._waiting.update(ids)
            try:
                self._cond.wait_for(lambda: self._free(ids, me))
            finally:
                self._waiting.subtract(ids)
            for i in ids:
                self._writing[i] = (me, self._writing.get(i, (me, 0))[1] + 1)
        try:
            yield
        finally:
            with self._cond:
                for i in ids:
                    owner, held = self._writing[i]
                    if held <= 1:
                        del self._writing[i]
                    else:
                        self._writing[i] = (owner, held - 1)
                self._cond.notify_all()

    @contextmanager
    def reading(self, doc_id: str) -> Iterator[None]:
        """Hold one document for a read: it waits out a write of it (running or waiting)."""
        with self._cond:
            self._cond.wait_for(lambda: doc_id not in self._writing and self._waiting[doc_id] <= 0)
            self._reading[doc_id] += 1
        try:
            yield
        finally:
            with self._cond:
                self._reading[doc_id] -= 1
                if self._reading[doc_id] <= 0:
                    del self._reading[doc_id]
                self._cond.notify_all()

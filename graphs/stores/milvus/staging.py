"""A staged replacement of documents' chunks (``StagedWrite``): new rows beside the old, then the old removed."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from pymilvus import MilvusClient

from graphs.stores.bm25 import shared_cuts
from graphs.stores.filters import and_filters, docs_filter, ids_filter
from graphs.stores.milvus.expressions import render
from graphs.stores.milvus.schema import LOCATION_FIELDS

if TYPE_CHECKING:
    from graphs.stores.milvus.index import MilvusIndex

UPSERT_BATCH = 256


class StagedRows:
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
            mirror = index._mirror()
            # Lite's BM25 function and the mirror each cut every passage: once, shared (``shared_cuts``)
            with (mirror.lock if mirror is not None else contextlib.nullcontext(),
                  shared_cuts() if mirror is not None else contextlib.nullcontext()):
                self._old_ids = (mirror.document_pks(self._doc_ids) if mirror is not None
                                 else index._ids(client, render(docs_filter(self._doc_ids))))
                fresh = [r for r in self._rows if r["id"] not in self._old_ids]
                self._fresh_ids = [r["id"] for r in fresh]  # before writing: abort removes whatever got in
                if not index._location:
                    fresh = [{k: v for k, v in r.items() if k not in LOCATION_FIELDS} for r in fresh]
                for start in range(0, len(fresh), UPSERT_BATCH):
                    client.upsert(index.collection, fresh[start : start + UPSERT_BATCH], timeout=index._timeout)
                index._wrote(client, len(fresh))
                if mirror is not None:
                    mirror.add(fresh)

        index._call("replace_documents", run)

    def commit(self) -> None:
        """Delete the documents' rows that are not part of this write."""
        if not self._doc_ids or not self._old_ids - set(self._new_ids):
            return
        index = self._index
        # A filter (not the stale ids) also catches rows a concurrent writer added.
        docs_expr = docs_filter(self._doc_ids)
        keep = ids_filter(self._new_ids, negate=True) if self._new_ids else None
        stale = render(and_filters(docs_expr, keep) or docs_expr)

        def run(client: MilvusClient) -> None:
            mirror = index._mirror()
            with mirror.lock if mirror is not None else contextlib.nullcontext():
                client.delete(index.collection, filter=stale, timeout=index._timeout)
                index._wrote(client, len(self._old_ids - set(self._new_ids)))
                if mirror is not None:
                    mirror.kill(self._old_ids - set(self._new_ids))

        index._call("replace_documents", run)

    def abort(self) -> None:
        """Delete the rows ``write`` added (or may have added): the documents are back to their old rows."""
        if not self._fresh_ids:
            return
        index = self._index
        ids = self._fresh_ids

        def run(client: MilvusClient) -> None:
            mirror = index._mirror()
            with mirror.lock if mirror is not None else contextlib.nullcontext():
                client.delete(index.collection, filter=render(ids_filter(ids)), timeout=index._timeout)
                if mirror is not None:
                    mirror.kill(ids)

        index._call("abort_write", run)
        self._fresh_ids = []

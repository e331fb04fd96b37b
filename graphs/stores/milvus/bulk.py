"""Whole rows of a collection out and in, as stored: a workspace's export and import
(``app/services/workspace_archive.py``) move chunks with their vectors, primary keys and every field, so nothing
is embedded again and an imported chunk keeps the row (and the content-hashed key) it had.

Rows are read in batches by primary key (the keys of 100k chunks are a few MB; their vectors and texts never are
in memory at once), and written with ``insert`` in batches; a Lite file's search mirror learns every written row.
The BM25 ``sparse`` field is not a stored input: Milvus computes it again from ``search_text`` on insert.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from pymilvus import MilvusClient

from graphs.stores.base import StoreUnavailable
from graphs.stores.bm25 import shared_cuts
from graphs.stores.milvus.schema import LOCATION_FIELDS, OUTPUT_FIELDS

if TYPE_CHECKING:
    from graphs.stores.milvus.index import MilvusIndex

ROW_FIELDS = (*OUTPUT_FIELDS, "search_text", "dense", *LOCATION_FIELDS)
"""Every stored input field of a chunk row (``sparse`` is derived from ``search_text``)."""
LOCATION_DEFAULTS: dict[str, Any] = {"source": "", "section": "", "page": 0}
EXPORT_BATCH = 512
INSERT_BATCH = 256


def row_keys(index: MilvusIndex) -> list[str]:
    """Every primary key of the collection, sorted (a stable order for an export)."""

    def run(client: MilvusClient) -> set[str]:
        return index._ids(client, "")

    return sorted(index._call("export_rows", run))


def export_rows(index: MilvusIndex, keys: Sequence[str] | None = None, batch: int = EXPORT_BATCH
                ) -> Iterator[list[dict[str, Any]]]:
    """The rows of ``keys`` (default: every row), ``batch`` at a time, with every stored input field
    (a collection made before chunk locations gets their "none" values); vectors as lists of floats."""
    keys = row_keys(index) if keys is None else list(keys)
    fields = [f for f in ROW_FIELDS if index._location or f not in LOCATION_FIELDS]
    for start in range(0, len(keys), batch):
        part = keys[start : start + batch]

        def read(client: MilvusClient, part: list[str] = part) -> list[Any]:
            return index._rows_by_id(client, part, fields)

        rows = index._call("export_rows", read)
        if len(rows) != len(part):
            raise StoreUnavailable("milvus", f"{index.collection}: rows changed during the export")
        order = {pk: i for i, pk in enumerate(part)}
        out = []
        for row in sorted(rows, key=lambda r: order[str(r["id"])]):
            item = {f: row.get(f, LOCATION_DEFAULTS.get(f)) for f in ROW_FIELDS}
            item["dense"] = [float(x) for x in row["dense"]]
            out.append(item)
        yield out


def import_rows(index: MilvusIndex, rows: Sequence[dict[str, Any]]) -> int:
    """Insert rows as ``export_rows`` gave them (their keys must not be stored yet); the rows written."""
    if not rows:
        return 0
    for row in rows:
        if len(row["dense"]) != index.dim:
            raise ValueError(f"row {row.get('id')!r} has a {len(row['dense'])}-dimensional vector, "
                             f"the collection {index.dim}")
    fields = [f for f in ROW_FIELDS if index._location or f not in LOCATION_FIELDS]
    batch = [{f: row.get(f, LOCATION_DEFAULTS.get(f)) for f in fields} for row in rows]

    def run(client: MilvusClient) -> int:
        mirror = index._mirror()
        with (mirror.lock if mirror is not None else contextlib.nullcontext(),
              shared_cuts() if mirror is not None else contextlib.nullcontext()):
            for start in range(0, len(batch), INSERT_BATCH):
                client.insert(index.collection, batch[start : start + INSERT_BATCH], timeout=index._timeout)
            index._wrote(client, len(batch))
            if mirror is not None:
                mirror.add(batch)
        return len(batch)

    return index._call("import_rows", run)


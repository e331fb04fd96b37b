"""Chunks as Milvus rows and rows back as hits: content-hashed primary keys, unit vectors, byte-capped fields,
entity fields encoded for LIKE filters (``graphs.stores.filters``)."""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Sequence
from typing import Any, Literal

from graphs.domain import ENTITY_TYPES, Chunk, Hit
from graphs.stores.base import DocumentChunks
from graphs.stores.filters import DATE_FIELD, ENTITY_FIELDS, decode_entity_field, encode_entity_field
from graphs.stores.milvus.schema import (
    DOC_ID_MAX,
    ENTITIES_JSON_MAX,
    ENTITY_MAX,
    ID_MAX,
    LOCATION_FIELDS,
    SECTION_MAX,
    SOURCE_MAX,
    TEXT_MAX,
    TITLE_MAX,
)

logger = logging.getLogger(__name__)

Channel = Literal["structured", "semantic", "hybrid", "bm25"]
_HASH_LEN = 16


def _truncate(value: str, max_bytes: int) -> str:
    data = value.encode()
    if len(data) <= max_bytes:
        return value
    return data[:max_bytes].decode(errors="ignore")


def strip_hash(pk: str) -> str:
    """The chunk id of a primary key (the key without its content hash)."""
    head, sep, tail = pk.rpartition("@")
    return head if sep and len(tail) == _HASH_LEN else pk


def row_key(chunk: Chunk, vector: Sequence[float]) -> str:
    """``<chunk id>@<hash of the chunk and its vector>``: an unchanged chunk keeps its row."""
    fields = chunk.model_dump(mode="json")
    for name in LOCATION_FIELDS:  # a chunk without a location hashes as it did before locations existed
        if fields.get(name) is None:
            fields.pop(name, None)
    payload = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(payload.encode())
    digest.update(json.dumps([round(float(x), 6) for x in vector]).encode())
    return f"{chunk.id}@{digest.hexdigest()[:_HASH_LEN]}"


def search_text(chunk: Chunk) -> str:
    """What BM25 reads of a chunk: its title and section name its subject, often the words a question uses."""
    head = " — ".join(part for part in (chunk.title, chunk.section) if part)
    return f"{head}\n{chunk.text}" if head else chunk.text


def unit_vector(vector: Sequence[float], dim: int) -> list[float]:
    """The vector scaled to unit length (a zero vector stays zero), after checking its dimension."""
    if len(vector) != dim:
        raise ValueError(f"vector has dim {len(vector)}, expected {dim}")
    values = [float(x) for x in vector]
    norm = math.sqrt(math.fsum(x * x for x in values))
    return [x / norm for x in values] if norm > 0 else values


def make_row(chunk: Chunk, vector: Sequence[float], dim: int) -> dict[str, Any]:
    """The row of one chunk (its primary key: the chunk id and a hash of its content and vector)."""
    pk = row_key(chunk, vector)
    if len(pk.encode()) > ID_MAX or len(chunk.doc_id.encode()) > DOC_ID_MAX:
        raise ValueError(f"chunk id {chunk.id!r} or its doc_id is too long")
    entities_json = json.dumps(chunk.entities, ensure_ascii=False)
    if len(entities_json.encode()) > ENTITIES_JSON_MAX:
        logger.warning("entities of chunk %s too long for entities_json; kept in fields only", chunk.id)
        entities_json = ""
    row: dict[str, Any] = {
        "id": pk,
        "doc_id": chunk.doc_id,
        "chunk_index": chunk.chunk_index,
        "title": _truncate(chunk.title, TITLE_MAX),
        "text": _truncate(chunk.text, TEXT_MAX),
        "search_text": _truncate(search_text(chunk), TEXT_MAX),
        "dense": unit_vector(vector, dim),
        DATE_FIELD: chunk.date or 0,
        "entities_json": entities_json,
        "source": _truncate(chunk.source or "", SOURCE_MAX),
        "section": _truncate(chunk.section or "", SECTION_MAX),
        "page": chunk.page or 0,
    }
    for etype, field in ENTITY_FIELDS.items():
        row[field] = encode_entity_field(chunk.entities.get(etype, []), max_bytes=ENTITY_MAX)
    return row


def batch_rows(docs: Sequence[DocumentChunks], dim: int) -> list[dict[str, Any]]:
    """Check a batch against the contract and build its rows (no I/O)."""
    seen_docs: set[str] = set()
    seen_chunks: set[str] = set()
    rows: list[dict[str, Any]] = []
    for doc_id, chunks, vectors in docs:
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors for document {doc_id!r}")
        if doc_id in seen_docs:
            raise ValueError(f"document {doc_id!r} appears twice in one batch")
        seen_docs.add(doc_id)
        if any(c.doc_id != doc_id for c in chunks):
            raise ValueError(f"every chunk must belong to document {doc_id!r}")
        ids = {c.id for c in chunks}
        if len(ids) != len(chunks) or ids & seen_chunks:
            raise ValueError(f"duplicate chunk ids in document {doc_id!r}")
        seen_chunks |= ids
        rows.extend(make_row(c, v, dim) for c, v in zip(chunks, vectors, strict=True))
    return rows


def entities_of(entity: dict[str, Any]) -> dict[str, list[str]]:
    """A row's entities: from ``entities_json``, else decoded from the entity fields."""
    raw = entity.get("entities_json") or ""
    if raw:
        try:
            parsed = json.loads(raw)
            return {str(k): [str(v) for v in vs] for k, vs in parsed.items() if vs}
        except (ValueError, AttributeError, TypeError):
            logger.warning("bad entities_json on %s", entity.get("id"))
    decoded = {t: decode_entity_field(entity.get(f) or "") for t, f in ENTITY_FIELDS.items()}
    return {t: names for t, names in decoded.items() if names}


def to_hit(
    raw: Any,
    channel: Channel,
    score: float,
    *,
    dense: float | None = None,
    bm25: float | None = None,
) -> Hit:
    """A hit from Milvus's ``{id, distance, entity}``."""
    entity = raw["entity"]
    date = int(entity.get(DATE_FIELD) or 0)
    return Hit(
        id=strip_hash(str(entity.get("id", raw["id"]))),
        doc_id=entity.get("doc_id", ""),
        title=entity.get("title", ""),
        text=entity.get("text", ""),
        score=score,
        channel=channel,
        dense_score=dense,
        bm25_score=bm25,
        date=date or None,
        entities=entities_of(entity),
        source=entity.get("source") or None,
        section=entity.get("section") or None,
        page=int(entity.get("page") or 0) or None,
    )


def to_chunk(row: dict[str, Any]) -> Chunk:
    """A chunk from a queried row (entity fields, date and location included)."""
    hit = to_hit({"entity": row, "id": row["id"]}, "bm25", 0.0)
    return Chunk(id=hit.id, doc_id=hit.doc_id, chunk_index=int(row.get("chunk_index") or 0),
                 title=hit.title, text=hit.text, date=hit.date,
                 entities={k: v for k, v in hit.entities.items() if k in ENTITY_TYPES},
                 source=hit.source, section=hit.section, page=hit.page)


def bm25_scores(raws: Sequence[Any], raw: bool = False) -> list[float]:
    """The BM25 scores of raw hits, the best scaled to 1 (``raw``: as Milvus gave them, made positive)."""
    # Lite returns BM25 negated, server positive: compare magnitudes, best = 1 (unless raw).
    values = [abs(float(r["distance"])) for r in raws]
    if raw:
        return values
    top = max(values, default=0.0)
    return [v / top if top > 0 else 0.0 for v in values]

"""Re-embed an index with another embedder, resumably, and switch to it atomically (``aer reindex``:
``app/cli/reindex.py``).

Design: the chunks of every document are read from the active collection, embedded by the new embedder and
written, one document at a time (``replace_documents``: a document's rows are exactly its chunks, never a mix),
into a second collection named after the new embedder (``<collection>__<embedder>``). That collection is the
job's progress record: a restarted job (after a crash or ``kill -9``) compares it with the source document by
document (title, chunk count, text bytes) and only copies what is missing or different, so every chunk ends up
there exactly once. When a pass finds nothing left to copy, the pointer file ``collections.json`` in the data
dir is replaced atomically (``os.replace``) to name the new collection; until then every query is answered by
the old one, which is kept afterwards (nothing is deleted: ``aer reindex --embedder <old>`` switches back
without re-embedding what is still there).

The entity store, the knowledge graph and the document inventory are not touched: they name chunks by their
ids, which a re-embedded chunk keeps.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from langchain_core.embeddings import Embeddings

from app.settings import Settings
from graphs.ingest.pipeline import embedding_text
from graphs.stores.base import ChunkInspection, IndexedChunks, VectorIndex

log = logging.getLogger(__name__)

POINTER_FILE = "collections.json"
"""In the data dir: ``{configured collection: active collection}`` (absent: the configured one is active)."""
MAX_PASSES = 3  # documents changed by writes during a pass are copied again by the next one


def _pointer(settings: Settings) -> Path:
    return settings.data_dir / POINTER_FILE


def _read_pointer(settings: Settings) -> dict[str, str]:
    try:
        data = json.loads(_pointer(settings).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"{_pointer(settings)} is unreadable ({exc}); it names the active collection") from exc
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def active_collection(settings: Settings) -> str:
    """The collection the service searches: the configured one, or the one ``aer reindex`` switched it to."""
    return _read_pointer(settings).get(settings.collection, settings.collection)


def set_active_collection(settings: Settings, collection: str) -> None:
    """Make ``collection`` the active one, atomically (a crash leaves the old pointer or the new, never half)."""
    pointer = _pointer(settings)
    data = _read_pointer(settings)
    data[settings.collection] = collection
    pointer.parent.mkdir(parents=True, exist_ok=True)
    tmp = pointer.with_name(pointer.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, pointer)


def target_collection(base: str, embedder_name: str) -> str:
    """The collection an index re-embedded by ``embedder_name`` goes to (stable: a restart resumes it)."""
    slug = "".join(ch if ch.isalnum() else "_" for ch in embedder_name.lower()).strip("_")
    return f"{base}__{slug}"[:255]


@dataclass
class ReindexProgress:
    """Where a re-index job stands (passed to ``on_progress`` after each document)."""

    documents: int
    done: int = 0
    copied_documents: int = 0
    copied_chunks: int = 0
    skipped: int = 0
    started: float = 0.0

    @property
    def chunks_per_s(self) -> float | None:
        elapsed = time.perf_counter() - self.started
        return self.copied_chunks / elapsed if self.copied_chunks and elapsed > 0 else None

    def line(self) -> str:
        rate = self.chunks_per_s
        text = (f"reindex: {self.done}/{self.documents} documents ({self.copied_chunks} chunks embedded, "
                f"{self.skipped} documents already there)")
        if rate:
            text += f", {rate:.1f} chunks/s"
        return text


@dataclass
class ReindexResult:
    source: str
    target: str
    documents: int
    chunks: int
    copied_chunks: int
    seconds: float
    switched: bool


def copy_pass(source: ChunkInspection, target: IndexedChunks, embedder: Embeddings, progress: ReindexProgress,
              on_progress: Callable[[ReindexProgress], None] | None = None,
              stop: threading.Event | None = None) -> int:
    """Copy every document whose chunks the target lacks or holds differently; the documents copied."""
    wanted = source.document_summaries()
    have = target.document_summaries()
    progress.documents = len(wanted)
    progress.done = 0
    copied = 0
    for doc_id in sorted(wanted):
        if stop is not None and stop.is_set():
            raise InterruptedError("reindex stopped")
        if have.get(doc_id) == wanted[doc_id]:
            progress.skipped += 1
        else:
            chunks = source.document_chunks(doc_id)
            vectors = embedder.embed_documents([embedding_text(c) for c in chunks])
            target.replace_documents([(doc_id, chunks, vectors)])
            progress.copied_documents += 1
            progress.copied_chunks += len(chunks)
            copied += 1
        progress.done += 1
        if on_progress is not None:
            on_progress(progress)
    for doc_id in set(have) - set(wanted):  # deleted from the source since an earlier pass
        target.delete_document(doc_id)
        copied += 1
    return copied


def reindex(settings: Settings, source: VectorIndex, target: VectorIndex, embedder: Embeddings,
            on_progress: Callable[[ReindexProgress], None] | None = None,
            stop: threading.Event | None = None) -> ReindexResult:
    """Re-embed ``source`` into ``target`` (resuming what an earlier run left), then make ``target`` active.

    ``source`` keeps serving meanwhile; the switch happens only when a pass over every document copied nothing
    (each document's title, chunk count and text bytes equal on both sides).
    """
    started = time.perf_counter()
    progress = ReindexProgress(documents=0, started=started)
    for _ in range(MAX_PASSES):
        if copy_pass(source, target, embedder, progress, on_progress, stop) == 0:
            break
        target.flush()
    else:
        if copy_pass(source, target, embedder, progress, on_progress, stop) != 0:
            raise RuntimeError("documents kept changing during the reindex; run it again when writes pause")
    target.flush()
    wanted = source.document_summaries()
    if target.document_summaries() != wanted:
        raise RuntimeError("the new collection does not match the old one after copying; run the reindex again")
    source_name = getattr(source, "collection", "?")
    target_name = getattr(target, "collection", "?")
    set_active_collection(settings, target_name)
    log.info("reindex: %s now serves (was %s)", target_name, source_name)
    return ReindexResult(source=source_name, target=target_name, documents=len(wanted),
                         chunks=sum(n for _, n, _ in wanted.values()), copied_chunks=progress.copied_chunks,
                         seconds=time.perf_counter() - started, switched=True)


def open_reindex(settings: Settings, provider: str) -> tuple[VectorIndex, VectorIndex, Embeddings]:
    """The active index (with the embedder it records), the target collection and the new embedder.

    Raises ``ValueError`` when the index already uses that embedder or the embedder cannot be loaded.
    """
    from app.container import build_embedder, build_embedder_and_index, build_index
    from graphs.embeddings import E5Embeddings, fingerprint_of

    _, _, _, source = build_embedder_and_index(settings.model_copy(update={"embedding_provider": "auto"}))
    source.ping()
    embedder, dim, name = build_embedder(settings.model_copy(update={"embedding_provider": provider}))
    new = fingerprint_of(embedder, dim)
    stored = getattr(source, "stored_embedder", None)
    if stored is not None and stored.same_model(new):
        source.close()
        raise ValueError(f"the index is already embedded with {stored.describe()}: nothing to do")
    if provider == "e5" and name != E5Embeddings.name:  # the fallback: e5 cannot load here
        source.close()
        raise ValueError(f"cannot re-embed with e5: {getattr(embedder, 'selection_note', None) or name}")
    target_settings = settings.model_copy(update={"collection": target_collection(settings.collection, name)})
    # build_index reads the pointer of the *target's* name: an unswitched target is itself
    target = build_index(target_settings, dim, new)
    return source, target, embedder

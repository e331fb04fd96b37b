"""A workspace in one file and back (``aer workspaces export|import``, ``GET /api/workspaces/{name}/export``,
``POST /api/workspaces/import``), its removal, and the check that nothing of it is left.

The archive is a zip file:

- ``manifest.json``: the format and its version, the embedder that computed the vectors (name, dimension,
  version), the counts (chunks, documents, entities, graph nodes and edges, jobs) and the SHA-256 and size of
  every other member; written last, read first.
- ``chunks/NNNNNN.jsonl``: every chunk row as Milvus stores it, ``EXPORT_BATCH`` rows a member: primary key,
  document, text, BM25 text, entity fields, date, location, and the dense vector (little-endian float32, base64):
  nothing is embedded again on import, and an imported chunk keeps its row key.
- ``sqlite/graph.db``, ``sqlite/documents.db``, ``sqlite/jobs.db``: consistent copies (SQLite's online backup)
  of the knowledge graph, the document inventory and the job history.
- ``entities.jsonl``: the workspace's own entity dictionary (SQLite or Redis alike), one entity a line.

Export and import stream: rows are read, written and checked a batch at a time, so a 100k-chunk workspace never
sits in memory whole. An export is written beside its destination and renamed into place (a killed export leaves
no half file); it refuses a workspace with a job running or vectors still being computed (``workspace_busy``).

``import_workspace`` writes an archive into one open, empty workspace (``Resources``): it checks the whole file
first (``archive_invalid`` for a corrupt or foreign file, ``archive_version`` for a newer format), refuses another
embedder (``embedder_mismatch``, naming both) and a workspace that holds anything (``workspace_not_empty``, unless
``replace``), and on any failure empties what it wrote. ``restore_workspace`` is the crash-safe form the registry
and the CLI use: it imports into a staging directory (and, on a Milvus server, a staging collection named by the
staging directory's ``collections.json``), and only a complete, verified import is swapped in; a killed restore
leaves the workspace as it was, and ``finish_restores`` (run before the next one) deletes an unfinished staging
directory or completes a swap that had begun.

``purge_workspace`` removes everything a workspace holds (its collections on a Milvus server, its data dir, its
own Redis entities) and ``residue`` lists whatever is left of it: Milvus collections and rows, SQLite rows, files.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from app.errors import ServiceError
from app.settings import Settings
from graphs.domain import EntityMetadata
from graphs.embeddings import fingerprint_of
from graphs.stores.base import StoreUnavailable
from graphs.stores.milvus.bulk import EXPORT_BATCH, export_rows, import_rows
from graphs.stores.sqlite import LockedSQLite
from graphs.vectors import EmbedderFingerprint

if TYPE_CHECKING:
    from app.container import Resources

log = logging.getLogger(__name__)

FORMAT = "aer-workspace"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
CHUNKS_PREFIX = "chunks/"
ENTITIES_MEMBER = "entities.jsonl"
SQLITE_MEMBERS = {"graph": "sqlite/graph.db", "catalog": "sqlite/documents.db", "jobs": "sqlite/jobs.db"}
ENTITY_PAGE = 500
SHARED_ENTRIES = frozenset({"workspaces", "shared", "keys.db", "keys.db-wal", "keys.db-shm"})
"""Entries of the root data dir that belong to the service, not to the default workspace kept there."""
BOOKKEEPING = frozenset({"catalog.catalog_meta"})
"""Rows a fresh workspace has too (the inventory's backfill mark): they do not make it non-empty."""
STAGING_PREFIX = ".import-"
TOKEN_HEX = 12
"""Hex digits of a staging directory's token."""
COMPLETE = "IMPORT-COMPLETE"  # in a staging dir: the import is whole and verified; the swap may proceed
MOVING = "IMPORT-MOVING"  # in a staging dir: the old workspace is gone; its entries are moving into place


class ArchiveError(ServiceError):
    """A workspace archive that cannot be written or read here: corrupt, foreign, of another embedder, or a
    target that is not empty."""


def _invalid(message: str) -> ArchiveError:
    return ArchiveError("invalid", "archive_invalid", message)


# ---------------------------------------------------------------------------- rows on the wire


def _encode_row(row: dict[str, Any]) -> bytes:
    item = dict(row)
    item["dense"] = base64.b64encode(np.asarray(row["dense"], dtype="<f4").tobytes()).decode("ascii")
    return (json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _decode_row(line: bytes, dim: int) -> dict[str, Any]:
    item = json.loads(line)
    if not isinstance(item, dict) or "id" not in item or "dense" not in item:
        raise ValueError("a chunk line lacks its id or vector")
    vector = np.frombuffer(base64.b64decode(item["dense"], validate=True), dtype="<f4")
    if vector.shape != (dim,):
        raise ValueError(f"chunk {item.get('id')!r} has {vector.shape[0]} dimensions, the archive says {dim}")
    item["dense"] = vector.astype(np.float32).tolist()
    return item


class _Hashing:
    """A writable that hashes and counts what passes through to ``out``."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out, self.sha, self.size = out, hashlib.sha256(), 0

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.sha.update(data)
        self.size += len(data)

    def record(self) -> dict[str, Any]:
        return {"sha256": self.sha.hexdigest(), "bytes": self.size}


# ---------------------------------------------------------------------------- the stores of one workspace


def _sqlite_stores(resources: Resources) -> dict[str, LockedSQLite]:
    """The workspace's SQLite files that travel whole, by archive name."""
    stores: dict[str, Any] = {"graph": resources.context.kg, "catalog": resources.catalog,
                              "jobs": resources.jobs.store if resources.jobs is not None else None}
    return {name: store for name, store in stores.items() if isinstance(store, LockedSQLite)}


def _own_entities(resources: Resources) -> Any:
    """The workspace's own entity store (an overlay over a shared dictionary exposes it as ``own``)."""
    entities = resources.context.entities
    return getattr(entities, "own", entities)


def _all_entities(store: Any) -> Iterator[EntityMetadata]:
    offset = 0
    while page := store.list(offset=offset, limit=ENTITY_PAGE):
        yield from page
        offset += len(page)


def _fingerprint(resources: Resources) -> EmbedderFingerprint:
    """The embedder of the workspace's vectors: the one its collection records, else the configured one."""
    index = resources.index
    with contextlib.suppress(StoreUnavailable):
        index.ping()
    stored = getattr(index, "stored_embedder", None)
    return stored if stored is not None else fingerprint_of(resources.context.embedder, getattr(index, "dim", None))


def _busy(resources: Resources) -> str | None:
    """Why the workspace cannot be exported consistently now, or None."""
    if resources.jobs is not None and resources.jobs.store.next_job() is not None:
        return "an ingest job is queued or running"
    fill = resources.ingestor.vector_fill
    if fill is not None and fill.pending.counts()[0]:
        return "dense vectors of some documents are still being computed"
    kg = resources.context.kg
    if kg is not None and getattr(kg, "journal_pending", None) is not None and kg.journal_pending():  # type: ignore[attr-defined]
        return "a write is in progress"
    return None


def contents(resources: Resources) -> dict[str, int]:
    """What the workspace holds: chunks, then the rows of each SQLite table and its own entities (0 everywhere
    but ``BOOKKEEPING``: an empty workspace)."""
    out = {"chunks": resources.index.count()}
    for name, store in _sqlite_stores(resources).items():
        for table, n in store.row_counts().items():
            out[f"{name}.{table}"] = n
    out["entities"] = _own_entities(resources).count()
    return out


def held(resources: Resources) -> dict[str, int]:
    """The non-zero counts of ``contents`` that make a workspace non-empty (empty: {})."""
    return {k: v for k, v in contents(resources).items() if v and k not in BOOKKEEPING}


def empty_workspace(resources: Resources) -> None:
    """Remove every chunk, graph row, inventory row, job and own entity of an open workspace."""
    index = resources.index
    for doc_id in sorted(index.document_ids()):
        index.delete_document(doc_id)
    index.flush()
    for store in _sqlite_stores(resources).values():
        store.clear()
    own = _own_entities(resources)
    for entity in list(_all_entities(own)):
        own.delete(entity.standard_name)
    fill = resources.ingestor.vector_fill
    if fill is not None and fill.pending.counts()[0]:
        for doc in fill.pending.next(limit=1_000_000):
            fill.pending.done(doc.doc_id, doc.token)


# ---------------------------------------------------------------------------- export


def export_workspace(resources: Resources, path: str | Path, *, jobs: bool = True,
                     batch: int = EXPORT_BATCH) -> dict[str, Any]:
    """Write the workspace to one archive at ``path``; its manifest. ``jobs``: include the job history;
    ``batch``: chunk rows per member (read, written and later imported a member at a time)."""
    reason = _busy(resources)
    if reason:
        raise ArchiveError("conflict", "workspace_busy", f"cannot export now: {reason}; retry when it is done")
    started = time.perf_counter()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.part")
    fingerprint = _fingerprint(resources)
    members: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    index = resources.index
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1, allowZip64=True) as zf:
            chunks = 0
            for n, rows in enumerate(export_rows(index, batch=batch)):  # type: ignore[arg-type]
                name = f"{CHUNKS_PREFIX}{n:06d}.jsonl"
                with zf.open(name, "w", force_zip64=True) as raw:
                    out = _Hashing(raw)
                    for row in rows:
                        out.write(_encode_row(row))
                members[name] = {**out.record(), "rows": len(rows)}
                chunks += len(rows)
            counts["chunks"] = chunks
            with tempfile.TemporaryDirectory(prefix="aer-export-") as scratch:
                for name, store in _sqlite_stores(resources).items():
                    if name == "jobs" and not jobs:
                        continue
                    copy = Path(scratch) / f"{name}.db"
                    store.snapshot(copy)
                    member = SQLITE_MEMBERS[name]
                    with copy.open("rb") as src, zf.open(member, "w", force_zip64=True) as raw:
                        out = _Hashing(raw)
                        while block := src.read(1 << 20):
                            out.write(block)
                    members[member] = out.record()
                    with contextlib.closing(_sqlite_file(copy)) as conn:
                        for table, rows_n in _table_counts(conn).items():
                            counts[f"{name}.{table}"] = rows_n
            entities = 0
            with zf.open(ENTITIES_MEMBER, "w", force_zip64=True) as raw:
                out = _Hashing(raw)
                for entity in _all_entities(_own_entities(resources)):
                    out.write((entity.model_dump_json() + "\n").encode())
                    entities += 1
            members[ENTITIES_MEMBER] = out.record()
            counts["entities"] = entities
            if index.count() != chunks:
                raise ArchiveError("conflict", "workspace_busy",
                                   "the workspace changed during the export; retry when writes pause")
            manifest = {
                "format": FORMAT, "version": FORMAT_VERSION,
                "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "embedder": fingerprint.as_dict(), "dimension": fingerprint.dimension,
                "counts": counts, "members": members,
            }  # fmt: skip
            zf.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    log.info("exported %d chunks, %d entities to %s in %.1f s", counts["chunks"], counts["entities"], path,
             time.perf_counter() - started)
    return manifest


def _sqlite_file(path: Path) -> Any:
    import sqlite3

    return sqlite3.connect(str(path))


def _table_counts(conn: Any) -> dict[str, int]:
    from graphs.stores.sqlite import _tables

    return {name: int(conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]) for name, _ in _tables(conn, "main")}


# ---------------------------------------------------------------------------- reading an archive


def read_manifest(path: str | Path) -> dict[str, Any]:
    """The archive's manifest after checking the file whole (every member's size and SHA-256): ``ArchiveError``
    ``archive_invalid`` for a corrupt or foreign file, ``archive_version`` for a format this version cannot read."""
    try:
        with zipfile.ZipFile(path) as zf:
            manifest = _manifest(zf)
            _verify(zf, manifest)
    except FileNotFoundError as exc:
        raise ArchiveError("not_found", "archive_not_found", f"no archive at {path}") from exc
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, KeyError) as exc:
        if isinstance(exc, ArchiveError):
            raise
        raise _invalid(f"not a readable workspace archive ({type(exc).__name__}: {exc})") from exc
    return manifest


def _manifest(zf: zipfile.ZipFile) -> dict[str, Any]:
    try:
        manifest = json.loads(zf.read(MANIFEST))
    except KeyError as exc:
        raise _invalid(f"not a workspace archive: it has no {MANIFEST}") from exc
    except ValueError as exc:
        raise _invalid(f"the archive's {MANIFEST} is not JSON") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _invalid(f"not a workspace archive (format {manifest.get('format') if isinstance(manifest, dict) else None!r}, "
                       f"expected {FORMAT!r})")
    version = manifest.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ArchiveError("unsupported", "archive_version",
                           f"the archive has format version {version!r}; this version reads up to {FORMAT_VERSION}")
    emb = manifest.get("embedder")
    if not isinstance(emb, dict) or not isinstance(emb.get("dimension"), int) or not emb.get("name"):
        raise _invalid("the archive's manifest names no embedder")
    if not isinstance(manifest.get("members"), dict) or not isinstance(manifest.get("counts"), dict):
        raise _invalid("the archive's manifest lists no members")
    return manifest


def _verify(zf: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    names = set(zf.namelist())
    for name, record in manifest["members"].items():
        if name not in names:
            raise _invalid(f"the archive lacks {name}")
        sha, size = hashlib.sha256(), 0
        with zf.open(name) as fh:
            while block := fh.read(1 << 20):
                sha.update(block)
                size += len(block)
        if size != record.get("bytes") or sha.hexdigest() != record.get("sha256"):
            raise _invalid(f"the archive's {name} is damaged (its checksum does not match the manifest)")
    extra = names - set(manifest["members"]) - {MANIFEST}
    if extra:
        raise _invalid(f"the archive holds members its manifest does not list: {sorted(extra)[:3]}")


# ---------------------------------------------------------------------------- import


def import_workspace(path: str | Path, resources: Resources, *, replace: bool = False) -> dict[str, Any]:
    """Write the archive at ``path`` into the open workspace ``resources`` without embedding anything; the
    counts written. The workspace must be empty (``replace``: it is emptied first); on any failure what was
    written is removed again. Not safe against a killed process by itself: ``restore_workspace`` is."""
    started = time.perf_counter()
    manifest = read_manifest(path)
    stored = EmbedderFingerprint(str(manifest["embedder"]["name"]), int(manifest["embedder"]["dimension"]),
                                 str(manifest["embedder"].get("version") or ""))
    ours = _fingerprint(resources)
    if not stored.same_model(ours):
        raise ArchiveError(
            "conflict", "embedder_mismatch",
            f"the archive's vectors were computed by {stored.describe()}; this workspace uses {ours.describe()}: "
            "import it where that embedder is configured (AER_EMBEDDING_PROVIDER), or re-embed it there after "
            "importing (`aer reindex`)",
            details={"archive": stored.as_dict(), "workspace": ours.as_dict()})
    holds = held(resources)
    if holds and not replace:
        raise ArchiveError("conflict", "workspace_not_empty",
                           "the workspace is not empty; import into a new workspace, or replace its contents",
                           details=holds)
    if holds:
        empty_workspace(resources)
    try:
        written = _write(path, manifest, resources)
    except BaseException:
        log.warning("import of %s failed: removing what it wrote", path)
        with contextlib.suppress(Exception):
            empty_workspace(resources)
        raise
    written["seconds"] = round(time.perf_counter() - started, 3)
    return written


def _write(path: str | Path, manifest: dict[str, Any], resources: Resources) -> dict[str, Any]:
    dim = int(manifest["embedder"]["dimension"])
    written: dict[str, Any] = {"chunks": 0, "entities": 0}
    stores = _sqlite_stores(resources)
    with zipfile.ZipFile(path) as zf, tempfile.TemporaryDirectory(prefix="aer-import-") as scratch:
        for name, member in SQLITE_MEMBERS.items():
            if member not in manifest["members"] or name not in stores:
                continue
            copy = Path(scratch) / f"{name}.db"
            with zf.open(member) as src, copy.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            for table, n in stores[name].copy_from(copy).items():
                written[f"{name}.{table}"] = n
            copy.unlink()
        for member in sorted(m for m in manifest["members"] if m.startswith(CHUNKS_PREFIX)):
            with zf.open(member) as fh:
                rows = [_decode_row(line, dim) for line in fh if line.strip()]
            written["chunks"] += import_rows(resources.index, rows)  # type: ignore[arg-type]
        own = _own_entities(resources)
        with zf.open(ENTITIES_MEMBER) as fh:
            for line in fh:
                if line.strip():
                    own.upsert(EntityMetadata.model_validate_json(line))
                    written["entities"] += 1
    resources.index.flush()
    counts = manifest["counts"]
    if resources.index.count() != counts.get("chunks") or written["entities"] != counts.get("entities"):
        raise ArchiveError("invalid", "archive_invalid",
                           f"the import wrote {written['chunks']} chunks and {written['entities']} entities; the "
                           f"manifest lists {counts.get('chunks')} and {counts.get('entities')}")
    return written


# ---------------------------------------------------------------------------- crash-safe restore


def restore_workspace(path: str | Path, settings: Settings, *, replace: bool = False,
                      build: Callable[[Settings], Resources] | None = None) -> dict[str, Any]:
    """Import the archive into the workspace of ``settings`` (closed: the registry closes its Resources first, as
    for a delete) through a staging directory, swapped in only once the import is complete and verified; the counts
    written.

    A workspace that holds anything (documents, chunks, entities, graph rows, jobs; not merely its empty store
    files) is refused (``workspace_not_empty``) unless ``replace``: then it is removed after the new contents are
    complete, and before they move in (a kill in between is completed by ``finish_restores``).
    """
    from app.container import build_resources

    build = build or build_resources
    manifest = read_manifest(path)  # a bad file is refused before anything is created
    finish_restores(settings)
    target = settings.data_dir
    left = residue(settings)
    if left and not replace:
        existing = build(settings)  # files, but maybe no contents: a workspace just created (its empty stores)
        try:
            holds = held(existing)
        finally:
            existing.close()
        if holds:
            raise ArchiveError("conflict", "workspace_not_empty",
                               "the workspace is not empty; import into a new workspace, or replace its contents",
                               details=holds)
    new_dir = not left and not (target.exists() and any(target.iterdir()))
    token = uuid.uuid4().hex[:TOKEN_HEX]
    staging = (target.parent / f"{STAGING_PREFIX}{target.name}-{token}") if new_dir else target / f"{STAGING_PREFIX}{token}"
    staging.mkdir(parents=True)
    staged = settings.model_copy(update={"data_dir": staging, "trajectory_log": None, "graph_path": None})
    if settings.milvus_uri:
        from app.services.reindex import set_active_collection

        # the staged rows go to a collection of their own, named by the staging dir's pointer file (which moves
        # into place with the rest): the workspace's current collection is untouched until the swap
        set_active_collection(staged, f"{settings.collection}__import_{token}"[:255])
    try:
        resources = build(staged)
        try:
            written = import_workspace(path, resources)
        finally:
            resources.close()
        (staging / COMPLETE).write_text(json.dumps({"archive": str(path), "counts": manifest["counts"]}))
    except BaseException:
        _discard_staging(staging, staged)
        raise
    _swap(staging, settings, new_dir)
    return written


def _swap(staging: Path, settings: Settings, new_dir: bool) -> None:
    """Move a complete staging dir into place (one rename for a new workspace directory)."""
    target = settings.data_dir
    if new_dir:
        with contextlib.suppress(FileNotFoundError, OSError):
            target.rmdir()  # an empty directory the registry may have made
        (staging / COMPLETE).unlink()
        os.replace(staging, target)
        return
    if not (staging / MOVING).exists():
        keep = _staged_collection(staging, settings)
        purge_workspace(settings, keep_entries={staging.name}, keep_collections={keep} if keep else set(),
                        redis=False)
        (staging / MOVING).touch()
    for entry in sorted(staging.iterdir()):
        if entry.name not in (COMPLETE, MOVING):
            dest = target / entry.name
            if dest.is_dir() and not dest.is_symlink():
                shutil.rmtree(dest)
            os.replace(entry, dest)
    shutil.rmtree(staging)


def _staged_collection(staging: Path, settings: Settings) -> str | None:
    if not settings.milvus_uri:
        return None
    from app.services.reindex import active_collection

    return active_collection(settings.model_copy(update={"data_dir": staging}))


def _discard_staging(staging: Path, staged: Settings) -> None:
    """Remove an unfinished staging dir and, on a server, its collection."""
    if staged.milvus_uri:
        name = _staged_collection(staging, staged)
        if name:
            with contextlib.suppress(Exception):
                _drop_collections(staged, {name})
    shutil.rmtree(staging, ignore_errors=True)


def _stagings(settings: Settings) -> list[tuple[Path, bool]]:
    """``(staging dir, whether it replaces a whole directory)`` of every restore of this workspace left behind."""
    target = settings.data_dir
    found: list[tuple[Path, bool]] = []
    # ``.import-<name>-<token>``: exactly this name and a token (the glob ``.import-foo-*`` would also take
    # workspace ``foo-bar``'s staging, and discard it while it is being written)
    whole = re.compile(rf"{re.escape(STAGING_PREFIX)}{re.escape(target.name)}-[0-9a-f]{{{TOKEN_HEX}}}")
    if target.parent.is_dir():
        found += [(p, True) for p in target.parent.glob(f"{STAGING_PREFIX}{target.name}-*")
                  if p.is_dir() and whole.fullmatch(p.name)]
    if target.is_dir():
        found += [(p, False) for p in target.glob(f"{STAGING_PREFIX}*") if p.is_dir()]
    return found


def finish_restores(settings: Settings) -> list[str]:
    """Settle the restores a killed process left for this workspace: an unfinished import is discarded, a
    complete one whose swap had begun is completed. What was done, one line each."""
    done = []
    for staging, whole in _stagings(settings):
        staged = settings.model_copy(update={"data_dir": staging})
        if (staging / COMPLETE).exists() and (not whole or not settings.data_dir.exists()
                                              or (staging / MOVING).exists()):
            _swap(staging, settings, whole)
            done.append(f"completed the restore staged in {staging}")
        else:
            _discard_staging(staging, staged)
            done.append(f"discarded the unfinished restore in {staging}")
    return done


# ---------------------------------------------------------------------------- removal and its check


def _collections(settings: Settings) -> list[str]:
    """The collections of this workspace on the Milvus server: its own and those ``aer reindex`` or a restore
    made from it (``<collection>__...``)."""
    from pymilvus import MilvusClient

    token = settings.milvus_token.get_secret_value() if settings.milvus_token else ""
    assert settings.milvus_uri
    client = MilvusClient(uri=settings.milvus_uri, token=token, timeout=settings.milvus_timeout_s)
    try:
        names = client.list_collections(timeout=settings.milvus_timeout_s)
    finally:
        client.close()
    base = settings.collection
    return sorted(n for n in names if n == base or n.startswith(f"{base}__"))


def _drop_collections(settings: Settings, names: set[str]) -> None:
    from pymilvus import MilvusClient

    token = settings.milvus_token.get_secret_value() if settings.milvus_token else ""
    assert settings.milvus_uri
    client = MilvusClient(uri=settings.milvus_uri, token=token, timeout=settings.milvus_timeout_s)
    try:
        for name in sorted(names):
            client.drop_collection(name, timeout=settings.milvus_timeout_s)
    finally:
        client.close()


def _own_files(settings: Settings, keep_entries: set[str] = frozenset()) -> list[Path]:  # type: ignore[assignment]
    """The workspace's files: its data dir's entries (the root's shared ones excepted), an outside graph file
    and trajectory log."""
    out: list[Path] = []
    if settings.data_dir.is_dir():
        out += sorted(p for p in settings.data_dir.iterdir() if p.name not in SHARED_ENTRIES | keep_entries)
    for extra in (settings.graph_path, settings.trajectory_log):
        if extra is not None and extra.exists() and settings.data_dir.resolve() not in extra.resolve().parents:
            out.append(extra)
            out += [extra.with_name(extra.name + s) for s in ("-wal", "-shm") if extra.with_name(extra.name + s).exists()]
    return out


def purge_workspace(settings: Settings, *, keep_entries: set[str] = frozenset(),  # type: ignore[assignment]
                    keep_collections: set[str] = frozenset(), redis: bool = True) -> list[str]:  # type: ignore[assignment]
    """Remove everything the (closed) workspace of ``settings`` holds: its collections on a Milvus server, every
    file of its data dir (the data dir itself, unless it is the root that holds other workspaces), and its own
    entities in Redis. What was removed, one line each. The registry's delete calls it after closing the
    workspace's Resources; ``residue`` confirms it."""
    removed: list[str] = []
    if settings.milvus_uri:
        names = set(_collections(settings)) - set(keep_collections)
        _drop_collections(settings, names)
        removed += [f"milvus collection {n}" for n in sorted(names)]
    if redis and settings.redis_url:
        from app.container import build_own_entity_store

        store = build_own_entity_store(settings)
        try:
            for entity in list(_all_entities(store)):
                store.delete(entity.standard_name)
                removed.append(f"redis entity {entity.standard_name}")
        finally:
            store.close()
    for path in _own_files(settings, set(keep_entries)):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        removed.append(f"file {path}")
    data_dir = settings.data_dir
    if data_dir.is_dir() and not any(data_dir.iterdir()) and not keep_entries:
        data_dir.rmdir()
    return removed


def residue(settings: Settings) -> list[str]:
    """Whatever is left of the workspace of ``settings``, one line each (empty: nothing): its collections on a
    Milvus server and their rows, the rows of every SQLite file and every other file in its data dir, the
    restores left staged, and its own entities in Redis. Opens nothing that would create a store."""
    found: list[str] = []
    if settings.milvus_uri:
        from pymilvus import MilvusClient

        for name in _collections(settings):
            token = settings.milvus_token.get_secret_value() if settings.milvus_token else ""
            client = MilvusClient(uri=settings.milvus_uri, token=token, timeout=settings.milvus_timeout_s)
            try:
                rows = client.get_collection_stats(name, timeout=settings.milvus_timeout_s).get("row_count")
            finally:
                client.close()
            found.append(f"milvus collection {name} ({rows} rows)")
    if settings.redis_url:
        from app.container import build_own_entity_store

        store = build_own_entity_store(settings)
        try:
            n = store.count()
        finally:
            store.close()
        if n:
            found.append(f"redis: {n} entities")
    for path in _own_files(settings):
        found += _describe(path)
    found += [f"staged restore {p}" for p, whole in _stagings(settings) if whole]
    return found


def _describe(path: Path) -> list[str]:
    """One line per file under ``path``; a SQLite file's line names its rows."""
    files = [path] if not path.is_dir() else sorted(p for p in path.rglob("*") if p.is_file())
    out = []
    for f in files:
        line = f"file {f} ({f.stat().st_size} bytes)"
        if f.suffix in (".db", ".sqlite3") and f.stat().st_size:
            with contextlib.suppress(Exception):
                import sqlite3

                conn = sqlite3.connect(f"file:{f}?mode=ro", uri=True)
                try:
                    rows = {t: n for t, n in _table_counts(conn).items() if n}
                finally:
                    conn.close()
                line += f": rows {rows}" if rows else ": no rows"
        out.append(line)
    if path.is_dir() and not files:
        out.append(f"directory {path}")
    return out

"""The workspace registry: named, isolated knowledge bases in one service.

Isolation is by construction: a workspace is a ``Resources`` of its own (its Milvus Lite file or, on a server, its
collection; its graph, inventory, jobs, vector-fill list, entity overlay and trajectory log), built from
``Settings.for_workspace(name)``. Only what holds no workspace's data is shared, built once by the default
workspace's resources: the embedder, the LLM, the reranker, the prompts, the metrics, tracing and the shared
entity dictionary. ``default`` keeps the service's data dir as it was before workspaces existed (an existing data
dir opens as it, nothing re-embedded); workspace ``w`` lives in ``<data_dir>/workspaces/w/``.

A workspace is opened on first use, once, and its job runner and vector filler start then; ``delete`` stops them,
closes its stores and removes its folder (and, on a Milvus server, its collection; with Redis, its entity keys).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.errors import ServiceError
from app.schemas.base import wire_time
from app.settings import Settings

if TYPE_CHECKING:  # the container (models, stores) is imported when a workspace opens: `aer --help` stays light
    from app.container import Resources
    from graphs.stores.base import EntityStore

log = logging.getLogger(__name__)

DEFAULT_WORKSPACE = "default"
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
CREATED_MARKER = ".workspace"
"""A file in a workspace's folder: it exists (its creation time is the workspace's)."""


def suggested_name(name: object) -> str | None:
    """The workspace name a refused one most likely meant (``Sales Team`` -> ``sales-team``, ``Pool_2`` ->
    ``pool_2``): lower-cased, each run of other characters one ``-``, ``-``/``_`` trimmed at both ends, at most 32;
    None when that is no name or no change (nothing of the name is a letter or digit: ``..``, ``é``)."""
    if not isinstance(name, str):
        return None
    guess = re.sub(r"[^a-z0-9_-]+", "-", name.strip().lower()).strip("-_")[:32].rstrip("-_")
    return guess if guess != name and NAME_PATTERN.fullmatch(guess) else None


def check_workspace_name(name: str) -> str:
    """``name`` if it is a workspace name (lower-case letters, digits, ``_`` and ``-``, at most 32, starting with a
    letter or digit); else a ServiceError ``invalid_workspace`` (422) that names the rule and, where one is near,
    the name meant (``details.suggestion``). The one check of a name: creating a workspace, the ``X-Workspace``
    header / ``?workspace=`` / body field of every request, a key's scope."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        suggestion = suggested_name(name)
        details: dict[str, Any] = {"workspace": name if isinstance(name, str) else None,
                                   "pattern": NAME_PATTERN.pattern}
        if suggestion:
            details["suggestion"] = suggestion
        raise ServiceError("invalid", "invalid_workspace",
                           f"{name!r} is not a workspace name: 1-32 characters, lower-case letters, digits, "
                           "'_' and '-', starting with a letter or a digit"
                           + (f" (did you mean {suggestion!r}?)" if suggestion else ""), details)
    return name


class UnknownWorkspace(ServiceError):
    """No workspace of that name (404 ``workspace_not_found``)."""

    def __init__(self, name: str) -> None:
        super().__init__("not_found", "workspace_not_found", f"no workspace {name!r}", {"workspace": name})
        self.name = name


@dataclass(frozen=True)
class WorkspaceInfo:
    """What a workspace holds: documents, chunks, bytes on disk, its last write (Unix seconds) and creation."""

    name: str
    documents: int
    chunks: int
    size_bytes: int
    last_write: float | None
    created_at: float | None

    def as_dict(self) -> dict[str, Any]:
        """The JSON body of the workspace (camelCase, as the API's)."""
        data = asdict(self)
        return {"name": data["name"], "documents": data["documents"], "chunks": data["chunks"],
                "sizeBytes": data["size_bytes"], "lastWrite": wire_time(data["last_write"]),
                "createdAt": wire_time(data["created_at"])}


def _folder_stats(folder: Path, skip: set[Path], unwritten: frozenset[str] = frozenset()) -> tuple[int, float | None]:
    """Bytes and the latest modification time of the files under ``folder`` (not under a folder of ``skip``;
    the creation marker's time is not a write, nor that of the files named in ``unwritten``)."""
    size, latest = 0, None
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if Path(dirpath, d) not in skip]
        for name in filenames:
            if name == CREATED_MARKER:
                continue
            try:
                st = os.stat(os.path.join(dirpath, name))
            except OSError:
                continue
            size += st.st_size
            # SQLite makes its -shm and an empty -wal when a store opens: opening is no write
            opened_only = name.endswith("-shm") or (name.endswith("-wal") and st.st_size == 0)
            if name not in unwritten and not opened_only:
                latest = st.st_mtime if latest is None else max(latest, st.st_mtime)
    return size, latest


def drop_collections(settings: Settings, which: Callable[[str], bool]) -> list[str]:
    """Drop the collections on the Milvus server of ``settings`` whose name ``which`` accepts; their names."""
    from pymilvus import MilvusClient
    from pymilvus.exceptions import MilvusException

    from graphs.stores.base import StoreUnavailable

    token = settings.milvus_token.get_secret_value() if settings.milvus_token else ""
    try:
        client = MilvusClient(uri=settings.milvus_uri or "", token=token, timeout=settings.milvus_timeout_s)
        try:
            names = sorted(n for n in client.list_collections(timeout=settings.milvus_timeout_s) if which(n))
            for name in names:
                client.drop_collection(name, timeout=settings.milvus_timeout_s)
        finally:
            client.close()
    except (MilvusException, OSError) as exc:  # the workspace stays (its folder is kept) and the caller is told
        raise StoreUnavailable("milvus", f"dropping the workspace's collections failed: {exc}") from exc
    return names


def _document_count(resources: Resources) -> int:
    """How many documents a workspace's inventory lists."""
    if resources.catalog is None:
        return len(resources.index.document_ids())
    total, _ = resources.catalog.list(offset=0, limit=1)
    return total


class Workspaces:
    """The service's workspaces: each opened once, on first use, with the shared parts built once."""

    def __init__(self, settings: Settings,
                 open_default: Callable[[Settings], Resources] | None = None,
                 start: bool = False) -> None:
        """``open_default`` builds the default workspace's resources (and with them the shared parts);
        ``start``: start each opened workspace's job runner and vector filler (the service does; a CLI command
        does not)."""
        self.settings = settings.for_workspace(DEFAULT_WORKSPACE)
        self._open_default = open_default
        self._start = start
        self._opened: dict[str, Resources] = {}
        self._lock = threading.RLock()
        self._closed = False
        self._restoring: set[str] = set()
        """Workspaces an import is writing: not opened, listed, created or deleted until it is swapped in."""

    # -- opening ---------------------------------------------------------------------------------------------
    @property
    def default(self) -> Resources:
        """The default workspace's resources (opened now if not yet)."""
        return self.get(DEFAULT_WORKSPACE)

    @property
    def shared_entities(self) -> EntityStore:
        """The shared entity dictionary every workspace overlays."""
        shared = self.default.shared
        assert shared is not None
        return shared.shared_entities

    def get(self, name: str | None = None) -> Resources:
        """The resources of workspace ``name`` (None: the default), opened once; UnknownWorkspace if absent."""
        name = DEFAULT_WORKSPACE if name is None else check_workspace_name(name)
        opened = self._opened.get(name)
        if opened is not None:
            return opened
        with self._lock:
            if self._closed:
                raise ServiceError("unavailable", "shutting_down", "the service is shutting down")
            if name in self._opened:
                return self._opened[name]
            if name in self._restoring:
                raise self._busy(name) if self.exists(name) else UnknownWorkspace(name)
            if not self.exists(name):
                raise UnknownWorkspace(name)
            from app.container import build_resources

            if name == DEFAULT_WORKSPACE:
                resources = (self._open_default or build_resources)(self.settings)
            else:
                from app.services.workspace_archive import finish_restores

                own = self.settings.for_workspace(name)
                finish_restores(own)  # a restore a killed process left: completed or discarded before opening
                resources = build_resources(own, self.default.shared)
            if self._start:
                resources.start_jobs()
            self._opened[name] = resources
            return resources

    def adopt(self, resources: Resources) -> None:
        """Register the default workspace's resources built elsewhere (the lifespan warms them up first)."""
        with self._lock:
            self._opened[DEFAULT_WORKSPACE] = resources

    def opened(self) -> dict[str, Resources]:
        """The workspaces opened so far, by name."""
        return dict(self._opened)

    # -- listing ---------------------------------------------------------------------------------------------
    def folder(self, name: str) -> Path:
        """Where workspace ``name`` keeps its files."""
        return self.settings.workspace_dir(name)

    def exists(self, name: str) -> bool:
        """Whether workspace ``name`` exists (``default`` always does)."""
        if name == DEFAULT_WORKSPACE:
            return True
        return NAME_PATTERN.fullmatch(name) is not None and (self.folder(name) / CREATED_MARKER).is_file()

    def names(self) -> list[str]:
        """Every workspace's name, sorted, ``default`` first."""
        root = self.settings.workspaces_dir()
        found = sorted(p.name for p in root.iterdir()
                       if NAME_PATTERN.fullmatch(p.name) and (p / CREATED_MARKER).is_file()) if root.is_dir() else []
        restoring = set(self._restoring)
        return [DEFAULT_WORKSPACE, *(n for n in found if n != DEFAULT_WORKSPACE and n not in restoring)]

    def info(self, name: str) -> WorkspaceInfo:
        """Documents, chunks, size on disk, last write and creation time of workspace ``name``. A workspace this
        process has not opened is counted from its inventory, read-only, without opening its stores (listing
        100 workspaces must not start 100 Milvus Lite servers); one without a complete inventory is opened."""
        name = check_workspace_name(name)
        counted = None if name in self._opened or name == DEFAULT_WORKSPACE else self._closed_counts(name)
        if counted is None:
            resources = self.get(name)
            documents, chunks = _document_count(resources), resources.index.count()
            graph = resources.settings.kg_file().name
        else:
            documents, chunks = counted
            graph = self.settings.for_workspace(name).kg_file().name
        folder = self.folder(name)
        # the default's folder is the data dir: the other workspaces, the shared dictionary and the evaluations'
        # indexes are not its own
        root = self.settings.service_dir()
        skip = {self.settings.workspaces_dir(), self.settings.shared_entities_file().parent, root / "eval"} \
            if name == DEFAULT_WORKSPACE else set()
        # the knowledge graph's file is rewritten when its last connection closes (SQLite's WAL checkpoint), so
        # merely opening a workspace would look like a write; every real write also changes the index, the
        # inventory or the entity file
        size, latest = _folder_stats(folder, skip, frozenset({graph, f"{graph}-wal", f"{graph}-shm"}))
        marker = folder / CREATED_MARKER
        created = marker.stat().st_mtime if marker.is_file() else None
        return WorkspaceInfo(name=name, documents=documents, chunks=chunks, size_bytes=size,
                             last_write=latest, created_at=created)

    def _closed_counts(self, name: str) -> tuple[int, int] | None:
        """``(documents, chunks)`` of a workspace that is not open, from its inventory file read-only; None when
        that cannot be trusted without opening it: it does not exist (yet), it has not listed the documents
        indexed before it existed, a restore is left to settle, or it is being imported."""
        import sqlite3

        from app.services.workspace_archive import _stagings

        with self._lock:
            if name in self._restoring:
                raise self._busy(name) if self.exists(name) else UnknownWorkspace(name)
            if not self.exists(name):
                raise UnknownWorkspace(name)
        own = self.settings.for_workspace(name)
        catalog = own.catalog_file()
        if not catalog.is_file() or _stagings(own):
            return None
        try:
            # absolute: the data dir is relative by default (data/ under the folder aer runs from)
            conn = sqlite3.connect(f"{catalog.absolute().as_uri()}?mode=ro", uri=True, timeout=5.0)
            try:
                if conn.execute("SELECT 1 FROM catalog_meta WHERE key = 'backfilled'").fetchone() is None:
                    return None
                documents, chunks = conn.execute("SELECT COUNT(*), COALESCE(SUM(chunks), 0) FROM documents").fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            return None  # unreadable here: opening it says what is wrong
        return int(documents), int(chunks)

    # -- lifecycle -------------------------------------------------------------------------------------------
    def create(self, name: str) -> WorkspaceInfo:
        """Create workspace ``name`` (empty); a ServiceError ``workspace_exists`` (409) if it exists."""
        check_workspace_name(name)
        with self._lock:
            if name in self._restoring:
                raise self._busy(name)
            if self.exists(name):
                raise ServiceError("conflict", "workspace_exists", f"workspace {name!r} already exists",
                                   {"workspace": name})
            folder = self.folder(name)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / CREATED_MARKER).write_text(f"{time.time():.3f}\n", encoding="utf-8")
        return self.info(name)

    def delete(self, name: str) -> dict[str, Any]:
        """Delete workspace ``name``: stop its jobs, close its stores, drop its collection (a Milvus server) and
        entity keys (Redis), remove its folder. ``default`` cannot be deleted (409 ``workspace_protected``)."""
        check_workspace_name(name)
        if name == DEFAULT_WORKSPACE:
            raise ServiceError("conflict", "workspace_protected",
                               "the default workspace cannot be deleted (delete its documents to empty it)")
        with self._lock:
            if name in self._restoring:
                raise self._busy(name) if self.exists(name) else UnknownWorkspace(name)
            if not self.exists(name):
                raise UnknownWorkspace(name)
            resources = self.get(name)
            counts = {"documents": _document_count(resources), "chunks": resources.index.count()}
            self._drop_remote(resources)
            del self._opened[name]
            if retire := getattr(resources.index, "retire", None):
                retire()  # a request still using it gets a 503, and cannot recreate the Lite file deleted below
            resources.close(deleting=True)
            shutil.rmtree(self.folder(name), ignore_errors=False)
        return {"success": True, "workspace": name, "deleted": counts}

    def export(self, name: str, path: Path) -> dict[str, Any]:
        """Write workspace ``name`` to one archive file at ``path`` (its chunks with their vectors, inventory,
        graph, own entities, jobs); the archive's manifest. 409 ``workspace_busy`` while it ingests."""
        from app.services.workspace_archive import export_workspace

        return export_workspace(self.get(name), path)

    def restore(self, name: str, path: Path, *, replace: bool = False) -> dict[str, Any]:
        """Import an archive into workspace ``name`` without re-embedding, creating the workspace when it does not
        exist: staged, then swapped in complete (a killed import leaves the workspace as it was). A workspace that
        holds anything is refused (409 ``workspace_not_empty``) unless ``replace``. ``default`` is not restored
        over while the service runs on it (409 ``workspace_protected``: import into a new workspace).

        The registry's lock is held only to claim the name and to publish the result, not for the import: every
        other workspace opens and serves meanwhile. Until the import is swapped in, a new workspace does not exist
        (404, not listed) and an existing one is closed (409 ``workspace_busy``, not listed); a second import,
        a delete or a create of the same name is refused (409)."""
        from app.container import build_resources
        from app.services.workspace_archive import read_manifest, restore_workspace

        check_workspace_name(name)
        if name == DEFAULT_WORKSPACE:
            raise ServiceError("conflict", "workspace_protected",
                               "an archive is imported into a workspace of its own, not over the default one "
                               "(aer workspaces import FILE NAME)")
        read_manifest(path)  # a corrupt or foreign file is refused before anything is created
        shared = self.default.shared
        with self._lock:
            if name in self._restoring:
                raise self._busy(name)
            created = not self.exists(name)
            self._restoring.add(name)
            resources = self._opened.pop(name, None)
        folder = self.folder(name)
        try:
            if resources is not None:  # restored into closed stores; reopened on the next use after the swap
                if retire := getattr(resources.index, "retire", None):
                    retire()
                resources.close()
            written = restore_workspace(path, self.settings.for_workspace(name), replace=replace,
                                        build=lambda staged: build_resources(staged, shared))
        except BaseException:
            with self._lock:
                if created and folder.is_dir() and not (folder / CREATED_MARKER).exists():
                    shutil.rmtree(folder, ignore_errors=True)
                self._restoring.discard(name)
            raise
        with self._lock:  # published: the marker makes a new workspace exist, the name is free to open
            if folder.is_dir() and not (folder / CREATED_MARKER).exists():
                (folder / CREATED_MARKER).write_text(f"{time.time():.3f}\n", encoding="utf-8")
            self._restoring.discard(name)
        return {"success": True, "workspace": name, "created": created, "imported": written}

    @staticmethod
    def _busy(name: str) -> ServiceError:
        return ServiceError("conflict", "workspace_busy", f"workspace {name!r} is being imported; try again when the "
                            "import has finished", {"workspace": name})

    def _drop_remote(self, resources: Resources) -> None:
        """What a workspace holds outside its folder: its collections on a Milvus server (the active one and
        those ``aer reindex`` made from it), its own Redis entity keys."""
        settings = resources.settings
        if settings.milvus_uri:
            drop = getattr(resources.index, "drop", None)
            if drop is None:
                raise ServiceError("unavailable", "delete_unsupported", "this index cannot drop its collection")
            drop()
            drop_collections(settings, lambda n: n == settings.collection or n.startswith(f"{settings.collection}__"))
        if settings.redis_url:
            clear = getattr(getattr(resources.context.entities, "own", None), "clear", None)
            if clear is not None:
                clear()

    def close(self) -> None:
        """Close every opened workspace (the default last: it owns the shared parts)."""
        with self._lock:
            self._closed = True
            opened, self._opened = self._opened, {}
        for name, resources in sorted(opened.items(), key=lambda item: item[0] == DEFAULT_WORKSPACE):
            try:
                resources.close()
            except Exception:  # one workspace failing to close must not leave the others open
                log.exception("closing workspace %s failed", name)

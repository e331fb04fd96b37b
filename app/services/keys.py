"""API keys scoped to workspaces, with roles; the decision whether a key may act on a workspace.

A stored key is ``aer_<id>_<secret>``: ``id`` (12 hex digits) names it in lists, logs and the rate limit, the
secret (256 random bits) is its strength. ``<data_dir>/keys.db`` keeps only the SHA-256 digest of the whole key
with its id, role, workspace (or every workspace), label and times: the key itself is printed once, by
``aer keys create``, and can never be read back (lose it: revoke it and create another). A presented key is
found by its id and its digest compared with ``hmac.compare_digest``.

Roles, each with the rights of the one before: ``read`` (query, chat, list entities and documents, read a
document, a job), ``write`` (+ add and delete documents, uploads, entities and aliases, evaluation runs) and
``admin`` (+ create, delete, export and import workspaces, the shared entity dictionary, keys, metrics). A read
or write key has one workspace; an admin key one or every workspace. The keys of ``AER_API_KEYS`` are admin keys
for every workspace (``app.api.security.KeyRing``).

``authorize`` is the one rule every surface applies (the REST guard, the MCP tools, ``/v1``): a key asking for a
workspace it has no rights on is told the workspace does not exist (404 ``workspace_not_found``, the body of a
workspace that does not exist), so it cannot learn that one does; a key with rights on the workspace but too low
a role gets 403 ``forbidden``; no key where one is needed, 401.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from app.errors import ServiceError
from app.schemas.base import wire_time
from app.workspaces import check_workspace_name  # a key is never made for a name no workspace can have
from graphs.stores.base import StoreUnavailable
from graphs.stores.sqlite import LockedSQLite

log = logging.getLogger(__name__)

Role = Literal["read", "write", "admin"]
ROLES: tuple[Role, ...] = ("read", "write", "admin")
_RANK: dict[str, int] = {role: rank for rank, role in enumerate(ROLES)}

KEY_PREFIX = "aer_"
ID_CHARS = 12
_ID = re.compile(r"^[0-9a-f]{12}$")
LABEL_MAX_CHARS = 200
TOUCH_EVERY_S = 60.0
"""``last_used`` is written at most this often per key: a busy key does not turn every read into a write."""
KEYS_FILE = "keys.db"


@dataclass(frozen=True)
class Principal:
    """Who sends a request: the key's id (None: no key), its role (None: none) and its workspace (None: every
    workspace)."""

    key_id: str | None
    role: Role | None
    workspace: str | None


OPEN = Principal(None, "admin", None)
"""No key is configured anywhere: the service is open, as it was before keys (every workspace, every action)."""
ANONYMOUS = Principal(None, None, None)
"""Keys are configured and the request sent none."""
OPEN_READS = Principal(None, "read", None)
"""Keys are configured, the request sent none, and ``AER_REQUIRE_KEY_FOR_QUERIES=false`` opens queries and lists:
never documents' text or inventory, never a write."""


def workspace_not_found(workspace: str, key_workspace: str | None = None) -> ServiceError:
    """The error of a workspace that does not exist: the same body for one the key has no rights on. To a key for
    one workspace (``key_workspace``) it says which one the key is for, alike for every other name, existing or
    not, so it tells nothing of the others; before, the key was told to create ``default``, which it may not."""
    if key_workspace is not None:
        return ServiceError("not_found", "workspace_not_found",
                            f"no workspace {workspace!r} for this key: it is for workspace {key_workspace!r} only "
                            f"(name {key_workspace!r}, or no workspace at all)",
                            {"workspace": workspace, "keyWorkspace": key_workspace})
    return ServiceError("not_found", "workspace_not_found", f"no workspace {workspace!r}", {"workspace": workspace})


def unauthorized(message: str = "this request needs an API key (X-API-Key or Authorization: Bearer)") -> ServiceError:
    """401: no key where one is needed."""
    return ServiceError("unauthorized", "unauthorized", message)


def can_see(principal: Principal, workspace: str) -> bool:
    """Whether ``principal`` has any rights on ``workspace``."""
    return principal.role is not None and principal.workspace in (None, workspace)


def visible_workspaces(principal: Principal, names: Iterable[str]) -> list[str]:
    """The names among ``names`` that ``principal`` may see (for lists: ``/api/workspaces``, ``/v1/models``)."""
    return [name for name in names if can_see(principal, name)]


def authorize(principal: Principal, workspace: str | None, role: Role, *, documents: bool = False) -> None:
    """Raise unless ``principal`` may do an action needing ``role`` on ``workspace`` (None: the service as a
    whole, every workspace: creating one, importing, the shared dictionary, keys, metrics).

    ``documents``: the action returns documents' text or inventory, which needs a key whenever keys exist.
    401 ``unauthorized`` (no key where one is needed), 404 ``workspace_not_found`` (a workspace the key has no
    rights on: the body of one that does not exist), 403 ``forbidden`` (rights on it, too low a role).
    """
    if principal.role is None or (principal.key_id is None and principal != OPEN
                                  and (documents or _RANK[role] > _RANK[principal.role])):
        raise unauthorized()
    if workspace is not None and principal.workspace not in (None, workspace):
        raise workspace_not_found(workspace, principal.workspace)
    if workspace is None and principal.workspace is not None:
        raise ServiceError("forbidden", "forbidden", f"this needs an admin key for every workspace; this key "
                           f"({principal.key_id}) is for workspace {principal.workspace!r} only",
                           {"required": "admin", "workspace": None})
    if _RANK[principal.role] < _RANK[role]:
        raise ServiceError("forbidden", "forbidden", f"this needs a {role} key; this key ({principal.key_id}) is "
                           f"{principal.role}", {"required": role, "role": principal.role})


def principal_in(request: Any | None) -> Principal:
    """The principal of an HTTP request the guard admitted (``request.state.principal``, also inside an MCP
    tool: ``ctx.request_context.request``); ``OPEN`` without a request (stdio MCP, the CLI: the local user owns
    the data dir). A request no guard saw is ``ANONYMOUS``: a surface that forgot its guard fails closed."""
    if request is None:
        return OPEN
    principal = getattr(getattr(request, "state", None), "principal", None)
    return principal if isinstance(principal, Principal) else ANONYMOUS


def digest(key: str) -> bytes:
    """The SHA-256 of a key: one length for every key, so ``compare_digest`` says nothing of a key's length."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


def check_role(role: str) -> Role:
    """``role`` if it is one (422 ``invalid_role`` otherwise)."""
    if role not in _RANK:
        raise ServiceError("invalid", "invalid_role", f"role {role!r} is not one of {', '.join(ROLES)}",
                           {"roles": list(ROLES)})
    return cast(Role, role)


def check_scope(role: Role, workspace: str | None) -> str | None:
    """The workspace of a new key: a valid name; None (every workspace) only for an admin key."""
    if workspace is None:
        if role != "admin":
            raise ServiceError("invalid", "workspace_required",
                               f"a {role} key is for one workspace: name it (only an admin key may have every workspace)")
        return None
    return check_workspace_name(workspace)


@dataclass(frozen=True)
class StoredKey:
    """A key's record (never the key): id, role, workspace (None: every workspace), label and times (epoch s)."""

    id: str
    role: Role
    workspace: str | None
    label: str
    created_at: float
    last_used: float | None
    revoked_at: float | None

    @property
    def principal(self) -> Principal:
        return Principal(self.id, self.role, self.workspace)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "role": self.role, "workspace": self.workspace, "label": self.label,
                "createdAt": wire_time(self.created_at), "lastUsed": wire_time(self.last_used),
                "revokedAt": wire_time(self.revoked_at)}


_COLUMNS = "id, role, workspace, label, created_at, last_used, revoked_at"


class KeyStore(LockedSQLite):
    """``keys.db``: the stored keys' digests and records (one row per key; a revoked key keeps its row)."""

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY,
        digest BLOB NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('read', 'write', 'admin')),
        workspace TEXT,
        label TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        last_used REAL,
        revoked_at REAL
    );
    """
    STORE = "keys"

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            # only its owner reads the digests (they are no keys, but a digest list is nobody else's business)
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        super().__init__(path, timeout=timeout)

    def create(self, role: str, workspace: str | None, label: str = "") -> tuple[str, StoredKey]:
        """A new key and its record; the key is returned here only (the store keeps its digest)."""
        checked = check_role(role)
        scope = check_scope(checked, workspace)
        label = label.strip()
        if len(label) > LABEL_MAX_CHARS or any(ord(c) < 32 or ord(c) == 127 for c in label):
            raise ServiceError("invalid", "invalid_label", f"a label is at most {LABEL_MAX_CHARS} printable characters")
        with self._write() as conn:
            while True:
                key_id = secrets.token_hex(ID_CHARS // 2)
                if conn.execute("SELECT 1 FROM api_keys WHERE id = ?", (key_id,)).fetchone() is None:
                    break
            key = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
            record = StoredKey(key_id, checked, scope, label, time.time(), None, None)
            conn.execute("INSERT INTO api_keys (id, digest, role, workspace, label, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (key_id, digest(key), checked, scope, label, record.created_at))
        return key, record

    def list(self, *, revoked: bool = False) -> list[StoredKey]:
        """Every key's record, oldest first (the revoked ones too if ``revoked``)."""
        where = "" if revoked else " WHERE revoked_at IS NULL"
        with self._read() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM api_keys{where} ORDER BY created_at, id").fetchall()
        return [StoredKey(*row) for row in rows]

    def get(self, key_id: str) -> StoredKey | None:
        """A key's record by its id."""
        with self._read() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        return StoredKey(*row) if row else None

    def revoke(self, key_id: str) -> StoredKey:
        """Revoke a key: from now on it is refused (401), in every process using this data dir. Revoking a
        revoked key changes nothing; an unknown id is 404 ``key_not_found``."""
        with self._write() as conn:
            conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                         (time.time(), key_id))
            row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        if row is None:
            raise ServiceError("not_found", "key_not_found", f"no key with id {key_id!r}", {"id": key_id})
        return StoredKey(*row)

    def active(self) -> bool:
        """Whether any key is usable (not revoked)."""
        with self._read() as conn:
            return conn.execute("SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1").fetchone() is not None

    def identify(self, presented: str) -> StoredKey | None:
        """The record of a valid, unrevoked key, else None. The row is found by the key's id; its digest is then
        compared in constant time (a wrong secret and an unknown id take one comparison each)."""
        key_id = presented[len(KEY_PREFIX):len(KEY_PREFIX) + ID_CHARS]
        if not presented.startswith(KEY_PREFIX) or not _ID.fullmatch(key_id) \
                or presented[len(KEY_PREFIX) + ID_CHARS:len(KEY_PREFIX) + ID_CHARS + 1] != "_":
            return None
        with self._read() as conn:
            row = conn.execute(f"SELECT digest, {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        known = bytes(row[0]) if row else bytes(32)
        if not hmac.compare_digest(digest(presented), known) or row is None:
            return None
        record = StoredKey(*row[1:])
        if record.revoked_at is not None:
            return None
        now = time.time()
        if record.last_used is None or now - record.last_used >= TOUCH_EVERY_S:
            try:
                with self._write() as conn:
                    conn.execute("UPDATE api_keys SET last_used = ? WHERE id = ?", (now, key_id))
            except StoreUnavailable as exc:  # bookkeeping only: the key was read and is valid; say so in the log
                log.warning("key %s: last_used not written: %s", key_id, exc)
        return record


def keys_file(data_dir: Path) -> Path:
    """Where a data dir keeps its keys: ``<data_dir>/keys.db``, beside the workspaces (never inside one)."""
    return data_dir / KEYS_FILE


class StoredKeys:
    """The stored keys of a data dir, opened once the file exists (``aer keys create`` makes it, possibly while
    the server runs: the server notices on the next request)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = keys_file(data_dir)
        self._store: KeyStore | None = None
        self._opening = threading.Lock()

    def store(self) -> KeyStore | None:
        """The store, or None while no key was ever created."""
        if self._store is None and self.path.exists():
            return self.open()
        return self._store

    def open(self) -> KeyStore:
        """The store, its file created if need be (a key is about to be created)."""
        with self._opening:
            if self._store is None:
                self._store = KeyStore(self.path)
            return self._store

    def active(self) -> bool:
        """Whether any stored key is usable."""
        store = self.store()
        return store is not None and store.active()

    def identify(self, presented: str) -> StoredKey | None:
        """The record of a valid stored key, else None."""
        store = self.store()
        return store.identify(presented) if store is not None else None

    def close(self) -> None:
        with self._opening:
            if self._store is not None:
                self._store.close()
                self._store = None

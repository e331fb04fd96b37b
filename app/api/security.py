"""Optional API keys, per-client rate limits and CORS: each is off until configured (``AER_*`` settings).

- ``AER_API_KEYS``: with keys, add-entity, add-documents and delete-document need one (``X-API-Key: <key>``
  or ``Authorization: Bearer <key>``), and so does reading documents (``?action=document``, ``documents``,
  ``job``: their full text and inventory), always. Queries, chat and the other reads need one too unless
  ``AER_REQUIRE_KEY_FOR_QUERIES=false`` opens them (the default is true). A key that is sent must be valid on
  every request. Health probes, the page's files and the docs stay open. ``access_summary`` states the policy
  in the start-up log.
- ``AER_RATE_LIMIT_PER_MINUTE``: requests per minute per key (per client address without a valid key),
  a moving window from ``limits``: in Redis when ``AER_REDIS_URL`` is set, so every worker process counts
  against the same window, else in process memory (each worker counts on its own).
- ``AER_CORS_ORIGINS``: origins a browser may call from; none means no CORS headers at all.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request, Security
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from pydantic import SecretStr
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.errors import ApiError, error_body, service_error
from app.api.workspace_scope import effective_workspace
from app.errors import ServiceError
from app.schemas import API_PATH
from app.services.keys import ANONYMOUS, OPEN, OPEN_READS, Principal, Role, StoredKeys, authorize
from app.settings import Settings
from graphs.stores.base import StoreUnavailable

log = logging.getLogger(__name__)
REDIS_TIMEOUT_S = 5.0  # as the Redis entity store's

API_KEY_HEADER = APIKeyHeader(name="X-API-Key", auto_error=False,
                              description="An API key (needed for writes once AER_API_KEYS is set).")
BEARER = HTTPBearer(auto_error=False, description="The same API key as a bearer token.")
READ_ACTIONS = frozenset({"query"})
DOCUMENT_READS = frozenset({"document", "documents", "job", "jobs"})
"""``GET ?action=`` reads that return the corpus (documents' full text, their inventory, a job's documents):
a key whenever keys exist, as for a write."""
RequestKind = Literal["auto", "read", "corpus", "write", "admin", "key"]
"""How a guarded request counts: ``auto`` by its path, method and its body's or query string's ``action``,
``read`` (a query: a key unless ``AER_REQUIRE_KEY_FOR_QUERIES=false``), ``corpus`` (a read that returns documents'
text, such as the knowledge graph's passages), ``write`` (a write key for the workspace), ``admin`` (an admin key
for every workspace: /metrics) and ``key`` (any valid key on its workspace: MCP, whose tools check their own
action)."""
WORKSPACES_PATHS = ("/api/workspaces", f"{API_PATH}/workspaces")
"""The workspaces resource (the design's ``/api/workspaces``; under the action endpoint's prefix too)."""
KEYS_PATHS = ("/api/keys", f"{API_PATH}/keys")


def _under(path: str, prefixes: tuple[str, ...]) -> str | None:
    """The prefix of ``prefixes`` that ``path`` is or lies under, else None."""
    return next((p for p in prefixes if path == p or path.startswith(p + "/")), None)


class HeaderedApiError(ApiError):
    """An ``ApiError`` whose response carries headers too."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str]) -> None:
        super().__init__(status, code, message)
        self.headers = headers


class Unauthorized(HeaderedApiError):
    """401: a key is missing where one is needed, or the key sent is not valid."""

    def __init__(self, message: str) -> None:
        super().__init__(401, "unauthorized", message, {"WWW-Authenticate": "Bearer"})


class RateLimited(HeaderedApiError):
    """429: the client went over its requests per minute."""

    def __init__(self, retry_after: int, limit: int) -> None:
        super().__init__(429, "rate_limited", f"more than {limit} requests per minute; retry in {retry_after} s",
                         {"Retry-After": str(retry_after)})
        self.details = {"limitPerMinute": limit, "retryAfterSeconds": retry_after}


class KeyRing:
    """The configured API keys, kept only as SHA-256 digests and compared in constant time."""

    def __init__(self, keys: Sequence[SecretStr]) -> None:
        self._digests = [_digest(k.get_secret_value()) for k in keys if k.get_secret_value()]

    @property
    def enabled(self) -> bool:
        """Whether any key is configured."""
        return bool(self._digests)

    def identify(self, presented: str) -> str | None:
        """``key:<n>`` for a valid key, else None (every key is compared: timing says nothing of which matched)."""
        digest = _digest(presented)
        match = None
        for n, known in enumerate(self._digests):
            if hmac.compare_digest(digest, known):
                match = f"key:{n}"
        return match


def _digest(key: str) -> bytes:
    # Digests have one length, so compare_digest does not leak the length of the configured key.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


class RateLimit:
    """A moving-window limit per client (the ``limits`` library) over ``storage``: this process's memory by
    default, or a Redis shared by every worker process."""

    def __init__(self, per_minute: int, storage: Storage | None = None) -> None:
        self.per_minute = per_minute
        self._item = RateLimitItemPerMinute(per_minute)
        self._limiter = MovingWindowRateLimiter(storage if storage is not None else MemoryStorage())

    async def hit(self, client: str) -> None:
        """Count one request of ``client``; raise ``RateLimited`` (with when to retry) when over the limit.

        A shared store that cannot count is a 503 (``store_unavailable``): the limit is never silently off.
        """
        try:
            if await self._limiter.hit(self._item, client):
                return
            reset = (await self._limiter.get_window_stats(self._item, client)).reset_time
        except StorageError as exc:
            raise StoreUnavailable("redis", f"the rate-limit counts could not be read: {exc.storage_error!r}") from exc
        raise RateLimited(retry_after=max(1, math.ceil(reset - time.time())), limit=self.per_minute)


def rate_limit_storage(settings: Settings) -> Storage:
    """Where the rate-limit counts live: the entity store's Redis when one is configured, else memory."""
    if not settings.redis_url:
        return MemoryStorage()
    url = settings.redis_url
    url = "async+redis+unix" + url.removeprefix("unix") if url.startswith("unix://") else "async+" + url
    return RedisStorage(url, implementation="redispy", wrap_exceptions=True,
                        socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S)


@dataclass(frozen=True)
class Need:
    """What a request needs: a role on a workspace (None: the service as a whole), and whether it returns
    documents' text or inventory (which needs a key whenever keys exist)."""

    role: Role
    workspace: str | None
    documents: bool = False


class Guard:
    """Router dependency: identify the key (``request.state.principal``), rate-limit its client, then authorize
    the request: the action's role on the request's workspace (``authorize``: 401, 404 for a workspace the key
    has no rights on, 403 for too low a role)."""

    def __init__(self, settings: Settings, kind: RequestKind = "auto") -> None:
        self.keys = KeyRing(settings.api_keys)
        self.stored = StoredKeys(settings.data_dir)
        self.require_for_queries = settings.require_key_for_queries
        self.limit = (RateLimit(settings.rate_limit_per_minute, rate_limit_storage(settings))
                      if settings.rate_limit_per_minute > 0 else None)
        self.kind: RequestKind = kind

    def of_kind(self, kind: RequestKind, *, limited: bool = True) -> Guard:
        """This guard for requests of another kind, sharing its keys and its rate-limit window (or none)."""
        other = copy.copy(self)
        other.kind = kind
        if not limited:
            other.limit = None
        return other

    async def __call__(
        self,
        request: Request,
        api_key: Annotated[str | None, Security(API_KEY_HEADER)] = None,
        bearer: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)] = None,
    ) -> None:
        await self.admit(request, api_key if api_key is not None else bearer.credentials if bearer is not None else None)

    async def identify(self, presented: str | None) -> tuple[bool, Principal | None]:
        """Whether keys are configured (in ``AER_API_KEYS`` or ``keys.db``), and the principal of the key
        ``presented`` (None: no key, or one that is not valid)."""
        if presented is not None and self.keys.enabled and (key_id := self.keys.identify(presented)) is not None:
            return True, Principal(key_id, "admin", None)  # AER_API_KEYS: admin keys for every workspace
        if self.stored.store() is None:  # no key was ever created here: no file to read
            return self.keys.enabled, None
        return await asyncio.to_thread(self._stored, presented)

    def _stored(self, presented: str | None) -> tuple[bool, Principal | None]:
        record = self.stored.identify(presented) if presented is not None else None
        if record is not None:
            return True, record.principal
        return self.keys.enabled or self.stored.active(), None

    async def admit(self, request: Request, presented: str | None, *, read_body: bool = True) -> Principal:
        """Identify the key ``presented`` and count the request against its client's limit (429), then authorize
        what the request needs (401/403/404); the principal is left on ``request.state.principal``.

        ``read_body=False`` (a plain ASGI app behind the guard): the body is left for the app, unread; the
        workspace is then the header's or the query parameter's."""
        enabled, principal = await self.identify(presented)
        if self.limit is not None:
            # A request with a wrong key counts against its address: guessing keys is rate-limited too.
            await self.limit.hit(principal.key_id if principal is not None and principal.key_id
                                 else f"ip:{request.client.host if request.client else 'unknown'}")
        if not enabled:
            principal = OPEN
        elif presented is not None and principal is None:
            log.warning("rejected an invalid API key (%s %s)", request.method, request.url.path)
            raise Unauthorized("the API key is not valid")
        elif principal is None:
            principal = OPEN_READS if not self.require_for_queries else ANONYMOUS
        request.state.principal = principal
        if principal == OPEN:
            return principal  # no key anywhere: every request may do everything, as before keys
        need = await self.need(request, read_body=read_body)
        try:
            authorize(principal, need.workspace, need.role, documents=need.documents)
        except ServiceError as exc:
            if exc.kind == "unauthorized":
                raise Unauthorized(exc.message) from None
            if principal.key_id is not None:
                log.info("key %s refused: %s (%s %s)", principal.key_id, exc.code, request.method, request.url.path)
            raise
        return principal

    async def need(self, request: Request, *, read_body: bool = True) -> Need:
        """The role and workspace this request needs, by the guard's kind (``auto``: by its path, method and
        action)."""
        if read_body:
            await _parse_json(request)
        path = request.url.path
        if (prefix := _under(path, WORKSPACES_PATHS)) is not None:
            return _workspaces_need(request, prefix)
        if _under(path, KEYS_PATHS) is not None:
            return Need("admin", None)
        if self.kind == "admin":
            return Need("admin", None)
        workspace = effective_workspace(request)
        if self.kind in ("read", "corpus", "key"):
            # "key" (MCP): any valid key on its workspace; each tool then authorizes its own action
            return Need("read", workspace, documents=self.kind != "read")
        if self.kind == "write":
            return Need("write", workspace)
        if request.method in ("GET", "HEAD"):
            return Need("read", workspace, documents=_reads_documents(request))
        if not read_body:
            return Need("write", workspace)  # an unread body: whatever it asks counts as a write
        body = getattr(request, "_json", None)
        if isinstance(body, dict) and body.get("scope") == "shared":
            return Need("admin", None)  # the shared entity dictionary: every workspace sees it
        return Need("write", workspace) if await _writes(request) else Need("read", workspace)


def _workspaces_need(request: Request, prefix: str) -> Need:
    """``/api/workspaces``: listing = read (the list shows the key's own), one workspace's info = read on it,
    its export or deletion = admin on it, creating or importing one = admin on every workspace."""
    name = request.path_params.get("name")
    if name is None:
        if request.method in ("GET", "HEAD") and request.url.path == prefix:
            return Need("read", effective_workspace(request))
        return Need("admin", None)
    if request.method in ("GET", "HEAD") and not request.url.path.endswith("/export"):
        return Need("read", str(name))
    return Need("admin", str(name))


async def _parse_json(request: Request) -> None:
    """Parse a JSON body once into the request's cache (FastAPI did it already for a route with a body), so that
    the workspace it names is seen; an unreadable body stays unparsed (the route answers it)."""
    if request.method in ("GET", "HEAD") or hasattr(request, "_json"):
        return
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        return
    try:
        await request.json()
    except (ValueError, UnicodeDecodeError, RecursionError):
        return


def presented_key(headers: Headers) -> str | None:
    """The key a request sends: ``X-API-Key``, else an ``Authorization: Bearer`` token."""
    if (key := headers.get("x-api-key")) is not None:
        return key
    scheme, _, token = headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class GuardedApp:
    """An ASGI app behind a guard: for an app mounted as a route, which FastAPI's dependencies do not reach.

    A refused request is answered in the error shape (401/429 with their headers, 403/404 for a workspace the
    key may not use, 503 when the shared rate-limit store is down) and never reaches the app. An admitted one
    carries its principal in ``scope["state"]["principal"]``: what the app builds a ``Request`` from sees it
    (``app.services.keys.principal_in``), so the MCP tools authorize their own workspace and action.
    """

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope, receive)
            refusal: JSONResponse | None = None
            try:
                await self.guard.admit(request, presented_key(request.headers), read_body=False)
            except HeaderedApiError as exc:
                status, body = service_error(exc)
                refusal = JSONResponse(body, status_code=status, headers=exc.headers)
            except (ServiceError, StoreUnavailable) as exc:
                status, body = service_error(exc)
                refusal = JSONResponse(body, status_code=status)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _reads_documents(request: Request) -> bool:
    """Whether the request reads documents' text or inventory (any ``action`` parameter naming one counts)."""
    return any(action in DOCUMENT_READS for action in request.query_params.getlist("action"))


def access_summary(settings: Settings, stored_keys: int = 0) -> str:
    """Who may do what, in one line for the start-up log (the defaults stated, not implied); ``stored_keys``:
    the usable keys of ``keys.db`` (``aer keys``)."""
    if not any(k.get_secret_value() for k in settings.api_keys) and not stored_keys:
        return ("no API keys (AER_API_KEYS): every endpoint is open to whoever can reach the port, writes and "
                "documents' text included")
    reads = ("queries, chat and the other reads need one too (AER_REQUIRE_KEY_FOR_QUERIES=true, the default)"
             if settings.require_key_for_queries else
             "queries, chat and the entity list are open (AER_REQUIRE_KEY_FOR_QUERIES=false)")
    scoped = (f" and {stored_keys} workspace key(s) of keys.db (each: its role on its workspace; another "
              f"workspace is 404)" if stored_keys else "")
    return (f"{len(settings.api_keys)} API key(s){scoped}: writes, MCP and reading documents (?action=document, "
            f"documents, job) need one; {reads}; /healthz, /readyz, the page's files and /docs are open")


async def _writes(request: Request) -> bool:
    """Whether the request may change data; anything that is not clearly a read counts as a write."""
    if request.method in ("GET", "HEAD"):
        return False
    if request.headers.get("content-type", "").lower().startswith("multipart/"):
        return True  # an upload (its body was read as a form: there is no JSON to look at)
    try:
        body: Any = await request.json()  # already read and parsed by FastAPI: cached on the request
    except (ValueError, UnicodeDecodeError):
        return True
    action = body.get("action") if isinstance(body, dict) else None
    return not (isinstance(action, str) and action in READ_ACTIONS)


class JsonCORSMiddleware(CORSMiddleware):
    """Starlette's CORS, with a refused preflight answered in the error shape (400 ``cors_rejected``)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code != 400:
            return response
        failures = bytes(response.body).decode().removeprefix("Disallowed CORS ").split(", ")
        headers = {k: v for k, v in response.headers.items() if k.lower() not in {"content-length", "content-type"}}
        return JSONResponse(
            error_body("cors_rejected", f"this cross-origin request is not allowed: {', '.join(failures)}",
                       {"refused": failures}),
            status_code=400, headers=headers,
        )


def install_security(app: FastAPI, settings: Settings) -> None:
    """Answer 401/429 in the error shape with their headers; add CORS (outermost) when origins are configured."""

    @app.exception_handler(HeaderedApiError)
    async def headered(_: Request, exc: HeaderedApiError) -> JSONResponse:
        status, body = service_error(exc)
        return JSONResponse(body, status_code=status, headers=exc.headers)

    if settings.cors_origins:
        app.add_middleware(
            JsonCORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Accept", "Authorization", "Content-Type", "X-API-Key", "X-Workspace"],
            expose_headers=["Retry-After"],
            max_age=600,
        )


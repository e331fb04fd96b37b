"""HTTP client for a running service (``aer ... --server URL``): same actions, same error shape.

``workspace`` (or the attribute of that name, changed between calls) sends every call to one workspace: the
``X-Workspace`` header on each request, the query, uploads and job polls alike; None leaves the choice to the
server (its default workspace, or the key's own).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

import httpx
from pydantic import BaseModel
from pydantic.alias_generators import to_camel

from app.schemas import API_PATH
from graphs.domain import Document

DEFAULT_TIMEOUT_S = 300.0  # an ingest batch embeds on the server's CPU; a query may wait for an LLM
DEFAULT_BATCH_SIZE = 100
# Stays under the server's default 5 MB body limit (AER_MAX_BODY_BYTES) with room for the envelope.
DEFAULT_BATCH_BYTES = 4_000_000
JOB_POLL_S = 1.0
FINISHED = ("done", "failed", "cancelled")
WORKSPACE_HEADER = "X-Workspace"
WORKSPACES_PATH = "/api/workspaces"


class RemoteError(Exception):
    """The server answered with an error (or could not be reached: ``status`` 0)."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}" if status else f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details


def normalize_base_url(url: str) -> str:
    """``host:8000``, ``http://host:8000/`` and the full API URL all name the same server."""
    url = url.strip()
    if not url:
        raise ValueError("server URL is empty")
    if "://" not in url:
        url = f"http://{url}"
    url = url.rstrip("/")
    if url.endswith(API_PATH):
        url = url[: -len(API_PATH)]
    return url


def camel_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``top_k=3`` -> ``{"topK": 3}``; camelCase keys pass through; None values are left out."""
    return {to_camel(k) if "_" in k else k: v for k, v in options.items() if v is not None}


def _payload(item: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(item, Document):  # the API takes id, title, text and metadata (a file's structure stays here)
        return item.model_dump(by_alias=True, mode="json", include={"id", "title", "text", "metadata"})
    if isinstance(item, BaseModel):
        return item.model_dump(by_alias=True, mode="json")
    return dict(item)


def _error_from(response: httpx.Response) -> RemoteError:
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        err = body["error"]
        return RemoteError(
            response.status_code,
            str(err.get("code") or "http_error"),
            str(err.get("message") or response.reason_phrase),
            err.get("details"),
        )
    text = response.text.strip()[:500] or response.reason_phrase
    return RemoteError(response.status_code, "http_error", text)


def iter_sse(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(event, data)`` pairs of a server-sent event stream; comments (pings) are skipped."""
    event = ""
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r")
        if not line:
            if data:
                yield event or "message", "\n".join(data)
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
    if data:
        yield event or "message", "\n".join(data)


class RemoteClient:
    """Calls ``/api/adaptive-entity-rag`` of a running server; every method raises ``RemoteError`` on failure."""

    def __init__(
        self,
        base_url: str,
        timeout: float = DEFAULT_TIMEOUT_S,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        batch_bytes: int = DEFAULT_BATCH_BYTES,
        transport: httpx.BaseTransport | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
    ) -> None:
        if batch_size < 1 or batch_bytes < 1:
            raise ValueError("batch_size and batch_bytes must be positive")
        self.workspace = workspace
        """The workspace every call goes to (``X-Workspace``); None: the server's default (or the key's own)."""
        self.base_url = normalize_base_url(base_url)
        self.batch_size = batch_size
        self.batch_bytes = batch_bytes
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout, connect=min(10.0, timeout)),
            transport=transport,
            # The key goes in a header (never in the URL, which servers and proxies log).
            headers={"accept": "application/json", **({"x-api-key": api_key} if api_key else {})},
        )

    def __enter__(self) -> RemoteClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    # -- plumbing -------------------------------------------------------------------------

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        if self.workspace:
            kwargs["headers"] = {**kwargs.get("headers", {}), WORKSPACE_HEADER: self.workspace}
        try:
            return self._http.request(method, path, **kwargs)
        except httpx.TimeoutException as exc:
            raise RemoteError(0, "timeout", f"{self.base_url} did not answer in time ({exc})") from exc
        except httpx.TransportError as exc:
            raise RemoteError(0, "connection_failed", f"cannot reach {self.base_url}: {exc}") from exc

    def _json(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        response = self._send(method, path, **kwargs)
        if response.is_error:
            raise _error_from(response)
        try:
            body = response.json()
        except ValueError as exc:
            raise RemoteError(
                response.status_code,
                "invalid_response",
                f"expected JSON, got {response.headers.get('content-type', 'nothing')}",
            ) from exc
        if not isinstance(body, dict):
            raise RemoteError(response.status_code, "invalid_response", "expected a JSON object")
        return body

    def _action(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._json("POST", API_PATH, json=body)

    # -- health ---------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """``GET /healthz``: the process is up."""
        return self._json("GET", "/healthz")

    def ready(self) -> dict[str, Any]:
        """``GET /readyz``: ``{ready, checks}``; a not-ready server (503) is an answer, not an error."""
        response = self._send("GET", "/readyz")
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and "ready" in body:
            return body
        raise _error_from(response)

    # -- actions --------------------------------------------------------------------------

    def query(self, question: str, **options: Any) -> dict[str, Any]:
        """Answer one question; options are the API's (``top_k``/``topK``, ``search_mode``, ``fusion`` ...)."""
        opts = camel_options(options)
        opts.pop("stream", None)
        return self._action({"action": "query", "question": question, **opts, "stream": False})

    def add_entity(self, entity: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
        """Add an entity or merge its aliases (``{success, entity}``); an alias owned by another is 409."""
        fields = camel_options(_payload(entity))
        fields.pop("action", None)
        return self._action({"action": "add-entity", **fields})

    def remove_aliases(self, standard_name: str, aliases: Iterable[str]) -> dict[str, Any]:
        """Remove aliases from an entity (``{success, entity, retagged}``); 404 ``entity_not_found`` if unknown."""
        return self._action({"action": "remove-alias", "standardName": standard_name, "aliases": list(aliases)})

    def delete_entity(self, standard_name: str) -> dict[str, Any]:
        """Delete an entity (``{success, entity, untagged}``); 404 ``entity_not_found`` if unknown."""
        return self._action({"action": "delete-entity", "standardName": standard_name})

    def batches(self, docs: Iterable[BaseModel | Mapping[str, Any]]) -> Iterator[list[dict[str, Any]]]:
        """Split documents into requests of at most ``batch_size`` documents and about ``batch_bytes``."""
        batch: list[dict[str, Any]] = []
        size = 0
        seen: set[str] = set()
        for doc in docs:
            item = _payload(doc)
            doc_id = str(item.get("id", ""))
            if doc_id in seen:
                raise ValueError(f"document id {doc_id!r} appears twice")
            seen.add(doc_id)
            n = len(json.dumps(item, ensure_ascii=False).encode())
            if batch and (len(batch) >= self.batch_size or size + n > self.batch_bytes):
                yield batch
                batch, size = [], 0
            batch.append(item)
            size += n
        if batch:
            yield batch

    def add_documents(
        self,
        docs: Iterable[BaseModel | Mapping[str, Any]],
        progress: Callable[[int], None] | None = None,
        *,
        skip_unchanged: bool = False,
    ) -> dict[str, Any]:
        """Ingest documents in batches (an existing id is replaced); totals of all batches.

        A batch the server runs as a job (202) is followed until it finishes. Batches already sent stay
        ingested if a later one fails; the error says how many were.
        """
        total: dict[str, Any] = {"success": True, "documents": 0, "chunks": 0, "ids": [], "skipped": [],
                                 "replaced": [], "failed": [], "batches": 0}
        for batch in self.batches(docs):
            try:
                response = self._send("POST", API_PATH, json={"action": "add-documents", "documents": batch,
                                                              "skipUnchanged": skip_unchanged})
                if response.is_error:
                    raise _error_from(response)
                body = response.json()
                if response.status_code == 202:
                    body = self._job_totals(self.wait_job(body["jobId"]))
            except RemoteError as exc:
                if total["batches"]:
                    exc.details = {"server": exc.details, "ingestedBefore": total["documents"]}
                raise
            total["documents"] += int(body.get("documents", len(batch)))
            total["chunks"] += int(body.get("chunks", 0))
            total["ids"].extend(body.get("ids", [d.get("id") for d in batch]))
            total["skipped"].extend(body.get("skipped", []))
            total["replaced"].extend(body.get("replaced", []))
            total["failed"].extend(body.get("failed", []))
            total["batches"] += 1
            if progress:
                progress(len(batch))
        return total

    @staticmethod
    def _job_totals(job: dict[str, Any]) -> dict[str, Any]:
        """A finished job as an add-documents answer (a job that failed is an error)."""
        outcomes = job["documents"]
        if job["status"] == "failed" and not any(o["status"] in ("done", "replaced", "reread", "skipped")
                                                 for o in outcomes):
            raise RemoteError(200, "job_failed", job.get("error") or "the ingest job failed", {"jobId": job["id"]})
        written = ("done", "replaced", "reread")
        return {"documents": sum(o["status"] in written for o in outcomes), "chunks": job["progress"]["chunks"],
                "ids": [o["id"] for o in outcomes if o["status"] in written],
                "replaced": [o["id"] for o in outcomes if o["status"] == "replaced"],
                "reread": [o["id"] for o in outcomes if o["status"] == "reread"],
                "skipped": [o["id"] for o in outcomes if o["status"] == "skipped"],
                "failed": [o for o in outcomes if o["status"] in ("failed", "pending")]}

    # -- files, jobs and the inventory ------------------------------------------------------

    def upload(self, files: Sequence[tuple[str, bytes]], *, metadata: Mapping[str, Any] | None = None,
               root: str | None = None, skip_unchanged: bool = True) -> dict[str, Any]:
        """Upload files (``(name, bytes)``) as one ingest job: ``{jobId, files[]}`` (202)."""
        data: dict[str, str] = {"skipUnchanged": "true" if skip_unchanged else "false"}
        if metadata:
            data["metadata"] = json.dumps(metadata, ensure_ascii=False)
        if root is not None:
            data["root"] = root
        return self._json("POST", f"{API_PATH}/upload", files=[("files", (name, content)) for name, content in files],
                          data=data)

    def job(self, job_id: str, offset: int = 0, limit: int = 100) -> dict[str, Any]:
        """A job's status, progress and a page of its documents' outcomes."""
        return self._json("GET", API_PATH, params={"action": "job", "id": job_id, "offset": offset,
                                                   "limit": limit})["job"]

    def cancel_job(self, job_id: str) -> dict[str, Any]:
        """Cancel a queued or running ingest job (404 ``job_not_found``; 409 ``job_finished``): the job as it
        stands."""
        return dict(self._action({"action": "cancel-job", "id": job_id})["job"])

    def jobs(self, limit: int = 20, *, unfinished: bool = False) -> list[dict[str, Any]]:
        """The workspace's newest ingest jobs with their progress, newest first."""
        return list(self._json("GET", API_PATH, params={"action": "jobs", "limit": limit,
                                                        "unfinished": str(unfinished).lower()})["jobs"])

    def wait_job(self, job_id: str, *, timeout_s: float = 24 * 3600.0, poll_s: float = JOB_POLL_S,
                 on_progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """Poll a job until it is done, failed or cancelled; the finished job with every document's outcome."""
        deadline = time.monotonic() + timeout_s
        while True:
            job = self.job(job_id, limit=1)
            if on_progress:
                on_progress(job)
            if job["status"] in FINISHED:
                break
            if time.monotonic() > deadline:
                raise RemoteError(0, "timeout", f"job {job_id} did not finish in {timeout_s:.0f} s")
            time.sleep(poll_s)
        outcomes: list[dict[str, Any]] = []
        while len(outcomes) < job["progress"]["total"]:
            page = self.job(job_id, offset=len(outcomes), limit=500)
            if not page["documents"]:
                break
            outcomes += page["documents"]
            job = {**page, "documents": outcomes}
        return job

    def list_documents(self, offset: int = 0, limit: int = 100, *, source: str | None = None,
                       title: str | None = None, root: str | None = None) -> dict[str, Any]:
        """One page of the inventory: ``{total, offset, limit, documents}``."""
        params = camel_options({"action": "documents", "offset": offset, "limit": limit, "source": source,
                                "title": title, "root": root})
        return self._json("GET", API_PATH, params=params)

    def document(self, doc_id: str) -> dict[str, Any]:
        """A document and its chunks (``{document, chunks}``); an unknown id is 404."""
        return self._json("GET", API_PATH, params={"action": "document", "id": doc_id})

    def delete_document(self, doc_id: str) -> dict[str, Any]:
        """Delete a document and its chunks (``{success, id, deletedChunks}``); an unknown id is 404."""
        return self._action({"action": "delete-document", "id": doc_id})

    def list_entities(self, type: str | None = None, offset: int = 0, limit: int = 100) -> dict[str, Any]:
        """One page of entities: ``{success, total, offset, limit, entities}``."""
        params: dict[str, Any] = {"action": "entities", "offset": offset, "limit": limit}
        if type:
            params["type"] = type
        return self._json("GET", API_PATH, params=params)


    # -- workspaces -------------------------------------------------------------------------

    def list_workspaces(self) -> list[dict[str, Any]]:
        """The workspaces this key may use (each ``{name, documents, chunks, sizeBytes, lastWrite, ...}``)."""
        body = self._json("GET", WORKSPACES_PATH)
        workspaces = body.get("workspaces")
        if not isinstance(workspaces, list):
            raise RemoteError(200, "invalid_response", "expected a workspaces list")
        return workspaces

    def create_workspace(self, name: str) -> dict[str, Any]:
        """Create a workspace (409 if it exists; an admin key where keys are configured)."""
        return self._json("POST", WORKSPACES_PATH, json={"name": name})

    def workspace_info(self, name: str) -> dict[str, Any]:
        """One workspace's counts; 404 ``workspace_not_found`` if absent (or not this key's)."""
        return self._json("GET", f"{WORKSPACES_PATH}/{name}")

    def delete_workspace(self, name: str) -> dict[str, Any]:
        """Delete a workspace and everything it holds (``default`` cannot be deleted)."""
        return self._json("DELETE", f"{WORKSPACES_PATH}/{name}")


__all__ = ["API_PATH", "RemoteClient", "RemoteError", "iter_sse", "normalize_base_url"]

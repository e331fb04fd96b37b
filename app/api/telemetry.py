"""Every HTTP request: a request id, a count and a latency in the metrics, and a server span when tracing is on.

A pure ASGI middleware (no buffering: a streamed answer is timed to its last byte). The action label is what
the route set on ``request.state.action`` (the body's ``action`` of the RAG endpoint, ``upload``), else the
path's, else the name of the route that served it (``list_evaluations``, ``static``), else ``other`` (a
path no route serves): a bounded set, so a scan of random paths cannot grow the metrics. The request id is the caller's
``X-Request-ID`` when it is a plain token, else a new one; it is answered in ``X-Request-ID`` and kept on
``request.state.request_id`` for the routes. The workspace label and the span's ``aer.workspace`` are the
workspace the request was served from (``request.state.workspace``, set where its resources are resolved),
empty when it reached none.
"""

from __future__ import annotations

import re
import time
from typing import Any
from uuid import uuid4

from opentelemetry.trace import SpanKind, Status, StatusCode
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.observability.tracing import WORKSPACE_ATTRIBUTE
from app.schemas import API_PATH

REQUEST_ID_HEADER = "x-request-id"
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
PATH_ACTIONS = {
    API_PATH: {"GET": "entities", "POST": "invalid"},  # a POST the route never saw did not parse as an action
    "/v1/chat/completions": {"POST": "chat.completions"},
    "/v1/models": {"GET": "models"},
    "/mcp": {},
    "/metrics": {},
    "/healthz": {},
    "/readyz": {},
}
DEFAULT_PATH_ACTION = {"/mcp": "mcp", "/metrics": "metrics", "/healthz": "health", "/readyz": "health"}


def request_id(headers: Headers) -> str:
    """The caller's request id when it is a plain token, else a new one."""
    given = headers.get(REQUEST_ID_HEADER, "")
    return given if _REQUEST_ID.fullmatch(given) else uuid4().hex


def path_action(method: str, path: str, route: object = None) -> str:
    """The action label of a request its route did not name (``route``: the route that served it, if any)."""
    if path in PATH_ACTIONS:
        return PATH_ACTIONS[path].get(method, DEFAULT_PATH_ACTION.get(path, "other"))
    if path.startswith(("/docs", "/redoc", "/openapi.json", "/static-offline-docs")):
        return "docs"
    name = getattr(route, "name", None)
    return name if isinstance(name, str) and name else "other"


class RequestTelemetry:
    """Request id, request metrics and the request span (the app's resources hold the metrics and tracer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        resources = getattr(scope["app"].state, "resources", None) if "app" in scope else None
        if resources is None:  # before the lifespan has built them
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        state: dict[str, Any] = scope.setdefault("state", {})
        rid = state["request_id"] = request_id(headers)
        method, path = scope["method"], scope["path"]
        known = path in PATH_ACTIONS
        status = 500  # unless a response starts: an exception escaped every handler
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = rid
            await send(message)

        name = f"{method} {path}" if known else method
        with resources.tracing.span(name, {"http.request.method": method, "url.path": path if known else "other",
                                           "aer.request_id": rid},
                                    kind=SpanKind.SERVER, carrier=headers) as span:
            try:
                await self.app(scope, receive, send_with_id)
            finally:
                action = str(state.get("action") or path_action(method, path, scope.get("route")))
                workspace = state.get("workspace")
                resources.metrics.request(action, status, time.perf_counter() - started, workspace)
                span.set_attribute("http.response.status_code", status)
                span.set_attribute("aer.action", action)
                if workspace:
                    span.set_attribute(WORKSPACE_ATTRIBUTE, workspace)
                if status >= 500:
                    span.set_status(Status(StatusCode.ERROR))

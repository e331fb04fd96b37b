"""Errors on ``/v1/*`` in OpenAI's shape: ``{"error": {"message", "type", "param", "code"}}``.

OpenAI SDKs and chat front ends read ``error.message`` (and pick the exception class by status), so every error
answer under ``/v1/`` — a 422 of the request model, the guard's 401/429, a 404 ``model_not_found``, a 413 of the
body limit, a 503 of a store that is down — is rewritten from the service's own shape (``{success, error: {code,
message, details}}``) at one place, the outermost layer but telemetry, whatever raised it. ``code`` stays the
service's error code; ``param`` is the failing field of a validation error (``messages[0].content``), or null.
(The connection cap's 503 ``server_busy`` is written before any request is read, so it keeps the service's
shape.)
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import field_path

PREFIX = "/v1/"
_TYPES = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}


def error_type(status: int) -> str:
    """OpenAI's ``type`` for a status: invalid_request_error for the other 4xx, server_error for 5xx."""
    return _TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")


def openai_error(status: int, body: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI-shaped error of the service's error body (anything else is returned as it is)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or "code" not in error or body.get("success") is not False:
        return body
    details = error.get("details")
    param = None
    if isinstance(details, list) and details and isinstance(details[0], dict) and "loc" in details[0] \
            and details[0].get("type") != "json_invalid":  # its loc is a character position, not a field
        param = field_path(list(details[0]["loc"]))
    elif isinstance(details, dict) and isinstance(details.get("param"), str):
        param = details["param"]
    return {"error": {"message": str(error.get("message", "")), "type": error_type(status), "param": param,
                      "code": error.get("code")}}


class OpenAIErrorShape:
    """ASGI middleware: a JSON error answer to a ``/v1/`` request is rewritten in OpenAI's shape."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(PREFIX):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        parts: list[bytes] = []

        async def reshaped(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                content_type = dict(message.get("headers", [])).get(b"content-type", b"")
                if message["status"] >= 400 and content_type.startswith(b"application/json"):
                    start = message
                    return
            elif message["type"] == "http.response.body" and start is not None:
                parts.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = _reshape(start["status"], b"".join(parts))
                headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, reshaped)


def _reshape(status: int, raw: bytes) -> bytes:
    try:
        body = json.loads(raw)
    except ValueError:
        return raw
    return json.dumps(openai_error(status, body), ensure_ascii=False).encode()

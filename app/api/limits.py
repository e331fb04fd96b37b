"""ASGI guards on request bodies: a size limit (413, before they are parsed) and a read deadline (408)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_body


class BodyTooLarge(Exception):
    """The body went over the limit while it was being read."""


class BodySizeLimit:
    """Reject bodies larger than ``max_bytes`` (by Content-Length, or while streaming in); ``per_path`` gives
    some paths (the upload) their own limit."""

    def __init__(self, app: ASGIApp, max_bytes: int, per_path: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.per_path = per_path or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope.get("path", ""), self.max_bytes)
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await self._reject(send, limit)
            return
        seen = 0
        started = False
        over = False

        async def limited_receive() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if over and not started:
                return  # the app's answer to the cut-off body (FastAPI: 400 "error parsing the body"): 413 instead
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, limited_receive, tracking_send)
        if over and not started:
            await self._reject(send, limit)

    async def _reject(self, send: Send, limit: int) -> None:
        body = json.dumps(error_body("payload_too_large", f"request body exceeds {limit} bytes",
                                     {"maxBytes": limit})).encode()
        headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class BodyTimedOut(Exception):
    """The body did not arrive before the deadline."""


class BodyReadDeadline:
    """Answer 408 ``request_timeout`` (and close the connection) when a request's body takes longer than
    ``timeout_s`` from the start of the request to arrive: a client that announces ``Content-Length: 100000``
    and sends ten bytes no longer holds its connection and its handler for ever. Works under any ASGI server;
    ``aer serve`` adds the header deadline, which only the server can see (``app.api.serving``)."""

    def __init__(self, app: ASGIApp, timeout_s: float) -> None:
        self.app = app
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        complete = False
        late = False
        started = False

        async def timed_receive() -> Message:
            nonlocal complete, late
            if complete:  # after the body, receive() only waits for a disconnect: no deadline
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                late = True
                raise BodyTimedOut from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if late and not started:
                return  # the app's answer to the cut-off body (FastAPI: 400 "error parsing the body"): 408 instead
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(BodyTimedOut):
            await self.app(scope, timed_receive, tracking_send)
        if late and not started:
            body = json.dumps(error_body("request_timeout", f"the request body did not arrive within "
                                         f"{self.timeout_s:g} s", {"timeoutSeconds": self.timeout_s})).encode()
            headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                  (b"connection", b"close")]
            await send({"type": "http.response.start", "status": 408, "headers": headers})
            await send({"type": "http.response.body", "body": body})

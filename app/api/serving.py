"""How ``aer serve`` runs the app under uvicorn: trusted proxies, deadlines for slow clients, a connection cap
and an access log without secrets.

uvicorn (0.54, h11) has no deadline for a request's headers or body: a client that sends half a request line,
or ``Content-Length: 100000`` and ten bytes, holds its connection for ever (``timeout_keep_alive`` only runs
between requests, and any byte received cancels it). ``limit_concurrency`` answers a plain-text 503 per request
but never closes a silent connection. So the server runs ``GuardedH11Protocol``, uvicorn's own h11 protocol
with three additions:

- a header deadline (``AER_HEADER_TIMEOUT_S``): from the connection's first byte (or from the moment it opens)
  to the end of the request's headers; past it, 408 ``request_timeout`` and the connection is closed;
- a body backstop: a body still incomplete ``AER_BODY_TIMEOUT_S`` (+1 s) after its headers closes the
  connection, also where the app never reads it. Bodies the app reads get their 408 in the error shape from
  ``app.api.limits.BodyReadDeadline`` first, which works under any ASGI server (the LangGraph server too);
- a connection cap with a per-client share: a client address (a trusted proxy's excepted) holds at most
  ``AER_MAX_CONNECTIONS_PER_CLIENT`` connections, and the server at most ``AER_MAX_CONNECTIONS``. A connection
  beyond either first frees an idle one (no request in flight: an idle keep-alive socket, or one that never
  sent a request), the client's own least recently active one, or, when the server is full, that of the
  client holding the most; with none idle it is answered 503 ``server_busy`` and closed at once, before
  anything is read. One client holding many idle sockets so locks out only itself;
- a request target written as the user typed it: ``curl "…?action=document&id=指南/会员制度.docx"`` sends the
  name's UTF-8 bytes unencoded, which h11 refuses (RFC 9112 allows only ASCII there) with a bare "Invalid HTTP
  request received." that names neither the cause nor a way out. Those bytes are percent-encoded as they arrive,
  as a browser encodes a typed address, so the request means what it says (``encode_request_line``).

Proxy headers (``X-Forwarded-For``/``-Proto``) are honoured only from ``AER_FORWARDED_ALLOW_IPS`` (none by
default): uvicorn's own default trusts 127.0.0.1, so any local client could pick its address, and the rate
limit's. Every log line (access, errors, tracebacks; ``install_redaction`` adds the CLI's root handler) has the
values of secret-like URL parameters redacted by one function, ``redact`` (``?api_key=…`` → ``?api_key=***``,
``;pw=…`` → ``;pw=***``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import ipaddress
import json
import logging
import re
from typing import Any

import h11
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.api.errors import error_body
from app.observability.redaction import (
    REDACTED,
    RedactSecrets,
    install_redaction,
    redact,
    redact_query,
    secret_name,
)
from app.settings import Settings

log = logging.getLogger("uvicorn.error")
__all__ = ["REDACTED", "RedactSecrets", "install_redaction", "redact", "redact_query", "secret_name"]

BODY_GRACE_S = 1.0  # the app's own 408 comes first; the backstop closes what nobody reads
def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with ``RedactSecrets`` on its loggers and on its handlers (which the
    records of every logger that propagates to them pass)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_secrets"] = {"()": f"{RedactSecrets.__module__}.RedactSecrets"}
    for name in ("uvicorn.access", "uvicorn.error"):
        config["loggers"][name].setdefault("filters", []).append("redact_secrets")
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_secrets")
    return config


def _raw_response(status: int, reason: str, code: str, message: str) -> bytes:
    """A complete HTTP/1.1 error response (error shape, ``Connection: close``) for a connection that has no
    request h11 could answer."""
    body = json.dumps(error_body(code, message)).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n")
    return head.encode("ascii") + body


FRESH_GRACE_S = 0.25
"""A connection that has sent no request yet counts as idle (one to close for room) only after this long."""


def encode_request_line(buffered: bytes, data: bytes) -> bytes:
    """``data`` with the bytes above ASCII percent-encoded where they belong to a request line: from its start
    to the first line end, when nothing of the request's headers has arrived yet (``buffered``: what the
    parser holds of the request so far). A header's bytes are never touched."""
    if b"\n" in buffered.lstrip(b"\r\n"):
        return data  # the request line is complete: these are header or body bytes
    lead = len(data) - len(data.lstrip(b"\r\n")) if not buffered.strip(b"\r\n") else 0
    end = data.find(b"\n", lead)
    line, rest = (data, b"") if end < 0 else (data[:end], data[end:])
    if line.isascii():
        return data
    return _HIGH_BYTE.sub(lambda m: b"%%%02X" % m.group()[0], line) + rest


_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a body backstop and a connection cap (class attributes,
    set by ``guarded_protocol``)."""

    header_timeout_s: float = 30.0
    body_timeout_s: float = 30.0
    max_connections: int = 256
    max_connections_per_client: int = 32
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None = ()
    """Addresses without a share (a proxy's connections carry many clients); None: every address (``*``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase: tuple[str, int] | None = None
        self._active_at = 0.0
        self._connected_at = 0.0
        self._served = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._active_at = self._connected_at = self.loop.time()
        host = self._host()
        if self._shared(host):
            mine = [c for c in self._peers() if c._host() == host]
            if len(mine) >= self.max_connections_per_client and not self._free_one(mine):
                self._refuse(f"{len(mine)} connections open from {host} "
                             f"(AER_MAX_CONNECTIONS_PER_CLIENT={self.max_connections_per_client})",
                             f"this client has {self.max_connections_per_client} open connections; "
                             "close some or retry later")
                return
        peers = self._peers()
        if len(peers) >= self.max_connections and not self._free_heaviest(peers):
            self._refuse(f"{len(peers)} connections open (AER_MAX_CONNECTIONS={self.max_connections})",
                         f"the server has {self.max_connections} open connections; retry later")
            return
        self._watch()

    def data_received(self, data: bytes) -> None:
        self._active_at = self.loop.time()
        if self.conn.their_state is h11.IDLE:  # waiting for a request line (or in one)
            data = encode_request_line(bytes(self.conn.trailing_data[0]), data)
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        self._active_at = self.loop.time()
        self._served = True
        super().on_response_complete()
        self._watch()

    # -- the connection cap and each client's share

    def _host(self) -> str:
        return str(self.client[0]) if self.client else "?"

    def _shared(self, host: str) -> bool:
        """Whether ``host`` is held to a per-client share (every address but a trusted proxy's)."""
        if self.trusted_proxies is None:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return True
        return not any(address in network for network in self.trusted_proxies)

    def _peers(self) -> list[GuardedH11Protocol]:
        """The other open connections this cap counts (not this one, not one already closing)."""
        return [c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol)
                and c.transport is not None and not c.transport.is_closing()]

    def _idle(self) -> bool:
        """No request in flight: between requests on a keep-alive socket, or none sent for ``FRESH_GRACE_S``
        (a connection just made usually has its first request on the way: closing it would cut a client's
        request, where refusing the new connection with a 503 tells it plainly)."""
        quiet = ((self.cycle is None or self.cycle.response_complete) and self.conn.their_state is h11.IDLE
                 and self.conn.our_state is h11.IDLE)
        return quiet and (self._served or self.loop.time() - self._connected_at >= FRESH_GRACE_S)

    def _free_one(self, connections: list[GuardedH11Protocol]) -> bool:
        """Close the least recently active idle connection of ``connections``; False when none is idle."""
        idle = [c for c in connections if c._idle()]
        if not idle:
            return False
        victim = min(idle, key=lambda c: c._active_at)
        log.info("closed an idle connection from %s to make room for another", victim._host())
        victim._close_idle()
        return True

    def _free_heaviest(self, peers: list[GuardedH11Protocol]) -> bool:
        """The server is full: close an idle connection of the client holding the most (never one of a client
        holding fewer than this one's)."""
        held: dict[str, list[GuardedH11Protocol]] = {}
        for c in peers:
            held.setdefault(c._host(), []).append(c)
        mine = len(held.get(self._host(), ()))
        for _, group in sorted(held.items(), key=lambda item: -len(item[1])):
            if len(group) < mine:
                break
            if self._free_one(group):
                return True
        return False

    def _close_idle(self) -> None:
        self._cancel()
        self.connections.discard(self)
        with contextlib.suppress(h11.LocalProtocolError):  # h11 refuses it in some states: close anyway
            self.conn.send(h11.ConnectionClosed())
        self.transport.close()

    def _refuse(self, why: str, message: str) -> None:
        log.warning("refused a connection from %s: %s", self._host(), why)
        self.connections.discard(self)
        self.transport.write(_raw_response(503, "Service Unavailable", "server_busy", message))
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Keep one deadline armed for the phase the client is in: sending headers, or sending a body."""
        if self.transport is None or self.transport.is_closing():
            self._cancel()
            return
        state = self.conn.their_state
        kind = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        phase = (kind, id(self.cycle)) if kind else None
        if phase == self._phase:
            return  # the same phase of the same request: its deadline keeps running
        self._cancel()
        self._phase = phase
        if kind == "headers":
            self._deadline = self.loop.call_later(self.header_timeout_s, self._headers_late)
        elif kind == "body":
            self._deadline = self.loop.call_later(self.body_timeout_s + BODY_GRACE_S, self._body_late)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        log.info("closed a connection from %s: no complete request headers within %g s",
                 self.client[0] if self.client else "?", self.header_timeout_s)
        self.transport.write(_raw_response(
            408, "Request Timeout", "request_timeout",
            f"the request headers did not arrive within {self.header_timeout_s:g} s"))
        self.transport.close()

    def _body_late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        log.info("closed a connection from %s: the request body did not arrive within %g s",
                 self.client[0] if self.client else "?", self.body_timeout_s)
        self.transport.close()


def guarded_protocol(settings: Settings) -> type[GuardedH11Protocol]:
    """``GuardedH11Protocol`` with the deadlines and the cap of ``settings``."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {
        "header_timeout_s": settings.header_timeout_s,
        "body_timeout_s": settings.body_timeout_s,
        "max_connections": settings.max_connections,
        "max_connections_per_client": settings.max_connections_per_client,
        "trusted_proxies": (None if "*" in settings.forwarded_allow_ips else
                            tuple(ipaddress.ip_network(a, strict=False) for a in settings.forwarded_allow_ips)),
    })


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments ``aer serve`` gives ``uvicorn.run`` besides the app, host and port."""
    trusted = settings.forwarded_allow_ips
    return {
        "http": guarded_protocol(settings),
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or [],
        "log_config": log_config(),
        "workers": 1,  # a Milvus Lite file belongs to one process
    }

"""``aer serve``'s uvicorn options, the access-log redaction and the body read deadline, in process
(tests/integration/test_hardened_server.py drives them in a real server)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from pydantic import ValidationError
from uvicorn.config import Config

from app.api.limits import BodyReadDeadline
from app.api.serving import (
    GuardedH11Protocol,
    RedactSecrets,
    encode_request_line,
    log_config,
    redact_query,
    uvicorn_options,
)
from app.settings import Settings


def settings(**overrides: Any) -> Settings:
    return Settings(_env_file=None, **overrides)  # type: ignore[call-arg]


@pytest.mark.parametrize(("target", "expected"), [
    ("/api?api_key=s3cret", "/api?api_key=***"),
    ("/api?apiKey=a&token=b&access_token=c&password=d&X-Api-Key=e", "/api?apiKey=***&token=***&access_token=***"
     "&password=***&X-Api-Key=***"),
    ("/api?action=entities&type=PERSON", "/api?action=entities&type=PERSON"),
    ("/api?auth%5Fkey=z&limit=5", "/api?auth%5Fkey=***&limit=5"),
    ("/api?flag&key=", "/api?flag&key=***"),
    ("/healthz", "/healthz"),
])
def test_key_like_query_values_are_redacted(target: str, expected: str) -> None:
    assert redact_query(target) == expected


def test_the_access_log_record_is_redacted_before_any_handler_sees_it() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "POST", "/api?api_key=s3cret&x=1", "1.1", 401), None)
    assert RedactSecrets().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "POST /api?api_key=***&x=1 HTTP/1.1" 401'
    config = log_config()
    assert "redact_secrets" in config["loggers"]["uvicorn.access"]["filters"]
    assert "redact_secrets" in config["loggers"]["uvicorn.error"]["filters"]


def test_proxy_headers_are_ignored_unless_proxies_are_configured() -> None:
    options = uvicorn_options(settings())
    assert options["proxy_headers"] is False
    config = Config(app=lambda *_: None, **options)  # uvicorn's default would trust 127.0.0.1
    config.load()
    assert type(config.loaded_app).__name__ != "ProxyHeadersMiddleware"
    trusted = uvicorn_options(settings(forwarded_allow_ips="10.0.0.1, 192.168.0.0/16"))
    assert trusted["proxy_headers"] is True and trusted["forwarded_allow_ips"] == ["10.0.0.1", "192.168.0.0/16"]


def test_a_mistyped_proxy_address_fails_at_start() -> None:
    with pytest.raises(ValidationError, match="not an IP address"):
        settings(forwarded_allow_ips="10.0.0.300")
    assert settings(forwarded_allow_ips="*").forwarded_allow_ips == ["*"]


def test_the_protocol_carries_the_configured_deadlines_and_cap() -> None:
    protocol = uvicorn_options(settings(header_timeout_s=3, body_timeout_s=4, max_connections=7))["http"]
    assert issubclass(protocol, GuardedH11Protocol)
    assert (protocol.header_timeout_s, protocol.body_timeout_s, protocol.max_connections) == (3, 4, 7)


async def _run(app: Any, messages: list[dict[str, Any]], hang: bool) -> list[dict[str, Any]]:
    """Run ``app`` on one request whose body is ``messages``, then (``hang``) nothing more."""
    sent: list[dict[str, Any]] = []
    queue = list(messages)

    async def receive() -> dict[str, Any]:
        if queue:
            return queue.pop(0)
        if hang:
            await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    await asyncio.wait_for(app(scope, receive, send), 10)
    return sent


async def _echo(scope: Any, receive: Any, send: Any) -> None:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


async def test_a_body_that_stops_arriving_is_answered_408_with_connection_close() -> None:
    guard = BodyReadDeadline(_echo, timeout_s=0.2)
    sent = await _run(guard, [{"type": "http.request", "body": b"{\"a\":", "more_body": True}], hang=True)
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    body = json.loads(sent[1]["body"])
    assert body["error"]["code"] == "request_timeout" and body["error"]["details"] == {"timeoutSeconds": 0.2}


async def test_a_body_in_time_passes_and_the_deadline_ends_with_it() -> None:
    guard = BodyReadDeadline(_echo, timeout_s=0.2)
    sent = await _run(guard, [{"type": "http.request", "body": b"ab", "more_body": True},
                              {"type": "http.request", "body": b"c", "more_body": False}], hang=False)
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"abc"


NAME = "库房/借用规则.md".encode()


@pytest.mark.parametrize(("buffered", "data", "expected"), [
    # a typed address: the name's UTF-8 bytes in the target are encoded, the headers after it left alone
    (b"", b"GET /api?id=" + NAME + b" HTTP/1.1\r\nX-Note: " + NAME + b"\r\n\r\n",
     b"GET /api?id=%E5%BA%93%E6%88%BF/%E5%80%9F%E7%94%A8%E8%A7%84%E5%88%99.md HTTP/1.1\r\nX-Note: " + NAME
     + b"\r\n\r\n"),
    # the line split across two reads: the second part is still the line
    (b"GET /api?id=", NAME[:4] + b" HTTP/1.1\r\n", b"%E5%BA%93%E6 HTTP/1.1\r\n"),
    # blank lines before a request line are skipped, not taken for its end
    (b"", b"\r\nGET /\xc3\xa9 HTTP/1.1\r\n", b"\r\nGET /%C3%A9 HTTP/1.1\r\n"),
    # the line is complete already: a header's bytes arriving later are not touched
    (b"GET / HTTP/1.1\r\nX-A: 1", b"\xc3\xa9\r\n\r\n", b"\xc3\xa9\r\n\r\n"),
    (b"", b"GET /api?id=plain HTTP/1.1\r\n\r\n", b"GET /api?id=plain HTTP/1.1\r\n\r\n"),
])
def test_a_request_line_with_bytes_above_ascii_is_percent_encoded(buffered: bytes, data: bytes,
                                                                    expected: bytes) -> None:
    assert encode_request_line(buffered, data) == expected


async def test_a_raw_chinese_document_id_in_a_url_reaches_the_app_as_typed() -> None:
    import uvicorn

    seen: list[tuple[str, bytes]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        seen.append((scope["path"], scope["query_string"]))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    config = uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="off", log_level="warning",
                            **{k: v for k, v in uvicorn_options(settings()).items() if k == "http"})
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(1000):  # uvicorn says when it listens only by this flag
        if server.started:
            break
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /\xe6\x96\x87\xe4\xbb\xb6?id=" + NAME + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 10)
        writer.close()
    finally:
        server.should_exit = True
        await task
    assert status.startswith(b"HTTP/1.1 200"), status
    assert seen == [("/文件", b"id=%E5%BA%93%E6%88%BF/%E5%80%9F%E7%94%A8%E8%A7%84%E5%88%99.md")]

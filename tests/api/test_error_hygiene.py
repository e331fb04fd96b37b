"""Error messages carry no internals: an outage's answer names what failed in plain words on every surface
(JSON, stream, chat, MCP, /readyz, a job's status); the driver's text (gRPC status, addresses, file paths)
goes to the server log."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from fastapi.testclient import TestClient

from graphs.embeddings import EmbedderUnavailable, upstream_failure
from graphs.ingest.jobs import plain_failure
from graphs.stores.base import StoreUnavailable
from tests.support.apps import URL, running_app

GRPC = ('query failed: <_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE details = '
        '"failed to connect to all addresses; last error: UNKNOWN: ipv4:10.9.8.7:19530: Connection refused" '
        'debug_error_string = "UNKNOWN:Error received from peer">; /srv/aer/data/milvus.db')
INTERNALS = ("StatusCode", "10.9.8.7", "_InactiveRpcError", "/srv/aer", "debug_error_string", "Traceback")
QUESTION = "什么是机器学习？"


def clean(text: str) -> None:
    for internal in INTERNALS:
        assert internal not in text, text


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("hygiene")) as c:
        yield c


@pytest.fixture
def milvus_down(client: TestClient) -> Iterator[None]:
    resources = client.app.state.resources  # type: ignore[attr-defined]
    healthy = resources.context

    class Down:
        def __getattr__(self, name: str) -> Any:
            if name.startswith("search") or name in ("ping", "count"):
                def fail(*_: Any, **__: Any) -> Any:
                    raise StoreUnavailable("milvus", GRPC)
                return fail
            return getattr(healthy.index, name)

    whole = resources.index  # the service's whole index (readyz pings it); the nodes search context.index
    down = Down()
    resources.context = dataclasses.replace(healthy, index=down)
    resources.index = down
    try:
        yield
    finally:
        resources.index = whole
        resources.context = healthy


def test_a_store_outage_is_plain_words_on_every_surface(client: TestClient, milvus_down: None,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        r = client.post(URL, json={"action": "query", "question": QUESTION})
    assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"
    message = r.json()["error"]["message"]
    assert "milvus" in message and "unavailable" in message
    clean(r.text)
    assert "10.9.8.7" in caplog.text  # the detail is kept, server-side

    with client.stream("POST", URL, json={"action": "query", "question": QUESTION, "stream": True}) as s:
        body = "".join(s.iter_text())
    assert "store_unavailable" in body
    clean(body)

    chat = client.post("/v1/chat/completions",
                       json={"model": "aer-extractive", "messages": [{"role": "user", "content": QUESTION}]})
    assert chat.status_code == 503
    clean(chat.text)

    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json()["checks"]["milvus"]["ok"] is False
    assert "milvus" in ready.json()["checks"]["milvus"]["error"]
    clean(ready.text)


async def test_an_mcp_tool_error_is_plain_words(client: TestClient, milvus_down: None) -> None:
    from mcp import Client

    from app.mcp_server import build_mcp_server

    resources = client.app.state.resources  # type: ignore[attr-defined]
    async with Client(build_mcp_server(lambda: resources)) as mcp:
        result = await mcp.call_tool("query", {"question": QUESTION})
    assert result.is_error
    text = json.dumps([getattr(c, "text", "") for c in result.content])
    assert "store_unavailable: the milvus store is unavailable" in text
    clean(text)


def test_remote_embedder_failures_say_what_failed_not_the_library_text() -> None:
    request = httpx.Request("POST", "http://10.9.8.7:8080/v1/embeddings")
    refused = openai.APIConnectionError(message="Connection error: [Errno 111] 10.9.8.7:8080 refused",
                                        request=request)
    assert upstream_failure("the embedder e5", refused) == "the embedder e5 could not be reached"
    assert upstream_failure("the embedder e5", RuntimeError("/srv/aer/models/x.onnx: bad")) == (
        "the embedder e5 failed (RuntimeError)")


def test_a_jobs_failure_reason_carries_no_driver_text() -> None:
    clean(plain_failure(StoreUnavailable("milvus", GRPC)))
    assert plain_failure(StoreUnavailable("milvus", GRPC)).startswith("the milvus store is unavailable")
    clean(plain_failure(OSError(f"[Errno 5] Input/output error: '/srv/aer/data/x' {GRPC}")))
    assert plain_failure(EmbedderUnavailable("the embedder e5 returned HTTP 503")).endswith("returned HTTP 503")


def test_open_readiness_never_shows_a_file_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with running_app(tmp_path) as c:
        entities = c.app.state.resources.context.entities  # type: ignore[attr-defined]

        def down() -> None:
            raise StoreUnavailable("sqlite", f"{tmp_path}/entities.sqlite3: disk I/O error")

        monkeypatch.setattr(entities, "ping", down)
        r = c.get("/readyz")
    assert r.status_code == 503 and str(tmp_path) not in r.text and "disk I/O" not in r.text


async def test_an_unexpected_mcp_failure_is_internal_error_without_its_text(client: TestClient,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp import Client

    from app.mcp_server import build_mcp_server
    from app.services import query as service

    async def broken(*_: Any, **__: Any) -> Any:
        raise KeyError("/srv/aer/data/milvus.db row 17")

    monkeypatch.setattr(service, "answer", broken)
    resources = client.app.state.resources  # type: ignore[attr-defined]
    async with Client(build_mcp_server(lambda: resources)) as mcp:
        result = await mcp.call_tool("query", {"question": QUESTION})
    text = json.dumps([getattr(c, "text", "") for c in result.content])
    assert result.is_error and "internal_error: internal server error" in text
    clean(text)


def test_an_unreadable_evaluation_report_is_named_without_the_servers_path(tmp_path: Path) -> None:
    from app.services.evaluations import read_report

    with pytest.raises(ValueError) as refused:
        read_report("x", tmp_path / "eval-x.json")  # gone between the listing and the read
    assert str(refused.value) == "eval-x.json: FileNotFoundError: No such file or directory"

"""Transport-free errors (``app.errors``): the API maps each kind to its HTTP status, the MCP server to a tool
error that starts with the code; an outage is told in plain words, its driver text only logged."""

from __future__ import annotations

import logging
from typing import Any, get_args

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from mcp.server.mcpserver.exceptions import ToolError

from app.api.errors import STATUS, ApiError, http_status, install_error_handlers, service_error
from app.errors import ErrorKind, ServiceError, error_info
from app.mcp_server import LocalTools
from app.observability.metrics import Metrics
from app.observability.tracing import Tracing
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import StoreUnavailable


@pytest.mark.parametrize(("kind", "status"), [
    ("bad_request", 400), ("invalid", 422), ("not_found", 404), ("conflict", 409), ("too_large", 413),
    ("unsupported", 415), ("unavailable", 503),
])
def test_each_kind_has_its_http_status(kind: ErrorKind, status: int) -> None:
    assert http_status(ServiceError(kind, "c", "m")) == status


def test_every_kind_is_mapped() -> None:
    assert set(STATUS) == set(get_args(ErrorKind))


def test_an_api_error_keeps_its_status_and_is_a_service_error() -> None:
    exc = ApiError(401, "unauthorized", "no key")
    assert isinstance(exc, ServiceError) and http_status(exc) == 401
    assert (ApiError(404, "c", "m").kind, ApiError(413, "c", "m").kind) == ("not_found", "too_large")


def test_an_outage_is_a_503_in_plain_words(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="app.errors"):
        status, body = service_error(StoreUnavailable("milvus", "grpc: 10.0.0.7:19530 UNAVAILABLE"))
    assert status == 503
    assert body == {"success": False, "error": {
        "code": "store_unavailable", "details": {"store": "milvus"},
        "message": "the milvus store is unavailable; retry later (the cause is in the server log)"}}
    assert "10.0.0.7" in caplog.text  # the driver's text is logged, never answered
    assert error_info(EmbedderUnavailable("the embedder e5 returned HTTP 503"))["code"] == "embedder_unavailable"


def test_the_api_answers_a_service_error_by_its_kind() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/missing")
    async def missing() -> None:
        raise ServiceError("not_found", "document_not_found", "no document with id 'x'", {"id": "x"})

    r = TestClient(app).get("/missing")
    assert (r.status_code, r.json()) == (404, {"success": False, "error": {
        "code": "document_not_found", "message": "no document with id 'x'", "details": {"id": "x"}}})


class _Resources:
    def __init__(self) -> None:
        self.metrics = Metrics()
        self.tracing = Tracing()


@pytest.mark.parametrize(("raised", "text"), [
    (ServiceError("not_found", "document_not_found", "no document with id 'x'"),
     "document_not_found: no document with id 'x'"),
    (StoreUnavailable("milvus", "grpc: 10.0.0.7"),
     "store_unavailable: the milvus store is unavailable; retry later (the cause is in the server log)"),
])
async def test_mcp_answers_a_service_error_as_a_tool_error_starting_with_its_code(raised: Exception,
                                                                                   text: str) -> None:
    resources = _Resources()
    tools = LocalTools(lambda: resources)  # type: ignore[arg-type,return-value]

    async def work(_: Any) -> None:
        raise raised

    with pytest.raises(ToolError) as err:
        await tools._call("get_document", work)
    assert str(err.value) == text
    assert resources.metrics.mcp_tools.labels("get_document", "error")._value.get() == 1


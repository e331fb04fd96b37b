"""OpenTelemetry spans of real requests, caught by the SDK's in-memory exporter: one per request, one per graph node."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from app.cli import demo_dir
from app.container import Resources
from app.main import create_app
from app.observability.tracing import Tracing
from app.settings import Settings
from tests.support.apps import URL, fast_resources, settings_for

EXPORTER = InMemorySpanExporter()


def traced_resources(settings: Settings) -> Resources:
    return dataclasses.replace(fast_resources(settings), tracing=Tracing.to_exporter(EXPORTER))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path_factory.mktemp("traced")), traced_resources)) as c:
        for line in (demo_dir() / "entities.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                assert c.post(URL, json={"action": "add-entity", **json.loads(line)}).status_code == 200
        docs = [json.loads(line) for line in (demo_dir() / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
                if line.strip()]
        assert c.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        yield c


@pytest.fixture(autouse=True)
def fresh() -> None:
    EXPORTER.clear()


def finished() -> list[ReadableSpan]:
    return list(EXPORTER.get_finished_spans())


def children(spans: list[ReadableSpan], parent: ReadableSpan) -> list[ReadableSpan]:
    assert parent.context is not None
    return sorted((s for s in spans if s.parent is not None and s.parent.span_id == parent.context.span_id),
                  key=lambda s: s.start_time or 0)


def one(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    [span] = [s for s in spans if s.name == name]
    return span


def test_a_query_is_one_request_span_with_a_run_span_and_a_span_per_node(client: TestClient) -> None:
    r = client.post(URL, json={"action": "query", "question": "2008年8月苹果在北京开了什么店？"})
    assert r.status_code == 200
    body = r.json()
    got = finished()
    request = one(got, f"POST {URL}")
    assert request.kind == SpanKind.SERVER and request.parent is None
    assert request.attributes is not None
    assert request.attributes["http.response.status_code"] == 200 and request.attributes["aer.action"] == "query"
    assert request.attributes["aer.request_id"] == r.headers["x-request-id"]
    run = one(got, "rag.query")
    assert run.parent is not None and request.context is not None and run.parent.span_id == request.context.span_id
    assert run.attributes is not None
    assert list(run.attributes["aer.route"]) == [d["action"] for d in body["routingDecision"]["decisions"]]
    assert run.attributes["aer.status"] == "answered" and run.attributes["aer.run_id"] == body["runId"]
    assert run.attributes["aer.relaxations"] == len(body["routingDecision"]["relaxedConstraints"]) >= 1
    nodes = children(got, run)
    steps = body["workflow"]["steps"]
    assert [s.name for s in nodes] == [s["node"] for s in steps]
    for span, step in zip(nodes, steps, strict=True):
        assert span.attributes is not None and span.attributes["aer.summary"] == step["summary"]
        assert span.end_time is not None and span.start_time is not None
        assert (span.end_time - span.start_time) / 1e6 == pytest.approx(step["durationMs"], abs=0.01)
        assert {s.context.trace_id for s in (span, run, request) if s.context} == {request.context.trace_id}
    routes = [s for s in nodes if s.name == "route_query"]
    assert [s.attributes["aer.decision"] for s in routes if s.attributes] == [
        d["action"] for d in body["routingDecision"]["decisions"]]
    searches = [s for s in nodes if s.name == "search_structured"]
    assert [s.attributes["aer.search.results"] for s in searches if s.attributes] == [
        x["count"] for x in body["retrievalDetails"]["searches"]]
    assert searches[0].attributes is not None and "date >= 20080801" in str(searches[0].attributes["aer.search.filter"])
    relax = one(nodes, "relax_constraints")
    assert relax.attributes is not None and list(relax.attributes["aer.relaxed"]) == ["widened DATE=2008-08"]
    parse = one(nodes, "parse_query")
    assert parse.attributes is not None and parse.attributes["aer.intent"] == "factual"
    validate = one(nodes, "validate_entities")
    assert validate.attributes is not None and validate.attributes["aer.entities.valid"] == 3
    write = one(nodes, "write_answer")
    assert write.attributes is not None and write.attributes["aer.status"] == "answered"
    assert write.attributes["aer.citations"] == len(body["citations"])


def test_a_streamed_query_is_traced_the_same(client: TestClient) -> None:
    r = client.post(URL, json={"action": "query", "question": "什么是机器学习？", "stream": True})
    assert r.status_code == 200 and "event: result" in r.text
    got = finished()
    run = one(got, "rag.query")
    assert run.attributes is not None and run.attributes["aer.streamed"] is True
    assert run.parent is not None and run.parent.span_id == one(got, f"POST {URL}").context.span_id  # type: ignore[union-attr]
    nodes = [s.name for s in children(got, run)]
    assert nodes[:3] == ["parse_query", "validate_entities", "configure_team"] and nodes[-1] == "write_answer"


def test_a_caller_trace_is_continued(client: TestClient) -> None:
    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    r = client.get("/healthz", headers={"traceparent": f"00-{trace_id}-{parent_id}-01"})
    assert r.status_code == 200
    span = one(finished(), "GET /healthz")
    assert span.context is not None and span.parent is not None
    assert (f"{span.context.trace_id:032x}", f"{span.parent.span_id:016x}") == (trace_id, parent_id)


def test_a_failed_request_span_is_an_error(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: Any, **__: Any) -> Any:
        raise RuntimeError("bug")

    monkeypatch.setattr(client.app.state.resources.context.index, "search_dense", boom)  # type: ignore[attr-defined]
    failing = TestClient(client.app, raise_server_exceptions=False)
    assert failing.post(URL, json={"action": "query", "question": "什么是机器学习？"}).status_code == 500
    request = one(finished(), f"POST {URL}")
    assert request.status.status_code == StatusCode.ERROR
    assert request.attributes is not None and request.attributes["http.response.status_code"] == 500
    run = one(finished(), "rag.query")
    assert run.status.status_code == StatusCode.ERROR


def test_chat_and_mcp_calls_are_traced(client: TestClient) -> None:
    r = client.post("/v1/chat/completions", json={"model": "aer-extractive", "messages": [
        {"role": "user", "content": "腾讯是做什么的？"}, {"role": "user", "content": "它是哪一年成立的？"}]})
    assert r.status_code == 200
    got = finished()
    follow_up = one(got, "chat.follow_up")
    assert follow_up.attributes is not None and follow_up.attributes["aer.follow_up"] == "entities"
    assert list(follow_up.attributes["aer.carried_entities"]) == ["腾讯"]
    request = one(got, "POST /v1/chat/completions")
    assert {s.name for s in children(got, request)} == {"chat.follow_up", "rag.query"}


def test_tracing_is_off_by_default_and_builds_an_otlp_exporter_when_on(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
    off = Tracing.from_settings(settings_for(tmp_path).tracing)
    assert not off.enabled
    with off.span("x") as span:
        assert not span.is_recording()
    on = Tracing.from_settings(settings_for(tmp_path, tracing=True).tracing)
    try:
        assert on.enabled and on.provider is not None
        processor = on.provider._active_span_processor._span_processors[0]  # type: ignore[attr-defined]
        assert type(processor).__name__ == "BatchSpanProcessor"
        assert type(processor._batch_processor._exporter).__name__ == "OTLPSpanExporter"
        assert on.provider.resource.attributes["service.name"] == "adaptive-entity-rag"
    finally:
        on.shutdown()


def test_the_service_name_comes_from_otel_service_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_SERVICE_NAME", "rag-prod")
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test")
    tracing = Tracing.to_exporter(InMemorySpanExporter())
    assert tracing.provider is not None
    assert tracing.provider.resource.attributes["service.name"] == "rag-prod"
    assert tracing.provider.resource.attributes["deployment.environment"] == "test"


async def test_mcp_tool_calls_are_traced_and_counted(client: TestClient) -> None:
    from mcp import Client

    from app.mcp_server import build_mcp_server

    resources = client.app.state.resources  # type: ignore[attr-defined]
    before = resources.metrics.mcp_tools.labels("query", "ok")._value.get()
    async with Client(build_mcp_server(lambda: resources)) as mcp:
        result = await mcp.call_tool("query", {"question": "什么是机器学习？"})
        missing = await mcp.call_tool("delete_document", {"id": "no-such-doc"})
    assert not result.is_error and missing.is_error
    got = finished()
    tool = one(got, "mcp.tool query")
    assert tool.attributes is not None and tool.attributes["aer.outcome"] == "ok"
    assert [s.name for s in children(got, tool)] == ["rag.query"]
    failed = one(got, "mcp.tool delete_document")
    assert failed.attributes is not None and failed.attributes["aer.outcome"] == "error"
    assert failed.status.status_code == StatusCode.ERROR
    assert resources.metrics.mcp_tools.labels("query", "ok")._value.get() == before + 1

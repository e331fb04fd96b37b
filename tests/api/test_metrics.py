"""``GET /metrics`` after real requests, read back with prometheus-client's own text parser."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError

from app.cli import demo_dir
from app.observability.metrics import Metrics
from graphs.stores.base import StoreUnavailable
from tests.support.apps import URL, running_app, settings_for
from tests.support.openai_stub import OpenAIStub

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient, **headers: str) -> Samples:
    r = client.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples with these labels, whatever their other labels (e.g. ``workspace``)."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def demo_documents() -> list[dict[str, Any]]:
    lines = (demo_dir() / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The demo entities, and no documents yet (the tests add them)."""
    with running_app(tmp_path_factory.mktemp("metrics")) as c:
        for line in (demo_dir() / "entities.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                assert c.post(URL, json={"action": "add-entity", **json.loads(line)}).status_code == 200
        yield c


def ask(client: TestClient, question: str, **kw: Any) -> dict[str, Any]:
    r = client.post(URL, json={"action": "query", "question": question, **kw})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_queries_count_nodes_routes_relaxations_and_not_found_answers(client: TestClient) -> None:
    before = scrape(client)
    # no documents yet: every constraint is relaxed in turn, the semantic fallback finds nothing either
    empty = ask(client, "2024年苹果在北京发布的产品")
    assert empty["status"] == "no_results"
    after = scrape(client)
    relaxed = empty["routingDecision"]["relaxedConstraints"]
    assert len(relaxed) == 3
    for r in relaxed:
        assert delta(before, after, "aer_relaxations_total", type=r["type"], kind=r["action"]) >= 1
    assert sum(v for (name, _), v in after.items() if name == "aer_relaxations_total") - sum(
        v for (name, _), v in before.items() if name == "aer_relaxations_total") == 3
    assert delta(before, after, "aer_not_found_answers_total") == 1
    assert delta(before, after, "aer_queries_total", status="no_results", answer_mode="none") == 1
    decisions = [d["action"] for d in empty["routingDecision"]["decisions"]]
    for action in set(decisions):
        assert delta(before, after, "aer_route_decisions_total", action=action) == decisions.count(action)
    steps = [s["node"] for s in empty["workflow"]["steps"]]
    for node in set(steps):
        assert delta(before, after, "aer_node_duration_seconds_count", node=node) == steps.count(node)
    total_ms = sum(s["durationMs"] for s in empty["workflow"]["steps"] if s["node"] == "parse_query")
    assert delta(before, after, "aer_node_duration_seconds_sum", node="parse_query") == pytest.approx(total_ms / 1000)
    assert delta(before, after, "aer_requests_total", action="query", status="200") == 1
    assert delta(before, after, "aer_request_duration_seconds_count", action="query", status="200") == 1

    r = client.post(URL, json={"action": "add-documents", "documents": demo_documents()})
    assert r.status_code == 200
    answered = ask(client, "什么是机器学习？")
    assert answered["status"] == "answered"
    final = scrape(client)
    assert delta(after, final, "aer_ingested_documents_total", action="add-documents") == r.json()["documents"] \
        == len(demo_documents())
    assert delta(after, final, "aer_ingested_chunks_total", action="add-documents") == r.json()["chunks"]
    assert delta(after, final, "aer_queries_total", status="answered", answer_mode="extractive") == 1
    assert delta(after, final, "aer_not_found_answers_total") == 0
    assert delta(after, final, "aer_requests_total", action="add-documents", status="200") == 1


def test_requests_are_counted_by_action_and_status(client: TestClient) -> None:
    before = scrape(client)
    assert client.post(URL, json={"action": "query", "question": "q", "topK": 0}).status_code == 422
    assert client.post(URL, json={"action": "fly"}).status_code == 400
    assert client.post(URL, json={"action": "delete-document", "id": "no-such-doc"}).status_code == 404
    assert client.get(URL, params={"action": "entities", "limit": 1}).status_code == 200
    assert client.get("/no/such/path").status_code == 404
    after = scrape(client)
    assert delta(before, after, "aer_requests_total", action="invalid", status="422") == 1
    assert delta(before, after, "aer_requests_total", action="invalid", status="400") == 1
    assert delta(before, after, "aer_requests_total", action="delete-document", status="404") == 1
    assert delta(before, after, "aer_requests_total", action="entities", status="200") == 1
    assert delta(before, after, "aer_requests_total", action="other", status="404") == 1
    assert delta(before, after, "aer_requests_total", action="other", status="200") == 0
    # the scrape before this one counted too
    assert delta(before, after, "aer_requests_total", action="metrics", status="200") == 1


def test_a_store_outage_is_counted_by_store(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    index = client.app.state.resources.context.index  # type: ignore[attr-defined]

    def down(*_: Any, **__: Any) -> Any:
        raise StoreUnavailable("milvus", "connection refused")

    before = scrape(client)
    for method in ("search_dense", "search_bm25", "search_hybrid"):
        monkeypatch.setattr(index, method, down)
    r = client.post(URL, json={"action": "query", "question": "什么是机器学习？"})
    assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"
    monkeypatch.undo()
    after = scrape(client)
    assert delta(before, after, "aer_store_errors_total", store="milvus") == 1
    assert delta(before, after, "aer_requests_total", action="query", status="503") == 1


def test_a_streamed_query_counts_as_one_run(client: TestClient) -> None:
    before = scrape(client)
    r = client.post(URL, json={"action": "query", "question": "什么是机器学习？", "stream": True})
    assert r.status_code == 200 and "event: result" in r.text
    after = scrape(client)
    assert delta(before, after, "aer_queries_total", status="answered", answer_mode="extractive") == 1
    assert delta(before, after, "aer_node_duration_seconds_count", node="write_answer") == 1
    assert delta(before, after, "aer_requests_total", action="query", status="200") == 1


def test_llm_calls_failures_and_degradations(tmp_path: Path) -> None:
    with OpenAIStub() as stub, running_app(tmp_path, llm_base_url=stub.url, llm_model="stub-llm") as client:
        docs = [d for d in demo_documents() if "机器学习" in d["text"]]  # documents that answer the question
        assert client.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        before = scrape(client)
        ok = ask(client, "什么是机器学习？")
        assert ok["llm"]["calls"] >= 2 and not ok["degraded"]
        middle = scrape(client)
        assert delta(before, middle, "aer_llm_calls_total") == ok["llm"]["calls"]
        stub.chat = "http_503"
        failed = ask(client, "什么是机器学习？")
        stub.chat = "ok"
        assert {"parse_query", "write_answer"} <= set(failed["degraded"])
        after = scrape(client)
        assert delta(middle, after, "aer_llm_calls_total") == failed["llm"]["calls"]
        for node in failed["degraded"]:
            assert delta(middle, after, "aer_degradations_total", node=node) == 1
        assert delta(middle, after, "aer_llm_failures_total", node="parse_query") == 1
        assert delta(middle, after, "aer_llm_failures_total", node="write_answer") == 1
        assert delta(before, middle, "aer_llm_failures_total", node="parse_query") == 0


def test_metrics_can_require_a_key_and_are_never_rate_limited(tmp_path: Path) -> None:
    with running_app(tmp_path, api_keys=["scrape-key"], metrics_require_key=True, rate_limit_per_minute=2) as client:
        r = client.get("/metrics")
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        assert client.get("/metrics", headers={"X-API-Key": "wrong"}).status_code == 401
        for _ in range(4):  # over the per-minute limit: a scraper is not throttled
            scrape(client, authorization="Bearer scrape-key")
        assert scrape(client, **{"x-api-key": "scrape-key"})
    with running_app(tmp_path / "open", api_keys=["k"]) as client:
        assert client.get("/metrics").status_code == 200  # by default open, like the health probes


def test_requiring_a_key_without_keys_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="AER_METRICS_REQUIRE_KEY needs AER_API_KEYS"):
        settings_for(tmp_path, metrics_require_key=True)


def test_ingest_jobs_and_mcp_calls_are_counted() -> None:
    metrics = Metrics()
    for state in ("queued", "running", "succeeded", "queued", "running", "failed"):
        metrics.ingest_job(state)
    metrics.mcp_tools.labels("query", "ok").inc()
    samples = {(s.name, frozenset(s.labels.items())): s.value
               for family in text_string_to_metric_families(metrics.render().decode()) for s in family.samples}
    assert value(samples, "aer_ingest_jobs_total", state="queued") == 2
    assert value(samples, "aer_ingest_jobs_total", state="failed") == 1
    assert value(samples, "aer_mcp_tool_calls_total", tool="query", outcome="ok") == 1
    # no `_created` series beside each counter and histogram: they doubled the scrape
    assert not [s for s in samples if s[0].endswith("_created")]
    assert "_created" not in metrics.render().decode()


def test_request_ids_are_echoed_or_made(client: TestClient) -> None:
    given = client.get("/healthz", headers={"X-Request-ID": "abc-123.trace:1"})
    assert given.headers["x-request-id"] == "abc-123.trace:1"
    made = client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
    assert made.headers["x-request-id"] != "bad id\twith spaces" and len(made.headers["x-request-id"]) == 32


def wait_job(client: TestClient, job_id: str, timeout_s: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job: dict[str, Any] = client.get(URL, params={"action": "job", "id": job_id}).json()["job"]
        if job["status"] in ("done", "failed"):
            return job
        assert time.monotonic() < deadline, job
        time.sleep(0.05)


def total(samples: Samples, name: str) -> float:
    return sum(v for (n, _), v in samples.items() if n == name)


def test_every_ingest_path_is_counted_under_its_action(tmp_path: Path) -> None:
    """add-documents (a request and a job), an upload's job and an MCP tool call: each one's documents and
    chunks under its own action, and the upload and job reads are requests with their own action too."""
    from mcp import Client

    from app.mcp_server import build_mcp_server

    docs = demo_documents()
    with running_app(tmp_path) as client:
        before = scrape(client)
        sync = client.post(URL, json={"action": "add-documents", "documents": docs[:2]}).json()
        queued = client.post(URL, json={"action": "add-documents", "documents": docs[2:5], "background": True})
        assert queued.status_code == 202, queued.text
        job = wait_job(client, queued.json()["jobId"])
        assert job["status"] == "done" and job["kind"] == "add-documents"
        files = [("files", (f"{d['id']}.md", f"# {d['title']}\n\n{d['text']}".encode(), "text/markdown"))
                 for d in docs[5:8]]
        uploaded = client.post(f"{URL}/upload", files=files)
        assert uploaded.status_code == 202, uploaded.text
        upload_job = wait_job(client, uploaded.json()["jobId"])
        assert upload_job["status"] == "done" and upload_job["progress"]["done"] == 3
        resources = client.app.state.resources  # type: ignore[attr-defined]

        async def by_mcp() -> None:
            async with Client(build_mcp_server(lambda: resources)) as mcp:
                result = await mcp.call_tool("add_documents", {"documents": docs[8:9]})
                assert not result.is_error, result

        asyncio.run(by_mcp())
        assert client.get(f"{URL}/evaluations").status_code == 200
        after = scrape(client)
    counted = {action: delta(before, after, "aer_ingested_documents_total", action=action)
               for action in ("add-documents", "upload", "mcp")}
    assert counted == {"add-documents": 2 + 3, "upload": 3, "mcp": 1}
    assert total(after, "aer_ingested_documents_total") - total(before, "aer_ingested_documents_total") == 9
    chunks = {action: delta(before, after, "aer_ingested_chunks_total", action=action)
              for action in ("add-documents", "upload")}
    assert chunks["add-documents"] == sync["chunks"] + job["progress"]["chunks"]
    assert chunks["upload"] == upload_job["progress"]["chunks"] > 0
    assert delta(before, after, "aer_requests_total", action="upload", status="202") == 1
    assert delta(before, after, "aer_requests_total", action="add-documents", status="202") == 1
    assert delta(before, after, "aer_requests_total", action="job", status="200") >= 2
    assert delta(before, after, "aer_requests_total", action="entities", status="200") == 0  # the job reads
    # a path a route serves is labelled by that route, never "other" (only unrouted paths are)
    other = {dict(labels)["status"] for name, labels in after
             if name == "aer_requests_total" and dict(labels)["action"] == "other"}
    assert "200" not in other, other

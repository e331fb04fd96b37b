"""Workspaces beyond the REST actions: /v1 (each workspace a model ``aer:<w>``), MCP (a tool argument and a
server default), the metrics' ``workspace`` label and the run span's ``aer.workspace``, all on one app with three
workspaces holding the same document id, title and entity name with different facts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from app.mcp_server import build_mcp_server
from app.observability.tracing import Tracing
from tests.support.apps import URL, assert_openai_error, running_app

CHAT = "/v1/chat/completions"
FACTS = {"default": ("1998", "张伟"), "team-a": ("2005", "李娜"), "team-b": ("2017", "王芳")}
QUESTION = "星河科技是哪一年成立的？"


def doc(workspace: str) -> dict[str, Any]:
    year, founder = FACTS[workspace]
    return {"id": "company", "title": "星河科技",
            "text": f"星河科技成立于{year}年，创始人是{founder}。公司总部位于杭州。"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("ws-surfaces")) as c:
        registry = c.app.state.workspaces  # type: ignore[attr-defined]
        for name in FACTS:
            if name != "default":
                registry.create(name)
            r = c.post(URL, json={"action": "add-documents", "documents": [doc(name)]},
                       headers={"X-Workspace": name})
            assert r.status_code == 200, r.text
        yield c


def ask(client: TestClient, model: str, **headers: str) -> Any:
    return client.post(CHAT, json={"model": model, "messages": [{"role": "user", "content": QUESTION}]},
                       headers=headers)


def only_its_own_facts(text: str, workspace: str) -> None:
    assert FACTS[workspace][0] in text, text
    for other, (year, founder) in FACTS.items():
        if other != workspace:
            assert year not in text and founder not in text, (workspace, text)


def test_v1_lists_each_workspace_as_a_model(client: TestClient) -> None:
    ids = [m["id"] for m in client.get("/v1/models").json()["data"]]
    assert "aer-extractive" in ids
    assert [i for i in ids if i.startswith("aer:")] == ["aer:default", "aer:team-a", "aer:team-b"]


@pytest.mark.parametrize("workspace", list(FACTS))
def test_v1_model_aer_workspace_answers_from_that_workspace(client: TestClient, workspace: str) -> None:
    for r in (ask(client, f"aer:{workspace}"), ask(client, f"aer:{workspace}:aer-extractive"),
              ask(client, "aer-extractive", **{"X-Workspace": workspace})):
        assert r.status_code == 200, r.text
        body = r.json()
        only_its_own_facts(body["choices"][0]["message"]["content"], workspace)
        for cited in body["citations"]:
            only_its_own_facts(cited["text"], workspace)
    streamed = client.post(CHAT, json={"model": f"aer:{workspace}", "stream": True,
                                       "messages": [{"role": "user", "content": QUESTION}]})
    assert streamed.status_code == 200
    only_its_own_facts(streamed.text, workspace)


def test_v1_plain_model_is_the_default_workspace(client: TestClient) -> None:
    r = ask(client, "aer-extractive")
    assert r.status_code == 200
    only_its_own_facts(r.json()["choices"][0]["message"]["content"], "default")


def test_v1_unknown_or_conflicting_workspaces_are_coded_errors(client: TestClient) -> None:
    missing = assert_openai_error(ask(client, "aer:nope"), 404, "workspace_not_found")
    assert "nope" in missing["error"]["message"]
    assert_openai_error(ask(client, "aer:Not A Name"), 404, "workspace_not_found")
    assert_openai_error(ask(client, "aer:team-a:no-such-model"), 404, "model_not_found")
    assert_openai_error(ask(client, "aer:team-a", **{"X-Workspace": "team-b"}), 422, "conflicting_workspace")
    assert ask(client, "aer:team-a", **{"X-Workspace": "team-a"}).status_code == 200
    assert_openai_error(ask(client, "aer-extractive", **{"X-Workspace": "nope"}), 404, "workspace_not_found")


def test_v1_an_error_of_the_model_name_names_the_model_as_its_param(client: TestClient) -> None:
    """OpenAI's clients read ``param`` as the failing field: a model (or the workspace a model names) that is not
    there is the ``model`` field's fault; a workspace sent in the header is not."""
    for model, code in (("gpt-4o", "model_not_found"), ("aer:nope", "workspace_not_found"),
                        ("aer:Not A Name", "workspace_not_found"), ("aer:team-a:no-such-model", "model_not_found")):
        assert assert_openai_error(ask(client, model), 404, code)["error"]["param"] == "model", model
    header = assert_openai_error(ask(client, "aer-extractive", **{"X-Workspace": "nope"}), 404, "workspace_not_found")
    assert header["error"]["param"] is None


def mcp_calls(server: Any, *requests: tuple[str, dict[str, Any]]) -> list[Any]:
    async def go() -> list[Any]:
        async with Client(server) as mcp:
            return [await mcp.call_tool(name, args) for name, args in requests]

    return anyio.run(go)


def test_mcp_tools_take_the_workspace_and_the_server_default(client: TestClient) -> None:
    registry = client.app.state.workspaces  # type: ignore[attr-defined]
    server = build_mcp_server(lambda: registry)
    results = mcp_calls(server, *[("query", {"question": QUESTION, "workspace": w}) for w in FACTS],
                        ("query", {"question": QUESTION}),
                        ("query", {"question": QUESTION, "workspace": "nope"}))
    for workspace, result in zip(FACTS, results, strict=False):
        assert not result.is_error, result
        only_its_own_facts(result.structured_content["answer"], workspace)
        assert all(FACTS[workspace][0] in c["text"] for c in result.structured_content["citations"])
    only_its_own_facts(results[3].structured_content["answer"], "default")
    assert results[4].is_error and results[4].content[0].text.startswith("workspace_not_found: ")

    team_b = build_mcp_server(lambda: registry, default_workspace="team-b")
    added, page, other, entities = mcp_calls(
        team_b, ("add_documents", {"documents": [{"id": "extra", "title": "附录", "text": "附录只属于乙团队。"}]}),
        ("list_documents", {}), ("list_documents", {"workspace": "team-a"}),
        ("add_entity", {"standard_name": "星河科技", "type": "ORGANIZATION", "aliases": ["乙团队星河"]}))
    assert not added.is_error and not entities.is_error
    assert sorted(d["id"] for d in page.structured_content["documents"]) == ["company", "extra"]
    assert [d["id"] for d in other.structured_content["documents"]] == ["company"]
    [a_entities, b_entities] = mcp_calls(team_b, ("list_entities", {"workspace": "team-a"}), ("list_entities", {}))
    assert "乙团队星河" not in str(a_entities.structured_content)
    assert "乙团队星河" in str(b_entities.structured_content)
    mcp_calls(team_b, ("delete_document", {"id": "extra"}))


def samples(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = client.get("/metrics").text
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def by_workspace(got: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for (n, labels), v in got.items():
        if n == name:
            ws = dict(labels)["workspace"]
            out[ws] = out.get(ws, 0) + v
    return out


def test_metrics_count_each_workspace_under_its_own_label(client: TestClient) -> None:
    before = samples(client)
    for _ in range(2):
        assert client.post(URL, json={"action": "query", "question": QUESTION},
                           headers={"X-Workspace": "team-a"}).status_code == 200
    assert client.post(URL, json={"action": "query", "question": QUESTION, "workspace": "team-b"}).status_code == 200
    assert client.post(URL, json={"action": "add-documents", "workspace": "team-b", "documents": [
        {"id": "m", "title": "m", "text": "乙团队的度量文档。"}]}).status_code == 200
    assert client.post(URL, json={"action": "query", "question": QUESTION},
                       headers={"X-Workspace": "nope"}).status_code == 404
    after = samples(client)

    def delta(name: str) -> dict[str, float]:
        b, a = by_workspace(before, name), by_workspace(after, name)
        return {w: a[w] - b.get(w, 0) for w in a if a[w] - b.get(w, 0)}

    assert delta("aer_queries_total") == {"team-a": 2, "team-b": 1}
    assert delta("aer_ingested_documents_total") == {"team-b": 1}
    requests = delta("aer_requests_total")
    assert requests["team-a"] == 2 and requests["team-b"] == 2
    assert "nope" not in requests  # a name that is no workspace never becomes a label value
    assert client.post(URL, json={"action": "delete-document", "id": "m"},
                       headers={"X-Workspace": "team-b"}).status_code == 200


def test_the_run_span_carries_the_workspace(client: TestClient) -> None:
    registry = client.app.state.workspaces  # type: ignore[attr-defined]
    exporter = InMemorySpanExporter()
    tracing = Tracing.to_exporter(exporter)
    saved = {name: r.tracing for name, r in registry.opened().items()}
    try:
        for name, resources in registry.opened().items():
            resources.tracing = tracing.for_workspace(name)
        assert client.post(URL, json={"action": "query", "question": QUESTION},
                           headers={"X-Workspace": "team-a"}).status_code == 200
    finally:
        for name, resources in registry.opened().items():
            resources.tracing = saved[name]
    runs = [s for s in exporter.get_finished_spans() if s.name == "rag.query"]
    assert len(runs) == 1 and (runs[0].attributes or {}).get("aer.workspace") == "team-a"


def test_mcp_over_http_uses_the_connections_workspace(client: TestClient) -> None:
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}

    def call(arguments: dict[str, Any], **extra: str) -> Any:
        r = client.post("http://127.0.0.1:8000/mcp", headers={**headers, **extra}, json={
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "query", "arguments": {"question": QUESTION, **arguments}}})
        assert r.status_code == 200, r.text
        return r.json()["result"]

    for workspace in FACTS:
        result = call({}, **{"X-Workspace": workspace})
        assert not result["isError"], result
        only_its_own_facts(result["structuredContent"]["answer"], workspace)
    named = call({"workspace": "team-b"})
    only_its_own_facts(named["structuredContent"]["answer"], "team-b")
    same = call({"workspace": "team-b"}, **{"X-Workspace": "team-b"})
    only_its_own_facts(same["structuredContent"]["answer"], "team-b")
    other = call({"workspace": "team-b"}, **{"X-Workspace": "team-a"})  # never another than the connection's
    assert other["isError"] and other["content"][0]["text"].startswith("conflicting_workspace: ")
    only_its_own_facts(call({})["structuredContent"]["answer"], "default")
    missing = call({}, **{"X-Workspace": "nope"})
    assert missing["isError"] and missing["content"][0]["text"].startswith("workspace_not_found: ")

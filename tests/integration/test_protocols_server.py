"""The ecosystem's clients against a real ``aer serve`` process: the official ``openai`` package (JSON and
streamed chat, follow-ups with and without the LLM), the MCP SDK's streamable-HTTP client, and a Prometheus
scrape read with prometheus-client's parser.

The server has the demo corpus, an API key required for every request (sent as ``Authorization: Bearer``), and
an OpenAI-compatible stub as its LLM (``tests/support/openai_stub.py``), so both model names can be asked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import httpx2
import openai
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from prometheus_client.parser import text_string_to_metric_families

from app.cli import demo_dir
from app.client import RemoteClient
from tests.support.openai_stub import ANSWER, OpenAIStub
from tests.support.servers import HTTP_TIMEOUT, ServerProcess

pytestmark = pytest.mark.slow

KEY = "chat-key-5e1b9d"
LLM = "stub-llm"
FIRST, FOLLOW_UP = "腾讯是做什么的？", "它是哪一年成立的？"
CONVERSATION = [{"role": "system", "content": "Answer briefly."},
                {"role": "user", "content": FIRST},
                {"role": "assistant", "content": "腾讯是一家互联网公司，推出了QQ和微信。[1]"},
                {"role": "user", "content": FOLLOW_UP}]


@pytest.fixture(scope="module")
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub() as s:
        yield s


@pytest.fixture(scope="module")
def server(stub: OpenAIStub, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("protocols")
    srv = ServerProcess(workdir, env={
        "AER_DATA_DIR": str(workdir / "data"), "AER_API_KEYS": KEY, "AER_REQUIRE_KEY_FOR_QUERIES": "true",
        "AER_LLM_BASE_URL": stub.url, "AER_LLM_MODEL": LLM, "AER_LLM_TIMEOUT_S": "20",
    })
    try:
        srv.start()
        entities = [json.loads(line) for line in (demo_dir() / "entities.jsonl").read_text(encoding="utf-8")
                    .splitlines() if line.strip()]
        docs = [json.loads(line) for line in (demo_dir() / "corpus.jsonl").read_text(encoding="utf-8")
                .splitlines() if line.strip()]
        with RemoteClient(srv.base_url, api_key=KEY, timeout=120) as remote:
            for entity in entities:
                remote.add_entity(entity)
            remote.add_documents(docs)
        yield srv
    finally:
        srv.kill()


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=f"{server.base_url}/v1", api_key=KEY, timeout=120, max_retries=0) as c:
        yield c


@pytest.fixture
def healthy_llm(stub: OpenAIStub) -> Iterator[OpenAIStub]:
    stub.chat = "ok"
    stub.prompts.clear()
    yield stub
    stub.chat = "ok"


def extras(obj: Any) -> dict[str, Any]:
    extra: dict[str, Any] = obj.model_extra or {}
    return extra


def streamed(client: openai.OpenAI, model: str, messages: list[dict[str, Any]]) -> tuple[str, Any, list[Any]]:
    """The streamed content, the last chunk and all chunks."""
    chunks = list(client.chat.completions.create(model=model, messages=messages, stream=True))  # type: ignore[arg-type]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    return text, chunks[-1], chunks


def test_models(client: openai.OpenAI) -> None:
    assert [m.id for m in client.models.list()] == [LLM, "aer-extractive", "aer:default"]


def test_extractive_follow_up_carries_the_entity(client: openai.OpenAI) -> None:
    raw = client.chat.completions.with_raw_response.create(model="aer-extractive", messages=CONVERSATION)  # type: ignore[arg-type]
    completion = raw.parse()
    content = completion.choices[0].message.content or ""
    aer = extras(completion)["aer"]
    assert aer["follow_up"]["mode"] == "entities"
    assert aer["follow_up"]["question"] == f"腾讯 {FOLLOW_UP}" and aer["follow_up"]["original"] == FOLLOW_UP
    assert [e["standard_name"] for e in aer["follow_up"]["carried_entities"]] == ["腾讯"]
    assert aer["route"][0] == "structured_search" and aer["answer_mode"] == "extractive"
    assert aer["request_id"] == raw.headers["x-request-id"] and completion.id == f"chatcmpl-{aer['request_id']}"
    citations = extras(completion)["citations"]
    assert citations[0]["doc_id"] == "tencent-en" and "1998" in citations[0]["text"]
    assert "1998" in content and "[1]" in content and "\n\n参考资料：\n[1] Tencent and WeChat (tencent-en)" in content
    # the same question with no history is not a follow-up: nothing is carried, the route is not a filtered one
    alone = client.chat.completions.create(model="aer-extractive", messages=[{"role": "user", "content": FOLLOW_UP}])
    assert extras(alone)["aer"]["follow_up"]["mode"] == "standalone"
    assert extras(alone)["aer"]["route"][0] != "structured_search"


def test_extractive_follow_up_streamed_matches_the_json_answer(client: openai.OpenAI) -> None:
    text, last, chunks = streamed(client, "aer-extractive", CONVERSATION)
    whole = client.chat.completions.create(model="aer-extractive", messages=CONVERSATION)  # type: ignore[arg-type]
    assert text == whole.choices[0].message.content
    assert chunks[0].choices[0].delta.role == "assistant"
    assert last.choices[0].finish_reason == "stop"
    assert extras(last)["citations"] == extras(whole)["citations"]
    assert extras(last)["aer"]["follow_up"] == extras(whole)["aer"]["follow_up"]
    assert len({c.id for c in chunks}) == 1


def test_llm_condenses_the_follow_up(client: openai.OpenAI, healthy_llm: OpenAIStub) -> None:
    completion = client.chat.completions.create(model=LLM, messages=CONVERSATION)  # type: ignore[arg-type]
    aer = extras(completion)["aer"]
    assert aer["follow_up"]["mode"] == "condensed" and aer["follow_up"]["question"] == healthy_llm.condensed
    assert aer["answer_mode"] == "llm" and not aer["degraded"]
    assert aer["llm_calls"] >= 3  # condense, parse, write
    [prompt] = [p for p in healthy_llm.prompts if "<conversation>" in p]
    assert f"user: {FIRST}" in prompt and "assistant: 腾讯是一家互联网公司" in prompt
    assert f"Follow-up: {FOLLOW_UP}" in prompt and "Answer briefly." not in prompt  # system turns are not history
    content = completion.choices[0].message.content or ""
    assert content.startswith(ANSWER.removesuffix("。")) and "[1]" in content
    assert len(extras(completion)["citations"]) == 1


def test_llm_condensed_follow_up_streamed(client: openai.OpenAI, healthy_llm: OpenAIStub) -> None:
    text, last, _ = streamed(client, LLM, CONVERSATION)
    assert extras(last)["aer"]["follow_up"]["mode"] == "condensed"
    assert text.startswith(ANSWER.removesuffix("。")) and "参考资料：" in text


def test_llm_down_falls_back_to_carried_entities_visibly(client: openai.OpenAI, healthy_llm: OpenAIStub) -> None:
    healthy_llm.chat = "http_503"
    completion = client.chat.completions.create(model=LLM, messages=CONVERSATION)  # type: ignore[arg-type]
    aer = extras(completion)["aer"]
    assert aer["follow_up"]["mode"] == "entities" and aer["follow_up"]["question"] == f"腾讯 {FOLLOW_UP}"
    assert {"condense_question", "parse_query", "write_answer"} <= set(aer["degraded"])
    assert aer["answer_mode"] == "extractive" and "1998" in (completion.choices[0].message.content or "")


def test_keys_and_models_are_checked(server: ServerProcess, client: openai.OpenAI) -> None:
    with (openai.OpenAI(base_url=f"{server.base_url}/v1", api_key="sk-wrong", max_retries=0) as wrong,
          pytest.raises(openai.AuthenticationError) as denied):
        wrong.chat.completions.create(model="aer-extractive", messages=[{"role": "user", "content": "hi"}])
    assert denied.value.status_code == 401 and denied.value.body["code"] == "unauthorized"  # type: ignore[index]
    with pytest.raises(openai.NotFoundError) as missing:
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    assert missing.value.body["code"] == "model_not_found"  # type: ignore[index]
    assert missing.value.body["type"] == "invalid_request_error"  # type: ignore[index]
    assert f"available: {LLM}, aer-extractive" in missing.value.message


def scrape(server: ServerProcess) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = httpx.get(f"{server.base_url}/metrics", timeout=HTTP_TIMEOUT).text
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples with these labels, whatever their other labels (e.g. ``workspace``)."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)


def test_a_prometheus_scrape_counts_the_chat(server: ServerProcess, client: openai.OpenAI) -> None:
    before = scrape(server)
    client.chat.completions.create(model="aer-extractive", messages=CONVERSATION)  # type: ignore[arg-type]
    after = scrape(server)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("aer_requests_total", action="chat.completions", status="200") == 1
    assert delta("aer_chat_followups_total", mode="entities") == 1
    assert delta("aer_route_decisions_total", action="structured_search") == 1
    assert delta("aer_node_duration_seconds_count", node="write_answer") == 1
    assert delta("aer_requests_total", action="metrics", status="200") == 1


async def _mcp_session(url: str, key: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=120) as http, \
            Client(streamable_http_client(url, http_client=http)) as mcp:
        tools = await mcp.list_tools()
        answer = await mcp.call_tool("query", {"question": "腾讯是哪一年成立的？", "top_k": 3})
        page = await mcp.call_tool("list_documents", {"limit": 2})
        return {"tools": [t.name for t in tools.tools], "answer": answer, "page": page}


def test_mcp_over_streamable_http_with_the_key(server: ServerProcess) -> None:
    got = anyio.run(_mcp_session, f"{server.base_url}/mcp", KEY)
    assert sorted(got["tools"]) == sorted(["query", "add_documents", "add_entity", "remove_alias", "delete_entity",
                                           "list_entities", "list_documents", "delete_document"])
    answer = got["answer"]
    assert not answer.is_error
    assert answer.structured_content["citations"][0]["doc_id"] == "tencent-en"
    assert answer.structured_content["route"][0] == "structured_search"
    page = got["page"].structured_content
    assert page["total"] == len((demo_dir() / "corpus.jsonl").read_text(encoding="utf-8").strip().splitlines())
    assert len(page["documents"]) == 2


def test_mcp_over_http_without_the_key_is_refused(server: ServerProcess) -> None:
    before = scrape(server)
    with pytest.raises(ExceptionGroup) as refused_session:  # the SDK's error comes out of its task group
        anyio.run(_mcp_session, f"{server.base_url}/mcp", None)
    assert refused_session.group_contains(MCPError)
    after = scrape(server)
    assert value(after, "aer_requests_total", action="mcp", status="401") - value(
        before, "aer_requests_total", action="mcp", status="401") >= 1
    refused = httpx.post(f"{server.base_url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                         headers={"accept": "application/json, text/event-stream"}, timeout=HTTP_TIMEOUT)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
    assert refused.headers["www-authenticate"] == "Bearer"

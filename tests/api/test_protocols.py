"""The OpenAI-compatible routes' contract and the MCP HTTP transport's guard, on the in-process app.

(The ``openai`` client against a real server, follow-ups and streaming included, is in
``tests/integration/test_openai_compat.py``; the MCP SDK's own clients in ``tests/integration/test_mcp.py``.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.schemas import MAX_QUESTION_CHARS
from tests.support.apps import URL, assert_openai_error, running_app

KEY = "proto-key-81f2"
CHAT = "/v1/chat/completions"
# The SDK's DNS-rebinding protection (the app binds 127.0.0.1 by default) accepts loopback Host headers only.
LOOPBACK = "http://127.0.0.1:8000"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "1"}}}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def question(text: str = "什么是机器学习？", **kw: Any) -> dict[str, Any]:
    return {"model": "aer-extractive", "messages": [{"role": "user", "content": text}], **kw}


def assert_error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["success"] is False and body["error"]["code"] == code and body["error"]["message"]
    return body



@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("proto")) as c:
        docs = [{"id": "ml", "title": "什么是机器学习", "text": "机器学习是人工智能的一个分支，让计算机从数据中学习。"}]
        assert c.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        yield c


def test_models_list_the_extractive_writer_without_an_llm(client: TestClient) -> None:
    body = client.get("/v1/models").json()
    assert body["object"] == "list"
    assert [(m["id"], m["object"], m["owned_by"]) for m in body["data"]] == [
        ("aer-extractive", "model", "adaptive-entity-rag"), ("aer:default", "model", "adaptive-entity-rag")]
    assert isinstance(body["data"][0]["created"], int) and body["data"][0]["created"] > 1_600_000_000


def test_models_list_the_configured_llm_first(tmp_path: Path) -> None:
    # listing needs no call to the LLM: an address nothing listens on is fine
    with running_app(tmp_path, llm_base_url="http://127.0.0.1:9/v1", llm_model="qwen2.5:7b") as c:
        assert [m["id"] for m in c.get("/v1/models").json()["data"]] == ["qwen2.5:7b", "aer-extractive",
                                                                         "aer:default"]


def test_a_completion_cites_its_passages(client: TestClient) -> None:
    r = client.post(CHAT, json=question())
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["object"] == "chat.completion" and body["model"] == "aer-extractive"
    assert body["id"] == f"chatcmpl-{r.headers['x-request-id']}" == f"chatcmpl-{body['aer']['request_id']}"
    [choice] = body["choices"]
    assert choice["finish_reason"] == "stop" and choice["message"]["role"] == "assistant"
    content = choice["message"]["content"]
    assert "[1]" in content and content.endswith("参考资料：\n[1] 什么是机器学习 (ml)")
    assert body["citations"] == [{"index": 1, "id": "ml#0", "doc_id": "ml", "title": "什么是机器学习",
                                  "text": "机器学习是人工智能的一个分支，让计算机从数据中学习。"}]
    aer = body["aer"]
    rest = client.post(URL, json={"action": "query", "question": "什么是机器学习？"}).json()
    assert aer["route"] == [d["action"] for d in rest["routingDecision"]["decisions"]]
    assert aer["route"][0] == "semantic_search" and aer["status"] == "answered" and aer["run_id"]
    assert choice["message"]["content"].startswith(rest["answer"])
    assert aer["follow_up"] == {"mode": "standalone", "question": "什么是机器学习？", "original": "什么是机器学习？",
                                "carried_entities": []}


def test_english_questions_get_an_english_references_heading(client: TestClient, tmp_path: Path) -> None:
    # an English question that names something in Chinese is English: English heading (the fixed sentences follow
    # the question's frame, not any Chinese character in it); a Chinese question naming something in English is not
    content = client.post(CHAT, json=question("What is machine learning (机器学习)?")).json()
    assert "References:" in content["choices"][0]["message"]["content"]
    content = client.post(CHAT, json=question("machine learning (机器学习) 是什么？")).json()
    assert "References:" not in content["choices"][0]["message"]["content"]
    with running_app(tmp_path) as english:
        doc = {"id": "ml-en", "title": "Machine learning",
               "text": "Machine learning is a branch of artificial intelligence in which computers learn from data."}
        assert english.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
        content = english.post(CHAT, json=question("What is machine learning?")).json()
    assert "\n\nReferences:\n[1] " in content["choices"][0]["message"]["content"]


def test_a_streamed_completion_is_openai_chunks_then_done(client: TestClient) -> None:
    r = client.post(CHAT, json=question(stream=True))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = [e for e in r.text.split("\n\n") if e]
    comments = [e for e in events if e.startswith(": ")]
    data = [e.removeprefix("data: ") for e in events if e.startswith("data: ")]
    assert [c.split()[1] for c in comments][:2] == ["parse_query", "validate_entities"]
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"} and len({c["id"] for c in chunks}) == 1
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
    complete = client.post(CHAT, json=question()).json()
    assert text == complete["choices"][0]["message"]["content"]
    last = chunks[-1]
    assert last["choices"][0]["finish_reason"] == "stop" and last["choices"][0]["delta"] == {}
    assert last["citations"] == complete["citations"] and last["aer"]["route"] == complete["aer"]["route"]
    assert all("citations" not in c for c in chunks[:-1])


@pytest.mark.parametrize(("payload", "fragment"), [
    ({"model": "aer-extractive", "messages": []}, "at least 1"),
    ({"model": "aer-extractive", "messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]},
     "last message must be the user's question"),
    ({"model": "aer-extractive", "messages": [{"role": "wizard", "content": "hi"}]}, "role"),
    ({"model": "aer-extractive", "n": 2, "messages": [{"role": "user", "content": "hi"}]}, "less than or equal to 1"),
    ({"messages": [{"role": "user", "content": "hi"}]}, "model"),
    ({"model": "aer-extractive", "max_tokens": -5, "messages": [{"role": "user", "content": "hi"}]},
     "max_tokens: Input should be greater than or equal to 1"),
    ({"model": "aer-extractive", "temperature": 99, "messages": [{"role": "user", "content": "hi"}]},
     "temperature: Input should be less than or equal to 2"),
], ids=["no-messages", "last-not-user", "unknown-role", "n-2", "no-model", "max-tokens-negative", "temperature-99"])
def test_bad_chat_requests_are_422_with_the_failing_field(client: TestClient, payload: dict[str, Any],
                                                         fragment: str) -> None:
    body = assert_openai_error(client.post(CHAT, json=payload), 422, "invalid_request")
    assert body["error"]["type"] == "invalid_request_error"
    assert fragment in body["error"]["message"]
    assert "Value error" not in body["error"]["message"]  # pydantic's own words once led the sentence


def test_a_question_over_the_limit_is_422_question_too_long(client: TestClient) -> None:
    body = assert_openai_error(client.post(CHAT, json=question("x" * (MAX_QUESTION_CHARS + 1))), 422,
                               "question_too_long")
    assert f"over {MAX_QUESTION_CHARS} characters" in body["error"]["message"]
    assert body["error"]["param"] == "messages[0].content"


@pytest.mark.parametrize("content", ["", "   ", "?", "。。。", "🍎", "\u200b\ufeff", [{"type": "text", "text": "..."}]])
def test_content_free_chat_questions_are_422_empty_question(client: TestClient, content: Any) -> None:
    body = assert_openai_error(client.post(CHAT, json={"model": "aer-extractive",
                                                       "messages": [{"role": "user", "content": content}]}),
                               422, "empty_question")
    assert "letter or digit" in body["error"]["message"]


@pytest.mark.parametrize("parts", [
    [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}],
    [{"type": "text", "text": "What does the label on this jar say?"},
     {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}],
])
def test_a_part_that_is_not_text_is_422_unsupported_content_naming_it(client: TestClient,
                                                                     parts: list[dict[str, Any]]) -> None:
    """Before: pydantic's union noise ("content.str: Input should be a valid string; content.list[TextPart][0]
    ..."), coded invalid_request; the part is named now, and never silently left out of the question."""
    body = assert_openai_error(client.post(CHAT, json={"model": "aer-extractive",
                                                       "messages": [{"role": "user", "content": parts}]}),
                               422, "unsupported_content")
    kind = parts[-1]["type"]
    assert body["error"]["message"] == (f"messages[0].content: part {len(parts) - 1} is {kind!r}: only text parts "
                                        "are read (the service answers from the text of its indexed documents; send "
                                        "the question as text)")
    assert body["error"]["param"] == "messages[0].content"


def test_unknown_models_are_404_model_not_found(client: TestClient) -> None:
    body = assert_openai_error(client.post(CHAT, json={**question(), "model": "gpt-4o"}), 404, "model_not_found")
    assert "GET /v1/models" in body["error"]["message"] and body["error"]["type"] == "invalid_request_error"


def test_sampling_options_are_accepted_and_ignored(client: TestClient) -> None:
    r = client.post(CHAT, json=question(temperature=0.2, top_p=0.9, max_tokens=50, user="u1",
                                        stream_options={"include_usage": True}))
    assert r.status_code == 200 and r.json()["citations"]


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("keyed"), api_keys=[KEY], require_key_for_queries=True,
                     rate_limit_per_minute=6) as c:
        c.base_url = c.base_url.copy_with(host="127.0.0.1", port=8000)  # type: ignore[assignment]
        yield c


def test_chat_takes_the_key_as_a_bearer_token(keyed: TestClient, tmp_path: Path) -> None:
    body = assert_openai_error(keyed.post(CHAT, json=question()), 401, "unauthorized")
    assert body["error"]["type"] == "authentication_error"
    assert_openai_error(keyed.post(CHAT, json=question(), headers={"Authorization": "Bearer nope"}), 401,
                        "unauthorized")
    assert keyed.post(CHAT, json=question(), headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
    assert_openai_error(keyed.get("/v1/models"), 401, "unauthorized")
    with running_app(tmp_path, api_keys=[KEY], require_key_for_queries=False) as reads_open:
        # chat is a read: with keys configured but not required for queries, it needs none (any key sent must be valid)
        assert reads_open.post(CHAT, json=question()).status_code == 200
        assert_openai_error(reads_open.post(CHAT, json=question(), headers={"Authorization": "Bearer sk-none"}),
                            401, "unauthorized")


def test_mcp_over_http_needs_a_key_and_counts_against_the_rate_limit(keyed: TestClient) -> None:
    r = keyed.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    assert_error(r, 401, "unauthorized")
    assert r.headers["www-authenticate"] == "Bearer"
    assert_error(keyed.post("/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "X-API-Key": "wrong"}), 401,
                 "unauthorized")
    ok = keyed.post("/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": f"Bearer {KEY}"})
    assert ok.status_code == 200, ok.text
    assert ok.json()["result"]["serverInfo"]["name"] == "adaptive-entity-rag"
    statuses = [keyed.post("/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "X-API-Key": KEY}).status_code
                for _ in range(8)]
    assert statuses.count(429) >= 1 and set(statuses) <= {200, 429}
    limited = keyed.post("/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "X-API-Key": KEY})
    body = assert_error(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1 and body["error"]["details"]["limitPerMinute"] == 6
    # the same window covers the REST API: this key is limited there too
    assert_error(keyed.post(URL, json={"action": "query", "question": "q"}, headers={"X-API-Key": KEY}), 429,
                 "rate_limited")


def test_mcp_refuses_a_foreign_host_header(client: TestClient) -> None:
    # AER_HOST is 127.0.0.1: a page on another origin cannot reach the tools by DNS rebinding
    assert client.post("/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "host": "evil.example:80"}).status_code in (
        400, 421)
    ok = client.post(f"{LOOPBACK}/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    assert ok.status_code == 200 and ok.json()["result"]["serverInfo"]["name"] == "adaptive-entity-rag"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("accept", ["text/event-stream", "*/*", None])
def test_a_get_on_mcp_is_405_not_an_event_stream_that_never_speaks(client: TestClient, accept: str | None) -> None:
    # stateless transport: the SDK's GET stream would stay open and silent until the client timed out
    r = client.get(f"{LOOPBACK}/mcp", headers={"accept": accept} if accept else {})
    body = assert_error(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "POST" and "POST" in body["error"]["message"]
    ok = client.post(f"{LOOPBACK}/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    assert ok.status_code == 200

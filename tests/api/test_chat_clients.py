"""What chat front ends send to /v1: their background tasks (answered without retrieval), long system prompts,
strict types and lone surrogates refused, and every error in OpenAI's shape."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi.testclient import TestClient
from pydantic import field_validator
from pydantic_core import PydanticCustomError

from app.api.routes import openai_compat
from app.schemas import QueryRequest
from graphs.stores.base import StoreUnavailable
from tests.support.apps import URL, assert_openai_error, running_app

CHAT = "/v1/chat/completions"
NO_ANSWER = "do not contain"


def chat(*messages: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"model": "aer-extractive", "messages": list(messages), **kw}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def open_webui_task(head: str, output: str, turns: list[tuple[str, str]]) -> str:
    """A task prompt laid out as Open WebUI's defaults are: instructions, then the chat inlined."""
    history = "\n".join(f"{role.upper()}: {text}" for role, text in turns)
    guidelines = "\n".join(f"- Guideline {i}: keep to the chat's primary language." for i in range(40))
    return (f"### Task:\n{head}\n### Guidelines:\n{guidelines}\n### Output:\nJSON format: {output}\n"
            f"### Chat History:\n<chat_history>\n{history}\n</chat_history>")



@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("chat"), chat_max_message_chars=20_000) as c:
        docs = [{"id": "tx", "title": "腾讯", "text": "腾讯成立于1998年，总部位于深圳，创始人是马化腾。"}]
        assert c.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        entity = {"action": "add-entity", "standardName": "腾讯", "type": "ORGANIZATION", "aliases": ["Tencent"],
                  "relatedEntities": ["马化腾"]}
        assert c.post(URL, json=entity).status_code == 200, c.post(URL, json=entity).text
        yield c


ANSWER = "腾讯成立于1998年[1]。\n\n参考资料：\n[1] 腾讯 (tx)"


def completion_of(client: TestClient, text: str, **kw: Any) -> tuple[str, dict[str, Any]]:
    r = client.post(CHAT, json=chat(user(text), **kw))
    assert r.status_code == 200, r.text
    body = r.json()
    return body["choices"][0]["message"]["content"], body


def test_a_title_task_is_a_title_from_the_question_not_an_answer(client: TestClient) -> None:
    prompt = open_webui_task("Generate a concise, 3-5 word title with an emoji summarizing the chat history.",
                             '{ "title": "your concise title here" }',
                             [("user", "腾讯是哪一年成立的？"), ("assistant", ANSWER)])
    assert len(prompt) > 2000  # a question this long would be refused
    content, body = completion_of(client, prompt)
    assert json.loads(content) == {"title": "腾讯是哪一年成立的"}
    assert body["aer"]["task"] == "title" and body["aer"]["route"] == [] and body["aer"]["run_id"] is None
    assert body["citations"] == [] and NO_ANSWER not in content


def test_tags_and_follow_ups_come_from_the_conversations_entities(client: TestClient) -> None:
    turns = [("user", "腾讯的创始人是谁？"), ("assistant", ANSWER)]
    content, _ = completion_of(client, open_webui_task("Generate 1-3 broad tags categorizing the main themes.",
                                                       '{ "tags": ["tag1", "tag2", "tag3"] }', turns))
    assert json.loads(content) == {"tags": ["腾讯"]}
    content, _ = completion_of(client, open_webui_task("Generate 1-3 broad tags categorizing the main themes.",
                                                       '{ "tags": ["tag1"] }', [("user", "What is 42?")]))
    assert json.loads(content) == {"tags": ["General"]}
    content, body = completion_of(client, open_webui_task(
        "Suggest 3-5 relevant follow-up questions the user might naturally ask next.",
        '{ "follow_ups": ["Question 1?", "Question 2?", "Question 3?"] }', turns))
    assert json.loads(content) == {"follow_ups": ["马化腾和腾讯有什么关系？", "关于腾讯还有哪些信息？"]}
    assert body["aer"]["task"] == "follow_ups"


def test_query_autocomplete_and_unknown_tasks_get_their_json_shape(client: TestClient) -> None:
    turns = [("user", "腾讯总部在哪里？")]
    content, _ = completion_of(client, open_webui_task("Analyze the chat history to generate search queries.",
                                                       '{ "queries": ["query1", "query2"] }', turns))
    assert json.loads(content) == {"queries": ["腾讯总部在哪里？"]}
    content, _ = completion_of(client, open_webui_task("You are an autocompletion system.",
                                                       '{ "text": "<your_completion>" }', turns))
    assert json.loads(content) == {"text": ""}
    content, body = completion_of(client, open_webui_task("Rate the chat's politeness.", '{ "rating": "..." }',
                                                          turns))
    assert json.loads(content) == {"rating": ""} and body["aer"]["task"] == "other"


def test_a_streamed_task_is_one_content_chunk_then_done(client: TestClient) -> None:
    prompt = open_webui_task("Generate a concise title.", '{ "title": "t" }', [("user", "What is Tencent?")])
    r = client.post(CHAT, json=chat(user(prompt), stream=True))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    data = [e.removeprefix("data: ") for e in r.text.split("\n\n") if e.startswith("data: ")]
    assert data[-1] == "[DONE]"
    text = "".join(json.loads(d)["choices"][0]["delta"].get("content", "") for d in data[:-1])
    assert json.loads(text) == {"title": "Tencent"}


def test_a_long_system_prompt_is_accepted_up_to_the_setting(client: TestClient) -> None:
    system = {"role": "system", "content": "You are a helpful assistant. " * 600}  # 17,400 characters
    r = client.post(CHAT, json=chat(system, user("腾讯是哪一年成立的？")))
    assert r.status_code == 200, r.text
    assert "1998" in r.json()["choices"][0]["message"]["content"]
    over = {"role": "system", "content": "x" * 20_001}
    body = assert_openai_error(client.post(CHAT, json=chat(over, user("腾讯是哪一年成立的？"))), 422,
                               "message_too_long")
    assert body["error"]["param"] == "messages[0].content" and "AER_CHAT_MAX_MESSAGE_CHARS" in body["error"]["message"]


@pytest.mark.parametrize("raw", [
    '{"model": "aer-extractive", "messages": [{"role": "user", "content": "腾讯 \\ud800 成立"}]}',
    '{"model": "aer-extractive", "messages": [{"role": "system", "content": "\\udfff"}, '
    '{"role": "user", "content": "腾讯"}]}',
    '{"model": "aer-extractive", "messages": [{"role": "user", "content": [{"type": "text", "text": "a\\ud83d"}]}]}',
], ids=["question", "system", "text-part"])
def test_a_lone_surrogate_is_a_422_not_a_500(client: TestClient, raw: str) -> None:
    r = client.post(CHAT, content=raw.encode(), headers={"content-type": "application/json"})
    body = assert_openai_error(r, 422, "invalid_request")
    assert "lone surrogate" in body["error"]["message"] and body["error"]["param"].startswith("messages[")


@pytest.mark.parametrize(("extra", "field"), [
    ({"stream": "yes"}, "stream"), ({"stream": 1}, "stream"), ({"n": "1"}, "n"), ({"n": True}, "n"),
    ({"temperature": "hot"}, "temperature"), ({"max_tokens": "50"}, "max_tokens"), ({"model": 5}, "model"),
    ({"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
    ({"stop": 7}, "stop"), ({"user": 123}, "user"),
], ids=lambda v: json.dumps(v) if isinstance(v, dict) else str(v))
def test_type_coercions_are_refused(client: TestClient, extra: dict[str, Any], field: str) -> None:
    body = assert_openai_error(client.post(CHAT, json={**chat(user("腾讯")), **extra}), 422, "invalid_request")
    assert body["error"]["param"] is not None and body["error"]["param"].startswith(field)
    assert body["error"]["type"] == "invalid_request_error"


def test_every_v1_error_is_in_openai_shape(client: TestClient, tmp_path: Path) -> None:
    assert_openai_error(client.get("/v1/nothing-here"), 404, "not_found")
    body = assert_openai_error(client.post(CHAT, content=b"{not json", headers={"content-type": "application/json"}),
                               400, "invalid_json")
    assert body["error"]["type"] == "invalid_request_error" and body["error"]["param"] is None
    assert "at character 1" in body["error"]["message"]  # where it broke, not a field
    with mock.patch.object(openai_compat, "answer", side_effect=StoreUnavailable("milvus", "down")):
        body = assert_openai_error(client.post(CHAT, json=chat(user("腾讯"))), 503, "store_unavailable")
    assert body["error"]["type"] == "server_error"
    # the main API keeps its own shape
    main = client.post(URL, json={"action": "query", "question": "q", "topK": "5"})
    assert main.status_code == 422 and main.json()["success"] is False
    with running_app(tmp_path / "limited", rate_limit_per_minute=1, max_body_bytes=2048) as limited:
        assert limited.get("/v1/models").status_code == 200
        r = limited.get("/v1/models")
        body = assert_openai_error(r, 429, "rate_limited")
        assert body["error"]["type"] == "rate_limit_error" and int(r.headers["retry-after"]) >= 1
    with running_app(tmp_path / "small", max_body_bytes=2048) as small:
        assert_openai_error(small.post(CHAT, json=chat(user("x" * 3000))), 413, "payload_too_large")


def test_a_failure_mid_stream_is_an_openai_error_event(client: TestClient) -> None:
    async def broken(*_: Any, **__: Any) -> Any:
        raise StoreUnavailable("milvus", "down")
        yield  # an async generator

    with mock.patch.object(openai_compat, "stream_events", broken):
        r = client.post(CHAT, json=chat(user("腾讯"), stream=True))
    events = [json.loads(e.removeprefix("data: ")) for e in r.text.split("\n\n") if e.startswith("data: {")]
    assert events[-1]["error"]["code"] == "store_unavailable" and events[-1]["error"]["type"] == "server_error"
    assert set(events[-1]["error"]) == {"message", "type", "param", "code"}


class PickyQuery(QueryRequest):
    """A stricter question check, as the main API may add one: the chat must refuse what it refuses."""

    @field_validator("question")
    @classmethod
    def _no_digits(cls, value: str) -> str:
        if any(ch.isdigit() for ch in value):
            raise PydanticCustomError("no_digits", "has a digit, which this stricter check refuses")
        return value


def test_a_question_the_main_api_refuses_is_a_422_on_v1_too(client: TestClient) -> None:
    with mock.patch.object(openai_compat, "QueryRequest", PickyQuery):
        for stream in (False, True):
            r = client.post(CHAT, json=chat({"role": "system", "content": "s"}, user("apple 42?"), stream=stream))
            body = assert_openai_error(r, 422, "invalid_request")
            assert body["error"]["param"] == "messages[1].content" and "has a digit" in body["error"][
                "message"]

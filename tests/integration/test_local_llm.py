"""The real local LLM: structured output through langchain-openai and bounded generation.

Run with ``pytest tests/integration/test_local_llm.py -m llm`` after ``aer local-llm install``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field

from app.tools.local_llm import LocalLLMServer

pytestmark = pytest.mark.llm

ESSAY = "Write a long, detailed essay about the history of the Roman Empire."


class PersonExtraction(BaseModel):
    """People named in a question."""

    persons: list[str] = Field(description="Names of the people mentioned in the question, as written there")


def _chat(url: str, model: str, max_tokens: int) -> ChatOpenAI:
    return ChatOpenAI(base_url=url, api_key="local", model=model, max_tokens=max_tokens, temperature=0)


def test_server_listens_on_loopback_and_lists_the_model(
    local_llm_server: LocalLLMServer, local_llm_url: str, local_llm_model: str
) -> None:
    parts = urlsplit(local_llm_url)
    assert parts.hostname == "127.0.0.1"
    assert parts.path == "/v1"
    models = httpx.get(f"{local_llm_url}/models", timeout=10).json()
    assert local_llm_model in [m["id"] for m in models["data"]]


@pytest.mark.parametrize(
    ("question", "person"),
    [("马斯克创办的公司有哪些？", "马斯克"), ("Which companies did Elon Musk found?", "Musk")],
)
def test_structured_output_extracts_the_person(
    local_llm_url: str, local_llm_model: str, question: str, person: str
) -> None:
    extractor = _chat(local_llm_url, local_llm_model, max_tokens=64).with_structured_output(
        PersonExtraction, method="json_schema"
    )
    result = extractor.invoke(
        [("system", "Extract the people mentioned in the user's question."), ("user", question)]
    )
    assert isinstance(result, PersonExtraction)
    assert any(person in name for name in result.persons), result


def test_chat_openai_max_tokens_bounds_generation(local_llm_url: str, local_llm_model: str) -> None:
    # ChatOpenAI sends max_tokens as `max_completion_tokens`; the server must honour that field.
    message = _chat(local_llm_url, local_llm_model, max_tokens=16).invoke(ESSAY)
    assert message.usage_metadata is not None
    assert 0 < message.usage_metadata["output_tokens"] <= 16
    assert message.response_metadata["finish_reason"] == "length"


@pytest.mark.parametrize("field", ["max_tokens", "max_completion_tokens"])
def test_server_honours_each_bound_field(local_llm_url: str, local_llm_model: str, field: str) -> None:
    body = {"model": local_llm_model, "messages": [{"role": "user", "content": ESSAY}], field: 8}
    reply = httpx.post(f"{local_llm_url}/chat/completions", json=body, timeout=120).json()
    assert reply["usage"]["completion_tokens"] <= 8
    assert reply["choices"][0]["finish_reason"] == "length"


def test_a_request_without_a_bound_stops_at_the_server_default(local_llm_server: LocalLLMServer) -> None:
    # A second, small server (the model file is mmapped, so its pages are shared with the first).
    with LocalLLMServer(local_llm_server.model_path, n_ctx=512, default_max_tokens=8) as small:
        body = {"model": small.model_name, "messages": [{"role": "user", "content": ESSAY}]}
        reply = httpx.post(f"{small.base_url}/chat/completions", json=body, timeout=120).json()
    assert reply["usage"]["completion_tokens"] <= 8
    assert reply["choices"][0]["finish_reason"] == "length"

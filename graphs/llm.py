"""LLM calls with bounded time and the errors that count as an upstream failure."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

import httpx
import openai
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

# An LLM that is down, slow, or answers malformed JSON: the node degrades to its rule path.
LLM_ERRORS: tuple[type[BaseException], ...] = (
    openai.OpenAIError,
    httpx.HTTPError,
    OutputParserException,
    ValidationError,
    TimeoutError,
    asyncio.TimeoutError,
    ConnectionError,
)


async def structured_call(
    llm: BaseChatModel, schema: type[T], messages: list[BaseMessage], timeout_s: float
) -> T:
    """Ask the LLM for an instance of ``schema`` (JSON-schema structured output)."""
    runnable = llm.with_structured_output(schema, method="json_schema")
    result: Any = await asyncio.wait_for(runnable.ainvoke(messages), timeout_s)
    if isinstance(result, dict):
        result = schema.model_validate(result)
    if not isinstance(result, schema):
        raise OutputParserException(f"expected {schema.__name__}, got {type(result).__name__}")
    return result


async def text_call(llm: BaseChatModel, messages: list[BaseMessage], timeout_s: float) -> str:
    """Ask the LLM for plain text."""
    message = await asyncio.wait_for(llm.ainvoke(messages), timeout_s)
    content = message.content
    if isinstance(content, list):
        content = "".join(part if isinstance(part, str) else str(part.get("text", "")) for part in content)
    return str(content).strip()

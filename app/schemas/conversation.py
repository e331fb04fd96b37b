"""A conversation's question resolved as ``/v1/chat/completions`` does (the page asks it next)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from app.schemas.base import (
    MAX_QUESTION_CHARS,
    Wire,
    WireRequest,
    check_strings,
)


class ConversationTurn(WireRequest):
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS * 4)


class ResolveRequest(WireRequest):
    """A conversation whose last turn is the user's new question."""

    messages: list[ConversationTurn] = Field(min_length=1, max_length=40)

    @model_validator(mode="after")
    def _ends_with_a_question(self) -> ResolveRequest:
        last = self.messages[-1]
        if last.role != "user" or not last.content.strip():
            raise PydanticCustomError("last_turn", "the last message must be the user's question")
        if len(last.content) > MAX_QUESTION_CHARS:
            raise PydanticCustomError("too_long", f"the question is over {MAX_QUESTION_CHARS} characters")
        check_strings({"messages": [m.content for m in self.messages]})
        return self


class CarriedName(Wire):
    text: str
    standard_name: str
    type: str


class ResolveResponse(Wire):
    """The question to ask: what ``/v1/chat/completions`` answers for the same conversation."""

    success: Literal[True] = True
    question: str = Field(description="The standalone question to ask.")
    original: str = Field(description="The last user message.")
    mode: Literal["standalone", "condensed", "entities", "restated"]
    carried_entities: list[CarriedName] = Field(default_factory=list)
    degraded: list[str] = Field(default_factory=list)

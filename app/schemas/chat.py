"""The OpenAI-compatible chat contract (``/v1/models``, ``/v1/chat/completions``): OpenAI's field names
(snake_case), plus the service's own fields on the completion — ``citations`` and ``aer`` — which OpenAI
clients keep (the ``openai`` package as model extras, e.g. ``completion.model_extra["citations"]``)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from app.schemas.query import QueryResponse
from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content

EXTRACTIVE_MODEL = "aer-extractive"
"""The model name of the writer that needs no LLM: the rule-based parser and the extractive answer."""
MAX_MESSAGES = 200
UNSUPPORTED_CONTENT = "unsupported_content"
"""The 422 code of a message part that is not text (``image_url``, ``input_audio``, ``file``)."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def no_lone_surrogate(value: str) -> str:
    """Refuse a lone surrogate (no UTF-8 encoding: it could be neither logged, embedded nor stored)."""
    if m := _SURROGATE.search(value):
        raise PydanticCustomError("unsafe_string", "lone surrogate U+{code} at position {at} (not valid Unicode text)",
                                  {"code": f"{ord(m.group()):04X}", "at": m.start()})
    return value


class TextPart(BaseModel):
    """A text part of a message's content (the only kind the service reads)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    type: Literal["text"]
    text: str

    @field_validator("text")
    @classmethod
    def _unicode(cls, value: str) -> str:
        return no_lone_surrogate(value)


class ChatMessage(BaseModel):
    """One turn; fields of other OpenAI message kinds (name, tool calls) are ignored. Strict types, as on the
    main API: ``"content": 5`` is refused, never turned into ``"5"``."""

    model_config = ConfigDict(extra="ignore", strict=True)
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[TextPart] | None = None

    @field_validator("content", mode="before")
    @classmethod
    def _text_parts_only(cls, value: object) -> object:
        """Refuse a part the service cannot read (an image, audio, a file) by its kind, as one error: before,
        ``[{"type": "image_url", ...}]`` came back as pydantic's union noise ("content.str: Input should be a
        valid string; content.list[TextPart][0].type: Input should be 'text'; ... text: Field required"), and
        leaving the part out silently would answer a question the user did not ask."""
        if isinstance(value, list):
            for at, part in enumerate(value):
                kind = part.get("type") if isinstance(part, dict) else None
                if isinstance(kind, str) and kind != "text":
                    raise PydanticCustomError(
                        UNSUPPORTED_CONTENT, "part {at} is '{kind}': only text parts are read (the service answers "
                        "from the text of its indexed documents; send the question as text)", {"at": at, "kind": kind})
        return value

    @field_validator("content")
    @classmethod
    def _unicode(cls, value: str | list[TextPart] | None) -> str | list[TextPart] | None:
        return no_lone_surrogate(value) if isinstance(value, str) else value

    def text(self) -> str:
        """The message's text (its text parts joined)."""
        if isinstance(self.content, list):
            return "".join(part.text for part in self.content)
        return self.content or ""


class ChatCompletionRequest(BaseModel):
    """The last message is the question (a user turn); earlier user and assistant turns are the conversation.

    OpenAI's sampling and output options (temperature, top_p, max_tokens, stop, ...) are accepted and ignored:
    the service's own LLM settings apply. Their types and OpenAI's ranges are checked all the same, strictly
    (``"stream": "yes"``, ``"n": "1"``, ``"temperature": "hot"``, ``"max_tokens": -5`` is a 422, as on the main
    API); options the service does not know
    are ignored. The lengths (the question's, each message's) are checked by the route, against the settings.
    """

    model_config = ConfigDict(extra="ignore", strict=True)
    model: str = Field(min_length=1, max_length=256, description="A name from GET /v1/models.")
    messages: list[ChatMessage] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool = False
    n: int = Field(default=1, ge=1, le=1, description="One choice only.")
    # OpenAI's ranges: a value outside them is the client's mistake there too (400), not a value to ignore
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    presence_penalty: float | None = Field(default=None, ge=-2, le=2)
    frequency_penalty: float | None = Field(default=None, ge=-2, le=2)
    seed: int | None = None
    stop: str | list[str] | None = None
    user: str | None = None

    @model_validator(mode="after")
    def _last_is_a_question(self) -> ChatCompletionRequest:
        last = self.messages[-1]
        if last.role != "user":
            raise PydanticCustomError("last_turn", "the last message must be the user's question (role 'user')")
        if not has_content(last.text().strip()):  # the question's one content check, as on the main API
            raise PydanticCustomError(EMPTY_QUESTION, f"the last user message: {EMPTY_QUESTION_MESSAGE}")
        return self


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "adaptive-entity-rag"
    description: str


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


class CitedPassage(BaseModel):
    """A numbered reference of the answer: ``[index]`` in the content."""

    index: int
    id: str = Field(description="The chunk id.")
    doc_id: str
    title: str
    text: str = Field(description="The cited passage.")


def cited_passages(response: QueryResponse) -> list[CitedPassage]:
    """An answer's citations, each with the text of the passage it cites."""
    texts = {r.id: r.text for r in response.retrieval_details.top_results}
    return [CitedPassage(index=c["index"], id=c["id"], doc_id=c["docId"], title=c["title"],
                         text=texts.get(c["id"], "")) for c in response.citations]


class CarriedEntity(BaseModel):
    text: str = Field(description="As the earlier question wrote it (and as it was added to this one).")
    standard_name: str
    type: str


class FollowUp(BaseModel):
    """How the question the service answered was formed from the conversation."""

    mode: Literal["standalone", "condensed", "entities", "restated"] = Field(
        description="standalone: the last message alone (the first question, or nothing to carry); condensed: the "
                    "LLM rewrote it as a standalone question; entities: the earlier questions' validated entities "
                    "were added to it (without an LLM, or when the LLM failed); restated: it named only a new "
                    "subject (\"割草机呢？\", \"What about the lawn mower?\") and the question before it was asked "
                    "of that subject.")
    question: str = Field(description="The question the service answered.")
    original: str = Field(description="The last user message.")
    carried_entities: list[CarriedEntity] = Field(default_factory=list)


class AerInfo(BaseModel):
    """The service's account of the answer."""

    request_id: str
    run_id: str | None
    status: str = Field(description="answered, or no_results when nothing relevant was found; task for a chat "
                                    "front end's background task (a title, tags, ...), answered without retrieval.")
    answer_mode: str
    route: list[str] = Field(description="The routing decisions in order (structured_search, relax_constraints, ...).")
    follow_up: FollowUp
    llm_calls: int
    degraded: list[str]
    task: str | None = Field(default=None, description="The background task recognized (title, tags, follow_ups, "
                                                       "queries, autocomplete, emoji, other), or null.")


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class ChatChoice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop"] = "stop"


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[ChatChoice]
    citations: list[CitedPassage]
    aer: AerInfo


class ChunkDelta(BaseModel):
    role: Literal["assistant"] | None = None
    content: str | None = None


class ChunkChoice(BaseModel):
    index: int = 0
    delta: ChunkDelta
    finish_reason: Literal["stop"] | None = None


class ChatCompletionChunk(BaseModel):
    """One streamed event; the last one carries ``finish_reason``, ``citations`` and ``aer``."""

    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str
    choices: list[ChunkChoice]
    citations: list[CitedPassage] | None = None
    aer: AerInfo | None = None

"""The wire conventions every resource's models share: camelCase aliases (``Wire``), the checks of every request's
strings (``WireRequest``), the constrained strings checked at the door (422, not 500), and where the API answers."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, overload

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from graphs.domain import (
    NO_CONTROL_CHARS,
    check_document_id,
    clean_name,
    find_unsafe,
    format_path,
)
from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content


@overload
def wire_time(seconds: float) -> str: ...
@overload
def wire_time(seconds: None) -> None: ...
@overload
def wire_time(seconds: float | None) -> str | None: ...
def wire_time(seconds: float | None) -> str | None:
    """A moment on the wire: ISO 8601 in UTC to the second (``2026-11-28T10:11:43+00:00``), as jobs write theirs;
    ``None`` stays ``None``. Stores keep Unix seconds; every response shows this form."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


WIRE_TIME = "ISO 8601, UTC (2026-11-28T10:11:43+00:00)"
"""How a field's description names the form ``wire_time`` writes."""


API_PATH = "/api/adaptive-entity-rag"
"""Where the service answers (the routes' prefix)."""


MAX_QUESTION_CHARS = 2000


NAME_MAX_CHARS = 256


NAME_RULES = ("NFKC-normalized and trimmed; no control, line-separator, bidirectional or invisible formatting "
              "characters; at least one letter or digit (422 invalid_entity_name otherwise).")


def not_blank(value: str) -> str:
    """Refuse a text that is only whitespace (``blank``)."""
    if not value.strip():
        raise PydanticCustomError("blank", "must contain a non-whitespace character")
    return value


DocumentId = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, pattern=NO_CONTROL_CHARS,
          description="Document id: 1-256 characters, no control characters."),
]


NewDocumentId = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, pattern=NO_CONTROL_CHARS,
          description="Document id: 1-256 characters; no control, bidirectional, zero-width or other invisible, "
                      "private-use, noncharacter or unassigned code points (422 invalid_document_id)."),
    AfterValidator(check_document_id),
]
"""The id of a document being written (an existing one is still named by ``DocumentId`` to read or delete)."""


EntityName = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, description=f"1-256 characters, {NAME_RULES}"),
    AfterValidator(clean_name),
]


EntityAlias = EntityName


def with_content(value: str) -> str:
    """Refuse a question with no letter or digit (``empty_question``): see ``graphs.text.content``."""
    if not has_content(value):
        raise PydanticCustomError(EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE)
    return value


Question = Annotated[
    str,
    # no min_length: an empty question is content-free like "?", refused by the one check (empty_question)
    Field(max_length=MAX_QUESTION_CHARS, json_schema_extra={"pattern": r"\S", "minLength": 1},
          description="1-2000 characters with at least one letter or digit (punctuation, emoji or invisible "
                      "characters alone: 422 empty_question)."),
    AfterValidator(with_content),
]


class Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


CODED_ERRORS = ("invalid_entity_name", EMPTY_QUESTION, "invalid_document_id", "empty_document",
                "invalid_metadata_date", "invalid_entity_type", "invalid_metadata", "unsupported_content")
"""422 detail types that are the error's code (the first one present names it; else ``invalid_request``)."""


UNSAFE_STRING = "unsafe_string"
"""The 422 detail ``type`` of a string no store can hold; its ``loc`` runs down to the string itself."""


def check_strings(fields: dict[str, Any]) -> None:
    """Refuse a lone surrogate or a control character anywhere in ``fields`` (keys and values, at any depth):
    it would fail in Milvus's row key or the graph's SQLite, after other documents were written. The error's
    ``ctx.path`` is the wire path below the model (``metadata.entities.PERSON[0]``)."""
    if found := find_unsafe(fields):
        path, reason = found
        raise PydanticCustomError(UNSAFE_STRING, "{field}: {reason}",
                                  {"field": format_path(path), "reason": reason, "path": list(path)})


class WireRequest(Wire):
    """A request body: strict types (``true`` is no integer, ``"yes"`` no boolean) and no unknown fields
    (``topk`` is refused by name, never ignored): 422 ``invalid_request`` naming each field."""

    model_config = ConfigDict(strict=True, extra="forbid")


WorkspaceName = Annotated[
    str,
    Field(max_length=64, description="The workspace to work in (default: the X-Workspace header, else the key's own, "
                                     "else `default`); 1-32 lower-case letters, digits, `_` and `-` "
                                     "(422 invalid_workspace otherwise, 404 workspace_not_found when none such)."),
]


class WorkspaceRequest(WireRequest):
    """A request body that may name its workspace (``workspace``; the header ``X-Workspace`` wins)."""

    workspace: WorkspaceName | None = None

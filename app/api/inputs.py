"""Constrained strings of the HTTP contract: what the stores can hold is checked at the door (422, not 500)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from graphs.domain import NO_CONTROL_CHARS
from graphs.text.normalize import normalize

NAME_MAX_CHARS = 256


def visible(value: str) -> str:
    """Refuse a name that normalizes to nothing (the entity store keys entities by the normalized name)."""
    if not normalize(value):
        raise ValueError("must contain a visible character")
    return value


DocumentId = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, pattern=NO_CONTROL_CHARS,
          description="Document id: 1-256 characters, no control characters."),
]
EntityName = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX_CHARS, description="1-256 characters, not only whitespace."),
    AfterValidator(visible),
]
EntityAlias = Annotated[str, Field(max_length=NAME_MAX_CHARS)]

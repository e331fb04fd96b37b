"""The base of every domain type: snake_case in Python, camelCase on the wire (``model_dump(by_alias=True)``),
so the API contract (``standardName``, ``rerankedScore`` ...) is kept without un-Pythonic code; frozen."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

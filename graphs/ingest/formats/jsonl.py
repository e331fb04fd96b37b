"""JSONL corpora (``.jsonl``): one document per line, ``{id, title, text, metadata}``, each with its own id."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from graphs.domain import Document
from graphs.ingest.formats.base import FileFormat, FileParseError, decode_text

M = TypeVar("M", bound=BaseModel)


@dataclass
class JsonlLineError(ValueError):
    """A JSONL line that is not a valid record: its number (from 1), the field at fault ("" for the whole line),
    the validator's message and the line itself."""

    line_number: int
    field: str
    message: str
    line: str

    def __str__(self) -> str:
        return f"line {self.line_number}: {self.field + ': ' if self.field else ''}{self.message}"


def jsonl_records(text: str, model: type[M]) -> Iterator[M]:
    """Each non-blank line of ``text`` validated as ``model``; the first invalid line raises ``JsonlLineError``
    (the corpus loader and the page's evaluation upload read their files through this one loop)."""
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield model.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise JsonlLineError(n, ".".join(str(p) for p in first.get("loc", ())), first["msg"], line) from exc


def _entity_line(line: str) -> bool:
    """Whether a JSONL line is an entity record (``standardName``, no ``text``): an entity list given to ingest."""
    try:
        item = json.loads(line)
    except ValueError:
        return False
    return isinstance(item, dict) and "standardName" in item and "text" not in item


def read_corpus_jsonl(data: bytes | str, name: str) -> list[Document]:
    """Documents of a JSONL corpus (``{id, title, text, metadata}`` per line); the error names the line."""
    text = data if isinstance(data, str) else decode_text(data, name)
    try:
        docs = list(jsonl_records(text, Document))
    except JsonlLineError as exc:
        hint = " (an entity, not a document: load an entity list with `aer entities import`)" \
            if _entity_line(exc.line) else ""
        where = f"{exc.field}: " if exc.field else ""
        raise FileParseError("invalid_jsonl", f"{name}:{exc.line_number}: {where}{exc.message}{hint}") from exc
    if not docs:
        raise FileParseError("empty_document", f"{name}: no documents")
    return docs


FORMAT = FileFormat("JSONL corpus", (".jsonl",), order=60, documents=read_corpus_jsonl)

"""JSONL corpora (``.jsonl``): one document per line, ``{id, title, text, metadata}``, each with its own id."""

from __future__ import annotations

import json

from pydantic import ValidationError

from graphs.domain import Document
from graphs.ingest.formats.base import FileFormat, FileParseError, decode_text


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
    docs = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            docs.append(Document.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            hint = " (an entity, not a document: load an entity list with `aer entities import`)" \
                if _entity_line(line) else ""
            raise FileParseError("invalid_jsonl",
                                 f"{name}:{n}: {where + ': ' if where else ''}{first['msg']}{hint}") from exc
    if not docs:
        raise FileParseError("empty_document", f"{name}: no documents")
    return docs


FORMAT = FileFormat("JSONL corpus", (".jsonl",), order=60, documents=read_corpus_jsonl)

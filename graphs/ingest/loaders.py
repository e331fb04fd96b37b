"""Loaders of the files the service ingests: entity lists (JSONL or a JSON array)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from graphs.domain import EntityMetadata


def load_entities_jsonl(path: str | Path) -> list[EntityMetadata]:
    """Read entities (camelCase fields) from a JSONL file or a JSON array; ValueError names the bad record."""
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: invalid JSON: {exc}") from exc
        records = [(f"item {i}", item) for i, item in enumerate(items)]
    else:
        records = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"line {lineno}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}: line {lineno}: invalid JSON: {exc}") from exc
    entities = []
    for where, record in records:
        try:
            entities.append(EntityMetadata.model_validate(record))
        except ValidationError as exc:
            raise ValueError(f"{path}: {where}: invalid entity: {exc}") from exc
    return entities

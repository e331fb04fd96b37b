"""Documents as ingested and stored: ids, storable text, metadata checks, sections, records and chunks."""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from graphs.domain.entities import ENTITY_TYPE_KEYS, ENTITY_TYPES, EntityType
from graphs.domain.model import Model
from graphs.unicode_policy import text_problem, visible_text

# Milvus string literals cannot carry most control characters (the filter builder refuses them), and a
# document id is looked up by a filter: ids with them are refused on the way in, on every path.
NO_CONTROL_CHARS = r"^[^\x00-\x1F\x7F]*$"
# Text may keep tabs and line breaks; the other C0 controls and DEL never come from real documents.
_CONTROL = re.compile(r"[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
PathPart = str | int


def unsafe_string(value: str) -> str | None:
    """Why a string cannot be stored (a lone surrogate: no UTF-8 encoding; a control character), or None."""
    if m := _SURROGATE.search(value):
        return f"lone surrogate U+{ord(m.group()):04X} at position {m.start()} (not valid Unicode text)"
    if m := _CONTROL.search(value):
        return f"control character U+{ord(m.group()):04X} at position {m.start()}"
    return None


def find_unsafe(value: Any, path: tuple[PathPart, ...] = ()) -> tuple[tuple[PathPart, ...], str] | None:
    """The path and reason of the first string (a key or a value, at any depth) that cannot be stored."""
    if isinstance(value, str):
        reason = unsafe_string(value)
        return (path, reason) if reason else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and (reason := unsafe_string(key)):
                # the key itself goes in the path escaped: a lone surrogate cannot be written anywhere
                return (*path, key.encode("utf-8", "backslashreplace").decode()), f"key: {reason}"
            if found := find_unsafe(item, (*path, key if isinstance(key, str | int) else str(key))):
                return found
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if found := find_unsafe(item, (*path, i)):
                return found
    return None


def format_path(path: tuple[PathPart, ...]) -> str:
    """``metadata.entities.PERSON[0]`` from its parts."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def id_problem(text: str) -> str | None:
    """Why ``text`` cannot be a document id (None when it can): the Unicode policy (no control, bidirectional,
    zero-width or other invisible, private-use, noncharacter or unassigned code point), and something visible."""
    if (problem := text_problem(text, "id")) is not None:
        return problem
    return None if visible_text(text) else "has no visible character"


def check_document_id(value: str) -> str:
    """A document id as written (API, uploads, corpora, folders): ``invalid_document_id`` when the Unicode
    policy refuses it."""
    if (problem := id_problem(value)) is not None:
        raise PydanticCustomError("invalid_document_id", "document id {id} {problem}",
                                  {"id": repr(value[:64]), "problem": problem})
    return value


class DocumentSection(Model):
    """A part of a document that chunks never cross: a heading's text, or a PDF page."""

    text: str
    section: str | None = None
    """The heading path (``Setup > Install``); None before the first heading."""
    page: int | None = Field(default=None, ge=1)


_ISO_DATE = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


def iso_date(value: Any) -> int | None:
    """``metadata.date`` as YYYYMMDD (a year or month: its first day): an ISO date string (``2024``,
    ``2024-03``, ``2024-03-05``, ``2024-03-05T10:00:00Z``) or a YYYYMMDD integer that is a real date; None
    for null or "". ``ValueError`` for anything else (``true``, ``-1``, ``{"a":1}``, ``9999-99-99``,
    ``0000-01-01``): a date is refused, never coerced."""
    import datetime as _dt

    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"must be an ISO date string or a YYYYMMDD integer, not {type(value).__name__}")
    if isinstance(value, int):
        year, month, day = value // 10000, value // 100 % 100, value % 100
        parts: tuple[int, int, int] = (year, month, day)
    elif len(value.strip()) > 10 and value.strip()[10:11] in ("T", " "):  # a date and time: the date counts
        try:
            when = _dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{value[:40]!r} is not an ISO date and time") from None
        parts = (when.year, when.month, when.day)
    else:
        found = _ISO_DATE.fullmatch(value.strip())
        if found is None:
            raise ValueError(f"{value[:40]!r} is not an ISO date (YYYY, YYYY-MM or YYYY-MM-DD)")
        parts = (int(found.group(1)), int(found.group(2) or 1), int(found.group(3) or 1))
    try:
        real = _dt.date(*parts)
    except (ValueError, OverflowError):
        raise ValueError(f"{value!r} is not a real date") from None
    return real.year * 10000 + real.month * 100 + real.day


def _entity_values(value: Any) -> str | None:
    """Why a metadata entity value is unusable (it must be a string or a list of strings), or None."""
    if value is None or isinstance(value, str):
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return None
    return f"must be a string or a list of strings, not {type(value).__name__}"


def metadata_problem(metadata: dict[str, Any]) -> tuple[str, str, str] | None:
    """``(code, path, reason)`` of the first metadata field the service would have to coerce: a ``date`` that
    is no real ISO date (``invalid_metadata_date``), an entity type it does not know under ``entities``
    (``invalid_entity_type``), entity values that are not strings (``invalid_metadata``); None when clean."""
    try:
        iso_date(metadata.get("date"))
    except ValueError as exc:
        return "invalid_metadata_date", "metadata.date", str(exc)
    known = ", ".join(ENTITY_TYPES)
    for key, value in metadata.items():
        if str(key).lower() in ENTITY_TYPE_KEYS and str(key).lower() != "date" and (why := _entity_values(value)):
            return "invalid_metadata", f"metadata.{key}", why
    nested = metadata.get("entities")
    if isinstance(nested, dict):
        for key, value in nested.items():
            if str(key).lower() not in ENTITY_TYPE_KEYS:
                return "invalid_entity_type", f"metadata.entities.{key}", f"unknown entity type (one of {known})"
            if str(key).lower() != "date" and (why := _entity_values(value)):
                return "invalid_metadata", f"metadata.entities.{key}", why
    elif isinstance(nested, list):
        for i, item in enumerate(nested):
            if not isinstance(item, dict):
                return "invalid_metadata", f"metadata.entities[{i}]", "must be an object {type, text}"
            if str(item.get("type", "")).lower() not in ENTITY_TYPE_KEYS:
                return ("invalid_entity_type", f"metadata.entities[{i}].type",
                        f"unknown entity type {str(item.get('type'))[:40]!r} (one of {known})")
            if why := _entity_values(item.get("text") or item.get("name")):
                return "invalid_metadata", f"metadata.entities[{i}].text", why
    elif nested is not None:
        return "invalid_metadata", "metadata.entities", "must be an object of type -> names, or a list"
    return None


def check_document_fields(doc_id: str | None, text: str | None, metadata: dict[str, Any]) -> None:
    """What every written document must be, on every path (API, uploads, corpora, folders): an id the
    Unicode policy accepts, text with something visible in it (``empty_document``), metadata that needs no
    coercion. Raises ``PydanticCustomError`` with the code as its type."""
    if doc_id is not None:
        check_document_id(doc_id)
    if text is not None and not visible_text(text):
        raise PydanticCustomError("empty_document", "text has no visible character (only whitespace, "
                                  "zero-width characters or byte-order marks)")
    if found := metadata_problem(metadata):
        code, path, reason = found
        raise PydanticCustomError(code, "{path}: {reason}", {"path": path, "reason": reason})


class Document(Model):
    """A corpus document as ingested (``corpus.jsonl`` line, or a loaded file)."""

    id: str = Field(min_length=1, max_length=256, pattern=NO_CONTROL_CHARS)
    title: str = ""
    text: str = Field(min_length=1)
    metadata: dict[str, Any] = Field(default_factory=dict)
    source: str | None = None
    """The file it was loaded from (path under the ingest root, or the uploaded name); None for JSON documents."""
    sections: list[DocumentSection] = Field(default_factory=list)
    """Structure from the file (headings, pages): chunk boundaries and chunk metadata. Empty: ``text`` is one part."""

    @model_validator(mode="after")
    def _storable(self) -> Document:
        """Refuse strings no store can hold (lone surrogates, control characters) with their path."""
        fields = {"title": self.title, "text": self.text, "metadata": self.metadata, "source": self.source or ""}
        if found := find_unsafe(fields):
            raise ValueError(f"{format_path(found[0])}: {found[1]}")
        check_document_fields(self.id, self.text, self.metadata)
        return self


class DocumentRecord(Model):
    """One document of the inventory: what was ingested, from where, when and as how many chunks."""

    id: str
    title: str = ""
    source: str | None = None
    root: str | None = None
    """The folder (or upload) it was ingested from: a re-ingest of the folder with ``--prune`` removes the
    documents of that root whose file is gone."""
    chunks: int = 0
    bytes: int = 0
    content_hash: str | None = None
    """SHA-256 of the parsed document (title, text, structure, metadata); None for documents indexed before the
    inventory existed."""
    ingested_at: str | None = None
    """UTC ISO 8601."""


class Chunk(Model):
    """One indexed piece of a document, with its scalar filter fields."""

    id: str
    doc_id: str
    chunk_index: int
    title: str
    text: str
    date: int | None = None
    entities: dict[EntityType, list[str]] = Field(
        default_factory=dict, description="Standard names by type, ancestors included."
    )
    source: str | None = None
    section: str | None = None
    page: int | None = None

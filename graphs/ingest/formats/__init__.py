"""The file types the service ingests: one module per type, each declaring its ``FORMAT`` (``FileFormat``).

Adding a file type is adding a module here: the package finds every module that declares ``FORMAT``, and the
suffix list (``SUPPORTED_SUFFIXES``), the parsers, ``aer ingest``, the upload and the page's file picker all
follow from it. Shared helpers (cleaning, sections, decoding, the archive check) are in ``base``.
"""

from __future__ import annotations

import importlib
import pkgutil

from graphs.ingest.formats.base import (
    SECTION_SEPARATOR,
    ArchiveBudget,
    FileFormat,
    FileParseError,
    ParsedFile,
    check_archive,
    clean_line,
    clean_text,
    decode_text,
    joined,
    table_sentences,
    with_unit,
)
from graphs.ingest.formats.pdf import reflow
from graphs.unicode_policy import visible_text


def _discover() -> tuple[FileFormat, ...]:
    found: list[FileFormat] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "FORMAT", None)
        if isinstance(declared, FileFormat):
            found.append(declared)
    found.sort(key=lambda f: (f.order, f.name))
    suffixes = [s for f in found for s in f.suffixes]
    if len(suffixes) != len(set(suffixes)):
        raise ValueError(f"two file formats claim the same suffix: {suffixes}")
    return tuple(found)


FORMATS: tuple[FileFormat, ...] = _discover()
"""Every file type, in the order users see them."""
SUPPORTED_SUFFIXES: tuple[str, ...] = tuple(s for f in FORMATS for s in f.suffixes)
"""The one list of file suffixes ``aer ingest``, the upload and the page take."""
PARSERS = {s: f.parse for f in FORMATS if f.parse is not None for s in f.suffixes}
"""File suffix → parser of a one-document file (a corpus format reads ``documents`` instead)."""
FILE_TYPES = " ".join(f.suffixes[0] for f in FORMATS)
"""The file types as people read them: ``.md .txt .html .pdf .docx .jsonl`` (each format's main suffix)."""


def format_of(suffix: str) -> FileFormat | None:
    """The format of a file suffix (any case), or None."""
    suffix = suffix.lower()
    return next((f for f in FORMATS if suffix in f.suffixes), None)


def unsupported_message(name: str, suffix: str) -> str:
    """Why file ``name`` is not read, in plain words, with the types that are ("no suffix is not a supported type"
    read as a riddle)."""
    what = f"{suffix} is not a supported type" if suffix else "a file name without a suffix names no type"
    return f"{name}: {what} (supported: {' '.join(SUPPORTED_SUFFIXES)})"


def parse_file(data: bytes, name: str, suffix: str) -> ParsedFile:
    """Parse one file by its suffix; ``FileParseError`` when it cannot be read or holds no text."""
    fmt = format_of(suffix)
    if fmt is None or fmt.parse is None:
        raise FileParseError("unsupported_file_type", unsupported_message(name, suffix))
    parsed = fmt.parse(data, name)
    if not any(visible_text(s.text) for s in parsed.sections):  # whitespace, zero-width and BOMs are no text
        raise FileParseError("empty_document", f"{name}: no text found{fmt.empty_hint}")
    return parsed


__all__ = [
    "FILE_TYPES", "FORMATS", "PARSERS", "SECTION_SEPARATOR", "SUPPORTED_SUFFIXES", "ArchiveBudget", "FileFormat",
    "FileParseError", "ParsedFile", "check_archive", "clean_line", "clean_text", "decode_text", "format_of",
    "joined", "parse_file", "reflow", "table_sentences", "unsupported_message", "with_unit",
]  # fmt: skip

"""Plain text (``.txt``, ``.text``): one section; an encoding other than UTF-8 is detected."""

from __future__ import annotations

from graphs.domain import DocumentSection
from graphs.ingest.formats.base import FileFormat, ParsedFile, clean_text, decode_text


def parse_text(data: bytes, name: str) -> ParsedFile:
    """A plain-text file: one section (paragraphs are kept for the splitter)."""
    text = clean_text(decode_text(data, name))
    return ParsedFile(sections=[DocumentSection(text=text)] if text else [])


FORMAT = FileFormat("Text", (".txt", ".text"), order=20, parse=parse_text)

"""CSV and TSV tables (``.csv``, ``.tsv``): one row a line of sentences, each value with its column header
(``table_sentences``); comma, semicolon, tab or bar, UTF-8 or a legacy encoding (standard library ``csv``)."""

from __future__ import annotations

import io
from typing import Any

from graphs.domain import DocumentSection
from graphs.ingest.formats.base import (
    _BARE_NUMBER,
    FileFormat,
    FileParseError,
    ParsedFile,
    clean_line,
    clean_text,
    decode_text,
    table_sentences,
)


def parse_csv(data: bytes, name: str) -> ParsedFile:
    """A CSV (or TSV) table: each row a sentence pairing its values with their column headers and the row's
    label (``table_sentences``; a header's unit goes onto bare numbers). The first row is the header unless a
    cell of it is a number. One section: the chunker splits a long table by size, and each line keeps its
    header, so no chunk loses what its numbers are."""
    import csv

    text = decode_text(data, name)
    try:
        dialect: Any = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = "excel-tab" if name.lower().endswith(".tsv") else "excel"
    try:
        rows = [row for row in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in row)]
    except csv.Error as exc:
        raise FileParseError("corrupt_file", f"{name}: not a readable CSV table: {exc}") from exc
    header = bool(rows) and not any(_BARE_NUMBER.match(clean_line(c)) for c in rows[0])
    body = clean_text("\n".join(table_sentences(rows, header=header)))
    return ParsedFile(sections=[DocumentSection(text=body)] if body else [])


FORMAT = FileFormat("CSV table", (".csv", ".tsv"), order=55, parse=parse_csv)

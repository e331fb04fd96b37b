"""DOCX (``.docx``): headings as sections, tables as sentences, the archive checked first (python-docx, MIT)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

from graphs.ingest.formats.base import (
    FileFormat,
    FileParseError,
    ParsedFile,
    Sections,
    check_archive,
    clean_line,
    table_sentences,
)


def _docx_heading_level(style_name: str) -> int | None:
    if style_name == "Title":
        return 1
    found = re.fullmatch(r"(?:Heading|标题)\s*(\d)", style_name.strip())
    return int(found.group(1)) if found else None


def _docx_blocks(document: Any) -> Iterator[tuple[int | None, str]]:
    """``(heading level or None, text)`` of every paragraph and table row, in document order."""
    from docx.table import Table

    for block in document.iter_inner_content():
        if isinstance(block, Table):
            rows = [[c.text for c in row.cells] for row in block.rows]
            # Word tables mark no header: the first row is one when it has several cells
            yield None, "\n".join(table_sentences(rows, header=True))
        else:
            style = block.style.name if block.style is not None else ""
            yield _docx_heading_level(style or ""), block.text


def parse_docx(data: bytes, name: str) -> ParsedFile:
    """DOCX: ``Heading N`` (and ``Title``) paragraphs start sections; table rows become sentences (each value
    with its column header and row label, ``table_sentences``); the title
    is the document's core property, else its ``Title`` or first heading."""
    import zipfile

    import docx
    from docx.opc.exceptions import PackageNotFoundError

    check_archive(data, name)
    try:
        document = docx.Document(io.BytesIO(data))
        blocks = list(_docx_blocks(document))
        core_title = clean_line(document.core_properties.title or "")
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, AttributeError, TypeError,
            OSError) as exc:
        raise FileParseError("corrupt_file", f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from exc
    except Exception as exc:  # lxml's XMLSyntaxError and friends: a damaged part
        raise FileParseError("corrupt_file", f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from exc
    sections = Sections()
    first_heading = ""
    for level, text in blocks:
        if level is not None:
            first_heading = first_heading or clean_line(text)
            sections.heading(level, text)
        else:
            sections.add(text)
    return ParsedFile(title=core_title or first_heading, sections=sections.done())


FORMAT = FileFormat("DOCX", (".docx",), order=50, parse=parse_docx)

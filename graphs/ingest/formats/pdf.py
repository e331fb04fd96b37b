"""PDF (``.pdf``): one section per page, lines reflowed into paragraphs (pypdf, BSD-3-Clause)."""

from __future__ import annotations

import io
import re

from graphs.domain import DocumentSection
from graphs.ingest.formats.base import FileFormat, FileParseError, ParsedFile, clean_line, clean_text

_CJK_CHAR = r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"


def reflow(text: str) -> str:
    """Join the lines a PDF breaks inside paragraphs: Chinese lines join directly, a hyphen at a line end
    joins the word, other lines join with a space; blank lines stay paragraph breaks."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in block.split("\n") if line.strip()]
        out = ""
        for line in lines:
            if not out:
                out = line
            elif re.search(_CJK_CHAR + r"$", out) and re.match(_CJK_CHAR, line):
                out += line
            elif re.search(r"[A-Za-z]-$", out) and re.match(r"[a-z]", line):
                out = out[:-1] + line
            else:
                out += " " + line
        if out:
            paragraphs.append(out)
    return "\n\n".join(paragraphs)


def parse_pdf(data: bytes, name: str) -> ParsedFile:
    """PDF: one section per page (its number kept), lines reflowed into paragraphs; the title from the
    document information. An encrypted PDF that needs a password is ``encrypted_file``."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except Exception as exc:  # pypdf raises its own errors, or NotImplementedError for AES without cryptography
                raise FileParseError("encrypted_file", f"{name}: the PDF is encrypted ({exc})") from exc
            if not opened:
                raise FileParseError("encrypted_file", f"{name}: the PDF is encrypted and needs a password")
        sections = []
        for number, page in enumerate(reader.pages, start=1):
            text = clean_text(reflow(page.extract_text() or ""))
            if text:
                sections.append(DocumentSection(text=text, page=number))
        meta = reader.metadata
        title = clean_line(str(meta.title)) if meta is not None and meta.title else ""
    except FileParseError:
        raise
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError,
            RecursionError, OSError) as exc:
        raise FileParseError("corrupt_file", f"{name}: not a readable PDF ({type(exc).__name__}: {exc})") from exc
    if title.casefold() in ("untitled", "microsoft word - document1"):
        title = ""
    return ParsedFile(title=title, sections=sections)


FORMAT = FileFormat("PDF", (".pdf",), order=40, parse=parse_pdf,
                    empty_hint=" (a scanned PDF has no text layer: run OCR first)")

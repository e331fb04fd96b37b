"""PDF (``.pdf``): one section per page, lines reflowed into paragraphs (pypdf, BSD-3-Clause)."""

from __future__ import annotations

import io
import re
from typing import Any

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
            elif re.search(_CJK_CHAR + r"$", out) or re.match(_CJK_CHAR, line):
                out += line  # Chinese text breaks anywhere, next to a number too ("不超过350\n元")
            elif re.search(r"[A-Za-z]-$", out) and re.match(r"[a-z]", line):
                out = out[:-1] + line
            else:
                out += " " + line
        if out:
            paragraphs.append(out)
    return "\n\n".join(paragraphs)


def page_text(page: Any) -> str:
    """A PDF page's text with its paragraphs: pypdf's layout mode leaves a blank line where the page leaves
    vertical space (between paragraphs, after a heading), which its plain mode loses ("Data sheet Brightwell
    designs ..." ran the title into the first sentence and every paragraph into one). A page whose every line
    stands apart mid-sentence (double line spacing) or that layout mode cannot read is taken in plain mode."""
    plain = page.extract_text() or ""
    try:
        laid = page.extract_text(extraction_mode="layout") or ""
    except Exception:  # layout mode is newer and stricter than plain: the plain text is still good
        return plain
    blocks = [b for b in re.split(r"\n\s*\n", laid) if b.strip()]
    lines = sum(1 for line in laid.split("\n") if line.strip())
    unfinished = sum(1 for b in blocks if not re.search(r"[.!?:;。！？：；”\"')）]\s*$", b))
    if not blocks or (lines >= 6 and len(blocks) > 0.6 * lines and unfinished > len(blocks) / 2):
        return plain  # most "paragraphs" are one line stopping mid-sentence: line spacing, not paragraphs
    return laid


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
        meta = reader.metadata
        title = clean_line(str(meta.title)) if meta is not None and meta.title else ""
        sections = []
        for number, page in enumerate(reader.pages, start=1):
            text = clean_text(reflow(page_text(page)))
            if number == 1 and title:  # the title printed at the top is the citation's title, not a sentence
                first, _, rest = text.partition("\n\n")
                text = rest if clean_line(first).casefold() == title.casefold() and rest.strip() else text
            if text:
                sections.append(DocumentSection(text=text, page=number))
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

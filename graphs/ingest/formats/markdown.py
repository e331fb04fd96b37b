"""Markdown (``.md``, ``.markdown``): headings as sections, front-matter titles, tables as sentences (markdown-it-py,
MIT)."""

from __future__ import annotations

import re
from typing import Any

from graphs.ingest.formats.base import (
    FileFormat,
    ParsedFile,
    Sections,
    clean_line,
    decode_text,
    table_sentences,
)

_FRONT_MATTER = re.compile(r"\A---\r?\n(.*?)\r?\n(?:---|\.\.\.)\r?\n", re.DOTALL)


def _inline_text(token: Any) -> str:
    """The visible text of an inline token: text, code and image alt text; breaks as spaces or new lines."""
    out = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif child.type == "image":
            out.append(_inline_text(child) or child.attrGet("alt") or "")
    return "".join(out)


def parse_markdown(data: bytes, name: str) -> ParsedFile:
    """Markdown (CommonMark and tables): every heading starts a section; the first level-1 heading (or YAML
    front matter's ``title``) is the title."""
    from markdown_it import MarkdownIt

    source = decode_text(data, name)
    title = ""
    if front := _FRONT_MATTER.match(source):
        found = re.search(r"^title:\s*['\"]?(.+?)['\"]?\s*$", front.group(1), re.MULTILINE)
        title = clean_line(found.group(1)) if found else ""
        source = source[front.end() :]
    tokens = MarkdownIt("commonmark").enable("table").parse(source)
    sections = Sections()
    level = 0
    row: list[str] = []
    table: list[list[str]] = []
    first_heading = ""
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            level = int(token.tag[1])
        elif token.type == "inline" and level:
            text = _inline_text(token)
            if level == 1 and not title:
                title = clean_line(text)
            first_heading = first_heading or clean_line(text)
            sections.heading(level, text)
            level = 0
        elif token.type == "inline" and i > 0 and tokens[i - 1].type in ("th_open", "td_open"):
            row.append(clean_line(_inline_text(token)))
        elif token.type == "tr_close":
            table.append(row)
            row = []
        elif token.type == "table_close":
            sections.add("\n".join(table_sentences(table, header=True)))  # CommonMark tables have a header row
            table = []
        elif token.type == "inline":
            sections.add(_inline_text(token))
        elif token.type in ("fence", "code_block"):
            sections.add(token.content)
    return ParsedFile(title=title or first_heading, sections=sections.done())


FORMAT = FileFormat("Markdown", (".md", ".markdown"), order=10, parse=parse_markdown)

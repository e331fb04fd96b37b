"""HTML (``.html``, ``.htm``): headings as sections, page furniture skipped, tables as sentences (beautifulsoup4,
MIT, with the standard library's parser)."""

from __future__ import annotations

import re
from typing import Any

from graphs.ingest.formats.base import (
    FileFormat,
    FileParseError,
    ParsedFile,
    Sections,
    clean_line,
    table_sentences,
)

_HTML_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "nav", "footer", "form",
                        "button", "iframe", "object", "canvas"})
_HTML_BLOCKS = frozenset({"p", "div", "section", "article", "main", "li", "ul", "ol", "dl", "dt", "dd", "pre",
                          "blockquote", "table", "tr", "br", "hr", "figure", "figcaption", "aside",
                          "header", "address", "caption", "tbody", "thead"})


def parse_html(data: bytes, name: str) -> ParsedFile:
    """HTML: ``<h1>``–``<h6>`` start sections; scripts, styles, navigation and footers are left out; the
    title is ``<title>``, else the first ``<h1>``."""
    from bs4 import BeautifulSoup, NavigableString, Tag
    from bs4.element import Comment, Doctype, ProcessingInstruction

    try:
        soup = BeautifulSoup(data, "html.parser")
    except Exception as exc:  # the parser is lenient; anything it raises means the bytes are not HTML
        raise FileParseError("corrupt_file", f"{name}: not readable as HTML ({exc})") from exc
    title_tag = soup.find("title")
    title = clean_line(title_tag.get_text(" ")) if title_tag else ""
    root = soup.find("main") or soup.find("article") or soup.find("body") or soup
    sections = Sections()
    buffer: list[str] = []

    def flush() -> None:
        if buffer:
            sections.add("".join(buffer))
            buffer.clear()

    def walk(node: Any) -> None:
        for child in node.children:
            if isinstance(child, Comment | Doctype | ProcessingInstruction):
                continue
            if isinstance(child, NavigableString):
                buffer.append(str(child))
                continue
            if not isinstance(child, Tag) or child.name in _HTML_SKIP:
                continue
            if re.fullmatch(r"h[1-6]", child.name):
                flush()
                sections.heading(int(child.name[1]), child.get_text(" "))
                continue
            if child.name == "table":
                flush()
                sections.add("\n".join(_html_table(child)))
                continue
            block = child.name in _HTML_BLOCKS
            if block:
                flush()
            walk(child)
            if child.name in ("td", "th"):
                buffer.append(" | ")
            if block:
                flush()

    walk(root)
    flush()
    found = sections.done()
    if not title:
        h1 = soup.find("h1")
        title = clean_line(h1.get_text(" ")) if h1 else ""
    return ParsedFile(title=title, sections=[s.model_copy(update={"text": _tidy_cells(s.text)}) for s in found])


def _html_table(table: Any) -> list[str]:
    """An HTML table's rows as sentences; the first row is the header when its cells are ``<th>`` (or it sits
    in ``<thead>``). Cells of nested tables are read as text."""
    rows, header = [], False
    for i, tr in enumerate(r for r in table.find_all("tr") if r.find_parent("table") is table):
        cells = [c for c in tr.find_all(["td", "th"]) if c.find_parent("tr") is tr]
        if i == 0:
            header = bool(cells) and (all(c.name == "th" for c in cells) or tr.find_parent("thead") is not None)
        rows.append([c.get_text(" ") for c in cells])
    caption = table.find("caption")
    lines = [clean_line(caption.get_text(" "))] if caption is not None and caption.get_text().strip() else []
    return lines + table_sentences(rows, header=header)


def _tidy_cells(text: str) -> str:
    return "\n".join(line.strip(" |") for line in text.split("\n"))


FORMAT = FileFormat("HTML", (".html", ".htm"), order=30, parse=parse_html)

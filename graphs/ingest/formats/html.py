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
    root = _content_root(soup)
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


ARTICLE_SHARE = 0.5
"""The share of the page's text a lone ``<article>`` must hold to be read alone (a news story among page
furniture); a smaller one is a part of the page, not its content."""


def _content_root(soup: Any) -> Any:
    """The element holding the page's content: its one ``<main>``; else its one ``<article>`` when that holds most
    of the body's text (a story among the site's furniture); else the body. A page of several ``<article>`` cards
    (a cinema's films, a shop's products) is read whole: reading only its first card lost the rest of the page,
    its tables and its other cards included."""
    body = soup.find("body") or soup
    mains = soup.find_all("main")
    if len(mains) == 1:
        return mains[0]
    articles = soup.find_all("article")
    if len(articles) == 1:
        whole = len(body.get_text(" ", strip=True))
        if whole == 0 or len(articles[0].get_text(" ", strip=True)) >= ARTICLE_SHARE * whole:
            return articles[0]
    return body


def _html_table(table: Any) -> list[str]:
    """An HTML table's rows as sentences; the leading rows are the header when their cells are ``<th>`` (or they
    sit in ``<thead>``). Merged cells are spread over the columns and rows they span (``colspan``, ``rowspan``),
    and a header of several rows reads as one, each column's headers joined ("Sowing month" over "Outdoors" gives
    "Sowing month Outdoors"). Cells of nested tables are read as text."""
    grid: list[list[str]] = []
    heads: list[bool] = []
    spanned: dict[int, tuple[str, int]] = {}  # column → text and rows left of a rowspan above
    for tr in (r for r in table.find_all("tr") if r.find_parent("table") is table):
        cells = [c for c in tr.find_all(["td", "th"]) if c.find_parent("tr") is tr]
        row: list[str] = []
        for cell in cells:
            while len(row) in spanned:
                row.append(_spanned(spanned, len(row)))
            text = cell.get_text(" ")
            for _ in range(_span(cell, "colspan")):
                if (down := _span(cell, "rowspan")) > 1:
                    spanned[len(row)] = (text, down - 1)
                row.append(text)
        while len(row) in spanned:
            row.append(_spanned(spanned, len(row)))
        grid.append(row)
        heads.append(bool(cells) and (all(c.name == "th" for c in cells) or tr.find_parent("thead") is not None))
    header_rows = next((i for i, h in enumerate(heads) if not h), len(heads)) if grid else 0
    rows = grid
    if header_rows > 1 and header_rows < len(grid):
        rows = [merged_header(grid[:header_rows]), *grid[header_rows:]]
    caption = table.find("caption")
    lines = [clean_line(caption.get_text(" "))] if caption is not None and caption.get_text().strip() else []
    return lines + table_sentences(rows, header=header_rows > 0)


def _span(cell: Any, name: str) -> int:
    """A cell's ``colspan`` or ``rowspan`` (1 when absent or not a small number)."""
    value = str(cell.get(name) or "1").strip()
    return min(int(value), MAX_SPAN) if value.isdigit() and int(value) > 0 else 1


MAX_SPAN = 50
"""A span wider than this is markup noise, not a table's layout."""


def _spanned(spanned: dict[int, tuple[str, int]], column: int) -> str:
    text, left = spanned.pop(column)
    if left > 1:
        spanned[column] = (text, left - 1)
    return text


def merged_header(rows: list[list[str]]) -> list[str]:
    """A header of several rows as one: each column's headers from the top, the same text once ("Sowing month" of
    a cell spanning two columns, then "Indoors" / "Outdoors" under it: "Sowing month Indoors", "Sowing month
    Outdoors"; a cell spanning the header's rows, "Variety", once)."""
    width = max(len(r) for r in rows)
    out = []
    for j in range(width):
        parts: list[str] = []
        for r in rows:
            text = clean_line(r[j]) if j < len(r) else ""
            if text and text not in parts:
                parts.append(text)
        out.append(_joined(parts))
    return out


def _joined(parts: list[str]) -> str:
    """Header parts joined: with a space, except between two Chinese parts (销售 over 数量: 销售数量)."""
    out = ""
    for part in parts:
        glue = "" if not out or (re.search(r"[\u4e00-\u9fff]$", out) and re.match(r"[\u4e00-\u9fff]", part)) else " "
        out += glue + part
    return out


def _tidy_cells(text: str) -> str:
    return "\n".join(line.strip(" |") for line in text.split("\n"))


FORMAT = FileFormat("HTML", (".html", ".htm"), order=30, parse=parse_html)

"""Text and structure out of each file format the service ingests: Markdown, plain text, HTML, PDF, DOCX and
CSV/TSV tables.

Every parser takes the file's bytes and returns a ``ParsedFile``: a title found in the document (first
heading, ``<title>``, PDF or DOCX metadata; the caller falls back to the file name) and its sections in
order, each with its heading path (``Setup > Install``) or its PDF page. Sections are chunk boundaries and
chunk metadata. A file that cannot be read raises ``FileParseError`` with a machine-readable code.

Libraries: markdown-it-py (MIT), beautifulsoup4 (MIT) with the standard library's HTML parser, pypdf
(BSD-3-Clause), python-docx (MIT), charset-normalizer (MIT) for plain text that is not UTF-8.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from graphs.domain import DocumentSection
from graphs.unicode_policy import visible_text

FileErrorCode = Literal["encrypted_file", "corrupt_file", "unreadable_text", "empty_document", "invalid_jsonl",
                        "unsupported_file_type", "invalid_document", "archive_too_large", "invalid_file_name"]
SECTION_SEPARATOR = " > "
_CONTROL = re.compile(r"[\x00-\x08\x0B\x0E-\x1F\x7F\ud800-\udfff]")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_BLANK_LINES = re.compile(r"\n{3,}")
_CJK_CHAR = r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"
_FRONT_MATTER = re.compile(r"\A---\r?\n(.*?)\r?\n(?:---|\.\.\.)\r?\n", re.DOTALL)


class FileParseError(ValueError):
    """A file that cannot be turned into text (encrypted, corrupt, not text, nothing in it)."""

    def __init__(self, code: FileErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class ParsedFile:
    """What a parser found: a title (may be empty) and the sections in reading order."""

    title: str = ""
    sections: list[DocumentSection] = field(default_factory=list)


def clean_text(text: str) -> str:
    """Text safe to index: no control characters or lone surrogates (form feeds become line breaks), NFC,
    runs of spaces collapsed, at most one blank line in a row."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0c", "\n"))
    text = _CONTROL.sub("", text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def clean_line(text: str) -> str:
    """One line (a title, a heading) cleaned and on one line."""
    return " ".join(clean_text(text).split())


def table_sentences(rows: list[list[str]], *, header: bool) -> list[str]:
    """A table as readable lines, one per value: each value paired with its column's header and the row's
    label (first cell): header ``City tier | Hotel limit per night`` and row ``first-tier city | 600 yuan``
    give ``Hotel limit per night — first-tier city: 600 yuan``. Each value column of a row is a line (a
    sentence) of its own: one line stating a row's price, battery life and lead time together gave a
    question about one of them a number of another ("5" for a lead time of 10天). A header's unit goes onto
    a bare number (``with_unit``). Without a header row the cells join with `` | `` (nothing to pair them
    with)."""
    rows = [[clean_line(c) for c in row] for row in rows]
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    if not header or len(rows) < 2 or max(len(r) for r in rows) < 2:
        return [" | ".join(c for c in row if c) for row in rows]
    heads, body = rows[0], rows[1:]
    lines = []
    for row in body:
        label = row[0] if row else ""
        parts: list[str] = []
        for j, cell in enumerate(row[1:], start=1):
            head = heads[j] if j < len(heads) else ""
            head, cell = with_unit(head, cell)
            if not cell or (cell == label and not head):
                continue
            subject = " — ".join(p for p in (head, label) if p)
            part = f"{subject}: {cell}" if subject else cell
            if part not in parts:  # merged cells repeat their text in every column they span
                parts.append(part)
        if not parts and label:
            parts.append(f"{heads[0]}: {label}" if heads and heads[0] else label)
        lines += parts
    return lines


_HEAD_UNIT = re.compile(r"^(?P<head>.*?\S)\s*[(（\[]\s*(?P<unit>[^()（）\[\]\d]{1,12}?)\s*[)）\]]$")
_BARE_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")


def with_unit(head: str, cell: str) -> tuple[str, str]:
    """A header's unit moved onto a bare number of its column: ``Price (USD)`` and ``1299`` give ``Price`` and
    ``1299 USD``; ``交货周期（天）`` and ``10`` give ``交货周期`` and ``10天``. A number alone is no answer (is
    "10" days or weeks?); anything else is left as it is."""
    m = _HEAD_UNIT.match(head)
    if m is None or not _BARE_NUMBER.match(cell):
        return head, cell
    unit = m["unit"].strip()
    glue = "" if re.match(_CJK_CHAR, unit) or unit in ("%", "‰", "°", "℃", "°C", "°F") else " "
    return m["head"], f"{cell}{glue}{unit}"


class _Sections:
    """Collects text under the current heading path; a new heading closes the section before it."""

    def __init__(self) -> None:
        self.sections: list[DocumentSection] = []
        self.path: list[tuple[int, str]] = []
        self.parts: list[str] = []
        self.page: int | None = None

    def heading(self, level: int, text: str) -> None:
        text = clean_line(text)
        if not text:
            return
        self.flush()
        self.path = [(lvl, t) for lvl, t in self.path if lvl < level] + [(level, text)]

    def add(self, text: str) -> None:
        if text.strip():
            self.parts.append(text)

    def flush(self) -> None:
        body = clean_text("\n\n".join(self.parts))
        self.parts = []
        if body:
            section = SECTION_SEPARATOR.join(t for _, t in self.path) or None
            self.sections.append(DocumentSection(text=body, section=section, page=self.page))

    def done(self) -> list[DocumentSection]:
        self.flush()
        return self.sections


# ---------------------------------------------------------------------------- plain text


def decode_text(data: bytes, name: str) -> str:
    """Bytes of a text file as str: UTF-8 (with or without BOM), else the encoding charset-normalizer finds
    (GB18030, Big5, Latin-1 ...); ``unreadable_text`` for binary data."""
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileParseError("unreadable_text", f"{name}: binary data, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise FileParseError("unreadable_text", f"{name}: not UTF-8 and no other text encoding fits")
    return str(best)


def parse_text(data: bytes, name: str) -> ParsedFile:
    """A plain-text file: one section (paragraphs are kept for the splitter)."""
    text = clean_text(decode_text(data, name))
    return ParsedFile(sections=[DocumentSection(text=text)] if text else [])


# ---------------------------------------------------------------------------- Markdown


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
    sections = _Sections()
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


# ---------------------------------------------------------------------------- HTML

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
    sections = _Sections()
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


# ---------------------------------------------------------------------------- PDF


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


# ---------------------------------------------------------------------------- archives (DOCX; XLSX, PPTX, EPUB)


@dataclass(frozen=True)
class ArchiveBudget:
    """What a ZIP-based file (DOCX today; XLSX, PPTX, EPUB are ZIPs too) may inflate to before it is parsed.

    The limits follow Apache POI's zip-bomb guard: a member over ``ratio_from`` bytes may not inflate more
    than ``max_ratio`` times its compressed size (POI: 100), and the whole archive not past ``max_bytes``
    (text XML of a 5,000-page book is about 30 MB; a bomb is hundreds of MB from a few hundred KB).
    """

    max_bytes: int = 100 * 1024 * 1024
    max_ratio: float = 100.0
    ratio_from: int = 1024 * 1024
    max_members: int = 10_000
    read_size: int = 64 * 1024


def check_archive(data: bytes, name: str, budget: ArchiveBudget = ArchiveBudget()) -> None:
    """Refuse a ZIP that would inflate past ``budget`` (``archive_too_large``) before any parser opens it.

    Two checks: the sizes the central directory declares (count, total, each member's ratio), then a
    streamed read of every member in ``read_size`` pieces, counted and thrown away, stopped as soon as a
    member passes what it declared or the total passes ``max_bytes``: memory stays at one piece whatever
    the archive claims. A file that is not a ZIP is left to its parser (``corrupt_file``)."""
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        return
    with archive:
        members = archive.infolist()
        if len(members) > budget.max_members:
            raise FileParseError("archive_too_large", f"{name}: {len(members)} parts in the archive "
                                 f"(at most {budget.max_members})")
        declared = sum(m.file_size for m in members)
        if declared > budget.max_bytes:
            raise FileParseError("archive_too_large", f"{name}: inflates to {declared} bytes "
                                 f"(at most {budget.max_bytes})")
        for m in members:
            if m.file_size > budget.ratio_from and m.file_size > budget.max_ratio * max(m.compress_size, 1):
                raise FileParseError("archive_too_large", f"{name}: part {m.filename!r} inflates "
                                     f"{m.file_size / max(m.compress_size, 1):.0f} times (at most "
                                     f"{budget.max_ratio:.0f})")
        total = 0
        for m in members:
            if m.is_dir():
                continue
            read = 0
            try:
                with archive.open(m) as part:
                    while piece := part.read(budget.read_size):
                        read += len(piece)
                        total += len(piece)
                        if read > m.file_size or total > budget.max_bytes:
                            raise FileParseError("archive_too_large", f"{name}: part {m.filename!r} inflates "
                                                 f"past what the archive declares or {budget.max_bytes} bytes")
            except FileParseError:
                raise
            except (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError, ValueError,
                    OSError, EOFError) as exc:
                # encrypted parts, unknown compression, bad CRC: the parser reports what it can read
                raise FileParseError("corrupt_file", f"{name}: a damaged archive ({type(exc).__name__}: "
                                     f"{exc})") from exc


# ---------------------------------------------------------------------------- DOCX


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
    sections = _Sections()
    first_heading = ""
    for level, text in blocks:
        if level is not None:
            first_heading = first_heading or clean_line(text)
            sections.heading(level, text)
        else:
            sections.add(text)
    return ParsedFile(title=core_title or first_heading, sections=sections.done())


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


PARSERS = {
    ".md": parse_markdown, ".markdown": parse_markdown, ".txt": parse_text, ".text": parse_text,
    ".html": parse_html, ".htm": parse_html, ".pdf": parse_pdf, ".docx": parse_docx,
    ".csv": parse_csv, ".tsv": parse_csv,
}
"""File suffix → parser (``.jsonl`` is a corpus of documents, read by ``loaders``)."""


def parse_file(data: bytes, name: str, suffix: str) -> ParsedFile:
    """Parse one file by its suffix; ``FileParseError`` when it cannot be read or holds no text."""
    parser = PARSERS.get(suffix.lower())
    if parser is None:
        raise FileParseError("unsupported_file_type", f"{name}: {suffix or 'no suffix'} is not a supported type")
    parsed = parser(data, name)
    if not any(visible_text(s.text) for s in parsed.sections):  # whitespace, zero-width and BOMs are no text
        detail = " (a scanned PDF has no text layer: run OCR first)" if suffix.lower() == ".pdf" else ""
        raise FileParseError("empty_document", f"{name}: no text found{detail}")
    return parsed


def joined(sections: Iterable[DocumentSection]) -> str:
    """The document's whole text: its sections one after the other."""
    return "\n\n".join(s.text for s in sections)

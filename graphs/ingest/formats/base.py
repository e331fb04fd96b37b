"""What every file format shares: ``FileFormat`` (what a format module declares), ``ParsedFile``,
``FileParseError``, text cleaning, sections, decoding and the archive check.

Every parser takes the file's bytes and returns a ``ParsedFile``: a title found in the document (first
heading, ``<title>``, PDF or DOCX metadata; the caller falls back to the file name) and its sections in
order, each with its heading path (``Setup > Install``) or its PDF page. Sections are chunk boundaries and
chunk metadata. A file that cannot be read raises ``FileParseError`` with a machine-readable code.

Library: charset-normalizer (MIT) for plain text that is not UTF-8 (each format module names its own).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from graphs.domain import Document, DocumentSection
from graphs.text.units import unit_word

FileErrorCode = Literal["encrypted_file", "corrupt_file", "unreadable_text", "empty_document", "invalid_jsonl",
                        "unsupported_file_type", "invalid_document", "archive_too_large", "invalid_file_name"]
SECTION_SEPARATOR = " > "
_CONTROL = re.compile(r"[\x00-\x08\x0B\x0E-\x1F\x7F\ud800-\udfff]")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_BLANK_LINES = re.compile(r"\n{3,}")


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


@dataclass(frozen=True)
class FileFormat:
    """One file type: what a module of ``graphs.ingest.formats`` declares as ``FORMAT`` (the package finds it).

    ``parse`` turns one file into one document's title and sections; ``documents`` (instead) reads a file that
    holds many documents (a JSONL corpus). ``order`` places the type in the lists users see.
    """

    name: str
    suffixes: tuple[str, ...]
    order: int
    parse: Callable[[bytes, str], ParsedFile] | None = None
    documents: Callable[[bytes, str], list[Document]] | None = None
    empty_hint: str = ""
    """Added to the ``empty_document`` error (why such a file may hold no text)."""

    def __post_init__(self) -> None:
        if (self.parse is None) == (self.documents is None):
            raise ValueError(f"{self.name}: a file format has either parse or documents")
        if not self.suffixes or any(not s.startswith(".") or s != s.lower() for s in self.suffixes):
            raise ValueError(f"{self.name}: suffixes are lower-case and start with a dot, got {self.suffixes}")


def clean_text(text: str) -> str:
    """Text safe to index: no control characters or lone surrogates (form feeds become line breaks), NFC,
    runs of spaces collapsed, at most one blank line in a row."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0c", "\n"))
    text = _CONTROL.sub("", text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


_CJK_CHAR = r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"


def clean_line(text: str) -> str:
    """One line (a title, a heading) cleaned and on one line."""
    return " ".join(clean_text(text).split())


def table_sentences(rows: list[list[str]], *, header: bool) -> list[str]:
    """A table as readable lines, one per value: each value paired with its column's header and the row's
    label (first cell): header ``City tier | Hotel limit per night`` and row ``first-tier city | 600 yuan``
    give ``Hotel limit per night — first-tier city: 600 yuan``. Each value column of a row is a line (a
    sentence) of its own: one line stating a row's price, battery life and lead time together gave a
    question about one of them a number of another ("5" for a lead time of 10天). A header's unit goes onto
    a bare number (``with_unit``). Without a header row a row of two cells is a form's label and value
    (``Born | Skelby`` gives ``Born: Skelby``, a labelled field: ``graphs.text.fields``); longer rows join
    their cells with `` | `` (nothing to pair them with)."""
    rows = [[clean_line(c) for c in row] for row in rows]
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    if not header or len(rows) < 2 or max(len(r) for r in rows) < 2:
        return [_form_row([c for c in row if c]) for row in rows]
    heads, body = entities_as_rows(*keyed_columns(rows[0], rows[1:]))
    named = naming_columns(heads, body)
    lines = []
    for row in body:
        key = _headed_key(heads[0] if heads else "", row[0] if row else "")
        # "E1 Darkroom chemicals", "第4轮 海棠羽社": the row as a reader names it, its names beside its key (a naming
        # column's own line keeps the key alone: "item — E1: Darkroom chemicals")
        label = " ".join([key, *(row[j] for j in named if row[j] and row[j] != key)])
        parts: list[str] = []
        for j, cell in enumerate(row[1:], start=1):
            head = heads[j] if j < len(heads) else ""
            head, cell = with_unit(head, cell)
            if not cell or cell in (label, key):
                continue  # a merged cell repeats the row's key ("Total" spanning two columns)
            subject = " — ".join(p for p in (head, key if j in named else label) if p)
            part = f"{subject}: {cell}" if subject else cell
            if part not in parts:  # merged cells repeat their text in every column they span
                parts.append(part)
        if not parts and label:
            parts.append(f"{header_words(heads[0])[0]}: {label}" if heads and heads[0] else label)
        lines += parts
    return lines


_SHORT_KEY = re.compile(r"^(?:[A-Za-z]|\d{1,2}[A-Za-z]?)$")
_KIND_HEAD = re.compile(r"^[A-Za-z][a-z]{2,14}$")


def _headed_key(head: str, key: str) -> str:
    """A row key as a reader names the row: a key of one letter, or of one or two digits (and a letter), under a one-word header that
    names its kind is said with it ("Band | B" is "Band B", "Zone | 2" "Zone 2", "Room | 3B" "Room 3B"); a
    question asks for "a Band B seat", and "Standard — B: £29" named no band. An index column ("No.") is no kind."""
    if _SHORT_KEY.match(key) and _KIND_HEAD.match(head) and not _INDEX_HEAD.match(head):
        return f"{head} {key}"
    return key


_INDEX_HEAD = re.compile(r"^(?:#|no\.?|nr\.?|s/?n|序号|编号|行号|项次)$", re.IGNORECASE)
_UNIT_HEAD = re.compile(r"^(?:units?|uom|unit of measure|单位|计量单位|规格单位)$", re.IGNORECASE)
_INTEGER = re.compile(r"^\d{1,4}$")


_CODE_CELL = re.compile(r"^(?=[^\s]*\d)[A-Za-z]{0,6}(?:[-_./]?[A-Za-z0-9]{1,6}){1,4}$")
"""A cell that is a code: I1, E12, A-03, SKU-10482, HF-CW-030 — what keys rows for a machine, not for a reader."""
_NAME_CELL_MAX = 80
NAMING_COLUMNS = 2
"""Most text columns a row's label takes beside its key."""


def naming_columns(heads: list[str], body: list[list[str]]) -> list[int]:
    """The columns that name a table's rows for a reader, where its first column does not: a first column of codes
    (``line | type | item | 2024 …`` keyed I1, E1 …; ``SKU | 品名 | 规格 | 单价``) or one that repeats (a results sheet
    keyed by its round, several matches a round). Only text columns count (no bare number, no code, nothing longer
    than a name). Beside codes: the one that tells the most rows apart (the item, not its category). Beside a
    repeated key: left to right until key and names tell the rows apart, at most ``NAMING_COLUMNS``. A question
    names the row by them ("darkroom chemicals", 第4轮海棠羽社主场), so each of the row's lines carries them; none
    where the first column already names every row."""
    if len(body) < 2 or len(heads) < 3 or not all(r and r[0].strip() for r in body):
        return []
    keys = [r[0].strip() for r in body]
    # (a column of years is the period a row is of, not an item's code: 2023 | 春茶 | 一级 is told apart by its
    # season and grade, not by the one column with the most values, its buyer)
    coded = all(_CODE_CELL.match(k) for k in keys) and not all(_YEAR_CELL.match(k) for k in keys)

    def text_column(j: int) -> bool:
        cells = [r[j].strip() if j < len(r) else "" for r in body]
        return all(c and len(c) <= _NAME_CELL_MAX and not _BARE_NUMBER.match(c) and not _CODE_CELL.match(c)
                   and re.search(r"[^\W\d_]", c) for c in cells) and len(set(cells)) > 1

    texts = [j for j in range(1, len(heads)) if text_column(j)]
    if not coded and len(set(keys)) == len(keys):
        return _other_script_name(heads, body, keys, texts)
    if coded:
        # the item's name beside its code, not its category before it ("E1 Darkroom chemicals"): the one text column
        # that tells the most rows apart (a name two variants share is still the name, not name + category)
        best = max(texts, key=lambda j: (len({r[j].strip() for r in body}), -j), default=None)
        return [] if best is None else [best]
    chosen: list[int] = []
    for j in texts:
        if len(chosen) == NAMING_COLUMNS:
            break
        chosen.append(j)
        told = [tuple(r[k].strip() for k in ([] if coded else [0]) + chosen) for r in body]
        if len(set(told)) == len(told):
            break
    return chosen


_YEAR_CELL = re.compile(r"^(?:19|20)\d\d$")
_OTHER_NAME_MAX = 24
"""Longest cell of a column that names a table's rows in the other script (a name, not a description)."""


_LANGUAGE_HEAD = re.compile(r"english|chinese|translat|英文|中文|英语|汉语|译名|(?:^|[\s_-])(?:en|zh|cn)(?:$|[\s_-])",
                            re.IGNORECASE)
"""A header that names a language or a translation (``English``, 英文名, ``name_en``)."""


def _other_script_name(heads: list[str], body: list[list[str]], keys: list[str], texts: list[int]) -> list[int]:
    """Where a table's first column names every row, the column that names every row again in the other script
    (``Mountain View Twin | 山景双床房``, ``花园单人间 | Garden Single``): a reader names the row by either, so the
    row's lines carry both ("weekday rate — Harbour Single 海景单人间: 300" for 海景单人间平日价格); none when
    no such column, or several (which one is the name is not told). Such a column is a sheet's other language:
    its header is written in its own script, not the first column's header's (``room | 房型``), or names a
    language (英文名, ``English``); a column of the first header's script is an attribute of the row written in
    the other script (``name | maker`` with 白鹭号 | Filippi: the boat's maker, not its English name)."""
    han = {bool(re.search(_CJK_CHAR, k)) for k in keys}
    if len(han) != 1:
        return []  # keys of both scripts: no other script to name them in
    keyed_in_han = han.pop()
    key_head_han = bool(re.search(_CJK_CHAR, heads[0]))
    found = []
    for j in texts:
        if bool(re.search(_CJK_CHAR, heads[j])) == key_head_han and not _LANGUAGE_HEAD.search(heads[j]):
            continue
        cells = [r[j].strip() for r in body]
        if len(set(cells)) == len(cells) and all(
                len(c) <= _OTHER_NAME_MAX and not _SENTENCE_END.search(c) and not re.search(r"\d", c)
                and bool(re.search(_CJK_CHAR, c)) != keyed_in_han for c in cells):
            # (a name in words: no sentence, no quantity, 6小时 beside "Lumo L2" is its battery life; no model,
            # "Dell U2724D" beside 27英寸显示器 names the make, not the row in the other language)
            found.append(j)
    return found if len(found) == 1 else []


def keyed_columns(heads: list[str], body: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """A table's header and rows with the row key first and units on their numbers: a leading running number
    (序号, "#", or cells 1, 2, 3 … down the column) keys no row a reader names, so it is dropped and the next column
    keys the rows ("库存 — K型热电偶" rather than "库存 — 4"); a column of units (单位, "Unit") goes onto the bare
    numbers of the column before it (库存数量 320 and 单位 公斤 give 320公斤) and is dropped."""
    width = max([len(heads), *(len(r) for r in body)])
    heads = heads + [""] * (width - len(heads))
    body = [r + [""] * (width - len(r)) for r in body]
    if width > 2 and body and (_INDEX_HEAD.match(heads[0].strip()) or [r[0] for r in body] == [
            str(n) for n in range(1, len(body) + 1)]) and all(_INTEGER.match(r[0]) or not r[0] for r in body):
        heads, body = heads[1:], [r[1:] for r in body]
    for j in range(len(heads) - 1, 0, -1):
        if not _UNIT_HEAD.match(heads[j].strip()) or not all(
                not r[j] or (len(r[j]) <= 8 and not re.search(r"\d", r[j])) for r in body):
            continue
        if not any(_BARE_NUMBER.match(r[j - 1]) for r in body):
            continue
        body = [[*r[:j - 1], _with_own_unit(r[j - 1], r[j]), *r[j + 1:]] for r in body]
        heads = heads[:j] + heads[j + 1:]
    return heads, body


TRANSPOSED_COLUMNS = 0.5
"""A table whose value columns hold cells of one shape (a number in one unit, or text) at most this share on average
is a candidate for entities as columns: a spec table's model column mixes volts, watts, litres and kilograms (0.14-0.33
on the project's tables), a price list's price column is all prices (0.69-1.0)."""
TRANSPOSED_ROWS = 0.8
"""…and whose rows hold cells of one shape at least this share: each row is one attribute of every entity (6 W | 9 W)."""
TRANSPOSED_BODY = 3
"""Rows a table needs before its shape tells its orientation."""
_CELL_NUMBER = re.compile(r"\d[\d.,]*\s*(?P<unit>[^\d\s.,;:：，、（）()\[\]]{0,6})")


def _cell_shape(cell: str) -> str | None:
    """What kind of value a cell holds, for telling a table's orientation: text, or a number with the first letters
    of the unit after it ("25 L/day" and "40 L/day" alike, "420 W" another); None for an empty cell."""
    cell = cell.strip()
    if not cell or cell in ("-", "—", "–", "/"):
        return None
    m = _CELL_NUMBER.search(cell)
    return "text" if m is None else f"number {m['unit'].casefold()[:3]}"


def _one_shape(groups: Iterable[Iterable[str]]) -> float | None:
    """The mean share of each group's cells that hold its most common shape (groups of two cells or more)."""
    shares = []
    for group in groups:
        shapes = [s for s in map(_cell_shape, group) if s is not None]
        if len(shapes) >= 2:
            shares.append(Counter(shapes).most_common(1)[0][1] / len(shapes))
    return sum(shares) / len(shares) if shares else None


def entities_as_rows(heads: list[str], body: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """A table with its entities as rows: a table that lists its entities as columns (a spec table ``| Specification
    | HX-40 | HX-60 |``, 项目 | K30 | K30 Pro) is turned over, so that every table reads the same way to the answer
    layer, ``attribute — entity: value`` ("Max. operating pressure — HX-40: 8 bar"), its row the entity a question
    names and its column the attribute asked. The orientation is told by the cells' shapes, in any language: each
    row of such a table holds one attribute of every entity (cells of one shape: 6 W | 9 W) while each column
    mixes attributes (volts, watts, kilograms); a table of entities as rows is the other way round (a price column
    is all prices), and a table both ways alike (a timetable of times) stays as written."""
    width = len(heads)
    if width < 3 or len(body) < TRANSPOSED_BODY or len({r[0] for r in body}) < len(body) or not all(
            r[0] and not _BARE_NUMBER.match(r[0]) for r in body) or len(set(heads[1:]) - {""}) < width - 1:
        return heads, body
    columns = _one_shape([r[j] for r in body] for j in range(1, width))
    rows = _one_shape(r[1:] for r in body)
    if columns is None or rows is None or columns > TRANSPOSED_COLUMNS or rows < TRANSPOSED_ROWS:
        return heads, body
    return [heads[0], *(r[0] for r in body)], [[heads[j], *(r[j] for r in body)] for j in range(1, width)]


def _with_own_unit(cell: str, unit: str) -> str:
    """A bare number with the unit its row states in a column of units (320 and 公斤: 320公斤; 14 and "packs": 14 packs)."""
    if not unit or not _BARE_NUMBER.match(cell):
        return cell
    return f"{cell}{'' if re.match(_CJK_CHAR, unit) else ' '}{unit}"


FORM_LABEL_CHARS = 40
"""The first of two cells is a form's label when it is at most this long and no sentence."""
_SENTENCE_END = re.compile(r"[。！？!?；;]|\.\s|\.$")


def _form_row(cells: list[str]) -> str:
    """A header-less table row as a line: two cells are a label and its value (``Born: Skelby``, a trailing
    colon of the label not doubled); other rows, or a first cell that is a sentence, join with `` | ``."""
    if len(cells) == 2 and len(cells[0]) <= FORM_LABEL_CHARS and not _SENTENCE_END.search(cells[0]):
        return f"{cells[0].rstrip(':： ')}: {cells[1]}"
    return " | ".join(cells)


_HEAD_UNIT = re.compile(r"^(?P<head>.*?\S)\s*[(（\[]\s*(?P<unit>[^()（）\[\]\d]{1,12}?)\s*[)）\]]$")
_BARE_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")


_IDENTIFIER_HEAD = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:(?:[_.-]+|(?<=[a-z0-9])(?=[A-Z]))[A-Za-z0-9]+)+$")
"""A header written as a program writes a field name: snake_case, camelCase, kebab-case, dotted (``year_built``,
``weightKg``, ``monthly-fee``) — at least two words joined without a space."""
_IDENTIFIER_WORD = re.compile(r"[A-Z]+\d*(?![a-z])|[A-Z]?[a-z]+\d*|\d+")
_CODE_UNITS = {"pct": "%", "percent": "%", "usd": "USD", "eur": "EUR", "gbp": "GBP", "cny": "CNY", "rmb": "RMB",
               "jpy": "JPY", "hkd": "HKD", "aud": "AUD", "cad": "CAD", "chf": "CHF", "sgd": "SGD", "inr": "INR",
               "c": "°C", "degc": "°C", "f": "°F", "degf": "°F"}
"""Units a field name ends in that are not written as a unit after a number: percent, currency codes, degrees."""
_DATE_WORDS = frozenset({"year", "month", "day", "week", "hour", "minute", "second", "date", "time"})
"""A field name ending in a singular calendar word names a date or time, not a duration's unit (``build_year``,
``start_day``: a year, a day; ``duration_days`` is a number of days)."""


def header_words(head: str) -> tuple[str, str]:
    """A header written as a field name read as words, and the unit it ends in: ``year_built`` gives ``year
    built``; ``weight_kg`` and ``weightKg`` give ``weight`` and unit ``kg``; ``monthlyFeeGbp`` ``monthly fee`` and
    ``GBP``; ``share_pct`` ``share`` and ``%``. A question says "year built" or "how heavy", never ``year_built``,
    and a table's numbers need their unit as ``Weight (kg)`` gives it (``with_unit``). Any other header is kept
    as it is, with no unit."""
    if not _IDENTIFIER_HEAD.match(head):
        return head, ""
    words = _IDENTIFIER_WORD.findall(head)
    if len(words) < 2:
        return head, ""
    low = [w.casefold() for w in words]
    unit = ""
    last = low[-1]
    if last in _CODE_UNITS:
        unit = _CODE_UNITS[last]
    elif last not in _DATE_WORDS and unit_word(last) not in (None, "persons") and (
            len(last) > 1 or unit_word(last) != "money"):  # "price_p": a one-letter money unit names no pence
        unit = last
    if unit:
        low = low[:-1]
    # an acronym keeps its capitals ("ID", "EPC"); other words are read in small letters
    kept = [w if w.isupper() and len(w) > 1 else w.casefold() for w in words[:len(low)]]
    return " ".join(kept), unit


def with_unit(head: str, cell: str) -> tuple[str, str]:
    """A header's unit moved onto a bare number of its column: ``Price (USD)`` and ``1299`` give ``Price`` and
    ``1299 USD``; ``交货周期（天）`` and ``10`` give ``交货周期`` and ``10天``; a field name's last word too
    (``weight_kg`` and ``14`` give ``weight`` and ``14 kg``, ``header_words``). A number alone is no answer (is
    "10" days or weeks?); anything else is left as it is (a field name still read as words)."""
    head, unit = header_words(head)
    if unit:
        head = f"{head} ({unit})"
    m = _HEAD_UNIT.match(head)
    if m is None or not _BARE_NUMBER.match(cell):
        return head, cell
    unit = m["unit"].strip()
    glue = "" if re.match(_CJK_CHAR, unit) or unit in ("%", "‰", "°", "℃", "°C", "°F") else " "
    return m["head"], f"{cell}{glue}{unit}"


class Sections:
    """Collects text under the current heading path; a new heading closes the section before it."""

    def __init__(self) -> None:
        self.sections: list[DocumentSection] = []
        self.path: list[tuple[int, str]] = []
        self.parts: list[str] = []
        self.page: int | None = None
        self.shown = 0  # how many headings of the path (from its start) a written section was shown under

    def heading(self, level: int, text: str) -> None:
        text = clean_line(text)
        if not text:
            return
        self.flush()
        kept = [(lvl, t) for lvl, t in self.path if lvl < level]
        # a heading closed before any text was written under it (a letterhead in a smaller heading above the
        # title: "鸿源银行（Hongyuan Bank）支行" over "个人住房贷款批贷通知书") keeps its words: they open the text
        # of the next section instead of vanishing with the heading path
        self.parts = [t for _, t in self.path[max(len(kept), self.shown):]]
        self.path = [*kept, (level, text)]
        self.shown = min(self.shown, len(kept))

    def add(self, text: str) -> None:
        if text.strip():
            self.parts.append(text)

    def flush(self) -> None:
        body = clean_text("\n\n".join(self.parts))
        self.parts = []
        if body:
            section = SECTION_SEPARATOR.join(t for _, t in self.path) or None
            self.sections.append(DocumentSection(text=body, section=section, page=self.page))
            self.shown = len(self.path)

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

    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        raise FileParseError("unreadable_text", f"{name}: not UTF-8 and no other text encoding fits")
    # A short Western text fits several single-byte code pages equally well (no chaos, no coherence signal),
    # and charset-normalizer's first tie is then often Central European (cp1250: "crème" read as "crčme").
    # Among equal fits, Windows-1252 (what browsers read Latin-1 as) is the likeliest; a better fit still wins.
    ties = [m for m in matches if m.chaos == best.chaos and m.coherence == best.coherence]
    western = next((m for m in ties if WESTERN_CODEPAGE in m.could_be_from_charset), None)
    if western is not None:
        return str(western)
    # A short CJK text fits several multi-byte encodings equally well too (GBK bytes read as CP949 or UTF-16:
    # "麦穗坊的电话" as "찝乾렌돨든"). A real text is written in one script; a wrong decoding mixes Hangul
    # syllables with Han characters, rare extension-A Han or compatibility signs. Among equal fits, the one whose
    # letters are most of one common script wins (the first of those on a tie), of those that fit about as well.
    # The service reads Chinese and English: among decodings as pure as each other, a Chinese one comes first
    # (Big5 "會費由" also reads as johab Hangul syllables, every one of them a real syllable).
    # Two Chinese decodings of a short text are often both pure Han (GBK "记录,538" read as Big5 is "暮翹,538"): the
    # one whose characters are the commonly written ones wins (``common_han_share``), and on a full tie the
    # simplified encodings, far the more frequent in the files this service is given. Measured on short GBK
    # snippets of other sets' Chinese files (never tuned on): 31 of 300 read wrong before, 20 after.
    near = [m for m in matches if m.chaos <= best.chaos + NEAR_CHAOS]
    chosen = max(near, key=lambda m: (script_purity(str(m)), common_han_share(str(m)),
                                      m.encoding in CHINESE_ENCODINGS, m.encoding in SIMPLIFIED_ENCODINGS),
                 default=best)
    return str(chosen)


def _common_han(ch: str) -> bool:
    """Whether a character is one of the commonly written Han characters: level 1 of GB 2312 (3,755 simplified)
    or of Big5 (5,401 traditional), the two standards' own lists of everyday characters."""
    for encoding, low, high in (("gb2312", 0xB0A1, 0xD7F9), ("big5", 0xA440, 0xC67E)):
        try:
            code = ch.encode(encoding)
        except UnicodeEncodeError:
            continue
        if len(code) == 2 and low <= (code[0] << 8 | code[1]) <= high:
            return True
    return False


def common_han_share(text: str) -> float:
    """Share of a text's CJK letters (Han, Kana, Hangul) that are commonly written Han characters
    (``_common_han``); 1.0 for a text without any. A wrong decoding of Chinese bytes lands on rare characters,
    kana or Hangul about as often as not."""
    cjk = [ch for ch in text[:4096] if 0x3040 <= ord(ch) <= 0x9FFF or 0xAC00 <= ord(ch) <= 0xD7AF]
    return sum(_common_han(ch) for ch in cjk) / len(cjk) if cjk else 1.0


CHINESE_ENCODINGS = frozenset({"gb18030", "gb2312", "gbk", "big5", "big5hkscs", "cp950", "hz"})
"""charset-normalizer's names of the Chinese encodings."""
SIMPLIFIED_ENCODINGS = frozenset({"gb18030", "gb2312", "gbk", "hz"})
"""The Chinese encodings of simplified characters (Excel's CSV and Notepad's "ANSI" on a Chinese Windows)."""


NEAR_CHAOS = 0.05
"""How much more "chaos" (charset-normalizer's mess score) than the best fit a decoding may have and still be
preferred for being written in one script (Big5 "會費" scores 0.025 against johab's Hangul 0.0)."""


def _script(ch: str) -> str | None:
    """The script of a letter for ``script_purity`` (None: not a letter)."""
    code = ord(ch)
    if 0x4E00 <= code <= 0x9FFF:
        return "han"
    if 0xAC00 <= code <= 0xD7AF:
        # the 2,350 syllables of KS X 1001 write everyday Korean; a wrong decoding lands anywhere in the 11,172
        try:
            ch.encode("euc_kr")
        except UnicodeEncodeError:
            return "rare"
        return "hangul"
    if 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "rare"  # loose jamo
    if 0x3040 <= code <= 0x30FF:
        return "kana"
    if 0x3300 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF or 0xE000 <= code <= 0xF8FF:
        return "rare"  # compatibility signs, extension-A Han, private use: never most of a real text
    return "other" if ch.isalpha() else None


def script_purity(text: str) -> float:
    """Share of a text's letters in its most frequent common script (Han, Hangul, Kana, other letters); 1.0 for a
    text without letters. Japanese mixes Han and Kana, so both count as one."""
    counts: dict[str, int] = {}
    for ch in text[:4096]:
        script = _script(ch)
        if script is not None:
            script = "han" if script == "kana" else script
            counts[script] = counts.get(script, 0) + 1
    total = sum(counts.values())
    if not total:
        return 1.0
    return max((n for script, n in counts.items() if script != "rare"), default=0) / total


WESTERN_CODEPAGE = "cp1252"
"""The single-byte encoding preferred among equally good fits (charset-normalizer's name)."""


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



def joined(sections: Iterable[DocumentSection]) -> str:
    """The document's whole text: its sections one after the other."""
    return "\n\n".join(s.text for s in sections)

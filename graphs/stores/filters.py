"""Milvus filter expressions built from constraints, with every value escaped.

Entity names are stored one VARCHAR field per entity type as ``|a|b|c|`` (ancestors included)
and matched with ``field like "%|a|%"``. Names are first put through an injective encoding
(``encode_value``) whose output never holds ``|``, ``%``, ``_``, ``\\``, quotes or control
characters. Wildcard escaping is therefore never relied upon: Milvus Lite honours ``\\%`` in
some code paths but not in others (BM25 search over unflushed rows treats ``\\`` literally).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from graphs.domain import Constraint, DateRange, EntityType

DELIMITER = "|"
_ESCAPE_CHAR = "~"
# Characters that would end an element, act as a LIKE wildcard/escape, or need a string escape.
_ENCODED = frozenset({_ESCAPE_CHAR, DELIMITER, "%", "_", "\\", '"', "'"})
_DECODE_RE = re.compile(r"~([0-9A-F]{2})")

ENTITY_FIELDS: dict[EntityType, str] = {
    "PERSON": "person",
    "ORGANIZATION": "organization",
    "PRODUCT": "product",
    "EVENT": "event",
    "LOCATION": "location",
    "CONCEPT": "concept",
    "OTHER": "other",
}
DATE_FIELD = "date"

_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _needs_encoding(ch: str) -> bool:
    return ch in _ENCODED or ord(ch) < 0x20 or ord(ch) == 0x7F


def encode_value(value: str) -> str:
    """Encode one entity name injectively into a delimiter- and wildcard-free token."""
    return "".join(f"{_ESCAPE_CHAR}{ord(ch):02X}" if _needs_encoding(ch) else ch for ch in value.strip())


def decode_value(token: str) -> str:
    """Invert ``encode_value``."""
    return _DECODE_RE.sub(lambda m: chr(int(m.group(1), 16)), token)


def encode_entity_field(values: Iterable[str], max_bytes: int | None = None) -> str:
    """Encode names as ``|a|b|`` (deduplicated, order kept, blanks dropped); "" when none.

    With ``max_bytes``, whole names that would not fit are left out rather than cut.
    """
    tokens: list[str] = []
    size = len(DELIMITER)
    for value in values:
        token = encode_value(value)
        if not token or token in tokens:
            continue
        grown = size + len(token.encode()) + len(DELIMITER)
        if max_bytes is not None and grown > max_bytes:
            continue
        tokens.append(token)
        size = grown
    return f"{DELIMITER}{DELIMITER.join(tokens)}{DELIMITER}" if tokens else ""


def decode_entity_field(field: str) -> list[str]:
    """Invert ``encode_entity_field``."""
    return [decode_value(token) for token in field.split(DELIMITER) if token]


def escape_string(value: str) -> str:
    """Return ``value`` as a double-quoted Milvus string literal."""
    for ch in value:
        if ord(ch) < 0x20 and ch not in _STRING_ESCAPES:
            raise ValueError(f"control character {ch!r} cannot appear in a filter value")
    return '"' + "".join(_STRING_ESCAPES.get(ch, ch) for ch in value) + '"'


def escape_like(value: str) -> str:
    """Escape ``\\``, ``%`` and ``_`` so that ``value`` matches itself in a LIKE pattern."""
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _date_range(c: Constraint) -> DateRange:
    if c.date_range is not None:
        return c.date_range
    digits = c.value.strip()
    if digits.isdigit() and len(digits) in (4, 6, 8):
        year = int(digits[:4])
        if len(digits) == 4:
            return DateRange(
                start=year * 10000 + 101, end=year * 10000 + 1231, granularity="year", label=digits
            )
        month = int(digits[4:6])
        if len(digits) == 6:
            return DateRange(
                start=year * 10000 + month * 100 + 1,
                end=year * 10000 + month * 100 + 31,
                granularity="month",
                label=digits,
            )
        return DateRange(start=int(digits), end=int(digits), granularity="day", label=digits)
    raise ValueError(f"DATE constraint {c.value!r} has no date_range")


def entity_filter(entity_type: EntityType, value: str) -> str:
    """Match rows whose ``entity_type`` field holds ``value`` (or has it as an ancestor)."""
    token = encode_value(value)
    if not token:
        raise ValueError(f"empty {entity_type} constraint value")
    pattern = f"%{DELIMITER}{escape_like(token)}{DELIMITER}%"
    return f"{ENTITY_FIELDS[entity_type]} like {escape_string(pattern)}"


def mention_filter(forms: Iterable[str]) -> str | None:
    """Match rows whose text or title contains one of ``forms`` as written, or whose entity fields hold one of
    them as a value (a name tagged before it was known to be an alias): the candidates for re-tagging."""
    terms: list[str] = []
    for form in dict.fromkeys(f.strip() for f in forms):
        if not form:
            continue
        terms.append(f"search_text like {escape_string('%' + escape_like(form) + '%')}")
        if token := encode_value(form):
            pattern = escape_string(f"%{DELIMITER}{escape_like(token)}{DELIMITER}%")
            terms += [f"{field} like {pattern}" for field in ENTITY_FIELDS.values()]
    return " or ".join(f"({t})" for t in terms) or None


def date_filter(date_range: DateRange) -> str:
    """Match rows whose date lies in the inclusive range."""
    return f"({DATE_FIELD} >= {int(date_range.start)} and {DATE_FIELD} <= {int(date_range.end)})"


def constraint_filter(c: Constraint) -> str:
    """Translate one constraint into a filter expression."""
    expr = date_filter(_date_range(c)) if c.type == "DATE" else entity_filter(c.type, c.value)
    return f"not ({expr})" if c.negated else expr


def and_filters(*filters: str | None) -> str | None:
    """AND the given expressions (each parenthesized, duplicates and Nones dropped)."""
    terms = list(dict.fromkeys(f for f in filters if f))
    if not terms:
        return None
    if len(terms) == 1:
        return terms[0]
    return " and ".join(f"({t})" for t in terms)


def build_filter(constraints: Iterable[Constraint]) -> str | None:
    """AND the filters of all constraints; None when there are none."""
    return and_filters(*(constraint_filter(c) for c in constraints))


def doc_filter(doc_id: str) -> str:
    """Match the chunks of one document."""
    return f"doc_id == {escape_string(doc_id)}"


def docs_filter(doc_ids: Sequence[str]) -> str:
    """Match the chunks of any of ``doc_ids`` (one document: the same expression as ``doc_filter``)."""
    if len(doc_ids) == 1:
        return doc_filter(doc_ids[0])
    return f"doc_id in [{', '.join(escape_string(d) for d in doc_ids)}]"


def ids_filter(ids: Iterable[str], *, negate: bool = False) -> str:
    """Match (or exclude) rows by primary key."""
    values = ", ".join(escape_string(i) for i in ids)
    return f"id {'not in' if negate else 'in'} [{values}]"

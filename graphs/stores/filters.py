"""The typed filter tree every search and scan is given, built from constraints.

A filter is a tree of frozen dataclasses — ``And``/``Or``/``Not`` over ``Compare``, ``Like`` and ``InList``
predicates on named fields — never an expression string: values are data, so no value can change a filter's
structure, and each backend turns the tree into its own query (``graphs.stores.milvus.expressions`` renders
Milvus expressions; the search mirror evaluates the tree directly). A ``Like`` is a literal and where it must
occur (``contains``/``prefix``/``suffix``/``equals``), not a pattern: no wildcard is ever read from a value.

Entity names are stored one VARCHAR field per entity type as ``|a|b|c|`` (ancestors included) and matched
with ``Like(field, "contains", "|a|")``. Names are first put through an injective encoding (``encode_value``)
whose output never holds ``|``, ``%``, ``_``, ``\\``, quotes or control characters. Wildcard escaping is
therefore never relied upon: Milvus Lite honours ``\\%`` in some code paths but not in others (BM25 search
over unflushed rows treats ``\\`` literally).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

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

# -- the tree -------------------------------------------------------------------------------------------

Op = Literal["==", "!=", ">=", "<=", ">", "<"]
LikeKind = Literal["contains", "prefix", "suffix", "equals"]
Value = int | str
_OPS = frozenset(get_args(Op))
_KINDS = frozenset(get_args(LikeKind))
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Control characters a stored string can hold (and a backend's string literal can carry): the others are refused.
_ALLOWED_CONTROL = frozenset("\n\r\t")


def _check_field(field: object) -> None:
    if not isinstance(field, str) or not _FIELD.fullmatch(field):
        raise ValueError(f"not a field name: {field!r}")


def _check_value(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a filter value is an int or a str, not {value!r}")
    if isinstance(value, str):
        for ch in value:
            if ord(ch) < 0x20 and ch not in _ALLOWED_CONTROL:
                raise ValueError(f"control character {ch!r} cannot appear in a filter value")


@dataclass(frozen=True)
class Compare:
    """``field <op> value``."""

    field: str
    op: Op
    value: Value

    def __post_init__(self) -> None:
        _check_field(self.field)
        if self.op not in _OPS:
            raise ValueError(f"not a comparison: {self.op!r}")
        _check_value(self.value)


@dataclass(frozen=True)
class Like:
    """``field`` contains / starts with / ends with / equals ``literal`` (taken literally: no wildcards)."""

    field: str
    kind: LikeKind
    literal: str

    def __post_init__(self) -> None:
        _check_field(self.field)
        if self.kind not in _KINDS:
            raise ValueError(f"not a LIKE kind: {self.kind!r}")
        if not isinstance(self.literal, str):
            raise ValueError(f"a LIKE literal is a str, not {self.literal!r}")
        _check_value(self.literal)


@dataclass(frozen=True)
class InList:
    """``field`` is (``negate``: is not) one of ``values``."""

    field: str
    values: tuple[Value, ...]
    negate: bool = False

    def __post_init__(self) -> None:
        _check_field(self.field)
        if not isinstance(self.values, tuple):
            raise ValueError("InList values are a tuple")
        for v in self.values:
            _check_value(v)


@dataclass(frozen=True)
class Not:
    """Rows ``operand`` does not match."""

    operand: Filter

    def __post_init__(self) -> None:
        _check_node(self.operand)


@dataclass(frozen=True)
class And:
    """Rows every operand matches."""

    operands: tuple[Filter, ...]

    def __post_init__(self) -> None:
        _check_operands(self.operands)


@dataclass(frozen=True)
class Or:
    """Rows some operand matches."""

    operands: tuple[Filter, ...]

    def __post_init__(self) -> None:
        _check_operands(self.operands)


Filter = Compare | Like | InList | Not | And | Or


def _check_node(node: object) -> None:
    if not isinstance(node, Compare | Like | InList | Not | And | Or):
        raise ValueError(f"not a filter: {node!r}")


def _check_operands(operands: object) -> None:
    if not isinstance(operands, tuple) or not operands:
        raise ValueError("And/Or take a non-empty tuple of filters")
    for o in operands:
        _check_node(o)


def fields_of(node: Filter) -> set[str]:
    """Every field a filter reads."""
    if isinstance(node, Not):
        return fields_of(node.operand)
    if isinstance(node, And | Or):
        return set().union(*(fields_of(o) for o in node.operands))
    return {node.field}


# -- entity field encoding ------------------------------------------------------------------------------


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


# -- builders -------------------------------------------------------------------------------------------


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


def entity_filter(entity_type: EntityType, value: str) -> Filter:
    """Match rows whose ``entity_type`` field holds ``value`` (or has it as an ancestor)."""
    token = encode_value(value)
    if not token:
        raise ValueError(f"empty {entity_type} constraint value")
    return Like(ENTITY_FIELDS[entity_type], "contains", f"{DELIMITER}{token}{DELIMITER}")


def mention_filter(forms: Iterable[str]) -> Filter | None:
    """Match rows whose text, title or file name contains one of ``forms`` as written, or whose entity fields hold
    one of them as a value (a name tagged before it was known to be an alias): the candidates for re-tagging."""
    terms: list[Filter] = []
    for form in dict.fromkeys(f.strip() for f in forms):
        if not form:
            continue
        terms += [Like("search_text", "contains", form), Like("source", "contains", form)]
        if token := encode_value(form):
            terms += [Like(field, "contains", f"{DELIMITER}{token}{DELIMITER}") for field in ENTITY_FIELDS.values()]
    if not terms:
        return None
    return terms[0] if len(terms) == 1 else Or(tuple(terms))


def date_filter(date_range: DateRange) -> Filter:
    """Match rows whose date lies in the inclusive range."""
    return And((Compare(DATE_FIELD, ">=", int(date_range.start)), Compare(DATE_FIELD, "<=", int(date_range.end))))


def constraint_filter(c: Constraint) -> Filter:
    """Translate one constraint into a filter."""
    node = date_filter(_date_range(c)) if c.type == "DATE" else entity_filter(c.type, c.value)
    return Not(node) if c.negated else node


def and_filters(*filters: Filter | None) -> Filter | None:
    """AND the given filters (duplicates and Nones dropped; one filter is itself)."""
    terms = tuple(dict.fromkeys(f for f in filters if f is not None))
    if not terms:
        return None
    if len(terms) == 1:
        return terms[0]
    return And(terms)


def or_filters(filters: Iterable[Filter]) -> Filter | None:
    """OR the given filters (duplicates dropped; one filter is itself; none: None)."""
    terms = tuple(dict.fromkeys(filters))
    if not terms:
        return None
    if len(terms) == 1:
        return terms[0]
    return Or(terms)


def build_filter(constraints: Iterable[Constraint]) -> Filter | None:
    """AND the filters of all constraints; None when there are none."""
    return and_filters(*(constraint_filter(c) for c in constraints))


def doc_filter(doc_id: str) -> Filter:
    """Match the chunks of one document."""
    return Compare("doc_id", "==", doc_id)


def docs_filter(doc_ids: Sequence[str]) -> Filter:
    """Match the chunks of any of ``doc_ids`` (one document: the same filter as ``doc_filter``)."""
    if len(doc_ids) == 1:
        return doc_filter(doc_ids[0])
    return InList("doc_id", tuple(doc_ids))


def ids_filter(ids: Iterable[str], *, negate: bool = False) -> Filter:
    """Match (or exclude) rows by primary key."""
    return InList("id", tuple(ids), negate)

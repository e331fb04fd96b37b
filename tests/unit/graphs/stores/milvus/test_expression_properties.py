"""Property tests of the expressions rendered from filter trees: no value, however hostile, changes an
expression's structure.

Each expression is tokenized and parsed by Milvus Lite's own filter parser; a value must stay inside one
string literal and come back out of it unchanged. LIKE patterns are checked against a model of SQL LIKE.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from milvus_lite.search.filter import parse_expr
from milvus_lite.search.filter.ast import And, CmpOp, FieldRef, InOp, LikeOp, Not, StringLit
from milvus_lite.search.filter.tokens import TokenKind, tokenize

from graphs.domain import ENTITY_TYPES, Constraint, DateRange, EntityType
from graphs.stores import filters
from graphs.stores.filters import ENTITY_FIELDS, decode_entity_field, encode_entity_field, encode_value
from graphs.stores.milvus.expressions import escape_like, escape_string, render


# The builders' trees as the expressions Milvus receives (what this module checks).
def entity_filter(etype: EntityType, value: str) -> str:
    return render(filters.entity_filter(etype, value))


def constraint_filter(c: Constraint) -> str:
    return render(filters.constraint_filter(c))


def build_filter(cs: list[Constraint]) -> str | None:
    node = filters.build_filter(cs)
    return None if node is None else render(node)


def date_filter(date_range: DateRange) -> str:
    return render(filters.date_filter(date_range))


def docs_filter(doc_ids: list[str]) -> str:
    return render(filters.docs_filter(doc_ids))


def ids_filter(ids: list[str], *, negate: bool = False) -> str:
    return render(filters.ids_filter(ids, negate=negate))


# Fragments that end literals, open groups, combine terms or act as wildcards, mixed with arbitrary text.
FRAGMENTS = ['"', "'", "\\", "\\\\", '\\"', "|", "||", "&&", " or ", " and ", "not ", ")", "(", "]", "[", ",",
             "%", "_", "~", "~7C", "~25", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", " ", "1 == 1", "id != ",
             "北京", "朝阳", "Zoë", "🚀", "\u202e", "\u3000", "ǅ"]
hostile = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=8).map("".join)
# What a Milvus string literal can carry (escape_string refuses the other control characters).
literal_safe = hostile.map(lambda s: "".join(ch for ch in s if ord(ch) >= 0x20 or ch in "\n\r\t"))
entity_types = st.sampled_from([t for t in ENTITY_TYPES if t != "DATE"])


def like_matches(pattern: str, text: str) -> bool:
    """SQL LIKE as Milvus documents it: ``%`` any run, ``_`` one character, ``\\`` escapes the next one."""
    parts: list[str] = []
    chars = iter(pattern)
    for ch in chars:
        if ch == "\\":
            parts.append(re.escape(next(chars, "\\")))
        elif ch == "%":
            parts.append(".*")
        elif ch == "_":
            parts.append(".")
        else:
            parts.append(re.escape(ch))
    return re.fullmatch("".join(parts), text, flags=re.DOTALL) is not None


def string_tokens(expr: str) -> list[str]:
    return [t.value for t in tokenize(expr) if t.kind == TokenKind.STRING]


def skeleton(expr: str) -> list[tuple[TokenKind, str]]:
    """The token sequence with every string literal blanked: the structure of the expression."""
    return [(t.kind, "?" if t.kind == TokenKind.STRING else t.text.lower()) for t in tokenize(expr)]


def conjuncts(node: Any, terms: int) -> list[Any]:
    """The top-level terms of an AND of ``terms`` parenthesized terms (a lone term may be an AND itself)."""
    return list(node.operands) if terms > 1 and isinstance(node, And) else [node]


@given(entity_types, hostile)
def test_an_entity_filter_is_one_like_over_one_literal(etype: str, value: str) -> None:
    token = encode_value(value)
    assume(token)
    expr = entity_filter(etype, value)  # type: ignore[arg-type]
    assert skeleton(expr) == [(TokenKind.IDENT, ENTITY_FIELDS[etype]), (TokenKind.LIKE, "like"),  # type: ignore[index]
                              (TokenKind.STRING, "?"), (TokenKind.EOF, "")]
    node = parse_expr(expr)
    assert isinstance(node, LikeOp) and node.value == FieldRef(name=ENTITY_FIELDS[etype], pos=0)  # type: ignore[index]
    pattern = node.pattern.value
    # The only wildcards are the two outer %; the value is one whole delimited element.
    assert pattern == f"%|{token}|%" and "_" not in pattern and "\\" not in pattern
    assert pattern.count("%") == 2 and pattern[1:-1].count("|") == 2
    assert decode_entity_field(pattern[1:-1]) == [value.strip()]


@given(st.lists(hostile, max_size=6), hostile)
def test_an_entity_filter_matches_exactly_the_fields_holding_the_value(names: list[str], value: str) -> None:
    assume(encode_value(value))
    field = encode_entity_field(names)
    [pattern] = string_tokens(entity_filter("PERSON", value))
    assert like_matches(pattern, field) == (value.strip() in decode_entity_field(field))


@given(st.lists(hostile, min_size=1, max_size=6).map(lambda names: [n for n in names if n.strip()]), hostile)
def test_a_value_never_matches_a_field_that_only_contains_it_as_a_substring(names: list[str], value: str) -> None:
    assume(names and encode_value(value) and value.strip() not in [n.strip() for n in names])
    # Glue the value into other names: "a" + value + "b", value + "|", ... must not match.
    glued = [n + value for n in names] + [value + n for n in names]
    [pattern] = string_tokens(entity_filter("LOCATION", value))
    assert not like_matches(pattern, encode_entity_field(glued))


@st.composite
def constraints(draw: st.DrawFn) -> Constraint:
    negated = draw(st.booleans())
    if draw(st.integers(0, 4)) == 0:
        start = draw(st.integers(0, 99991231))
        end = draw(st.integers(start, 99991231))
        label = draw(hostile)
        return Constraint(type="DATE", value=label, negated=negated,
                          date_range=DateRange(start=start, end=end, granularity="day", label=label))
    value = draw(hostile)
    assume(encode_value(value))
    return Constraint(type=draw(entity_types), value=value, negated=negated)


def benign(c: Constraint) -> Constraint:
    """The constraint with a harmless value that is equal exactly when the hostile one is."""
    return c if c.type == "DATE" else c.model_copy(update={"value": encode_value(c.value).encode().hex()})


@given(st.lists(constraints(), max_size=5))
def test_composed_filters_keep_their_structure(items: list[Constraint]) -> None:
    expr = build_filter(items)
    if not items:
        assert expr is None
        return
    assert expr is not None
    # The same constraints with a harmless value produce the same token structure.
    plain = build_filter([benign(c) for c in items])
    assert plain is not None and skeleton(expr) == skeleton(plain)
    # One term per distinct constraint, in order.
    first: dict[str, Constraint] = {}
    for c in items:
        first.setdefault(constraint_filter(c), c)
    unique = list(first.values())
    leaves = conjuncts(parse_expr(expr), len(unique))
    assert len(leaves) == len(unique)
    for leaf, c in zip(leaves, unique, strict=True):
        inner = leaf.operand if c.negated else leaf
        if c.negated:
            assert isinstance(leaf, Not)
        if c.type == "DATE":
            assert isinstance(inner, And) and [o.right.value for o in inner.operands] == [
                c.date_range.start, c.date_range.end]  # type: ignore[union-attr]
        else:
            assert isinstance(inner, LikeOp) and inner.pattern.value == f"%|{encode_value(c.value)}|%"


@given(st.integers(-(2**40), 2**40), st.integers(-(2**40), 2**40))
def test_a_date_filter_is_two_integer_comparisons(start: int, end: int) -> None:
    expr = date_filter(DateRange(start=start, end=end, granularity="day", label="x"))
    node = parse_expr(expr)
    assert isinstance(node, And)
    assert [(o.left.name, o.op, o.right.value) for o in node.operands] == [
        ("date", ">=", start), ("date", "<=", end)]


@given(hostile)
def test_a_date_constraint_value_never_reaches_the_expression(value: str) -> None:
    try:
        expr = constraint_filter(Constraint(type="DATE", value=value))
    except ValueError:
        return  # no date range and not YYYY[MM[DD]]: a contract error, never an expression
    assert not string_tokens(expr)
    assert [t.kind for t in tokenize(expr)].count(TokenKind.INT) == 2


@given(hostile)
def test_escape_string_is_one_literal_or_a_refusal(value: str) -> None:
    try:
        literal = escape_string(value)
    except ValueError:
        assert any(ord(ch) < 0x20 and ch not in "\n\r\t" for ch in value)
        return
    tokens = tokenize(literal)
    assert [t.kind for t in tokens] == [TokenKind.STRING, TokenKind.EOF] and tokens[0].value == value


@given(st.lists(literal_safe, min_size=1, max_size=5), st.booleans())
def test_id_lists_keep_every_value_inside_its_own_literal(ids: list[str], negate: bool) -> None:
    node = parse_expr(ids_filter(ids, negate=negate))
    assert isinstance(node, InOp) and node.negate is negate and node.field.name == "id"
    assert [e.value for e in node.values.elements] == ids
    docs = parse_expr(docs_filter(ids))
    if len(ids) == 1:
        assert isinstance(docs, CmpOp) and docs.right == StringLit(value=ids[0], pos=docs.right.pos)
    else:
        assert isinstance(docs, InOp) and [e.value for e in docs.values.elements] == ids


@given(literal_safe, st.lists(literal_safe, min_size=1, max_size=3))
def test_and_filters_of_doc_and_id_filters_parse_to_the_same_values(doc_id: str, ids: list[str]) -> None:
    node = filters.and_filters(filters.docs_filter([doc_id]), filters.ids_filter(ids, negate=True))
    assert node is not None
    expr = render(node)
    left, right = conjuncts(parse_expr(expr), 2)
    assert isinstance(left, CmpOp) and left.right.value == doc_id
    assert isinstance(right, InOp) and [e.value for e in right.values.elements] == ids


@given(literal_safe, literal_safe)
@settings(max_examples=200)
def test_escape_like_matches_itself_and_nothing_else(value: str, other: str) -> None:
    pattern = escape_like(value)
    assert like_matches(pattern, value)
    assert like_matches(pattern, other) == (other == value)
    # The escaped pattern also survives being put in a string literal.
    assert string_tokens(escape_string(pattern)) == [pattern]


@pytest.mark.parametrize("value", ["%", "_", "a_b", "100%", "\\", "\\%"])
def test_the_like_model_honours_wildcards_and_escapes(value: str) -> None:
    assert like_matches("a_c", "abc") and like_matches("a%", "abc") and not like_matches("a\\_c", "abc")
    assert like_matches(escape_like(value), value) and not like_matches(escape_like(value), value + "x")

"""Filter trees rendered as Milvus expressions: escaping, structure under adversarial values, encoding."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from milvus_lite.search.filter import parse_expr
from milvus_lite.search.filter.ast import CmpOp, FieldRef, LikeOp, Not, StringLit

from graphs.domain import Constraint, DateRange
from graphs.stores import filters
from graphs.stores.filters import (
    ENTITY_FIELDS,
    Compare,
    Filter,
    decode_entity_field,
    decode_value,
    encode_entity_field,
    encode_value,
)
from graphs.stores.milvus.expressions import escape_like, escape_string, render


# The builders' trees as the expressions Milvus receives (what this module checks).
def constraint_filter(c: Constraint) -> str:
    return render(filters.constraint_filter(c))


def build_filter(cs: list[Constraint]) -> str | None:
    node = filters.build_filter(cs)
    return None if node is None else render(node)


def and_filters(*nodes: Filter | None) -> str | None:
    node = filters.and_filters(*nodes)
    return None if node is None else render(node)


def doc_filter(doc_id: str) -> str:
    return render(filters.doc_filter(doc_id))


def ids_filter(ids: list[str], *, negate: bool = False) -> str:
    return render(filters.ids_filter(ids, negate=negate))


ADVERSARIAL = [
    'a"b',
    "a'b",
    "back\\slash",
    "trailing\\",
    "a||b",
    "a&&b",
    "x) or (1 == 1",
    '" or id != "',
    '\\" or id != \\"',
    "100%",
    "%",
    "_",
    "a_b",
    "|",
    "~7C",
    "line\nbreak",
    "tab\tand\rcr",
    "北京|朝阳",
    "Zoë 🚀",
    'not (person like "%")',
]
STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def skeleton(expr: str) -> str:
    """Replace every string literal by a placeholder, leaving the expression's structure."""
    return STRING_LITERAL.sub('"?"', expr)


def day(start: int, end: int) -> DateRange:
    return DateRange(start=start, end=end, granularity="day", label=str(start))


@pytest.mark.parametrize("value", ADVERSARIAL)
def test_entity_filter_structure_is_fixed(value: str) -> None:
    expr = constraint_filter(Constraint(type="PERSON", value=value))
    assert skeleton(expr) == 'person like "?"'
    node = parse_expr(expr)
    assert isinstance(node, LikeOp)
    assert node.value == FieldRef(name="person", pos=0)
    assert node.pattern.value == f"%|{encode_value(value)}|%"


@pytest.mark.parametrize("value", ADVERSARIAL)
def test_encoded_value_holds_no_special_characters(value: str) -> None:
    token = encode_value(value)
    assert not set(token) & set("|%_\\\"'\n\r\t")
    assert decode_value(token) == value.strip()
    assert escape_like(token) == token


@pytest.mark.parametrize("value", ADVERSARIAL)
def test_negated_filter_structure_is_fixed(value: str) -> None:
    expr = constraint_filter(Constraint(type="LOCATION", value=value, negated=True))
    assert skeleton(expr) == 'not (location like "?")'
    node = parse_expr(expr)
    assert isinstance(node, Not) and isinstance(node.operand, LikeOp)


@pytest.mark.parametrize("value", ADVERSARIAL)
def test_doc_filter_round_trips_value(value: str) -> None:
    expr = doc_filter(value)
    assert skeleton(expr) == 'doc_id == "?"'
    node = parse_expr(expr)
    assert isinstance(node, CmpOp) and node.op == "=="
    assert node.right == StringLit(value=value, pos=node.right.pos)


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"], min_codepoint=0x20)))
def test_escape_string_round_trips_any_printable_text(value: str) -> None:
    node = parse_expr(f"doc_id == {escape_string(value)}")
    assert isinstance(node, CmpOp)
    assert isinstance(node.right, StringLit) and node.right.value == value


@given(st.text())
def test_encode_value_is_injective_and_reversible(value: str) -> None:
    token = encode_value(value)
    assert decode_value(token) == value.strip()
    assert "|" not in token and "%" not in token and "_" not in token and "\\" not in token


def test_escape_string_rejects_unrepresentable_control_characters() -> None:
    with pytest.raises(ValueError):
        escape_string("a\x00b")


def test_escape_string_and_like() -> None:
    assert escape_string('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    assert escape_like("50%_\\") == "50\\%\\_\\\\"


def test_every_entity_type_but_date_has_a_field() -> None:
    for etype, field in ENTITY_FIELDS.items():
        assert constraint_filter(Constraint(type=etype, value="x")) == f'{field} like "%|x|%"'


def test_date_filter() -> None:
    c = Constraint(type="DATE", value="2023年1月", date_range=day(20230101, 20230131))
    assert constraint_filter(c) == "(date >= 20230101 and date <= 20230131)"
    negated = c.model_copy(update={"negated": True})
    assert constraint_filter(negated) == "not ((date >= 20230101 and date <= 20230131))"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023", "(date >= 20230101 and date <= 20231231)"),
        ("202302", "(date >= 20230201 and date <= 20230231)"),
        ("20230215", "(date >= 20230215 and date <= 20230215)"),
    ],
)
def test_date_filter_falls_back_to_digit_values(value: str, expected: str) -> None:
    assert constraint_filter(Constraint(type="DATE", value=value)) == expected


def test_date_without_range_is_a_contract_error() -> None:
    with pytest.raises(ValueError):
        constraint_filter(Constraint(type="DATE", value="last spring"))


def test_empty_entity_value_is_a_contract_error() -> None:
    with pytest.raises(ValueError):
        constraint_filter(Constraint(type="PERSON", value="  "))


def test_build_filter_ands_parenthesized_terms() -> None:
    assert build_filter([]) is None
    one = [Constraint(type="PERSON", value="张三")]
    assert build_filter(one) == 'person like "%|张三|%"'
    many = [
        Constraint(type="PERSON", value='" or id != "'),
        Constraint(type="LOCATION", value="北京", negated=True),
        Constraint(type="DATE", value="2023", date_range=day(20230101, 20231231)),
        Constraint(type="PERSON", value='" or id != "'),
    ]
    expr = build_filter(many)
    assert expr is not None
    assert skeleton(expr) == (
        '(person like "?") and (not (location like "?")) and ((date >= 20230101 and date <= 20231231))'
    )
    assert parse_expr(expr) is not None


def test_and_filters_drops_nones_and_duplicates() -> None:
    assert and_filters(None, None) is None
    a, b = Compare("a", "==", 1), Compare("b", "==", 2)
    assert and_filters(a, None, a) == "a == 1"
    assert and_filters(a, b) == "(a == 1) and (b == 2)"


def test_ids_filter() -> None:
    assert ids_filter(['x"1', "y"]) == 'id in ["x\\"1", "y"]'
    assert skeleton(ids_filter(["a", "b"], negate=True)) == 'id not in ["?", "?"]'


def test_encode_entity_field() -> None:
    assert encode_entity_field([]) == ""
    assert encode_entity_field(["", "  "]) == ""
    field = encode_entity_field(["中国", "北京", "中国", "a|b", " 朝阳 "])
    assert field == "|中国|北京|a~7Cb|朝阳|"
    assert decode_entity_field(field) == ["中国", "北京", "a|b", "朝阳"]
    assert decode_entity_field("") == []


def test_encode_entity_field_drops_whole_names_past_the_limit() -> None:
    field = encode_entity_field(["abc", "defghij", "k"], max_bytes=9)
    assert field == "|abc|k|"
    assert len(field.encode()) <= 9

"""Parsing the service's filter expressions for the search mirror, and evaluating them to row masks.

Every expression ``graphs.stores.filters`` can build must parse (a hostile value included), and select the
rows Milvus Lite's own filter evaluator selects; anything outside the language is refused, never guessed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from milvus_lite.schema.types import CollectionSchema, DataType, FieldSchema
from milvus_lite.search.filter import compile_filter, evaluate_mask

from graphs.domain import ENTITY_TYPES, Constraint, DateRange
from graphs.stores.bm25 import Analyzer
from graphs.stores.filter_eval import (
    And,
    Compare,
    InList,
    Like,
    Not,
    Or,
    UnsupportedFilter,
    fields_of,
    like_pattern,
    parse_filter,
)
from graphs.stores.filters import (
    ENTITY_FIELDS,
    build_filter,
    docs_filter,
    encode_entity_field,
    escape_like,
    escape_string,
    ids_filter,
)
from graphs.stores.milvus.mirror import INT_FIELDS, TOKEN_FIELDS, SearchMirror

FRAGMENTS = ['"', "'", "\\", '\\"', "|", "||", "&&", " or ", " and ", "not ", ")", "(", "]", "[", ",", "%", "_",
             "~", "\n", "\t", " ", "1 == 1", "id != ", "北京", "朝阳", "Zoë", "🚀"]  # fmt: skip
hostile = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), min_size=1, max_size=6).map(
    "".join
)
NAMES = ["北京", "朝阳", "Apple", "a|b", '"q"', "100%", "a_b", "back\\slash", "Zoë"]


def test_the_service_expressions_parse_to_their_trees() -> None:
    assert parse_filter('person like "%|张三|%"') == Like("person", "contains", "|张三|")
    assert parse_filter("(date >= 20240101 and date <= 20241231)") == And(
        (Compare("date", ">=", 20240101), Compare("date", "<=", 20241231))
    )
    assert parse_filter('not (location like "%|北京|%")') == Not(Like("location", "contains", "|北京|"))
    assert parse_filter('doc_id in ["a", "b\\"c"]') == InList("doc_id", ("a", 'b"c'), negate=False)
    assert parse_filter('id not in ["x"]') == InList("id", ("x",), negate=True)
    assert parse_filter('a == 1 or b != "x" and c < -3') == Or(
        (Compare("a", "==", 1), And((Compare("b", "!=", "x"), Compare("c", "<", -3))))
    )
    assert fields_of(parse_filter('(a == 1) and not (b like "x%")')) == {"a", "b"}


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("%|a|%", ("contains", "|a|")),
        ("abc%", ("prefix", "abc")),
        ("%abc", ("suffix", "abc")),
        ("abc", ("equals", "abc")),
        ("%100\\%%", ("contains", "100%")),
        ("%a\\_b%", ("contains", "a_b")),
        ("%back\\\\slash%", ("contains", "back\\slash")),
        ("%", ("suffix", "")),
    ],
)
def test_like_patterns(pattern: str, expected: tuple[str, str]) -> None:
    assert like_pattern(pattern) == expected


@pytest.mark.parametrize(
    "expr",
    [
        "",
        'a like "%x%y%"',
        'a like "x_y"',
        'a like "%\\x%"',
        "a == 1 && b == 2",
        "a == 1 || b == 2",
        'json["k"] == 1',
        "a in [1, 2",
        "a == 1.5",
        "a + 1 == 2",
        "array_contains(a, 1)",
        "(a == 1",
        "a == 1)",
        'a == "\\q"',
        "a",
        "not",
        "a not == 1",
    ],
)
def test_other_expressions_are_refused(expr: str) -> None:
    with pytest.raises(UnsupportedFilter):
        parse_filter(expr)


constraints = st.builds(
    Constraint,
    type=st.sampled_from([t for t in ENTITY_TYPES if t != "DATE"]),
    value=st.one_of(st.sampled_from(NAMES), hostile).filter(lambda v: v.strip()),
    negated=st.booleans(),
)
dates = st.builds(
    lambda y, negated: Constraint(
        type="DATE", value=str(y), negated=negated,
        date_range=DateRange(start=y * 10000 + 101, end=y * 10000 + 1231, granularity="year", label=str(y)),
    ),
    st.integers(2018, 2026), st.booleans(),
)  # fmt: skip


def _encodable(c: Constraint) -> bool:
    from graphs.stores.filters import encode_value

    return c.type == "DATE" or bool(encode_value(c.value))


@settings(max_examples=150, deadline=None, database=None)
@given(cs=st.lists(st.one_of(constraints, dates), min_size=1, max_size=4).filter(lambda cs: all(map(_encodable, cs))))
def test_every_expression_the_service_builds_parses(cs: list[Constraint]) -> None:
    expr = build_filter(cs)
    assert expr is not None
    parse_filter(expr)  # never UnsupportedFilter


@settings(max_examples=60, deadline=None, database=None)
@given(ids=st.lists(hostile.map(lambda s: "".join(ch for ch in s if ord(ch) >= 0x20)), min_size=1, max_size=4))
def test_document_and_id_lists_parse_back_to_their_values(ids: list[str]) -> None:
    assert parse_filter(docs_filter(ids)) == (
        InList("doc_id", tuple(ids), False) if len(ids) > 1 else Compare("doc_id", "==", ids[0])
    )
    assert parse_filter(ids_filter(ids, negate=True)) == InList("id", tuple(ids), True)


# -- evaluation against Milvus Lite's own evaluator ---------------------------------------------------------


def rows(n: int = 60) -> list[dict[str, Any]]:
    rng = np.random.default_rng(7)
    out = []
    for i in range(n):
        row: dict[str, Any] = {
            "id": f"doc{i % 17}#{i}@h",
            "doc_id": f"doc{i % 17}",
            "chunk_index": i % 5,
            "date": int(rng.choice([0, 20190305, 20201111, 20240101, 20241231, 20250601])),
            "search_text": "t",
            "dense": [1.0, 0.0],
        }
        for field in TOKEN_FIELDS:
            picked = [str(x) for x in rng.choice(NAMES, size=int(rng.integers(0, 3)), replace=False)]
            row[field] = encode_entity_field(picked)
        out.append(row)
    return out


def lite_schema() -> CollectionSchema:
    fields = [
        FieldSchema(name="id", dtype=DataType.VARCHAR, is_primary=True, max_length=256),
        FieldSchema(name="doc_id", dtype=DataType.VARCHAR, max_length=256),
        *(FieldSchema(name=f, dtype=DataType.INT64) for f in INT_FIELDS),
        *(FieldSchema(name=f, dtype=DataType.VARCHAR, max_length=1024) for f in TOKEN_FIELDS),
        FieldSchema(name="dense", dtype=DataType.FLOAT_VECTOR, dim=2),
    ]
    return CollectionSchema(fields=fields)


DATA = rows()
MIRROR = SearchMirror(2, Analyzer())
MIRROR.add(DATA, terms=[Counter({"t": 1})] * len(DATA))
TABLE = pa.table({k: [r[k] for r in DATA] for k in ("id", "doc_id", *INT_FIELDS, *TOKEN_FIELDS)})
SCHEMA = lite_schema()


def lite_mask(expr: str) -> np.ndarray:
    return evaluate_mask(compile_filter(expr, SCHEMA), TABLE)


def mirror_mask(expr: str) -> np.ndarray:
    return MIRROR.filter_mask(expr, fallback=lambda e: pytest.fail(f"unexpected fallback for {e}"))  # type: ignore[return-value]


@settings(max_examples=200, deadline=None, database=None)
@given(cs=st.lists(st.one_of(constraints, dates), min_size=1, max_size=3).filter(lambda cs: all(map(_encodable, cs))))
def test_masks_equal_milvus_lites_for_built_filters(cs: list[Constraint]) -> None:
    expr = build_filter(cs)
    assert expr is not None
    assert mirror_mask(expr).tolist() == lite_mask(expr).tolist()


@pytest.mark.parametrize(
    "expr",
    [
        'doc_id == "doc3"',
        'doc_id != "doc3"',
        'doc_id in ["doc1", "doc2", "nope"]',
        'doc_id not in ["doc1"]',
        'id in ["doc3#3@h", "doc4#4@h"]',
        'id not in ["doc3#3@h"]',
        "chunk_index in [0, 4]",
        "chunk_index not in [1]",
        "chunk_index > 2 or date < 20200000",
        "date == 0",
        "not (date != 20241231)",
        f"person like {escape_string('%' + escape_like('a_b') + '%')}",
        f"person like {escape_string('%' + escape_like('back' + chr(92) + 'slash') + '%')}",
        f"person like {escape_string('%' + escape_like('100%') + '%')}",
        'person like "%Zo%"',
        'person like "|Apple%"',
        'person like "%Apple|"',
        f'person == "{encode_entity_field(["北京"])}"',
        'organization like "|北京|"',
        'doc_id like "doc1%"',
        'doc_id like "%1"',
        'id like "%#1@%"',
        "(chunk_index >= 1 and chunk_index <= 3) and not (date >= 20240101 and date <= 20241231)",
        *(f'{f} like "%|北京|%"' for f in ENTITY_FIELDS.values()),
    ],
)
def test_masks_equal_milvus_lites(expr: str) -> None:
    assert mirror_mask(expr).tolist() == lite_mask(expr).tolist()


def test_unmirrored_expressions_go_to_the_fallback() -> None:
    asked: list[str] = []

    def fallback(expr: str) -> list[str]:
        asked.append(expr)
        return [DATA[3]["id"], "not-a-row"]

    for expr in ['title like "%x%"', 'person like "%a%b%"', "chunk_index == \"x\"", 'doc_id > "a"', "a && b"]:
        mask = MIRROR.filter_mask(expr, fallback)
        assert mask is not None and np.flatnonzero(mask).tolist() == [3]
    assert len(asked) == 5
    assert MIRROR.filter_mask(None, fallback) is None and MIRROR.filter_mask("", fallback) is None

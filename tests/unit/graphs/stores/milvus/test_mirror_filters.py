"""The search mirror evaluates filter trees to row masks: every tree selects the rows Milvus Lite's own filter
evaluator selects for the tree's rendered expression (a hostile value included); a tree the mirror does not hold
the fields for goes to Milvus, never guessed. The trees themselves refuse what no backend could run.
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
from graphs.stores.filters import (
    ENTITY_FIELDS,
    And,
    Compare,
    Filter,
    InList,
    Like,
    Not,
    Or,
    build_filter,
    docs_filter,
    encode_entity_field,
    fields_of,
    ids_filter,
)
from graphs.stores.milvus.expressions import render
from graphs.stores.milvus.mirror import INT_FIELDS, TOKEN_FIELDS, SearchMirror

FRAGMENTS = ['"', "'", "\\", '\\"', "|", "||", "&&", " or ", " and ", "not ", ")", "(", "]", "[", ",", "%", "_",
             "~", "\n", "\t", " ", "1 == 1", "id != ", "北京", "朝阳", "Zoë", "🚀"]  # fmt: skip
hostile = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), min_size=1, max_size=6).map(
    "".join
)
printable = hostile.map(lambda s: "".join(ch for ch in s if ord(ch) >= 0x20 or ch in "\n\r\t"))
NAMES = ["北京", "朝阳", "Apple", "a|b", '"q"', "100%", "a_b", "back\\slash", "Zoë"]


@pytest.mark.parametrize(
    "build",
    [
        lambda: Compare("doc_id) or (1", "==", 1),
        lambda: Compare("", "==", 1),
        lambda: Compare("doc_id", "like", "x"),  # type: ignore[arg-type]
        lambda: Compare("doc_id", "==", True),
        lambda: Compare("doc_id", "==", 1.5),  # type: ignore[arg-type]
        lambda: Compare("doc_id", "==", "a\x00b"),
        lambda: Like("person", "contains", "a\x1fb"),
        lambda: Like("person", "regex", "a"),  # type: ignore[arg-type]
        lambda: Like("person name", "contains", "a"),
        lambda: InList("id", ["a"]),  # type: ignore[arg-type]
        lambda: InList("id", ("a", None)),  # type: ignore[arg-type]
        lambda: And(()),
        lambda: Or((Compare("a", "==", 1), "b == 2")),  # type: ignore[arg-type]
        lambda: Not("a == 1"),  # type: ignore[arg-type]
    ],
)
def test_a_tree_refuses_what_no_backend_could_run(build: Any) -> None:
    with pytest.raises(ValueError):
        build()


def test_the_service_filters_are_trees() -> None:
    c = Constraint(type="PERSON", value="张三")
    assert build_filter([c]) == Like("person", "contains", "|张三|")
    year = DateRange(start=20240101, end=20241231, granularity="year", label="2024")
    assert build_filter([Constraint(type="DATE", value="2024", date_range=year, negated=True), c]) == And((
        Not(And((Compare("date", ">=", 20240101), Compare("date", "<=", 20241231)))),
        Like("person", "contains", "|张三|"),
    ))  # fmt: skip
    assert build_filter([c, c]) == Like("person", "contains", "|张三|")  # one term per distinct constraint
    assert docs_filter(["a", 'b"c']) == InList("doc_id", ("a", 'b"c'))
    assert docs_filter(["a"]) == Compare("doc_id", "==", "a")
    assert ids_filter(["x"], negate=True) == InList("id", ("x",), True)
    assert fields_of(And((Compare("a", "==", 1), Not(Like("b", "prefix", "x"))))) == {"a", "b"}


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


def lite_mask(node: Filter) -> np.ndarray:
    return evaluate_mask(compile_filter(render(node), SCHEMA), TABLE)


def mirror_mask(node: Filter) -> np.ndarray:
    return MIRROR.filter_mask(node, fallback=lambda e: pytest.fail(f"unexpected fallback for {e}"))  # type: ignore[return-value]


@settings(max_examples=200, deadline=None, database=None)
@given(cs=st.lists(st.one_of(constraints, dates), min_size=1, max_size=3).filter(lambda cs: all(map(_encodable, cs))))
def test_masks_equal_milvus_lites_for_built_filters(cs: list[Constraint]) -> None:
    node = build_filter(cs)
    assert node is not None
    assert mirror_mask(node).tolist() == lite_mask(node).tolist()


@pytest.mark.parametrize(
    "node",
    [
        Compare("doc_id", "==", "doc3"),
        Compare("doc_id", "!=", "doc3"),
        InList("doc_id", ("doc1", "doc2", "nope")),
        InList("doc_id", ("doc1",), True),
        InList("id", ("doc3#3@h", "doc4#4@h")),
        InList("id", ("doc3#3@h",), True),
        InList("chunk_index", (0, 4)),
        InList("chunk_index", (1,), True),
        Or((Compare("chunk_index", ">", 2), Compare("date", "<", 20200000))),
        Compare("date", "==", 0),
        Not(Compare("date", "!=", 20241231)),
        Like("person", "contains", "a_b"),
        Like("person", "contains", "back\\slash"),
        Like("person", "contains", "100%"),
        Like("person", "contains", "Zo"),
        Like("person", "prefix", "|Apple"),
        Like("person", "suffix", "Apple|"),
        Compare("person", "==", encode_entity_field(["北京"])),
        Like("organization", "equals", "|北京|"),
        Like("doc_id", "prefix", "doc1"),
        Like("doc_id", "suffix", "1"),
        Like("id", "contains", "#1@"),
        And((
            And((Compare("chunk_index", ">=", 1), Compare("chunk_index", "<=", 3))),
            Not(And((Compare("date", ">=", 20240101), Compare("date", "<=", 20241231)))),
        )),
        *(Like(f, "contains", "|北京|") for f in ENTITY_FIELDS.values()),
    ],
)
def test_masks_equal_milvus_lites(node: Filter) -> None:
    assert mirror_mask(node).tolist() == lite_mask(node).tolist()


@settings(max_examples=150, deadline=None, database=None)
@given(value=printable, kind=st.sampled_from(["contains", "prefix", "suffix", "equals"]),
       field=st.sampled_from(["doc_id", "id", "person", "location"]), negate=st.booleans())
def test_hostile_values_select_the_same_rows_as_in_milvus_lite(value: str, kind: Any, field: str, negate: bool) -> None:
    for node in (Like(field, kind, value), Compare(field, "==", value), Compare(field, "!=", value),
                 InList(field, (value, "doc3"), negate), Or((Like(field, kind, value), Not(Compare("date", "==", 0))))):
        assert mirror_mask(node).tolist() == lite_mask(node).tolist(), node


def test_unmirrored_filters_go_to_the_fallback() -> None:
    asked: list[Filter] = []

    def fallback(node: Filter) -> list[str]:
        asked.append(node)
        return [DATA[3]["id"], "not-a-row"]

    unmirrored: list[Filter] = [Like("title", "contains", "x"), Like("date", "prefix", "2024"),
                                Compare("chunk_index", "==", "x"), Compare("doc_id", ">", "a"),
                                And((Compare("doc_id", "==", "doc3"), InList("chunk_index", ("x",))))]
    for node in unmirrored:
        mask = MIRROR.filter_mask(node, fallback)
        assert mask is not None and np.flatnonzero(mask).tolist() == [3]
    assert asked == unmirrored
    assert MIRROR.filter_mask(None, fallback) is None

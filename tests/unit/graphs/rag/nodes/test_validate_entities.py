"""validate_entities: standard names, constraints, names written in pinyin."""

from __future__ import annotations

from typing import Any

import pytest

from graphs.domain import (
    DateRange,
    ParsedQuery,
    QueryEntity,
)
from graphs.rag.nodes.parse_query import parse_query
from graphs.rag.nodes.validate_entities import validate_entities
from tests.support.fakes import make_context, runtime

Y2024 = DateRange(start=20240101, end=20241231, granularity="year", label="2024")


async def test_validate_entities_normalizes_and_builds_constraints(tmp_path: Any) -> None:
    parsed = ParsedQuery(original_query="q", entities=[
        QueryEntity(text="魔都", type="LOCATION"), QueryEntity(text="老马", type="PERSON"),
        QueryEntity(text="Iphone", type="OTHER"), QueryEntity(text="量子纠缠", type="CONCEPT", source="pos"),
        QueryEntity(text="2024年", type="DATE", source="date_rule", date_range=Y2024),
    ])
    out = await validate_entities({"question": "q", "parsed": parsed}, runtime(make_context(tmp_path)))
    got = [(e.text, e.standard_name, e.type, e.valid) for e in out["entities"]]
    assert got == [("魔都", "上海", "LOCATION", True), ("老马", "Elon Musk", "PERSON", True),
                   ("Iphone", "iPhone", "PRODUCT", True), ("量子纠缠", None, "CONCEPT", False),
                   ("2024年", "2024", "DATE", True)]
    assert [(c.type, c.value) for c in out["constraints"]] == [
        ("LOCATION", "上海"), ("PERSON", "Elon Musk"), ("PRODUCT", "iPhone"), ("DATE", "2024")]
    assert out["constraints"][0].ancestors == ["中国"]


@pytest.mark.parametrize("spelled", ["masike 创办了哪些公司？", "What did Ma Si Ke found?", "Mǎ Sīkè 的公司"])
async def test_a_chinese_name_written_in_pinyin_becomes_its_entity(tmp_path: Any, spelled: str) -> None:
    ctx = make_context(tmp_path)
    parsed = (await parse_query({"question": spelled}, runtime(ctx)))["parsed"]
    (person,) = [e for e in parsed.entities if e.source == "pinyin"]
    out = await validate_entities({"question": spelled, "parsed": parsed}, runtime(ctx))
    (valid,) = [e for e in out["entities"] if e.text == person.text]
    assert (valid.standard_name, valid.type, valid.match) == ("Elon Musk", "PERSON", "pinyin")
    assert [(c.type, c.value) for c in out["constraints"]] == [("PERSON", "Elon Musk")]

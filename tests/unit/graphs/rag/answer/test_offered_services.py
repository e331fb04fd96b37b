"""A Chinese comparison of two things a price list names, asked the way people talk: after a clause that says
where to look ("收费表上，"), the comparative without 更 ("便宜些"). The sides are the two things offered."""

from __future__ import annotations

import pytest

from graphs.rag.answer.verdicts import sides_of
from tests.support.answers import question, write
from tests.support.fakes import hit

PRICES = [hit("p#0", "收费标准 — 洗牙（全口）: 260元\n收费标准 — 拔智齿（单颗）: 380元\n收费标准 — 补牙（单颗）: 150元",
              title="晴川口腔诊所收费表")]


@pytest.mark.parametrize(("text", "sides", "winner"), [
    ("诊所收费表上，洗牙和补牙，哪个便宜些？", ["洗牙", "补牙"], "补牙"),
    ("看收费表的话，拔智齿和洗牙哪个更贵？", ["拔智齿", "洗牙"], "拔智齿"),
])
def test_the_sides_are_the_things_offered_after_the_clause_that_sets_where_to_look(text: str, sides: list[str],
                                                                                    winner: str) -> None:
    assert sides_of(question(text, PRICES)) == sides
    decision, reason, span, answer = write(text, PRICES)
    assert decision == "answerable", reason
    assert span is not None and winner in span and "更" in answer


TEAS = [hit("t#0", "茶名 — T02: 白毫银针\n价格 — T02: 68元/壶\n茶名 — T05: 凤凰单丛·蜜兰香\n价格 — T05: 98元/壶\n"
                   "茶位费 — 说明: 每位15元", title="临溪茶舍茶单")]


@pytest.mark.parametrize("text", [
    "临溪茶舍的白毫银针和凤凰单丛·蜜兰香，按壶点哪个更便宜？",  # the tea house owns both sides: no side itself
    "白毫银针和凤凰单丛·蜜兰香，哪个更便宜？",
])
def test_the_sides_are_the_items_not_the_place_that_holds_both(text: str) -> None:
    assert sides_of(question(text, TEAS)) == ["白毫银针", "凤凰单丛·蜜兰香"]
    decision, reason, span, _ = write(text, TEAS)
    assert decision == "answerable", reason
    assert span == "白毫银针"

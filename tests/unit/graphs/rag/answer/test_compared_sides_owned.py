"""Comparisons asked the way people write them: the sides' owner before 的 ("X的A和B" compares A and B of X),
an attribute word that is only part of a side's name (the 酒店 of a hotel's name, the "Hotel" of a suite's), a
price list with one price column per measure (per pot, per 50 g) picked by the question's own qualifier, and a
cell's value read from the cell, not from a number its header writes."""

from __future__ import annotations

import pytest

from graphs.rag.answer.verdicts import compared_attribute, sides_of
from tests.support.answers import question, write
from tests.support.fakes import hit

BANQUET = [hit("b#0", "套餐价格：福满宴每桌 3,280 元，12 道菜；金玉宴每桌 4,180 元，14 道菜。宴会厅：云澜大酒店二楼。",
               title="云澜大酒店婚宴套餐")]


@pytest.mark.parametrize("text", [
    "云澜大酒店的福满宴和金玉宴，哪个套餐每桌更便宜？",  # the owner before 的
    "云澜大酒店福满宴和金玉宴哪个便宜？",  # the owner run into the first side
    "福满宴和金玉宴，哪个更便宜？",
])
def test_the_sides_are_the_owners_items_and_the_price_decides(text: str) -> None:
    q = question(text, BANQUET)
    attribute = compared_attribute(q)
    assert attribute is not None and attribute.name == "price"  # not the 酒店 of the hotel's name
    decision, reason, span, answer = write(text, BANQUET)
    assert decision == "answerable", reason
    assert span == "福满宴" and "3,280" in answer and "4,180" in answer


def test_an_owner_shared_by_both_sides_is_context_but_two_owners_are_the_sides() -> None:
    first, second = sides_of(question("云澜大酒店的福满宴和金玉宴，哪个更便宜？", BANQUET))
    assert first == "福满宴" and second.startswith("金玉")  # (the tagger's cut; the passages write 金玉宴)
    two = [hit("c#0", "张伟的自行车售价 1,200 元。李娜的自行车售价 980 元。", title="二手车")]
    sides = sides_of(question("张伟的自行车和李娜的自行车哪个更便宜？", two))
    assert len(sides) == 2 and sides[0] != sides[1] and "张伟" in sides[0] and "李娜" in sides[1]


SUITES = [hit("s#0", "Rates: the Harbour Hotel suite costs £240 a night; the Quay Inn double room costs £135 a night.",
              title="Where to stay")]


def test_an_english_side_named_hotel_is_compared_on_the_comparative_not_as_accommodation() -> None:
    text = "Which is cheaper, the Harbour Hotel suite or the Quay Inn double room?"
    attribute = compared_attribute(question(text, SUITES))
    assert attribute is not None and attribute.name == "price"
    decision, reason, span, answer = write(text, SUITES)
    assert decision == "answerable", reason
    assert span is not None and "Quay Inn" in span and "£135" in answer


TEAS = [hit("t#0", "价格（元/壶） — T02 白毫银针: 96\n价格（元/50克） — T02 白毫银针: 150\n"
                   "价格（元/壶） — T04 大红袍: 88\n价格（元/50克） — T04 大红袍: 320", title="品茶单")]
TEAS_EN = [hit("e#0", "Price per pot — Silver Needle: 9.60\nPrice per 50 g — Silver Needle: 15.00\n"
                      "Price per pot — Da Hong Pao: 8.80\nPrice per 50 g — Da Hong Pao: 32.00", title="Tea menu")]


@pytest.mark.parametrize(("hits", "text", "winner", "values"), [
    (TEAS, "白毫银针和大红袍，按壶点哪个更便宜？", "大红袍", ("88", "96")),
    (TEAS, "白毫银针和大红袍，买50克哪个更便宜？", "白毫银针", ("150", "320")),
    (TEAS_EN, "Which is cheaper by the pot, Silver Needle or Da Hong Pao?", "Da Hong Pao", ("8.80", "9.60")),
])
def test_the_column_the_question_qualifies_is_the_one_compared(hits: list, text: str, winner: str,  # type: ignore[type-arg]
                                                               values: tuple[str, str]) -> None:
    decision, reason, span, answer = write(text, hits)
    assert decision == "answerable", reason
    assert span == winner and all(v in answer for v in values), answer
    assert "（50）" not in answer and "(50)" not in answer  # never the header's number as a value


MIXED = [hit("m#0", "价格（元/50克） — T02 白毫银针: 150\n价格 — T02 白毫银针: 96元/壶\n"
                    "价格 — T04 大红袍: 88元/壶\n价格（元/50克） — T04 大红袍: 320", title="品茶单")]


@pytest.mark.parametrize(("text", "winner", "values"), [
    ("白毫银针和大红袍，按壶点哪个更便宜？", "大红袍", ("88", "96")),  # the unit its cells write names the column
    ("白毫银针和大红袍哪个更便宜？", "白毫银针", ("150", "320")),  # none named: both read under one column
])
def test_both_sides_are_valued_under_one_column(text: str, winner: str, values: tuple[str, str]) -> None:
    """Each side's first price was read from a different column (one's per-50 g price against the other's per-pot
    price) and the verdict compared them: two sides of one table are compared under one column."""
    decision, reason, span, answer = write(text, MIXED)
    assert decision == "answerable", reason
    assert span == winner and all(v in answer.split("。")[0] for v in values), answer

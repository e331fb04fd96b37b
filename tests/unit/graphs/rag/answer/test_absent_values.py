"""A quantity question answered by a sentence that holds no value of what is asked: an ordinal (第12届, "the 5th")
or the number ending a model's name ("Vela Pro 3") measures nothing, so a sentence holding only those states no
amount or count, and the typed-value rule refuses it; the twin sentence with the amount is answered. Own
sentences (not from any dev set)."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.text.units import fits, model_number
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import question

PRIZE = hit("prize#0", "青禾国际钢琴比赛今年迎来第12届，总奖金将在开幕式上公布。", title="青禾国际钢琴比赛")
PRIZE_STATED = hit("prize#1", "青禾国际钢琴比赛总奖金为80万元，冠军独得30万元。", title="青禾国际钢琴比赛")
EARBUDS = hit("ear#0", "Lumio扣带的售价将与Vela Pro 3同日公布。", title="Lumio扣带")
EARBUDS_PRICED = hit("ear#1", "Lumio扣带售价129元，适用于Vela Pro 3。", title="Lumio扣带")
DRONES = hit("xl#0", "星澜公司推出了Aster 7无人机，口碑很好。", title="星澜公司")
STAFF = hit("xl#1", "星澜公司共有320名员工，研发人员占一半。", title="星澜公司")
REGATTA = hit("reg#0", "The Marlow Cove regatta, held for the 5th time, keeps its prize money secret.",
              title="Marlow Cove")
REGATTA_PURSE = hit("reg#1", "The Marlow Cove regatta offers prize money of $40,000 to the crews.", title="Marlow Cove")


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("青禾国际钢琴比赛总奖金是多少？", PRIZE, PRIZE_STATED),
    ("Lumio扣带的售价是多少？", EARBUDS, EARBUDS_PRICED),
    ("星澜公司有多少名员工？", DRONES, STAFF),
    ("How much prize money does the Marlow Cove regatta offer?", REGATTA, REGATTA_PURSE),
])
async def test_an_ordinal_or_a_model_number_is_no_amount(text: str, without: Hit, with_it: Hit) -> None:
    verdict = await rule_verdict(question(text, [without]), [without])
    assert verdict.decision == "not_found" and verdict.decided_by == "rule", verdict.reason
    verdict = await rule_verdict(question(text, [with_it]), [with_it])
    assert verdict.decision == "answerable", verdict.reason


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("Orla Max 4的续航为30小时", "4", True),
    ("the new Corvane X 7, launched in May", "7", True),
    ("iKeto 12 Pro went on sale", "12", True),
    ("Orders rose to 4 in May", "4", False),
    ("About 300 people attended", "300", False),
    ("The crew sold 250 tickets", "250", False),
    ("共有46个席位", "46", False),
])
def test_model_number(text: str, value: str, expected: bool) -> None:
    at = text.find(value)
    assert model_number(text, at, at + len(value)) is expected


def test_an_ordinal_still_answers_a_rank_question() -> None:
    text = "本次比赛是第12届"
    at = text.find("12届")
    assert fits("这是第几届比赛？", text, at, at + 3)
    assert not fits("比赛总奖金", text, at, at + 3)


SERIES = hit("tv#0", "《长河》是第三部青云文学奖获奖作品改编剧，和《远山》《北行》不同，它离当代观众更近。", title="长河")
SERIES_WRITER = hit("tv#1", "《长河》的编剧是罗言，剧本改编自青云文学奖获奖作品。", title="长河")


async def test_a_title_or_an_award_is_no_name_for_a_who_question() -> None:
    verdict = await rule_verdict(question("《长河》的编剧是谁？", [SERIES]), [SERIES])
    assert verdict.decision == "not_found" and "holds no person" in verdict.reason, verdict.reason
    verdict = await rule_verdict(question("《长河》的编剧是谁？", [SERIES_WRITER]), [SERIES_WRITER])
    assert verdict.decision == "answerable", verdict.reason


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("和《远山》不同", "远山", True),
    ("第三部青云文学奖获奖作品", "青云文学奖", True),
    ("shortlisted for the Calder Prize", "Calder Prize", True),
    ("Mar 11, 2022 ...", "Mar", True),
    ("Mark Tully said", "Mark", False),
    ("编剧罗言", "罗言", False),
])
def test_not_a_name(text: str, value: str, expected: bool) -> None:
    from graphs.rag.answer.governance import not_a_name

    at = text.find(value)
    assert not_a_name(text, at, at + len(value)) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Mar 11, 2022 ...", True),
    ("2023-06-14", True),
    ("12 March 2021.", True),
    ("Mar 11, 2022 ... 他说", False),
    ("罗言于2022年3月1日出任编剧", False),
])
def test_a_dateline_is_only_a_date(text: str, expected: bool) -> None:
    from graphs.text.dates import only_a_date

    assert only_a_date(text) is expected

"""Money asked by the verb of putting it in (花了多少钱, 要投多少, "how much was spent on"), the amount a project
took: answered by the outlay a passage states with its own noun (总投资, 出资, 耗资, "the investment", "spent"),
never by a price, a fee or a number of another dimension. Sentences invented here, a new domain each (i24-values14)."""

from __future__ import annotations

import pytest

from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.text.answer_types import expected_answer
from graphs.text.units import dimension_word
from tests.support.answers import verdict_of, write
from tests.support.fakes import hit

CANTEEN = hit("canteen#0", "柏溪小学食堂翻新工程于暑假完工，总投资86万元，其中教育局补助60万元。新食堂可同时容纳"
                           "420名学生就餐。", title="柏溪小学食堂翻新完工")
PAVILION = hit("pavilion#0", "望江亭景区门票每人5元，70岁以上老人免票。亭子始建于清代，高12米。",
               title="望江亭景区游览须知")
SLIPWAY = hit("slipway#0", "The new slipway at Carrow Point opened in May. The harbour trust invested £215,000 in "
                           "the work, and volunteers laid the access path.", title="Carrow Point slipway opens")
KIOSK = hit("kiosk#0", "Tea at the Carrow Point kiosk costs £1.80 a cup. The kiosk opens at 8 a.m.",
            title="Carrow Point kiosk")


@pytest.mark.parametrize("text", [
    "柏溪小学翻新食堂一共花了多少钱？",
    "柏溪小学食堂翻新要投多少钱？",
    "How much was spent on the Carrow Point slipway?",
    "How much did the harbour trust invest in the slipway?",
])
def test_money_asked_by_the_verb_of_putting_it_in_asks_the_outlay(text: str) -> None:
    asked = asked_attribute(text, expected_answer(text), ())
    assert asked is not None and asked.attribute.name == "outlay", asked


@pytest.mark.parametrize("text", ["望江亭门票多少钱？", "How much does a cup of tea cost at the kiosk?"])
def test_a_price_asked_without_such_a_verb_stays_a_price(text: str) -> None:
    asked = asked_attribute(text, expected_answer(text), ())
    assert asked is not None and asked.attribute.name == "price", asked


def test_the_outlay_nouns_state_it_and_name_money() -> None:
    outlay = asked_attribute("修这条路花了多少钱？", expected_answer("修这条路花了多少钱？"), ())
    assert outlay is not None
    assert stated_at(outlay.attribute, "该路段改造耗资1200万元")
    assert stated_at(outlay.attribute, "The council spent £40,000 on new lighting")
    assert not stated_at(outlay.attribute, "门票每人5元")
    assert {dimension_word(w) for w in ("总投资", "出资", "investment", "funding")} == {"money"}


@pytest.mark.parametrize(("text", "hits", "gold"), [
    ("柏溪小学翻新食堂一共花了多少钱？", [CANTEEN], "86万元"),
    ("How much was spent on the Carrow Point slipway?", [SLIPWAY], "215,000"),
])
async def test_the_outlay_answers(text: str, hits: list, gold: str) -> None:
    decision, reason = await verdict_of(text, hits)
    assert decision == "answerable", reason
    assert gold in write(text, hits)[3]


@pytest.mark.parametrize(("text", "hits"), [
    ("望江亭修缮一共花了多少钱？", [PAVILION]),                # a ticket price and a height: no outlay
    ("How much was spent on the Carrow Point kiosk?", [KIOSK]),  # the price of a cup of tea is no outlay
])
async def test_a_price_or_another_number_is_no_outlay(text: str, hits: list) -> None:
    decision, reason = await verdict_of(text, hits)
    assert decision == "not_found", reason


# -- a planned date against the date it happened: the modality of the asked event (计划/预计/due/scheduled vs
# 建成/completed), read by the lexicon's "planned" attribute

FERRY_PIER = hit("pier#0", "The new ferry pier at Tollan Sound was due to open in April 2024, but storms delayed the "
                           "piling, and it finally opened on 9 September 2024.", title="Tollan Sound ferry pier")
HALL = hit("hall#0", "白沙镇文化礼堂改造工程原计划2025年6月完工，受连续降雨影响，实际于2025年9月12日竣工。",
           title="白沙镇文化礼堂改造竣工")
POOL = hit("pool#0", "The Ketterby outdoor pool was built in 1936 by the town council.", title="Ketterby outdoor pool")


@pytest.mark.parametrize(("text", "name"), [
    ("When was the Tollan Sound ferry pier supposed to open?", "planned"),
    ("When was the Tollan Sound pier scheduled to be finished?", "planned"),
    ("白沙镇文化礼堂改造原计划什么时候完工？", "planned"),
    ("白沙镇文化礼堂按计划应该哪个月竣工？", "planned"),
    ("When was the Ketterby outdoor pool built?", "built"),
    ("白沙镇文化礼堂实际是哪天竣工的？", "built"),
])
def test_a_planned_date_is_asked_apart_from_the_actual_one(text: str, name: str) -> None:
    asked = asked_attribute(text, expected_answer(text), ())
    assert asked is not None and asked.attribute.name == name, asked


@pytest.mark.parametrize("text", [
    "How often are the lifeguards at Tollan Sound supposed to swap towers?",  # a modal alone asks no plan
    "园区保安按规定应该多久巡逻一次？",
])
def test_a_modal_without_a_verb_of_completion_asks_no_planned_date(text: str) -> None:
    asked = asked_attribute(text, expected_answer(text), ())
    assert asked is None or asked.attribute.name != "planned", asked


@pytest.mark.parametrize(("text", "hits", "gold"), [
    ("When was the Tollan Sound ferry pier supposed to open?", [FERRY_PIER], "April 2024"),
    ("When did the Tollan Sound ferry pier finally open?", [FERRY_PIER], "9 September 2024"),
    ("白沙镇文化礼堂改造实际是哪天竣工的？", [HALL], "2025年9月12日"),
])
async def test_the_date_of_the_asked_modality_answers(text: str, hits: list, gold: str) -> None:
    decision, reason = await verdict_of(text, hits)
    assert decision == "answerable", reason
    assert gold in write(text, hits)[3]


async def test_no_plan_stated_is_no_planned_date() -> None:
    decision, reason = await verdict_of("When was the Ketterby outdoor pool supposed to be completed?", [POOL])
    assert decision == "not_found", reason


@pytest.mark.parametrize(("text", "dimension"), [
    ("List price — PGS-K2: USD 349", "money"),  # a currency code before the amount is money, as a sign is
    ("单价：人民币 85 元起", "money"),
    ("Net weight: 2.4 kg", "weight"),
    ("Part USD-349 fits the K2", None),          # a code that holds the letters is no currency
])
def test_a_currency_written_before_the_amount_is_money(text: str, dimension: str | None) -> None:
    from graphs.text.units import value_dimension

    at = text.index(next(n for n in ("349", "85", "2.4") if n in text))
    end = at + len(next(n for n in ("349", "85", "2.4") if n in text))
    assert value_dimension(text, at, end) == dimension


# -- the month of the asked event: a chunk of the asked month (minutes dated by their header) whose sentence gives
# a later month in a clause of a plan is not another month's evidence


def _month_conflicts(question: str, sentence: str, date: int) -> tuple[object, ...]:
    from graphs.rag.answer.qualifiers import bind, qualifiers
    from graphs.text.normalize import normalize

    found = [q for q in qualifiers(question, {}) if q.kind == "month"]
    assert found, question
    return bind(found, normalize(sentence), "", date).conflicts


def test_a_planned_later_month_in_minutes_of_the_asked_month_is_no_conflict() -> None:
    asked = "东坪渔业协会5月份开的那次会，是谁记录的？"
    planned = "会议由吴秋生记录，协会预计7月中旬开始统一收购。"
    assert _month_conflicts(asked, planned, 20250512) == ()
    assert _month_conflicts("Who took the minutes at the Harrow Lane allotment meeting in June?",
                            "Minutes were taken by Ada Price, and the show will be held in August.", 20240611) == ()


def test_the_month_a_sentence_reports_as_done_still_contradicts() -> None:
    asked = "东坪渔业协会5月份开的那次会，是谁记录的？"
    assert _month_conflicts(asked, "7月的会议由吴秋生记录。", 20250512)          # another month's meeting
    assert _month_conflicts(asked, "会议由吴秋生记录，协会预计7月中旬开始统一收购。", 20250712)  # minutes of July

"""The value must be of the asked attribute's own type, grain and instance (a phone number asked is not answered by
a count; how long a ride takes not by how often it leaves): a year asked is not answered by a day or a
month alone (5日 of a due date); the next instance's place or chair is not answered by this instance's labelled
line when the passage speaks of the next one elsewhere; a height asked is not answered by a length said to run
another way ("across", 宽). Each refusal beside its twin that states the asked value. Own invented sentences."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.qualifiers import next_instance_parts
from graphs.text.dates import asks_year, names_year
from graphs.text.units import asked_direction, stated_direction
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams, model_on, question

DUE_DAY = hit("kiosk#0", "晴川书报亭联盟的会员每月8日前交纳会费，逾期停供报刊。", title="晴川书报亭联盟")
FOUNDED = hit("kiosk#1", "晴川书报亭联盟于2011年由七家书报亭共同发起成立。", title="晴川书报亭联盟")
OPENED_MONTH = hit("dock#0", "The Pellan dry dock opened in April after the old slipway closed.", title="Pellan dry dock")
OPENED_YEAR = hit("dock#1", "The Pellan dry dock opened in April 1964 after the old slipway closed.", title="Pellan dry dock")
THIS_ONE = hit("choir#0", "溪桥合唱团第六次排练\n地点：溪桥小学音乐教室\n下一次排练定于6月2日晚上举行。", title="溪桥合唱团排练记录")
NEXT_ONE = hit("choir#1", "溪桥合唱团第六次排练\n地点：溪桥小学音乐教室\n下一次排练将在镇文化中心二楼举行。", title="溪桥合唱团排练记录")
WIDTH = hit("mill#0", "The sails of the Brannock windmill are 22 metres across.", title="Brannock windmill")
HEIGHT = hit("mill#1", "The Brannock windmill stands 31 metres tall.", title="Brannock windmill")
WIDE_ZH = hit("gate#0", "石门关城门宽6米，是古道上最窄的关口。", title="石门关")
HIGH_ZH = hit("gate#1", "石门关城门高9米，是古道上最高的关口。", title="石门关")
BEDS = hit("bothy#0", "Carrow Beck bothy sleeps 14 in two rooms and costs 12 pounds a night.", title="Carrow Beck bothy")
RING = hit("bothy#1", "To book Carrow Beck bothy, ring 01632 960 418 before noon.", title="Carrow Beck bothy")
TICKETS = hit("pier#0", "白沙码头售票处每天7:30开门，船票每张45元。", title="白沙码头")
TEL = hit("pier#1", "白沙码头售票处电话：0898-6631 2207，每天7:30开门。", title="白沙码头")
EVERY = hit("ferry#0", "The Hollin chain ferry leaves the east slip every 20 minutes from 7 am.", title="Hollin chain ferry")
CROSSING = hit("ferry#1", "The Hollin chain ferry takes about 6 minutes to cross the river.", title="Hollin chain ferry")
EVERY_ZH = hit("bus#0", "溪口旅游专线每隔15分钟发一班车，首班7:00。", title="溪口旅游专线")
RIDE_ZH = hit("bus#1", "溪口旅游专线从车站到景区全程约需40分钟。", title="溪口旅游专线")
WARDEN = hit("bothy#2", "Ring the warden, Isla Fenn, if the stove fails.", title="Carrow Beck bothy")


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("晴川书报亭联盟是哪一年成立的？", DUE_DAY, FOUNDED),
    ("In what year did the Pellan dry dock open?", OPENED_MONTH, OPENED_YEAR),
    ("溪桥合唱团下一次排练在什么地方？", THIS_ONE, NEXT_ONE),
    ("How tall is the Brannock windmill?", WIDTH, HEIGHT),
    ("石门关城门有多高？", WIDE_ZH, HIGH_ZH),
    ("What number do I ring to book Carrow Beck bothy?", BEDS, RING),
    ("白沙码头售票处的电话是多少？", TICKETS, TEL),
    ("How long does the crossing on the Hollin chain ferry take?", EVERY, CROSSING),
    ("溪口旅游专线从车站到景区要多长时间？", EVERY_ZH, RIDE_ZH),
])
async def test_the_value_of_another_grain_instance_or_direction_is_refused(text: str, without: Hit,
                                                                          with_it: Hit) -> None:
    verdict = await rule_verdict(question(text, [without]), [without])
    assert verdict.decision == "not_found" and verdict.decided_by == "rule", verdict.reason
    verdict = await rule_verdict(question(text, [with_it]), [with_it])
    assert verdict.decision == "answerable", verdict.reason


@pytest.mark.parametrize(("text", "expected"), [
    ("鹤鸣茶社是哪一年开业的？", True), ("What year did the mill close?", True), ("Which year was it rebuilt?", True),
    ("鹤鸣茶社是哪天开业的？", False), ("When did the mill close?", False), ("孩子读哪一年级？", False),
])
def test_asks_year(text: str, expected: bool) -> None:
    assert asks_year(text) is expected


@pytest.mark.parametrize(("span", "expected"), [
    ("1964", True), ("2011年", True), ("一九六四年", True), ("去年", True),
    ("8日", False), ("April", False), ("6月2日", False), ("on Saturday", False),
])
def test_names_year(span: str, expected: bool) -> None:
    assert names_year(span) is expected


def test_next_instance_needs_the_passage_to_tell_them_apart() -> None:
    assert next_instance_parts("下一次例会在哪里开？", "地点：镇政府二楼",
                               "第八次例会纪要\n地点：镇政府二楼\n下一次例会定于6月3日召开。") == ["下一次例会定于6月3日召开。"]
    # a notice of the coming meeting writes no "next": its place line is the asked one's
    assert not next_instance_parts("下一次例会在哪里开？", "地点：镇政府二楼", "第九次例会通知\n地点：镇政府二楼\n时间：5月6日")
    # "next to" is a place, not an instance
    assert not next_instance_parts("Who sits next to the treasurer?", "Mo sits beside her.", "Mo sits beside her. The next AGM is in May.")


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("The dish is 12 m in diameter.", "12 m", "width"), ("The well is 40 metres deep.", "40 metres", "depth"),
    ("隧道全长3.2公里。", "3.2公里", "length"), ("水位增长2米。", "2米", None), ("The mast is 30 metres.", "30 metres", None),
    ("The mast weighs 30 tonnes and is tall.", "30 tonnes", None),
])
def test_stated_direction(text: str, value: str, expected: str | None) -> None:
    at = text.index(value)
    assert stated_direction(text, at, at + len(value)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("How high is the dam?", "height"), ("这口井有多深？", "depth"), ("How long does the crossing take?", None),
    ("How far is the harbour?", None),
])
def test_asked_direction(text: str, expected: str | None) -> None:
    assert asked_direction(text) == expected


async def test_a_person_to_phone_is_no_phone_number_asked() -> None:
    from graphs.rag.answer.answerability import calibrated

    q = question("Who should I ring if the stove in Carrow Beck bothy fails?", [WARDEN])
    verdict, _, _ = await calibrated(q, [WARDEN], find_evidence(q, [WARDEN]), Bigrams(), model=model_on({}, bias=8.0))
    assert verdict.decision == "answerable", verdict.reason


async def test_an_interval_answers_how_often() -> None:
    from graphs.rag.answer.answerability import calibrated

    q = question("How often does the Hollin chain ferry leave?", [EVERY])
    verdict, _, _ = await calibrated(q, [EVERY], find_evidence(q, [EVERY]), Bigrams(), model=model_on({}, bias=8.0))
    assert verdict.decision == "answerable", verdict.reason


@pytest.mark.parametrize(("text", "passages"), [
    # another passage writes a number to ring (the office's), the best evidence none: the asked one's is not stated
    ("白沙码头站长何润生的电话是多少？",
     [hit("pier#2", "白沙码头站长何润生负责调度，乘客投诉须在三天内向站长提出。", title="白沙码头"), TEL]),
])
async def test_a_contact_asked_is_stated_by_the_best_evidence_or_not_at_all(text: str, passages: list[Hit]) -> None:
    verdict = await rule_verdict(question(text, passages), passages)
    assert verdict.decision == "not_found", verdict.reason


@pytest.mark.parametrize(("text", "passage"), [
    ("望川轮渡的改签费最高收多少钱？", hit("fee#0", "改签费：每张船票最低收取3元；开船前2小时内改签按票价的20%收取。", title="望川轮渡")),
    ("What is the maximum stay at the Fellgate campsite?",
     hit("camp#0", "Fellgate campsite: a minimum stay of 2 nights applies in August.", title="Fellgate campsite")),
])
async def test_the_other_bound_is_no_value_of_the_asked_one(text: str, passage: Hit) -> None:
    verdict = await rule_verdict(question(text, [passage]), [passage])
    assert verdict.decision == "not_found", verdict.reason

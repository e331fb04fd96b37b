"""The subject is present, the asked fact is not: twins over the same subject, one passage stating the asked value
and one stating others of its kind, zh + en. The asked value kind must be present bound to what is asked: a measure
with its unit (a headline or a count is no speed), a count of the counted noun (a list's "1." is no count), the
asked instance's role holder (this meeting's chair is not the next one's), a person for a role asked by the name (a
sentence about the role's duties names nobody). Own invented sentences (not from any dev or blind set)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graphs.domain import Hit
from graphs.text.units import enumerator, fits, named_dimensions, writes_dimension
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import question


async def _verdict(text: str, hits: Sequence[Hit]) -> tuple[str, str, str | None]:
    verdict = await rule_verdict(question(text, hits), hits)
    return verdict.decision, verdict.reason, verdict.decided_by


TRAM = [hit("tram#0", "TRAM LEAVES RAILS AT PELLOW CROSS\nA tram left the rails at Pellow Cross on Monday morning, "
                      "and three passengers were treated for cuts.", title="Pellow Cross tram")]
TRAM_SPEED = [hit("tram#0", "A tram left the rails at Pellow Cross on Monday morning while travelling at 38 km/h, "
                            "and three passengers were treated for cuts.", title="Pellow Cross tram")]
FERRY_ZH = [hit("ferry#0", "雁鸣湖游船侧翻事故通报\n雁鸣湖一艘游船周日下午侧翻，船上14名游客全部获救，2人受轻伤。",
                title="雁鸣湖游船")]
FERRY_ZH_SPEED = [hit("ferry#0", "雁鸣湖一艘游船周日下午侧翻，当时湖面风速达每秒18米，船上14名游客全部获救。",
                      title="雁鸣湖游船")]


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("How fast, in km/h, was the tram going when it left the rails at Pellow Cross?", TRAM, TRAM_SPEED),
    ("雁鸣湖游船侧翻时风速有多快？", FERRY_ZH, FERRY_ZH_SPEED),
])
async def test_a_measure_is_answered_only_where_a_unit_of_it_is_written(text: str, without: list[Hit],
                                                                       with_it: list[Hit]) -> None:
    decision, reason, by = await _verdict(text, without)
    assert decision == "not_found" and by == "rule" and "speed" in reason, reason
    decision, reason, _ = await _verdict(text, with_it)
    assert decision == "answerable", reason


NURSING = [hit("home#0", "望川镇敬老院简介\n1. 敬老院现有护理员12名，厨师2名。\n2. 院内设活动室和阅览室各一间。",
               title="望川镇敬老院")]
NURSING_BEDS = [hit("home#0", "望川镇敬老院简介\n1. 敬老院现有护理员12名，共设60个床位。\n2. 院内设活动室和阅览室各一间。",
                    title="望川镇敬老院")]
LODGE = [hit("lodge#0", "Kestle Bay lodge guide\n1. The lodge has 6 kayaks and 2 paddle boards for guests.\n"
                        "2. Breakfast is served from 7.", title="Kestle Bay lodge")]
LODGE_ROOMS = [hit("lodge#0", "Kestle Bay lodge guide\n1. The lodge has 14 guest rooms and 6 kayaks.\n"
                              "2. Breakfast is served from 7.", title="Kestle Bay lodge")]


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("望川镇敬老院有多少张床位？", NURSING, NURSING_BEDS),
    ("How many guest rooms does the Kestle Bay lodge have?", LODGE, LODGE_ROOMS),
])
async def test_a_count_needs_its_counted_noun(text: str, without: list[Hit], with_it: list[Hit]) -> None:
    decision, reason, by = await _verdict(text, without)
    assert decision == "not_found" and by == "rule", reason
    decision, reason, _ = await _verdict(text, with_it)
    assert decision == "answerable", reason


MINUTES = [hit("mins#0", "松溪合唱团例会纪要\n本次例会由副团长柏一舟主持，到会团员26人。", title="松溪合唱团例会纪要"),
           hit("mins#1", "下次例会定于5月9日晚召开，地点另行通知。", title="松溪合唱团例会纪要")]
MINUTES_NEXT = [hit("mins#0", "松溪合唱团例会纪要\n本次例会由副团长柏一舟主持，到会团员26人。", title="松溪合唱团例会纪要"),
                hit("mins#1", "下次例会定于5月9日晚召开，由团长章若溪主持。", title="松溪合唱团例会纪要")]


async def test_the_next_instance_is_not_answered_by_this_ones_holder_from_another_chunk() -> None:
    decision, reason, by = await _verdict("松溪合唱团下次例会由谁主持？", MINUTES)
    assert decision == "not_found" and by == "rule", reason
    decision, reason, _ = await _verdict("松溪合唱团下次例会由谁主持？", MINUTES_NEXT)
    assert decision == "answerable", reason


RACE = [hit("race#0", "第八届龙脊梯田越野赛于10月举行，全程32公里。赛事总裁判长由韦书亭担任。第九届越野赛将于明年秋季举行。",
            title="龙脊梯田越野赛")]


async def test_a_role_holder_the_tagger_misses_is_read_from_the_role_frame() -> None:
    decision, reason, _ = await _verdict("龙脊梯田越野赛的总裁判长是谁？", RACE)
    assert decision == "answerable", reason


async def test_an_edition_only_announced_is_not_answered_by_this_editions_holder() -> None:
    decision, reason, by = await _verdict("第九届龙脊梯田越野赛由谁担任总裁判长？", RACE)
    assert decision == "not_found" and by == "rule", reason


FOREST = [hit("forest#0", "Coldwell Forest visitor notes. The site warden is responsible for the trails, the visitor "
                          "centre and the volunteer rota.", title="Coldwell Forest")]
FOREST_NAMED = [hit("forest#0", "Coldwell Forest visitor notes. The site warden, Agnes Pellow, is responsible for the "
                                "trails, the visitor centre and the volunteer rota.", title="Coldwell Forest")]


async def test_a_role_asked_by_the_name_needs_a_name() -> None:
    decision, reason, by = await _verdict("What's the name of the site warden at Coldwell Forest?", FOREST)
    assert decision == "not_found" and by == "rule" and "person" in reason, reason
    decision, reason, _ = await _verdict("What's the name of the site warden at Coldwell Forest?", FOREST_NAMED)
    assert decision == "answerable", reason


@pytest.mark.parametrize(("question", "dimensions"), [
    ("How strong were the gusts, in km/h or knots, at the pier?", {"speed"}),
    ("How tall is the mast in metres?", {"length"}),
    ("它有多重？", {"weight"}),
    ("风速以公里/小时计是多少？", {"speed"}),
    ("How much did the repair cost in dollars?", set()),
    ("What happened in 2019 at the pier?", set()),
    ("有多少张病床？", set()),
])
def test_the_measure_a_question_names(question: str, dimensions: set[str]) -> None:
    assert named_dimensions(question) == dimensions


@pytest.mark.parametrize(("text", "expected"), [
    ("gusts reached 40 knots", True), ("时速60公里", True), ("风速每秒20米", True), ("12 miles an hour", True),
    ("Top speed (km/h): 25", True), ("全程28公里", False), ("a 4.2-kilometre course", False), ("four boats", False),
])
def test_a_speed_is_written_with_its_unit(text: str, expected: bool) -> None:
    assert writes_dimension(text, frozenset({"speed"})) is expected


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("1.", "1", True), ("1. 周一至周六开放", "1", True), ("（3）收费标准", "3", True), ("2、接种日", "2", True),
    ("说明：4. 护理员", "4", True), ("There are 64 plots.", "64", False), ("高3.5米", "3", False),
    ("共有1.5万人", "1", False), ("1,320.", "1", False),
])
def test_a_list_enumerator_is_no_quantity(text: str, value: str, expected: bool) -> None:
    at = text.find(value)
    assert enumerator(text, at, at + len(value)) is expected
    if expected:
        assert not fits("有多少张床位？", text, at, at + len(value))

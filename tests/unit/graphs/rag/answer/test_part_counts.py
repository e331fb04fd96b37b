"""A count of a part of what the question counts is no answer to it (graphs/text/units.part_counted): the counted
noun narrowed by words the question does not write — a modifier joined by 的 right before the count, a word fused
before the noun, English lower-case words between the count and the noun. The whole's count answers; a
whole-denoting or dated modifier and the subject's own capitalised name narrow nothing. Invented sentences."""

from __future__ import annotations

import pytest

from graphs.text.units import fits
from tests.support.answers import verdict_of
from tests.support.fakes import hit


def _at(text: str, value: str) -> tuple[int, int]:
    start = text.index(value)
    return start, start + len(value)


@pytest.mark.parametrize(("question", "text", "value"), [
    ("本届市议会选举有多少个议席？", "本届市议会选举中，地区直选产生的40个议席于周日揭晓。", "40个"),
    ("该校有多少名教师？", "该校新学期从外省引进的26名教师已全部到岗。", "26名"),
    ("本届市议会选举有多少个议席？", "本届市议会选举中，地区直选产生的40个 ...", "40个"),
    ("代表团共有多少名运动员？", "代表团包括19名女运动员。", "19名"),
    ("How many athletes did Norway send to the games?", "Norway sent 14 cross-country athletes.", "14"),
    ("How many employees does Brindle Foods have?", "Brindle Foods hired 40 seasonal employees in May.", "40"),
])
def test_a_count_of_a_part_does_not_fit(question: str, text: str, value: str) -> None:
    assert not fits(question, text, *_at(text, value))


@pytest.mark.parametrize(("question", "text", "value"), [
    ("本届市议会选举有多少个议席？", "本届市议会选举共产生60个议席。", "60个"),
    ("比赛有多少名跑者参加？", "比赛吸引了来自全国各地的3万名跑者参加。", "3万名"),
    ("该公司有多少名员工？", "截至去年底的1200名员工中，半数在研发部门。", "1200名"),
    ("中国代表团有多少名运动员？", "中国代表团由388名中国运动员组成。", "388名"),
    ("How many athletes did Norway send to the games?", "Norway sent 64 Norwegian athletes.", "64"),
    ("How many employees does Brindle Foods have?", "Brindle Foods has a total of 900 employees.", "900"),
])
def test_a_count_of_the_whole_fits(question: str, text: str, value: str) -> None:
    assert fits(question, text, *_at(text, value))


@pytest.mark.parametrize(("question", "part", "whole"), [
    ("本届市议会选举有多少个议席？", "本届市议会选举中，地区直选产生的40个议席于周日揭晓。",
     "本届市议会选举共产生60个议席，结果于周日揭晓。"),
    ("How many athletes did Norway send to the games?", "Norway sent 14 cross-country athletes to the games.",
     "Norway sent 64 athletes to the games on Monday."),
])
async def test_only_the_part_counted_is_not_found(question: str, part: str, whole: str) -> None:
    decision, reason = await verdict_of(question, [hit("a#0", part, title="新闻 news")])
    assert decision == "not_found", reason
    decision, reason = await verdict_of(question, [hit("b#0", whole, title="新闻 news")])
    assert decision == "answerable", reason

"""A month the question writes in words ("九月份", "十二月底") is a time: weighed as the passages write it (9月, in
2025年9月4日), never a name the passages must spell as the question does."""

from __future__ import annotations

from tests.support.answers import question, write
from tests.support.fakes import hit

MINUTES = hit("minutes.md#0", "会议时间：2025年9月4日（星期四）上午9:30\n会议地点：渔具厂二楼会议室\n主持人：梁慕白（厂长）\n"
                              "出席：车间主任四人、质检组长二人", title="沙湾渔具厂2025年第三季度生产例会纪要")


def test_a_month_in_words_is_weighed_as_the_passages_write_it() -> None:
    q = question("九月份渔具厂那次生产例会是谁主持的？", [MINUTES])
    assert "9月" in q.weights and "九月份" not in q.weights
    assert not [forms for forms in q.anchors if "月" in forms[0]]


def test_a_question_that_opens_with_a_month_in_words_is_answered() -> None:
    decision, reason, span, _ = write("九月份渔具厂那次生产例会是谁主持的？", [MINUTES])
    assert decision == "answerable", reason
    assert span is not None and "梁慕白" in span



def test_a_name_that_begins_with_a_month_keeps_its_words() -> None:
    plant = hit("plants.md#0", "五月艾是菊科蒿属的植物，四川地区称之为白蒿。", title="五月艾")
    q = question("四川地区，将五月艾称之为什么？", [plant])
    assert "5月" not in q.weights

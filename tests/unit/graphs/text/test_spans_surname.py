"""A given name the tagger splits from its surname (曹 tagged alone, 文澜 the name) is one person's name."""

from __future__ import annotations

import pytest

from graphs.text.spans import candidates


@pytest.mark.parametrize(("sentence", "name"), [
    ("本周由副主任药师曹文澜审方，周五由药师罗子涵审方。", "曹文澜"),
    ("值班表：周二由护士长沈文澜值班。", "沈文澜"),
])
def test_a_surname_tagged_apart_joins_its_given_name(sentence: str, name: str) -> None:
    found = [c.text for c in candidates(sentence, "person", "谁值班？")]
    assert name in found
    assert name[1:] not in found


def test_a_whole_name_is_left_as_it_is() -> None:
    assert [c.text for c in candidates("本场由主持人宋一鸣串场。", "person", "谁主持？")] == ["宋一鸣"]


@pytest.mark.parametrize(("sentence", "question", "name"), [
    ("甲班由孔令辉带队，乙班由秦语桐带队。", "乙班由谁带队？", "秦语桐"),
    ("周日的巡河活动由杜晓岚带队。", "巡河活动由谁带队？", "杜晓岚"),
])
def test_a_name_before_a_verb_and_its_object_is_a_person(sentence: str, question: str, name: str) -> None:
    # 带队 ends with an organization's word (队) but are an act: the name before them is no team's
    assert name in [c.text for c in candidates(sentence, "person", question)]


def test_a_team_named_before_its_word_stays_one_organization() -> None:
    assert [c.text for c in candidates("青河飞鹰队昨晚获胜。", "organization", "哪支队获胜？")] == ["青河飞鹰队"]

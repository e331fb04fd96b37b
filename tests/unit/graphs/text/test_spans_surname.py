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

"""The name a Chinese question opens with, and coverage that counts an entity under any of its spellings."""

from __future__ import annotations

import pytest

from graphs.text.entity_spotting import possessor
from graphs.text.terms import dictionary_word, weighted_coverage


@pytest.mark.parametrize(("question", "name"), [
    ("拼多多的创始人是谁？", "拼多多"),
    ("字节跳动的总部在哪里？", "字节跳动"),
    ("乍都节公园的面积是多少？", "乍都节公园"),
    ("成都的人口是多少？", "成都"),
    ("张三创办的公司有哪些？", "张三"),  # a relative clause: the name before its verb
    ("林晓所在的那家书店在哪条街？", "林晓"),  # 所在 ends the relative clause too
    ("出版青石诗集的那家出版社在哪个城市？", None),  # a clause that opens with its verb describes the publisher
    ("该公司的创始人是谁？", None),  # a demonstrative names nothing
    ("他的妻子是谁？", None),
    ("苹果在北京发布的产品", None),  # a clause with a preposition, not a name
    ("什么是机器学习？", None),
    ("2024年的新产品有哪些？", None),  # a date, not a name
    ("Who founded Pinduoduo?", None),
])
def test_the_name_a_question_opens_with(question: str, name: str | None) -> None:
    assert possessor(question) == name


def test_a_dictionary_word_is_not_taken_for_a_name() -> None:
    assert dictionary_word("公司") and dictionary_word("创始人") and not dictionary_word("拼多多")


def test_an_entity_counts_under_its_best_found_spelling() -> None:
    weights = {"老马": 1.5, "工厂": 0.5}
    text = "马斯克出席了特斯拉上海工厂的开工仪式。"
    assert weighted_coverage(weights, text) == pytest.approx(0.25)
    assert weighted_coverage(weights, text, {"老马": ("老马", "马斯克")}) == pytest.approx(1.0)


def test_a_time_after_the_opening_name_is_no_part_of_it() -> None:
    from graphs.text.entity_spotting import possessor

    assert possessor("青溪乳业2023年的营业收入是多少？") == "青溪乳业"
    assert possessor("青溪乳业上半年的净利润是多少？") == "青溪乳业"
    assert possessor("2023年的营业收入是多少？") is None

"""Words of the bilingual lexicon that a user's own club and venue files use for an attribute across languages:
a club's or society's head (会长, 社长, 团长, 理事长 / president), an entry price (admission, entry fee / 门票), a
length in kilometres. Examples invented here."""

from __future__ import annotations

import pytest

from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.text.answer_types import expected_answer


@pytest.mark.parametrize(("question", "sentence", "name"), [
    ("Who is the president of the Harrowgate Chess Society?", "哈罗门棋社社长是孟庆书，任期两年。", "leader"),
    ("Who is the president of the Larkspur Kite Club?", "云雀风筝俱乐部会长为龚雪梅。", "leader"),
    ("白鹭合唱团的团长是谁？", "The choir is led by its president, Ada Lindqvist.", "leader"),
    ("石桥博物馆的门票多少钱？", "Admission is 25 yuan for adults.", "price"),
    ("滨河游泳馆的入场费是多少？", "The entry fee is 30 yuan; children swim free.", "price"),
])
def test_the_attribute_is_stated_in_the_other_language(question: str, sentence: str, name: str) -> None:
    asked = asked_attribute(question, expected_answer(question), ())
    assert asked is not None and asked.attribute.name == name
    assert stated_at(asked.attribute, sentence)


def test_a_length_in_kilometres_states_the_length() -> None:
    asked = asked_attribute("铜溪步道全长多少？", expected_answer("铜溪步道全长多少？"), ())
    assert asked is not None and asked.attribute.name == "length"
    assert stated_at(asked.attribute, "The Copperbeck trail is 9 km long and fairly flat.")


@pytest.mark.parametrize(("question", "sentence", "name"), [
    ("青川号渡船最多能载多少名乘客？", "The Qingchuan ferry carries up to 180 passengers.", "capacity"),
    ("How many crew members does the Eastreach Shipping Company have?", "东岸航运公司共有船员56人。", "employees"),
])
def test_a_ship_states_its_capacity_and_crew_across_languages(question: str, sentence: str, name: str) -> None:
    asked = asked_attribute(question, expected_answer(question), ())
    assert asked is not None and asked.attribute.name == name
    assert stated_at(asked.attribute, sentence)

"""What a quantity measures (graphs.text.units): a value's unit against the dimension and the noun a question
counts. Sentences written for these tests."""

from __future__ import annotations

import pytest

from graphs.text.spans import candidates
from graphs.text.units import (
    COUNT_CLASSIFIERS_ZH,
    DOING_CLASSIFIERS_ZH,
    EDGE_CLASSIFIERS_ZH,
    OBJECT_CLASSIFIERS_ZH,
    PEOPLE_CLASSIFIERS_ZH,
    PIECE_CLASSIFIERS_ZH,
    QUANTITY_WORDS_ZH,
    SERVING_CLASSIFIERS_ZH,
    THING_CLASSIFIERS_ZH,
    TIMES_CLASSIFIER_ZH,
    asked_dimensions,
    counted_noun,
    counts_things,
    dimension_word,
    does_the_asked,
    fits,
    question_noun,
    value_dimension,
    writes_dimension,
)


def _at(text: str, value: str) -> tuple[str, int, int]:
    start = text.index(value)
    return text, start, start + len(value)


@pytest.mark.parametrize(("question", "dimensions"), [
    ("How long does the crossing take?", {"duration"}),
    ("How tall is the clock tower?", {"length"}),
    ("How heavy is the anchor?", {"weight"}),
    ("How many kilometres of track were laid?", {"length"}),
    ("How many volunteers helped?", {"count", "persons"}),
    ("这座水库蓄水多少立方米？", {"volume"}),
    ("工程历时多少天？", {"duration"}),
    ("共有多少名教师？", {"persons"}),
    ("展会来了多少家企业？", {"count", "persons"}),
    ("票价是多少？", {"money"}),  # a money noun: a value in another unit (96.4分, 3届) is no price
])
def test_the_dimension_a_question_asks(question: str, dimensions: set[str]) -> None:
    assert asked_dimensions(question) == dimensions


@pytest.mark.parametrize("question", ["How much of the orchard was lost?", "这项工程的规模是多少？", "What did the mayor say?"])
def test_a_question_naming_no_dimension_allows_any(question: str) -> None:
    assert asked_dimensions(question) is None
    assert fits(question, "It took 3 hours and cost 40 euros.", 8, 15)


@pytest.mark.parametrize(("text", "value", "dimension"), [
    ("The dam holds 30 million cubic metres.", "30 million", "volume"),
    ("The climb lasted 11 days.", "11 days", "duration"),
    ("水库蓄水3.2亿立方米。", "3.2亿立方米", "volume"),
    ("第五届读书节开幕。", "五届", "ordinal"),
    ("She finished 3rd in the final.", "3rd", "ordinal"),
    ("票价为￥85。", "85", "money"),
    ("It has 40 rooms.", "40", None),
])
def test_the_dimension_of_a_value(text: str, value: str, dimension: str | None) -> None:
    assert value_dimension(*_at(text, value)) == dimension


def test_a_measure_of_another_dimension_never_counts() -> None:
    text = "Rescue teams searched the valley for nine hours before the storm."
    assert not fits("How many rescue teams searched the valley?", *_at(text, "nine hours"))
    assert fits("How long did the rescue teams search?", *_at(text, "nine hours"))
    zh = "第十二届诗歌节在江畔开幕，共有86位诗人参加。"
    assert not fits("诗歌节共有多少位诗人参加？", *_at(zh, "十二届"))
    assert fits("诗歌节共有多少位诗人参加？", *_at(zh, "86位"))


def test_a_count_of_another_noun_is_not_the_asked_count() -> None:
    en = "The liner carried 640 passengers and 85 crew on its last voyage."
    assert question_noun("How many crew members were aboard?") == "crew members"
    assert counted_noun(*_at(en, "640")) == "passengers"
    assert not fits("How many crew members were aboard?", *_at(en, "640"))
    assert fits("How many crew members were aboard?", *_at(en, "85"))
    zh = "本次展会吸引参展商420家，观众3.6万人次。"
    assert "参展商" in (counted_noun(*_at(zh, "420家")) or "")
    assert not fits("本次展会共有多少家参展商？", *_at(zh, "3.6万人次"))
    assert fits("本次展会共有多少家参展商？", *_at(zh, "420家"))
    after = "共有1200名学生和80名教师参加演练。"
    assert not fits("共有多少名教师参加演练？", *_at(after, "1200名"))
    assert fits("共有多少名教师参加演练？", *_at(after, "80名"))


def test_interchangeable_english_nouns_are_the_same_count() -> None:
    text = "The plant has 5,200 workers."
    assert fits("How many employees does the plant have?", *_at(text, "5,200"))
    assert question_noun("How many people live there?") is None


@pytest.mark.parametrize(("question", "dimension"), [
    ("What is the top speed of the Corvane glider?", "speed"),
    ("What was the height of the old lighthouse?", "length"),
    ("这台冰箱的重量是多少？", "weight"),
    ("该水库的面积有多少？", "area"),
])
def test_a_quantity_asked_by_its_noun_has_that_dimension(question: str, dimension: str) -> None:
    assert asked_dimensions(question) == {dimension}


def test_a_rank_asked_is_answered_by_an_ordinal() -> None:
    text = "她是这所学院的第三位女院长。"
    assert asked_dimensions("她是这所学院的第几位女院长？") == {"ordinal"}
    assert fits("她是这所学院的第几位女院长？", *_at(text, "三位"))
    assert not fits("这所学院共有多少位女院长？", *_at(text, "三位"))


# --- Chinese classifiers: one inventory (graphs.text.units), each reader's subset explicit ---------------------



def test_every_reader_takes_its_classifiers_from_the_one_inventory() -> None:
    inventory = (PEOPLE_CLASSIFIERS_ZH | THING_CLASSIFIERS_ZH | TIMES_CLASSIFIER_ZH | PIECE_CLASSIFIERS_ZH
                 | SERVING_CLASSIFIERS_ZH)
    for subset in (COUNT_CLASSIFIERS_ZH, OBJECT_CLASSIFIERS_ZH, DOING_CLASSIFIERS_ZH, EDGE_CLASSIFIERS_ZH):
        assert subset <= inventory
    assert set(QUANTITY_WORDS_ZH) >= COUNT_CLASSIFIERS_ZH | TIMES_CLASSIFIER_ZH
    assert "部" not in DOING_CLASSIFIERS_ZH and "家" not in DOING_CLASSIFIERS_ZH  # 统一部署, 一家人 stay whole


def test_quantity_words_are_read_longest_first() -> None:
    assert QUANTITY_WORDS_ZH.index("日元") < QUANTITY_WORDS_ZH.index("日")
    assert [s.text for s in candidates("门票折合1500日元一张。", "number", "门票多少钱")] == ["1500日元"]
    assert [s.text for s in candidates("村里捐了800人民币。", "number", "捐了多少")] == ["800人民币"]
    assert [s.text for s in candidates("仓库里还剩4套帐篷。", "number", "还剩几套")] == ["4套"]


@pytest.mark.parametrize(("text", "end", "expected"), [
    ("备了两盏灯", 3, True),      # a piece in hand
    ("来了三名志愿者", 3, True),   # people
    ("办了两所学校", 3, False),    # an institution is not held in hand
    ("下了两场雨", 3, False),      # an event
])
def test_counts_things_reads_the_inventory(text: str, end: int, expected: bool) -> None:
    assert counts_things(text, end) is expected


# The asked value kind (i24-kinds13): money in any role, a dimension by its question word, the count a verb is said
# of. Invented sentences, one domain each.

@pytest.mark.parametrize("question", [
    "How much do lifeguards get per hour for weekend shifts?",          # a wage nobody listed
    "How much is the key deposit at the Tarnley boathouse?",              # "how much is": money
    "What's the late charge on an overdue kayak?",                        # a money noun
    "加入陶艺社一年要交多少钱？",                                            # 多少钱 whatever the role
    "借一把电钻要交多少押金？",                                              # 押金 by its head 金
    "温泉门票的会员价是多少？",                                              # 会员价 by its head 价
    "How much did the bakery raise for the roof?",
])
def test_money_is_asked_in_any_role(question: str) -> None:
    assert asked_dimensions(question) == {"money"}


@pytest.mark.parametrize("question", ["How much does the stone lion weigh?", "How much water does the cistern hold?",
                                      "How much is the weight of the anvil?", "How much time does the ferry take?"])
def test_how_much_of_a_measure_is_no_money(question: str) -> None:
    assert asked_dimensions(question) != {"money"}


@pytest.mark.parametrize(("word", "dimension"), [
    ("会费", "money"), ("押金", "money"), ("会员价", "money"), ("补贴", "money"), ("allowance", "money"),
    ("逾重行李费为每公斤", "money"), ("最高控制温度", "temperature"), ("weight", "weight"), ("会员", None),
    ("控制", None),
])
def test_the_dimension_a_word_names(word: str, dimension: str | None) -> None:
    assert dimension_word(word) == dimension


def test_pence_and_degrees_are_units_and_a_clock_is_not_money() -> None:
    text = "Riders are paid 40p a mile; the oven reaches 900度; the shop opens at 9 p.m."
    assert value_dimension(text, text.index("40"), text.index("40") + 2) == "money"
    assert value_dimension(text, text.index("900"), text.index("900") + 3) == "temperature"
    assert value_dimension(text, text.index("9 p"), text.index("9 p") + 1) is None
    assert asked_dimensions("窑炉最高能烧到多少度？") == {"temperature"}
    assert asked_dimensions("What's the coldest the pump can run in?") == {"temperature"}


def test_a_distance_is_not_a_size_in_millimetres() -> None:
    question = "How far can the buoy's radio reach the shore station?"
    text = "Bolt the buoy with an 8 mm shackle; its radio reaches 3 km in calm weather."
    assert not fits(question, text, text.index("8 mm"), text.index("8 mm") + 4)
    assert fits(question, text, text.index("3 km"), text.index("3 km") + 4)
    assert fits("How long is the shackle?", text, text.index("8 mm"), text.index("8 mm") + 4)


def test_the_count_the_question_verb_is_said_of() -> None:
    question = "How many goats escaped when the shed door blew open?"
    text = "The herd of 86 goats was penned in; 19 escaped through the door and 4 were found in the lane."
    at = {v: text.index(v) for v in ("86", "19", "4 ")}
    assert does_the_asked(question, text, at["19"], at["19"] + 2)
    assert not does_the_asked(question, text, at["86"], at["86"] + 2)
    assert question_noun("How many goats escaped when the shed door blew open?") == "goats"


def test_a_short_word_after_a_number_is_no_unit() -> None:
    spans = [s.text for s in candidates("Of 120 hens, 35 got out; the pen is 4 mm mesh and 2 km away.", "number",
                                        "How many hens got out?")]
    assert "35" in spans and "35 got" not in spans
    assert "4 mm" in spans and "4 m" not in spans
    assert [s.text for s in candidates("Forms are due by the tenth of May.", "number", "How many forms?")] == []


@pytest.mark.parametrize(("text", "volume"), [("Water tank: 3.5 L", True), ("holds 12 gallons", True),
                                              ("水箱容量：3.5 L", True), ("Filter: type L", False)])
def test_litres_written_as_l_are_a_volume(text: str, volume: bool) -> None:
    from graphs.text.units import writes_dimension

    assert writes_dimension(text, frozenset({"volume"})) is volume


def test_the_litre_symbol_of_a_spec_table_is_a_volume() -> None:
    assert writes_dimension("Tank volume — Vela K4: 50 L", frozenset({"volume"}))
    assert value_dimension("a 2.5L kettle", 2, 7) == "volume"
    assert not writes_dimension("Flow rate — Brisa P3: 12 L/min", frozenset({"volume"}))  # a rate, not a volume

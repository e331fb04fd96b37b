"""parts: a message read as the questions it asks (invented sentences, none from a dev or own set)."""

from __future__ import annotations

import pytest

from graphs.rag.parts import asks, en_topic, inherit, question_parts, zh_topic


@pytest.mark.parametrize(("message", "parts"), [
    # several question marks; a later part without a subject takes the first part's
    ("游泳馆的年卡多少钱？几点关门？", ["游泳馆的年卡多少钱？", "游泳馆的年卡几点关门？"]),
    ("舞蹈队每周练几次？谁带队？", ["舞蹈队每周练几次？", "舞蹈队谁带队？"]),
    ("How much is the rowing course? Who runs it?", ["How much is the rowing course?", "Who runs the rowing course?"]),
    # a comma between two interrogative clauses
    ("读书会在哪里举办，每月第几个周六？", ["读书会在哪里举办？", "读书会每月第几个周六？"]),
    ("When did the Vela X9 ship first, and how much does it weigh?",
     ["When did the Vela X9 ship first?", "How much does Vela X9 weigh?"]),
    ("Where is the Osprey Lodge and what does a double room cost?",
     ["Where is the Osprey Lodge?", "What does a double room cost for Osprey Lodge?"]),
    # three parts
    ("图书馆周几闭馆，一次最多借几本，逾期怎么罚？",
     ["图书馆周几闭馆？", "图书馆一次最多借几本？", "图书馆逾期怎么罚？"]),
    # X和Y分别…: the predicate of each side
    ("一号泵和二号泵分别是哪年装的？", ["一号泵是哪年装的？", "二号泵是哪年装的？"]),
    ("车队里的卡车和面包车各有多少辆？", ["车队里的卡车有多少辆？", "车队里的面包车有多少辆？"]),
    # a part with its own subject keeps it
    ("合唱团几点排练？钢琴班几点上课？", ["合唱团几点排练？", "钢琴班几点上课？"]),
    # an elliptical part asks the previous part of a new subject
    ("羽毛球场一小时多少钱？乒乓球台呢？", ["羽毛球场一小时多少钱？", "乒乓球台一小时多少钱？"]),
    ("How long is the tour of the mill? What about the tour of the dairy?",
     ["How long is the tour of the mill?", "How long is the tour of the dairy?"]),
])
def test_a_message_that_asks_several_things_splits_into_its_parts(message: str, parts: list[str]) -> None:
    assert question_parts(message) == parts


@pytest.mark.parametrize("message", [
    # a coordination of objects or verbs, a comparison, a relative clause: one question
    "Who designed the Kestrel bridge and the Finch tower?",
    "Who cleans and inspects the filters?",
    "Which costs less, the rowing course or the sailing course?",
    "What is the village where Mara Quill was born and raised?",
    "游泳课和跳水课哪个贵？",
    "承建南湖大桥和北湖隧道的是哪家公司？",
    # a frame or a condition before the question, a tag question: one question
    "如果两个人一起报名，一共多少钱？",
    "三份报价中，哪一份最低？",
    "年卡是1200元，对吗？",
    "How fast, in knots, was the barge moving?",
    # a pronoun whose referent may be the entity a bridge reaches: read whole
    "When was the town where the Corrin mill stands founded, and what is its population?",
    # 分别 as a noun ("the difference")
    "旧版和新版的分别是什么？",
    "Who is the author of the guide?",
])
def test_one_question_stays_one(message: str) -> None:
    assert question_parts(message) == [message]


def test_what_asks() -> None:
    assert asks("谁负责？") and asks("周日开不开") and asks("when does it open")
    assert not asks("我住在三号楼") and not asks("The gate is locked")


def test_the_topic_a_later_part_inherits() -> None:
    assert zh_topic("健身房的会员卡一年多少钱") == "健身房的会员卡"
    assert zh_topic("谁主持了校友会") == "校友会"
    assert en_topic("When does the night bus leave") == "the night bus"
    assert en_topic("How heavy is the Vela X9") == "Vela X9"


def test_inherit_replaces_a_pronoun_or_joins_the_topic() -> None:
    assert inherit("what is its range", "Vela X9") == "what is Vela X9's range"
    assert inherit("它的保修期多长", "净水器") == "净水器的保修期多长"
    assert inherit("学费多少", "钢琴班") == "钢琴班学费多少"
    assert inherit("钢琴班几点上课", "合唱团") == "钢琴班几点上课"
    assert inherit("Who runs the Kestrel Cafe", "Vela X9") == "Who runs the Kestrel Cafe"


def test_a_later_part_inherits_the_entity_an_attribute_phrase_is_of() -> None:
    # the pronoun stands for what the fee or the fare is of, not for the fee
    assert question_parts("What is the fee for the weaving course at Polmear, and who teaches it?")[1] == \
        "Who teaches the weaving course at Polmear?"
    assert question_parts("How much is the bus fare to Trelowen, and when does it leave?")[1] == \
        "When does the bus leave?"
    assert question_parts("What is the address of Keverne Hall, and when does it open?")[1] == \
        "When does Keverne Hall open?"

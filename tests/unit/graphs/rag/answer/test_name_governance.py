"""A name, date or place that belongs to another role, work or event is no evidence, and a value carried by a
pronoun belongs to the sentence before's subject (graphs/rag/answer/governance.py, graphs/text/governors.py): the
answer is "not found" with a reason naming what the found value belongs to; the twin passage that states the
asked role, event or subject answers. Invented passages, Chinese and English."""

from __future__ import annotations

import pytest

from tests.support.answers import verdict_of
from tests.support.fakes import hit

ORGS = {"ORGANIZATION": ["岭南化工", "北岸化工", "Corlin Foods", "Harbin Dairy"]}


@pytest.mark.parametrize(("text", "other", "twin", "named"), [
    # another role of the same award list
    ("《雾港》的最佳摄影是谁？",
     "第6届青屿电影节获奖名单公布，最佳男演员：韩知远《雾港》，最佳导演：宋以宁《北行》。",
     "第6届青屿电影节获奖名单公布，最佳男演员：韩知远《雾港》，最佳摄影：程牧《雾港》。", "最佳男演员"),
    # another competition's champion (the other's title held by the apposition only)
    ("2025年澜江杯女子单打冠军是谁？",
     "2025年澜江杯女子单打半决赛中，世锦赛冠军叶书桐以两局落败。",
     "2025年澜江杯女子单打决赛中，世锦赛冠军叶书桐夺得女子单打冠军。", "世锦赛冠军"),
    # the women's title for the men's
    ("Who won the men's singles at the Harrowgate Classic?",
     "At the Harrowgate Classic, Ines Moravec won the women's singles final in three sets.",
     "At the Harrowgate Classic, Tomas Reyes won the men's singles final in three sets.", "women's singles"),
    # another role of the same meeting
    ("Who chaired the Lindell parish budget meeting?",
     "The Lindell parish budget meeting heard a report from treasurer Owen Pryce on road repairs.",
     "The Lindell parish budget meeting, chaired by Owen Pryce, heard a report on road repairs.", "treasurer"),
])
async def test_a_name_of_another_role_is_no_evidence(text: str, other: str, twin: str, named: str) -> None:
    decision, reason = await verdict_of(text, [hit("a#0", other, title="新闻")])
    assert decision == "not_found", reason
    assert named in reason
    decision, reason = await verdict_of(text, [hit("b#0", twin, title="新闻")])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "other", "twin", "named"), [
    # the launch press conference's venue for the fair's
    ("2025年青湾茶叶博览会在哪里举行？",
     "2025年青湾茶叶博览会新闻发布会在临江宾馆举行，主办方介绍了展区安排。",
     "2025年青湾茶叶博览会在临江会展中心举行，主办方介绍了展区安排。", "新闻发布会"),
    # the pre-sale's date for the fair's opening
    ("2025年青湾茶叶博览会什么时候开幕？",
     "2025年青湾茶叶博览会门票预售于3月2日开启，共设五个展区。",
     "2025年青湾茶叶博览会于3月18日开幕，共设五个展区。", "预售"),
    # the signing ceremony's date for the summit's
    ("When was the Marlow climate summit held?",
     "A signing ceremony was held on 12 May in Marlow, ahead of the climate summit, with 40 cities attending.",
     "The Marlow climate summit was held on 12 May in Marlow, with 40 cities attending.", "ceremony"),
])
async def test_a_date_or_place_of_another_event_is_no_evidence(text: str, other: str, twin: str, named: str) -> None:
    decision, reason = await verdict_of(text, [hit("c#0", other, title="新闻")])
    assert decision == "not_found", reason
    assert named in reason
    decision, reason = await verdict_of(text, [hit("d#0", twin, title="新闻")])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "other", "twin", "named"), [
    ("岭南化工2024年的营收是多少？",
     "岭南化工与北岸化工同日发布2024年年报。北岸化工表示，全年经营稳健。该公司2024年营收为86亿元，同比增长5%。",
     "北岸化工与岭南化工同日发布2024年年报。岭南化工表示，全年经营稳健。该公司2024年营收为86亿元，同比增长5%。", "北岸化工"),
    ("What was Corlin Foods' revenue in 2024?",
     "Corlin Foods and Harbin Dairy both reported on Tuesday. Harbin Dairy said demand held up. Its revenue rose to "
     "$2.3 billion in 2024.",
     "Harbin Dairy and Corlin Foods both reported on Tuesday. Corlin Foods said demand held up. Its revenue rose to "
     "$2.3 billion in 2024.", "harbin dairy"),
])
async def test_a_value_carried_by_a_pronoun_is_the_sentence_befores_subject(text: str, other: str, twin: str,
                                                                              named: str) -> None:
    decision, reason = await verdict_of(text, [hit("e#0", other, title="年报", entities=ORGS)])
    assert decision == "not_found", reason
    assert named in reason.casefold()
    decision, reason = await verdict_of(text, [hit("f#0", twin, title="年报", entities=ORGS)])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "passage", "decision"), [
    # the company of the sentence before, found by its kind word (no tag), carries over to 该公司
    ("岭南化工2024年营收是多少？", "岭南化工与北岸化工同日发布年报。北岸化工称全年订单饱满。该公司2024年营收为86亿元。", "not_found"),
    ("北岸化工2024年营收是多少？", "岭南化工与北岸化工同日发布年报。北岸化工称全年订单饱满。该公司2024年营收为86亿元。", "answerable"),
    # a news source named first in the sentence before is not the subject carried over
    ("北岸化工2024年营收是多少？", "北岸化工发布年报。据新华社报道，北岸化工全年订单饱满。其2024年营收为86亿元。", "answerable"),
])
async def test_the_subject_carried_over_untagged(text: str, passage: str, decision: str) -> None:
    found, reason = await verdict_of(text, [hit("l#0", passage, title="年报")])
    assert found == decision, reason


async def test_a_name_no_role_word_governs_stays_open() -> None:
    """A name written with no role next to it is not refused by this rule (the score weighs it)."""
    decision, reason = await verdict_of("《雾港》的最佳摄影是谁？", [hit("g#0", "《雾港》的拍摄历时两年，程牧和剧组走遍了海岛。",
                                                                 title="新闻")])
    assert decision == "answerable", reason


async def test_the_name_the_answer_would_give_decides_in_a_list() -> None:
    """An award list with names no role word governs (a lifetime award's laureates): the name the answer would
    give is another role's, and the asked role is given only for another work — not found; the twin gives it."""
    other = ("青屿电视节获奖名单：最佳男演员：韩知远《雾港》 最佳摄影：程牧《北行》 终身成就奖 陆明、许之安 "
             "最佳剧集：《北行》")
    decision, reason = await verdict_of("《雾港》的最佳摄影是谁？", [hit("h#0", other, title="新闻")])
    assert decision == "not_found", reason
    decision, reason = await verdict_of("《雾港》的最佳摄影是谁？", [hit("i#0", other.replace("程牧《北行》", "程牧《雾港》"),
                                                                 title="新闻")])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "other", "twin"), [
    # the question's year is in the sentence (the rule on the years a passage states lets it through)
    ("2024年青湾茶博会什么时候开幕？", "因场馆改造，原定2024年举办的青湾茶博会将于2025年4月2日开幕。",
     "场馆改造已于2023年完工，2024年青湾茶博会将于2024年4月2日开幕。"),
    ("When did the 2024 Marlow book fair open?",
     "After the 2024 Marlow book fair was postponed, it opened on 3 May 2025 with 200 publishers.",
     "After a delay in 2023, the 2024 Marlow book fair opened on 3 May 2024 with 200 publishers."),
])
async def test_a_date_of_another_year_is_no_evidence(text: str, other: str, twin: str) -> None:
    decision, reason = await verdict_of(text, [hit("j#0", other, title="新闻")])
    assert decision == "not_found", reason
    decision, reason = await verdict_of(text, [hit("k#0", twin, title="新闻")])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "other", "twin", "named", "asked"), [
    # the club's founding year for the year its leader was elected (a year in Chinese numerals)
    ("白鹭诗社现任社长哪一年当选？",
     "白鹭诗社成立于一九九七年，最初由五位中学教师发起。",
     "白鹭诗社现任社长许晴于二〇二〇年当选，此前担任副社长。", "founded", "elected"),
    # the firm's founding year for the year someone joined it
    ("When did Tomasz Bell join Orrin Bicycles?",
     "Orrin Bicycles was founded in 1988 by Tomasz Bell's uncle in a shed in Crewe.",
     "Tomasz Bell joined Orrin Bicycles as a frame builder in 2009.", "founded", "joined"),
])
async def test_a_date_of_another_relation_is_no_evidence(text: str, other: str, twin: str, named: str,
                                                         asked: str) -> None:
    decision, reason = await verdict_of(text, [hit("e#0", other, title="简介")])
    assert decision == "not_found", reason
    assert named in reason and asked in reason
    decision, reason = await verdict_of(text, [hit("f#0", twin, title="简介")])
    assert decision == "answerable", reason

"""The right span and the right sentence (issue 24, item 4): a short answer of the asked type taken whole (a
transliterated name with its dots, a range with its unit), in the unit the question counts, where the sentence
says where; the sentence with such a value leads over one that only repeats the question's words; a "why"
answered by a consequence shows its cause. Own sentences, written for these tests."""

from __future__ import annotations

import pytest

from graphs.rag.answer.evidence import find_evidence
from graphs.text.answer_types import expected_answer
from graphs.text.spans import asked_unit, candidates, in_place_frame, of_asked_kind, unit_group
from tests.support.answers import question, write
from tests.support.fakes import hit


@pytest.mark.parametrize(("sentence", "whole"), [
    ("本届女子组冠军由选手卡捷琳娜·索科洛娃获得，她曾两次参赛。", "卡捷琳娜·索科洛娃"),
    ("评审会主席马蒂亚斯·贝伦森宣布了结果。", "马蒂亚斯·贝伦森"),
    ("最早提出这一模型的是埃丽卡．瓦尔德曼与卢卡斯·霍夫特。", "埃丽卡．瓦尔德曼"),
    ("开幕演讲由斯特凡诺维奇主讲，随后进入讨论。", "斯特凡诺维奇"),
])
def test_a_transliterated_name_is_taken_whole(sentence: str, whole: str) -> None:
    found = [s.text for s in candidates(sentence, "person", "谁？")]
    assert whole in found
    assert not any(f != whole and f in whole for f in found)  # no piece of it


def test_a_native_name_is_not_grown_into_its_neighbours() -> None:
    found = [s.text for s in candidates("会议由王建军主持，李娜记录。", "person", "谁主持？")]
    assert "王建军" in found and "李娜" in found


@pytest.mark.parametrize(("sentence", "wrong"), [
    ("她是国内珊瑚修复领域的拓荒者。", "拓荒者"),
    ("外交部就被扣押的《晨星报》记者事件表态。", "事件表态"),
])
def test_a_role_noun_or_ordinary_words_are_no_person(sentence: str, wrong: str) -> None:
    assert wrong not in [s.text for s in candidates(sentence, "person", "是谁？")]


@pytest.mark.parametrize(("sentence", "whole"), [
    ("步道全长8~12公里，视路线而定。", "8~12公里"),
    ("The crossing takes 40-55 minutes in calm weather.", "40-55 minutes"),
])
def test_a_range_is_one_span_with_its_unit(sentence: str, whole: str) -> None:
    assert whole in [s.text for s in candidates(sentence, "number", "多长？")]


@pytest.mark.parametrize(("question", "group"), [
    ("渡轮上一共有多少人？", "people"), ("事故的遇难人数是多少", "people"), ("门票多少钱？", "money"),
    ("How many passengers were on board?", "people"), ("How old was the captain?", "age"), ("这座塔有多高？", None),
])
def test_the_unit_a_question_counts(question: str, group: str | None) -> None:
    assert asked_unit(question) == group


def test_a_count_of_people_is_never_a_month_nor_a_bare_digit() -> None:
    sentence = "渡轮于5月9日晚8点启航，船上载有214人。"
    spans = candidates(sentence, "number", "船上有多少人？")
    kept = [s.text for s in of_asked_kind("船上有多少人？", "number", sentence, spans)]
    assert kept == ["214人"]
    assert unit_group("5月") == "time" and unit_group("214人") == "people"


@pytest.mark.parametrize(("sentence", "place", "framed"), [
    ("年会将于11月在杭州国际博览中心举行。", "杭州国际博览中心", True),
    ("法国将为此次年会派出代表团。", "法国", False),
    ("The reunion was held at Marrow Hall in Dunmore.", "Dunmore", True),
    ("Norway sent a delegation to the reunion.", "Norway", False),
])
def test_a_place_where_the_sentence_says_where(sentence: str, place: str, framed: bool) -> None:
    span = next(s for s in candidates(sentence, "place", "在哪里？") if place in s.text)
    assert in_place_frame(sentence, span) is framed


def test_the_sentence_with_a_value_of_the_asked_kind_leads() -> None:
    hits = [
        hit("gala#0", "第九届青苔音乐节将于下周末举行，主办方表示，多国乐队已确认参加本届青苔音乐节。"
                      "本届青苔音乐节在云岭湖畔草坪举行，共设三个舞台。", title="青苔音乐节"),
    ]
    decision, _, span, answer = write("青苔音乐节在哪里举行？", hits)
    assert decision == "answerable"
    assert span == "云岭湖畔草坪" and "云岭湖畔草坪举行" in answer


def test_a_count_question_takes_the_sentence_with_the_count() -> None:
    hits = [
        hit("k#0", "The Kestrel ferry ran aground on 9 May at 8 p.m.; the people on board were mostly tourists. "
                   "There were 214 people aboard, the coastguard said.", title="Kestrel ferry"),
    ]
    decision, _, span, answer = write("How many people were on the Kestrel ferry when it ran aground?", hits)
    assert decision == "answerable" and span == "214 people" and "214 people aboard" in answer


def test_a_why_answered_by_a_consequence_shows_its_cause() -> None:
    hits = [
        hit("moss#0", "这种苔藓只在海拔两千米以上的阴湿石壁生长。它对空气中的二氧化硫极其敏感，浓度稍高即会枯死。"
                      "因此它常被用作山区空气质量的指示植物。", title="石壁苔"),
    ]
    decision, _, _, answer = write("为什么石壁苔常被用作空气质量的指示植物？", hits)
    assert decision == "answerable"
    assert "二氧化硫极其敏感" in answer and "因此它常被用作" in answer


@pytest.mark.parametrize("question", ["这种茶树的嫩叶有什么特点？", "新版门禁卡有什么作用？", "改制之后社团有什么变化？"])
def test_what_is_it_like_asks_for_a_description_not_a_list(question: str) -> None:
    assert expected_answer(question) == "other"
    assert expected_answer("这家合作社有哪些成员？") == "list"


def test_the_sentence_that_names_the_asked_part_answers() -> None:
    hits = [
        hit("shrub#0", "小叶紫珠（学名：Callicarpa）是马鞭草科的灌木。它分布于热带亚洲的林缘，拥有卵形的、对生的叶子。"
                       "其叶柄长约一厘米，密生星状毛。它的果实可入药。", title="小叶紫珠"),
    ]
    q = question("小叶紫珠的叶柄有什么特点？", hits)
    assert find_evidence(q, hits)[0].sentences[0].text.startswith("其叶柄长约一厘米")


def test_an_announced_enumeration_is_shown_to_its_last_item() -> None:
    hits = [
        hit("guild#0", "青石行会成立于清代中叶，会址设在城隍庙东侧。其章程主要有以下三条：一是同行不得压价。"
                       "违者罚银十两。二是学徒须满三年方可出师。三是每年春秋两季各聚会一次。行会于民国初年解散。",
            title="青石行会"),
    ]
    decision, _, _, answer = write("青石行会的章程是什么？", hits)
    assert decision == "answerable"
    assert "一是同行不得压价" in answer and "二是学徒须满三年" in answer and "三是每年春秋两季" in answer
    assert "民国初年解散" not in answer


def test_a_count_of_things_is_never_a_date_nor_a_length() -> None:
    question_text = "这条运河上有几座船闸？"
    sentence = "运河于1890年3月通航，全长12公里，沿线共建有7座船闸。"
    assert asked_unit(question_text) == "count"
    kept = [s.text for s in of_asked_kind(question_text, "number", sentence, candidates(sentence, "number", question_text))]
    assert kept == ["7座"]

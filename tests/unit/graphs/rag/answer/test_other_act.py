"""A time question asks the date of an act ("开通时间", "什么时候复航", "When did the ferry service resume?"); a sentence
about the same subject whose every date is the date of another act (a form handed in, an announcement, a
report, the act named only as the topic of a confirmation) states nothing of when the asked act
happens (issue 24 §1). Each in Chinese and English, with the twin that dates the asked act answered. Own invented
sentences (not from tests/data or any dev set)."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.calibration import describe
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.qualifiers import asked_time_act, dates_other_act, states_act
from graphs.text.spans import candidates
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams, question


def _vetoes(text: str, hits: list[Hit]) -> dict[str, str]:
    """Every veto that holds on the chosen evidence (a veto the shipped fates drop still holds here, unused)."""
    from graphs.rag.answer.answerability import vetoes

    q = question(text, hits)
    judged = describe(q, hits, find_evidence(q, hits), Bigrams())
    return vetoes(q, judged, ", ".join(f[0] for f in q.anchors), "what is asked", hits)


WATER_MEETING = hit("wt#0", "青禾水务的用户须于5月6日前提交书面意见。", title="青禾水务")
WATER_PRICE = hit("wt#1", "青禾水务的调价时间是9月1日。", title="青禾水务")
FERRY_NOTICE = hit("fy#0", "On 2 April the Marlow Bay operator confirmed the date of the relaunch, without giving it.",
                   title="Marlow Bay ferry")
FERRY_BACK = hit("fy#1", "The Marlow Bay ferry resumed service on 19 April.", title="Marlow Bay ferry")
VISIT_CONFIRMED = hit("vs#0", "外交部发言人3月2日确认了岚国总理的访华日期，但未公布具体行程。", title="岚国总理")
VISIT_DATED = hit("vs#1", "3月20日，岚国总理抵达北京，开始对中国的正式访问。", title="岚国总理")
STAMP = hit("st#0", "云溪日报5月11日报道了云溪音乐节的演出阵容。", title="云溪音乐节")
FESTIVAL = hit("st#1", "云溪音乐节门票将于6月1日开售。", title="云溪音乐节")


@pytest.mark.parametrize(("text", "other", "asked"), [
    ("青禾水务调价时间", WATER_MEETING, WATER_PRICE),
    ("岚国总理访华时间", VISIT_CONFIRMED, VISIT_DATED),
    ("云溪音乐节门票什么时候开售？", STAMP, FESTIVAL),
    ("When did the Marlow Bay ferry resume service?", FERRY_NOTICE, FERRY_BACK),
])
def test_a_date_of_another_act_does_not_answer(text: str, other: Hit, asked: Hit) -> None:
    assert "another act" in _vetoes(text, [other]).get("other_act", "")
    assert "other_act" not in _vetoes(text, [asked])


@pytest.mark.parametrize(("question", "act"), [
    ("青禾有轨电车二期开通时间", "开通"),
    ("岚国总理访华时间", "访华"),
    ("云溪音乐节什么时候开幕？", "开幕"),
    ("新条例何时开始施行？", "施行"),  # 开始 before another verb: that verb is the act
    ("这家茶厂是哪一年成立的？", "成立"),
    ("When did the Marlow Bay ferry resume service?", "service"),
    ("When was the Alder footbridge built?", "built"),
])
def test_the_asked_act_is_read_from_the_question(question: str, act: str) -> None:
    assert asked_time_act(question) == act


@pytest.mark.parametrize("question", [
    "2024年青禾地震的时间",  # X的时间: the date of the event itself
    "音乐节的具体时间是什么？",
    "When did it take place?",
    "云溪音乐节什么时候举行？",  # the event taking place: any date of it
])
def test_no_act_of_its_own(question: str) -> None:
    assert asked_time_act(question) is None


def test_an_act_named_in_a_title_or_a_name_is_no_asked_act() -> None:
    assert asked_time_act("《开通》的上映时间") == "上映"
    assert asked_time_act("开通时间", names=["开通时间站"]) is None


@pytest.mark.parametrize(("act", "clause", "synonyms", "stated"), [
    ("开赛", "联赛开始的时间是3月9日", (), True),  # the same end of an event
    ("访华", "他将于3月20日对中国进行正式访问", (), True),  # one character of the act in another word
    ("成立", "该茶厂创建于1998年", ("成立", "创建", "创立"), True),  # the lexicon's word of the same attribute
    ("访华", "发言人3月2日确认了总理的访华日期", (), False),  # the act only as the topic of a confirmation
    ("开通", "施工单位须于5月6日提交验收材料", (), False),
    ("resume", "the operator confirmed the date of the relaunch on 2 april", (), False),
    ("resume", "the ferry resumed service on 19 april", (), True),
])
def test_a_clause_states_the_act(act: str, clause: str, synonyms: tuple[str, ...], stated: bool) -> None:
    assert states_act(act, clause, synonyms) is stated


def test_a_date_opening_the_sentence_dates_all_it_reports() -> None:
    sentence = "3月20日，岚国总理抵达北京，开始对中国的正式访问。"
    dates = [(v.start, v.end) for v in candidates(sentence, "date", "岚国总理访华时间")]
    assert dates and dates_other_act("岚国总理访华时间", sentence, dates) is None


def test_a_labelled_date_of_the_act_named_otherwise_answers() -> None:
    # 查询时间 for 出分时间: the label shares a character with the act
    sentence = "青禾中考成绩查分时间：7月2日公布。"
    dates = [(v.start, v.end) for v in candidates(sentence, "date", "青禾中考出分时间")]
    assert dates and dates_other_act("青禾中考出分时间", sentence, dates) is None


def test_a_sentence_without_a_date_is_left_to_the_other_rules() -> None:
    assert dates_other_act("青禾有轨电车二期开通时间", "青禾有轨电车二期进展顺利。", []) is None

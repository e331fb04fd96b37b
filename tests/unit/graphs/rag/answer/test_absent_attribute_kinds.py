"""The subject is present, the asked attribute is not (issue 24): the value must be of the asked kind, not merely sit
in a sentence about the subject. A count of things is no duration or length ("two chargers" for how long the
battery lasts); a start time is no end time and the reverse; a past meeting's date is not the next one's; a sentence
that says the value is not known yet answers nothing; two sentences joined by the product's name answer a known
attribute only where one that states it holds a value. Each kind in Chinese and English, with the twin that states
the asked value answered. Own invented sentences (not from tests/data or any dev set)."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.evidence import find_evidence, undetermined
from graphs.rag.answer.qualifiers import asked_phase, other_phase, past_for_next, stated_phases
from graphs.text.units import counts_things, fits
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import question


async def _decide(text: str, hits: list[Hit]) -> tuple[str, str | None, str]:
    verdict = await rule_verdict(question(text, hits), hits)
    return verdict.decision, verdict.decided_by, verdict.reason


BATTERY_BOX = hit("tk#0", "The Tessan K2 box holds one battery, two chargers and a strap.", title="Tessan K2")
BATTERY_HOURS = hit("tk#1", "The Tessan K2 battery lasts 9 hours.", title="Tessan K2")
LANGTUO_BOX = hit("lt#0", "朗拓T5的包装内含一块电池、两根充电线和一个挂绳。", title="朗拓T5")
LANGTUO_HOURS = hit("lt#1", "朗拓T5的电池充满一次可使用12小时。", title="朗拓T5")
GALA_START = hit("gala#0", "瑞丰公司年会于1月20日晚上7点开始。", title="瑞丰公司年会")
GALA_END = hit("gala#1", "瑞丰公司年会于1月20日晚上10点结束。", title="瑞丰公司年会")
AGM_START = hit("agm#0", "The Norrow shareholders' meeting began at 10:00 on 2 May.", title="Norrow shareholders' meeting")
AGM_END = hit("agm#1", "The Norrow shareholders' meeting ended at 12:30 on 2 May.", title="Norrow shareholders' meeting")
MILL_OUT = hit("mill#0", "Firefighters put out the blaze at the Kelby mill at 5 am on Sunday.", title="Kelby mill")
MILL_START = hit("mill#1", "The blaze at the Kelby mill broke out at 1 am on Sunday.", title="Kelby mill")
BOARD_PAST = hit("hf#0", "The Hollin Foods board meeting was held on 4 March.", title="Hollin Foods")
BOARD_NEXT = hit("hf#1", "The next Hollin Foods board meeting will be held on 9 June.", title="Hollin Foods")
HONGTU_PAST = hit("ht#0", "宏图公司董事会于3月4日在总部召开。", title="宏图公司")
HONGTU_NEXT = hit("ht#1", "宏图公司下一次董事会定于6月9日召开。", title="宏图公司")
FERRY_TBA = hit("fy#0", "The summer timetable of the Oxley ferry is yet to be announced.", title="Oxley ferry")
FERRY_DATE = hit("fy#1", "The summer timetable of the Oxley ferry starts on 14 June.", title="Oxley ferry")
STADIUM_TBA = hit("sd#0", "白鹭体育场的开放日期另行通知。", title="白鹭体育场")
STADIUM_DATE = hit("sd#1", "白鹭体育场将于9月1日正式开放。", title="白鹭体育场")


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("How long does the Tessan K2 battery last?", BATTERY_BOX, BATTERY_HOURS),
    ("朗拓T5的电池能用多久？", LANGTUO_BOX, LANGTUO_HOURS),
    ("瑞丰公司年会几点散场的？", GALA_START, GALA_END),
    ("When did the Norrow shareholders' meeting end?", AGM_START, AGM_END),
    ("When did the blaze at the Kelby mill start?", MILL_OUT, MILL_START),
    ("When does the Oxley ferry's summer timetable start?", FERRY_TBA, FERRY_DATE),
    ("白鹭体育场哪天开放？", STADIUM_TBA, STADIUM_DATE),
])
async def test_the_value_of_another_kind_is_not_the_asked_one(text: str, without: Hit, with_it: Hit) -> None:
    decision, by, reason = await _decide(text, [without])
    assert decision == "not_found" and by == "rule", reason
    decision, _, reason = await _decide(text, [with_it])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("When is the next Hollin Foods board meeting?", BOARD_PAST, BOARD_NEXT),
    ("宏图公司下一次董事会什么时候开？", HONGTU_PAST, HONGTU_NEXT),
])
async def test_a_past_time_for_the_next_one_follows_the_shipped_fate(text: str, without: Hit, with_it: Hit) -> None:
    # the rule still reads a past meeting's date for the next one's; whether it refuses is the shipped fates' call
    # (vetoes.json, session 21: past_for_next caught 2 and refused 1 answerable, -1 left out by family: dropped)
    from graphs.rag.answer.answerability import kept_vetoes

    assert past_for_next(text, without.text) and not past_for_next(text, with_it.text)
    decision, _, reason = await _decide(text, [without])
    assert (decision == "not_found") is ("past_for_next" in kept_vetoes()), reason
    decision, _, reason = await _decide(text, [with_it])
    assert decision == "answerable", reason


async def test_a_name_joined_pair_states_a_known_attribute_only_with_its_value() -> None:
    leaflet = hit("wr#0", "Keep the Tessan K2 warranty leaflet with the receipt.", title="Tessan K2 manual")
    sizes = hit("wr#1", "The Tessan K2 weighs 300 g and is 12 cm long.", title="Tessan K2 specifications")
    decision, _, reason = await _decide("How long is the warranty on the Tessan K2?", [leaflet, sizes])
    assert decision == "not_found", reason
    stated = hit("wr#2", "The Tessan K2 warranty lasts two years from the date of purchase.", title="Tessan K2 manual")
    decision, _, reason = await _decide("How long is the warranty on the Tessan K2?", [stated, sizes])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("question_text", "text", "value", "expected"), [
    ("How long does the battery last?", "The box holds one battery and a strap.", "one", False),
    ("How long does the battery last?", "It holds two spare batteries.", "two", False),
    ("How long does the battery last?", "It lasts about nine hours.", "nine", True),
    ("How long does the battery last?", "It lasts 2 of the 3 test days.", "2", True),  # no counted noun after it
    ("电池能用多久？", "包装内含两根充电线", "两", False),
    ("电池能用多久？", "保修三个月", "三", True),
    ("How many chargers are in the box?", "The box holds two chargers.", "two", True),  # a count asked
    ("How tall is the tower?", "The tower has three bells and is 40 m tall.", "three", False),
])
def test_a_count_of_things_is_no_measure(question_text: str, text: str, value: str, expected: bool) -> None:
    at = text.find(value)
    assert fits(question_text, text, at, at + len(value)) is expected


@pytest.mark.parametrize(("text", "end", "expected"), [
    ("one battery and", 3, True), ("six months later", 3, False), ("两根充电线", 1, True), ("3个月", 1, False),
    ("2 or more", 1, False), ("40 m tall", 2, False),
])
def test_counts_things(text: str, end: int, expected: bool) -> None:
    assert counts_things(text, end) is expected


@pytest.mark.parametrize(("question_text", "expected"), [
    ("年会几点散场的？", "end"), ("工程什么时候竣工？", "end"), ("When was the leak stopped?", "end"),
    ("When did the strike end?", "end"), ("年会几点开始？", "start"), ("When did the blaze break out?", None),
    ("When did the fire start?", "start"), ("Who chaired the meeting?", None), ("When was the firm founded?", None),
])
def test_asked_phase(question_text: str, expected: str | None) -> None:
    assert asked_phase(question_text) == expected


@pytest.mark.parametrize(("question_text", "sentence", "expected"), [
    ("年会几点结束？", "会议时间：1月20日晚上7点", "start"),  # a schedule's time label: when it begins
    ("年会几点结束？", "年会于晚上7点开始，10点结束。", None),
    ("展馆几点关门？", "开放时间为上午9:00至下午5:00。", None),  # a range states both ends
    ("When did the fire start?", "Crews arrived at 3 am.", None),  # no phase stated: left to the score
    ("When was the bridge completed?", "Work on the bridge began in 2019.", "start"),
])
def test_other_phase(question_text: str, sentence: str, expected: str | None) -> None:
    assert other_phase(question_text, sentence) == expected


def test_stated_phases_of_a_range_in_english() -> None:
    assert stated_phases("The hall is open from 9 am to 5 pm.") == {"start", "end"}


@pytest.mark.parametrize(("question_text", "sentence", "expected"), [
    ("When is the next board meeting?", "The board met on 4 March.", True),
    ("When is the next board meeting?", "The board will meet again on 9 June.", False),
    ("下届运动会在哪天开幕？", "本届运动会于10月8日开幕。", True),
    ("下届运动会在哪天开幕？", "下届运动会将于2027年10月开幕。", False),
    ("Who sits next to the chair?", "Ann sat beside him.", False),  # no time asked
])
def test_past_for_next(question_text: str, sentence: str, expected: bool) -> None:
    assert past_for_next(question_text, sentence) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("下次例会的时间另行通知。", True), ("事故原因仍在调查中。", True), ("造成3人受伤，事故原因仍在调查中。", False),
    ("Officials said it was too early to say what started the fire.", True),
    ("The date of the hearing has not been announced.", True), ("The cause remains unclear.", True),
    ("The fire started at 2:40 am; the cause remains unclear.", False), ("The hall opened in May.", False),
    ("许文昭，生年尚不清楚，青州人，曾任太守。", False),  # a side remark: the sentence goes on to state things
])
def test_undetermined(sentence: str, expected: bool) -> None:
    assert undetermined(sentence) is expected


HANDBOOK = "员工入职满一年后，每年享有带薪年假7天。请病假须出示医院证明。"
STAFF_RULES = "Corran staff get 25 days of annual leave a year. Sick leave must be reported by 9 am."


@pytest.mark.parametrize(("text", "passage", "refused"), [
    ("景川公司员工每年有几天带薪病假？", HANDBOOK, True),  # 年假 with its value; 病假 written apart
    ("景川公司员工每年有几天带薪年假？", HANDBOOK, False),
    ("How many days of sick leave do Corran staff get?", STAFF_RULES, True),
    ("How many days of annual leave do Corran staff get?", STAFF_RULES, False),
])
async def test_a_sibling_compound_is_not_the_asked_one(text: str, passage: str, refused: bool) -> None:
    # the veto still reads the sibling compound; whether it refuses is the shipped fates' call (vetoes.json:
    # measured leave one set out it refused two answerable questions for one absent one caught, so it is dropped
    # and the score weighs such evidence)
    from graphs.rag.answer.answerability import kept_vetoes
    from graphs.rag.answer.calibration import judge
    from graphs.rag.answer.governance import sibling_stated

    title = "景川公司员工手册" if "景川" in text else "Corran staff handbook"
    hits = [hit("hb#0", passage, title=title)]
    decision, _, reason = await _decide(text, hits)
    assert (decision == "not_found") is (refused and "sibling" in kept_vetoes()), reason
    q = question(text, hits)
    sibling = sibling_stated(q, judge(q, hits, find_evidence(q, hits), {}), hits)
    assert (sibling is not None) is refused, sibling
    if refused and sibling is not None:
        assert "年假" in sibling[1] or "annual leave" in sibling[1], sibling


def test_a_sibling_needs_its_value_beside_it() -> None:
    from graphs.rag.answer.calibration import judge
    from graphs.rag.answer.governance import sibling_stated

    # 松会 of 青松会议室 is no compound: no value stands right after it
    hits = [hit("mt#0", "例会在三楼青松会议室举行。例会纪要由行政部整理。", title="例会纪要")]
    q = question("例会在哪个会议室开？", hits)
    assert sibling_stated(q, judge(q, hits, find_evidence(q, hits), {}), hits) is None

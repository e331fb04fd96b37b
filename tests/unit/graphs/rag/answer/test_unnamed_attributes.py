"""The subject is present, the asked attribute is named nowhere (issue 24, eighth pass). A value of the asked type
found elsewhere is not the asked one's: a labelled line's value answers what its label names (a meeting's date is
no founding year, the chair is no team captain); a date or a person in passages that never name the asked
attribute (成立, supervisor, 导师, funded) belongs to another; a quantity whose words no retrieved passage touches
(经费 of a lab whose passages give trips and years) is not stated, even by sentences joined from two passages.
Each case in Chinese and English with its twin that states the asked value answered. Own invented sentences (not
from tests/data or any dev set)."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.attributes import asked_attribute, lexicon, stated_at
from graphs.rag.answer.evidence import foreign_label
from graphs.text.answer_types import expected_answer
from graphs.text.fields import field_of
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import question


async def _decide(text: str, hits: list[Hit]) -> tuple[str, str | None, str]:
    verdict = await rule_verdict(question(text, hits), hits)
    return verdict.decision, verdict.decided_by, verdict.reason


MINUTES = hit("wq#0", "会议时间：2025年11月2日\n会议地点：村委会二楼\n主持人：苗青\n出席：理事九人",
              title="望泉村养蜂合作社理事会纪要")
MINUTES_FOUNDED = hit("wq#1", "望泉村养蜂合作社成立于2016年，现有社员四十三户。", title="望泉村养蜂合作社简介")
AGENDA = hit("ht#0", "Meeting date: 3 March 2026\nVenue: Tollard parish hall\nChair: Enid Brook",
             title="Tollard Allotment Society committee minutes")
AGENDA_FOUNDED = hit("ht#1", "The Tollard Allotment Society was founded in 1974 by twelve plot holders.",
                     title="Tollard Allotment Society")
LAB = hit("lab#0", "柏舟大学冰川实验室的郑望舒是博士后，她与实验室的汤亦副教授合作，在天山布设了六个观测点。",
          title="柏舟大学冰川实验室")
LAB_SUPERVISOR = hit("lab#1", "郑望舒的博士生导师是柏舟大学的范承远教授。", title="柏舟大学冰川实验室")
PROFILE = hit("pr#0", "Wren Halloway is a soil scientist who works with Dr. Amos Pell on peat cores at the Lusk station.",
              title="Wren Halloway")
PROFILE_SUPERVISOR = hit("pr#1", "Wren Halloway's doctoral supervisor was Professor Edda Marsh.", title="Wren Halloway")
SURVEY = hit("bs#0", "The Corran bat survey was led by Dr. Lila Penrose and counted 212 pipistrelles.",
             title="Corran bat survey")
SURVEY_FUNDED = hit("bs#1", "The Corran bat survey was funded by the Ashby Wildlife Trust.", title="Corran bat survey")
TRIPS = hit("gl#0", "冰川实验室的工程师每年出海三次，每次约十五天。", title="柏舟大学冰川实验室")
STAFF = hit("gl#1", "冰川实验室现有研究人员十一名，其中博士后三名。", title="柏舟大学冰川实验室")
BUDGET = hit("gl#2", "冰川实验室每年的经费约为三百万元。", title="柏舟大学冰川实验室")


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("望泉村养蜂合作社是哪一年成立的？", [MINUTES], [MINUTES, MINUTES_FOUNDED]),
    ("When was the Tollard Allotment Society founded?", [AGENDA], [AGENDA, AGENDA_FOUNDED]),
    ("郑望舒读博士时的导师是谁？", [LAB], [LAB, LAB_SUPERVISOR]),
    ("Who was Wren Halloway's doctoral supervisor?", [PROFILE], [PROFILE, PROFILE_SUPERVISOR]),
    ("Who funded the Corran bat survey?", [SURVEY], [SURVEY, SURVEY_FUNDED]),
    ("柏舟大学冰川实验室每年的经费是多少？", [TRIPS, STAFF], [TRIPS, STAFF, BUDGET]),
])
async def test_a_value_of_the_asked_type_is_not_the_unnamed_attributes(text: str, without: list[Hit],
                                                                        with_it: list[Hit]) -> None:
    decision, by, reason = await _decide(text, without)
    assert decision == "not_found" and by == "rule", reason
    decision, _, reason = await _decide(text, with_it)
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "line", "foreign"), [
    ("望泉村养蜂合作社是哪一年成立的？", "会议时间：2025年11月2日", True),  # the meeting's date
    ("When was the Tollard Allotment Society founded?", "Meeting date: 3 March 2026", True),
    ("望泉村养蜂队的队长是谁？", "主持人：苗青", True),  # a chair is no captain
    ("望泉村养蜂合作社是哪一年成立的？", "成立时间：2016年", False),  # the label states it
    ("理事会什么时候召开？", "会议时间：2025年11月2日", False),  # the meeting asked: 会 is the question's
    ("When was the committee meeting held?", "Meeting date: 3 March 2026", False),
    ("望泉村养蜂合作社是哪一年成立的？", "时间：2025年11月2日", False),  # a bare kind label: the document's own
    ("这次会议在哪里开？", "会议地点：村委会二楼", False),  # a generic where: no specific attribute asked
    # a role label of the asked role's group is the asked role's, in either language and with Markdown's bold
    ("Who took the minutes at the Wangquan co-op's board meeting?", "**记录：** 理事会秘书 苗青", False),
    ("Who took the minutes at the Tollard committee meeting?", "Recorder: Enid Brook", False),
    ("望泉村养蜂合作社的会议由谁记录？", "记录：苗青", False),
    ("Who took the minutes at the Wangquan co-op's board meeting?", "主持：苗青", True),  # the chair took none
    # a code's line: its label is the code asked, whatever else it says ("(red)")
    ("What does flag signal F3 mean on the Tollard pool's board?", "F3 (red): everyone out of the water", False),
    ("望泉村蜂箱秤显示E4是什么意思？", "E4（黄灯）：电池电量不足", False),
])
def test_a_labels_value_is_what_the_label_names(text: str, line: str, foreign: bool) -> None:
    f = field_of(line)
    assert f is not None
    found = asked_attribute(text, expected_answer(text))
    assert foreign_label(question(text, []), found.attribute if found else None, f) is foreign


FEES = hit("sx#0", "松溪托育园收费标准\n幼幼班 — 托育费: 2100元/月", title="松溪托育园 2026年收费标准")
CLUB = hit("tc#0", "Tollard Tennis Club fees\nJunior — Annual fee: £240", title="Tollard Tennis Club")


@pytest.mark.parametrize(("text", "line", "foreign"), [
    # a label in the other language than the question's own words says nothing by sharing none of them: a table's
    # column (a class, a plan) holds the asked value where the question names what the passage is about
    ("How much does 松溪托育园 charge each month for the toddler group?", "幼幼班 — 托育费: 2100元/月", False),
    ("Tollard Tennis Club 的青少年会员每年交多少钱？", "Junior — Annual fee: £240", False),
    # the bilingual lexicon still reads it, and a date or a person is stated only by naming it
    ("When was 松溪托育园 founded?", "会议时间：2025年11月2日", True),
    ("Tollard Tennis Club 是哪一年成立的？", "Meeting date: 3 March 2026", True),
    # a question that names nothing the passages write has nothing to tie the other language's line to it
    ("How much was the water bill for March?", "幼幼班 — 托育费: 2100元/月", True),
    ("上个月交的水费价格是多少？", "Junior — Weekly sessions: 3", True),
])
def test_a_label_in_the_other_language_is_read_by_the_lexicon(text: str, line: str, foreign: bool) -> None:
    f = field_of(line)
    assert f is not None
    found = asked_attribute(text, expected_answer(text))
    assert found is not None
    assert foreign_label(question(text, [FEES, CLUB]), found.attribute, f) is foreign


@pytest.mark.parametrize(("text", "attribute"), [
    ("郑望舒的博导是谁？", "supervisor"),
    ("Who supervised Wren Halloway's thesis?", "supervisor"),
    ("Who sponsored the Corran bat survey?", "funder"),
    ("这项调查由谁资助？", "funder"),
    ("What was the air temperature at the start?", "temperature"),
    ("湖水的水温是多少？", "temperature"),
    ("实习期间工资按正式工资的几成发放？", "pay_share"),
    ("What percentage of the full salary do trainees receive?", "pay_share"),
])
def test_the_lexicon_knows_the_new_attributes(text: str, attribute: str) -> None:
    found = asked_attribute(text, expected_answer(text))
    assert found is not None and found.attribute.name == attribute


@pytest.mark.parametrize(("attribute", "sentence", "states"), [
    ("temperature", "The water was 11 °C at the jetty.", True),
    ("temperature", "湖面气温只有九摄氏度。", True),
    ("temperature", "The race stopped at 10:40.", False),
    ("pay_share", "实习期间按正式工资的七成发放。", True),
    ("pay_share", "Trainees receive 80% of the full salary for three months.", True),
    ("pay_share", "实习期为三个月，期满前考核。", False),
    ("supervisor", "She was supervised by Professor Ilse Varn.", True),
    ("supervisor", "She works with Dr. Amos Pell on peat cores.", False),
])
def test_the_new_attributes_are_stated_by_their_words_or_units(attribute: str, sentence: str, states: bool) -> None:
    found = {a.name: a for a in lexicon()}[attribute]
    assert bool(stated_at(found, sentence)) is states


def test_a_label_stating_another_attribute_the_question_asks_is_the_questions() -> None:
    cell = field_of("价格 — 更换链条: 60元")  # 更换 names the replacement, 多少钱 the price the column states
    assert cell is not None
    text = "自行车更换链条多少钱？"
    found = asked_attribute(text, expected_answer(text))
    assert found is not None and not foreign_label(question(text, []), found.attribute, cell)

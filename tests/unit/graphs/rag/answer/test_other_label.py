"""A line of the asked kind under another attribute's label, for a question whose attribute the lexicon does not
know (a when, a who: "When does the carer start work?", 几点关门): the label says a value of another kind (an
address for a time), or states an attribute the question does not ask (发布 is a release, 签订 a signing, in
either script), or says a date of something the question does not name ("Date signed", 签订日期). Such a value is
the label's: a line that states the asked one is chosen over it, and without one the answer is "not found". A
schedule (营业时间, "Opening hours") holds the closing time too; a label that does not say its kind (服务期限) may
paraphrase what is asked. Own invented documents, in Chinese and English."""

from __future__ import annotations

import pytest

from graphs.rag.answer.attributes import asked_attribute, other_attributes, schedule_label
from graphs.rag.answer.evidence import foreign_label
from graphs.text.answer_types import expected_answer
from graphs.text.fields import field_of
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import question


@pytest.mark.parametrize(("text", "line", "foreign"), [
    # another kind of value under the label
    ("What time does the Norham branch close on Saturdays?", "Branch address: 8 Lake Road, Norham", True),
    ("What time does the Norham branch close on Saturdays?", "门店地址：北湖路8号", True),
    ("锦川苑的项目经理是谁？", "联系地址：锦川路1号", True),
    ("Where is the next committee meeting?", "Meeting date: 18 April 2026", True),
    # another attribute the lexicon reads, in either script
    ("百草堂北湖店周六几点关门？", "发布日期：2025年11月2日", True),
    ("What time does the Norham branch close on Saturdays?", "发布日期：2025年11月2日", True),
    ("When does the carer start work?", "签订日期：2025年9月3日", True),
    ("Who is the project manager at Alder Court?", "Published: 1 December 2025", True),
    # a date of something the question does not name
    ("When does the carer start work?", "Date signed: 3 September 2025", True),
    ("保姆什么时候开始工作？", "签订日期：2025年9月3日", True),
    ("When is the next committee meeting?", "Membership starts: 1 March", True),
    ("When does the shipment reach Port Arden?", "ETA Kelby: 9 March 2026", True),
    # the label states what is asked, or may: a schedule, its own words, an unknown label, a bare kind
    ("百草堂北湖店周六几点关门？", "营业时间：9:00-21:00", False),
    ("What time does the Norham branch close on Saturdays?", "Opening hours: 9:00–21:00", False),
    ("图书馆几点开门？", "开放时间：9:00-17:00", False),
    ("When does the carer start work?", "Start date: 15 September 2025", False),
    ("保姆什么时候开始工作？", "开始日期：2025年9月3日", False),
    ("保姆什么时候开始工作？", "服务期限：2025年9月15日至2026年9月14日", False),
    ("When does the carer start work?", "服务期限：2025年9月15日至2026年9月14日", False),
    ("When is the next committee meeting?", "Meeting date: 18 April 2026", False),
    ("When does the shipment reach Port Arden?", "ETA Port Arden: 9 March 2026", False),
    ("Who is the project manager at Alder Court?", "Project manager: He Lin", False),
    ("锦川苑的项目经理是谁？", "项目经理：何琳", False),
    ("When was the Alder Court notice published?", "Published: 1 December 2025", False),
    ("保姆什么时候开始工作？", "日期：2025年9月3日", False),
    # a role label for a who: the role may be asked by a verb the lexicon lacks
    ("竹溪那条线路谁带队？", "leader — T4 Zhuxi Ridge: Lin Mo", False),
])
def test_a_label_of_another_attribute_holds_no_value_of_an_unnamed_one(text: str, line: str, foreign: bool) -> None:
    f = field_of(line)
    assert f is not None
    found = asked_attribute(text, expected_answer(text))
    assert foreign_label(question(text, []), None if found is None else found.attribute, f) is foreign


def test_the_lexicon_reads_another_attribute_and_a_schedule() -> None:
    assert other_attributes("What time does it close?", "发布") == ("released",)
    assert other_attributes("When was the lease signed?", "签订") == ()  # asked: the signing
    assert other_attributes("When does the carer start?", "服务期限") == ()  # unknown to the lexicon
    assert schedule_label("营业时间") and schedule_label("Opening hours") and not schedule_label("发布日期")


CONTRACT = hit("tw#0", "Contract no.: TW-91\nDate signed: 3 September 2025\nEmployer: Ada Finch",
               title="Tenwick carer agreement TW-91")
CONTRACT_START = hit("tw#1", "Contract no.: TW-91\nDate signed: 3 September 2025\n"
                             "The carer begins work on 15 September 2025 and works 30 hours a week.",
                     title="Tenwick carer agreement TW-91")
HETONG = hit("qx#0", "合同编号：QX-77\n签订日期：2025年9月3日\n甲方：林墨", title="青溪家政 保姆服务合同 QX-77")
HETONG_START = hit("qx#1", "合同编号：QX-77\n签订日期：2025年9月3日\n服务期限：自2025年9月15日起至2026年9月14日止。",
                   title="青溪家政 保姆服务合同 QX-77")
NOTICE = hit("bc#0", "发布日期：2025年11月2日\n门店电话：0571-1234", title="Baicaotang Beihu branch 百草堂北湖店须知")


@pytest.mark.parametrize(("text", "hits", "answered"), [
    ("When does the carer start work under contract TW-91?", [CONTRACT], False),
    ("When does the carer start work under contract TW-91?", [CONTRACT_START], True),
    ("保姆什么时候开始工作？合同QX-77", [HETONG], False),
    ("保姆什么时候开始工作？合同QX-77", [HETONG_START], True),
    ("When does the nanny start under contract QX-77?", [HETONG_START], True),
    ("When does Baicaotang Beihu branch close on Saturdays?", [NOTICE], False),
    ("When was the Baicaotang Beihu notice published?", [NOTICE], True),
    ("When was contract QX-77 signed?", [HETONG], True),
])
async def test_the_line_that_states_it_wins_over_another_label(text: str, hits: list, answered: bool) -> None:
    verdict = await rule_verdict(question(text, hits), hits)
    assert (verdict.decision == "answerable") is answered, verdict.reason


def test_a_label_inside_the_value_governs_it() -> None:
    """A list's heading whose value holds labels of its own (获奖名单：最佳摄影：…): the nearest label governs the
    name, not the heading; a clock in the value (9:00) is no label."""
    text = "《雾港》的最佳摄影是谁？"
    heading = field_of("青屿电视节获奖名单：最佳男演员：韩知远 最佳摄影：程牧")
    assert heading is not None and foreign_label(question(text, []), None, heading) is False
    clock = field_of("Branch address: 8 Lake Road, open 9:00")
    assert clock is not None
    assert foreign_label(question("What time does the Norham branch close?", []), None, clock) is True

"""Who-questions by category (issue 24), on invented passages: a role asked by its verb (由谁负责校对, "Who signed
off the plan?"), a title the lexicon knows only in part and compared whole (the chief operating officer is not the
chief financial officer; 首席技术官 is not 首席运营官), a role or a team as the doer of the asked act ("the night
porter locks …", 由采购组负责), and an absent role said not found with a reason that names it
(graphs/text/governors: asked_title, asked_act, is_title, name_role, actor_phrases)."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.answerability import calibrated
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.extractive import extractive
from graphs.text.governors import (
    actor_phrases,
    asked_act,
    asked_role,
    asked_title,
    is_title,
    name_role,
    role_matches,
)
from tests.support.answers import ANSWERS_ALL, question
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams


async def answer_of(text: str, passage: str, title: str = "notes") -> tuple[str, str, str | None]:
    """(decision, reason, short answer) of a question over one passage; the score answers everything, so what
    refuses is a rule."""
    hits: list[Hit] = [hit("a#0", passage, title=title)]
    q = question(text, hits)
    evidence = find_evidence(q, hits)
    found, chosen, _ = await calibrated(q, hits, evidence, Bigrams(), model=ANSWERS_ALL)
    if found.decision == "not_found":
        return found.decision, found.reason, None
    return found.decision, found.reason, extractive(q, hits, chosen, any("\u4e00" <= c <= "\u9fff" for c in text)).span


@pytest.mark.parametrize(("text", "title", "role"), [
    ("Who is the chief operating officer of Marlow Ferries?", "chief operating officer", None),  # a lexicon group
    ("Who is Marlow Ferries' head of marketing?", None, None),
    ("Who is the chief sustainability officer of Marlow Ferries?", "chief sustainability officer",
     "chief sustainability officer"),
    ("Who is Marlow Ferries's chief sustainability officer?", "chief sustainability officer",
     "chief sustainability officer"),
    ("Who is the harbour master?", "harbour master", "harbour master"),
    ("岭南纸业的首席战略官是谁？", "首席战略官", "首席战略官"),
    ("岭南纸业的首席运营官是谁？", "首席运营官", None),  # the lexicon's: compared by its group (COO, 首席运营官)
    ("主演《远山》的演员的妻子是谁？", "妻子", None),  # no title; the lexicon's role words elsewhere decide
])
def test_the_asked_title_is_read_whole(text: str, title: str | None, role: str | None) -> None:
    assert asked_title(text) == title
    assert asked_role(text) == role


@pytest.mark.parametrize(("text", "act"), [
    ("Who signed off the ferry timetable?", "sign"),
    ("Who is handling the complaints?", "handl"),
    ("Who took the minutes at the ferry meeting?", "take"),
    ("Who locks the gates each night?", "lock"),
    ("Who is the harbour master?", None),
    ("Who is Orla Benn?", None),
    ("校刊由谁负责校对？", "负责校对"),
    ("这次春游由谁带队？", "带队"),
    ("场地布置由谁负责？", "负责"),
    ("谁是校刊的主编？", None),
])
def test_the_asked_act(text: str, act: str | None) -> None:
    assert asked_act(text) == act


@pytest.mark.parametrize(("phrase", "title"), [
    ("chief financial officer", True), ("Chief Sustainability Officer", True), ("night porter", True),
    ("财务总监", True), ("首席运营官", True), ("宣传干事", True), ("the ferry", False), ("约翰", False),
    ("order intake", False),
])
def test_is_title(phrase: str, title: bool) -> None:
    assert is_title(phrase) is title


def _roles(sentence: str, name: str, q: str) -> list[bool | None]:
    at = sentence.index(name)
    extra = (r,) if (r := asked_role(q)) else ()
    return [role_matches(r, q) for r in name_role(sentence, at, at + len(name), extra).roles]


def test_a_title_before_or_after_the_name_is_its_role_compared_whole() -> None:
    before = "Chief financial officer Ines Maro said bookings fell."
    after = "Ines Maro, chief financial officer of Marlow Ferries, said bookings fell."
    been = "Ines Maro has been chief financial officer of Marlow Ferries since 2019."
    for sentence in (before, after, been):
        assert _roles(sentence, "Ines Maro", "Who is the chief financial officer of Marlow Ferries?") == [True]
        assert _roles(sentence, "Ines Maro", "Who is the chief operating officer of Marlow Ferries?") == [False]
        assert _roles(sentence, "Ines Maro", "Who is the chief sustainability officer of Marlow Ferries?") == [False]
    assert _roles("首席战略官韩松表示，公司将扩建码头。", "韩松", "岭南纸业的首席战略官是谁？") == [True]
    assert _roles("财务总监韩松表示，公司将扩建码头。", "韩松", "岭南纸业的首席战略官是谁？") == [False]
    assert _roles("财务总监韩松表示，公司将扩建码头。", "韩松", "岭南纸业的首席财务官是谁？") == [True]  # one group


def test_the_role_of_an_act_and_of_a_post_held() -> None:
    assert True in _roles("The plan was approved in May and signed off by the harbour master, Col Dunne.",
                          "Col Dunne", "Who signed off the plan?")
    assert _roles("Orla Benn chaired the meeting and Tam Reid took the minutes.", "Tam Reid",
                  "Who took the minutes?") == [True]
    assert _roles("Orla Benn chaired the meeting and Tam Reid took the minutes.", "Orla Benn",
                  "Who took the minutes?") == [False]
    assert _roles("本次春游由王立带队，校医由志愿者许静担任。", "许静", "这次春游的校医是谁？") == [True]
    assert _roles("例会由张帆主持，李默负责校对。", "李默", "校刊由谁负责校对？") == [True]
    assert _roles("例会由张帆主持，李默负责校对。", "李默", "编辑部的秘书长是谁？") == [False]


@pytest.mark.parametrize(("sentence", "text", "doer"), [
    ("Each night the night porter locks the gates and checks the alarm.", "Who locks the gates each night?",
     "night porter"),
    ("Complaints about late sailings are handled by the customer relations team.", "Who is handling the complaints?",
     "customer relations team"),
    ("The timetable is signed off by the operations director before it is published.",
     "Who signs off the timetable?", "operations director"),
    ("场地布置由学生会宣传部负责，活动当天上午完成。", "场地布置由谁负责？", "学生会宣传部"),
    ("每天开馆前，值班经理负责检查消防通道。", "消防通道由谁负责检查？", "值班经理"),
    ("张明负责检查消防通道。", "谁负责检查消防通道？", None),  # a person's name: the tagger's
    ("Tam Reid locks the gates.", "Who locks the gates?", None),  # a name is the tagger's, not a role phrase
    ("The river floods the lower fields every winter.", "Who floods the fields?", None),  # no doer of a role
])
def test_the_doer_of_the_asked_act(sentence: str, text: str, doer: str | None) -> None:
    found = [sentence[a:b] for a, b in actor_phrases(sentence, text)]
    assert found == ([doer] if doer else [])


@pytest.mark.parametrize(("text", "passage", "span"), [
    ("Who locks the gates at Marlow pier each night?",
     "At Marlow pier the night porter locks the gates each night and checks the alarm.", "night porter"),
    ("Who handles lost property at Marlow Ferries?",
     "At Marlow Ferries lost property is handled by the purser's office.", "purser's office"),
    ("海鸥中学运动会的场地布置由谁负责？", "海鸥中学运动会的场地布置由学生会宣传部负责，活动当天上午完成。", "学生会宣传部"),
])
async def test_a_who_question_asked_by_its_verb_is_answered_by_the_role_that_does_it(
        text: str, passage: str, span: str) -> None:
    decision, reason, short = await answer_of(text, passage)
    assert decision == "answerable", reason
    assert short == span


MARLOW = ("Marlow Ferries runs six routes from Oban. Dana Voss has been chief executive of Marlow Ferries since "
          "2020. Chief financial officer Ines Maro said bookings fell 4 per cent. Piet Hal, chief technology officer "
          "of Marlow Ferries, leads the ticketing project.")
LINGNAN = "岭南纸业成立于1998年。董事长方明负责公司战略。首席运营官韩松主管三家工厂的生产。财务总监周岩表示利润增长5%。"
TITLES = {MARLOW: "Marlow Ferries: leadership", LINGNAN: "岭南纸业管理团队"}


@pytest.mark.parametrize(("text", "passage", "span"), [
    ("Who is the chief financial officer of Marlow Ferries?", MARLOW, "Ines Maro"),
    ("Who is Marlow Ferries' chief technology officer?", MARLOW, "Piet Hal"),
    ("岭南纸业的首席运营官是谁？", LINGNAN, "韩松"),
    ("岭南纸业的财务总监是谁？", LINGNAN, "周岩"),
])
async def test_a_title_present_is_answered_by_its_holder(text: str, passage: str, span: str) -> None:
    decision, reason, short = await answer_of(text, passage, TITLES[passage])
    assert decision == "answerable", reason
    assert short == span


@pytest.mark.parametrize(("text", "passage", "named"), [
    ("Who is the chief operating officer of Marlow Ferries?", MARLOW, "chief operating officer"),
    ("Who is the chief sustainability officer of Marlow Ferries?", MARLOW, "chief sustainability officer"),
    ("岭南纸业的首席技术官是谁？", LINGNAN, "首席技术官"),
    ("岭南纸业的首席执行官是谁？", LINGNAN, ""),  # 董事长 is not the chief executive
])
async def test_an_absent_title_is_not_found_and_the_reason_names_it(text: str, passage: str, named: str) -> None:
    decision, reason, _ = await answer_of(text, passage, TITLES[passage])
    assert decision == "not_found", reason
    assert named in reason
    assert "what is asked" not in reason or not named


def test_a_code_labelled_with_a_colon_states_its_meaning() -> None:
    """"F2: the grinder is jammed" states what F2 means: a reason must not say the passages do not state it."""
    from graphs.rag.answer.attributes import asked_attribute, stated_at

    asked = asked_attribute("What does fault code F2 mean?", "definition")
    assert asked is not None and asked.attribute.name == "meaning"
    assert stated_at(asked.attribute, "F2: the grinder is jammed; clean the burr.")
    assert stated_at(asked.attribute, "故障代码E3：水箱缺水，请加水。")
    assert stated_at(asked.attribute, "- P4 (red): the boiler is too hot, switch off for ten minutes.")
    assert stated_at(asked.attribute, "A7 – low battery: charge before the next flight.")
    assert not stated_at(asked.attribute, "The grinder of the K4 is jammed.")


@pytest.mark.parametrize(("text", "asks_actor"), [
    ("Who locks the gates at the start of every shift?", False),  # "start" is no form of "starred"
    ("Who starred in the ferry film?", True),
    ("Who played the skipper in the ferry film?", True),
    ("Which player scored at the start of the match?", False),  # "player" is no form of "played"
])
def test_a_short_cue_matches_only_its_own_forms(text: str, asks_actor: bool) -> None:
    from graphs.rag.answer.attributes import _cue, asked_attribute

    asked = asked_attribute(text, "person")
    names = {asked.attribute.name, *(a.name for a in asked.others)} if asked is not None else set()
    assert ("actor" in names) is asks_actor
    assert not _cue("aged").search("agents") and not _cue("hosted").search("hostage")
    assert _cue("died").search("he died in 1990") and not _cue("died").search("a strict diet")

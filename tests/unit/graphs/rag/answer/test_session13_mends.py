"""Mends found by asking the merged code of session 13 on the project's own sets (each on sentences of its own):
a month asked with 几月 is a date, not a count; a name found only under another script's alias still counts as
mentioned by the passages that spell it nearly as the question does; "It …" after a sentence that opens with
the question's subject is said of that subject, in a passage about something else (a catalogue of models)."""

from __future__ import annotations

import pytest

from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.question import Question
from graphs.text.answer_types import expected_answer
from tests.support.answers import question, write
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "kind"), [
    ("青松书店是2023年几月搬到新址的？", "date"),
    ("展览几月几日开幕？", "date"),
    ("改造工程要几个月？", "number"),  # a duration: 几个月
    ("这家店开了几年？", "number"),
    ("KX-30的能效等级是几级？", "number"),
    ("园区里的实验楼有哪几座？", "other"),  # 哪几: which ones, not how many
])
def test_ji_asks_a_month_a_number_or_which_ones(text: str, kind: str) -> None:
    assert expected_answer(text) == kind


def test_a_month_question_is_answered_by_the_sentence_with_the_month() -> None:
    store = hit("s#0", "2023年5月，青松书店搬到城南文化街新址。新店营业面积400平方米，设有24小时自助借阅区。",
                title="青松书店")
    decision, reason, short, _ = write("青松书店是2023年几月搬到新址的？", [store])
    assert decision == "answerable", reason
    assert short is not None and "5月" in short, short


def test_a_name_under_another_scripts_alias_is_still_found_as_the_passages_spell_it() -> None:
    town = hit("t#0", "Brackwell is a river port on the Ose. It was granted a market charter in 1543.", title="Brackwell")
    alias = hit("c#0", "公司在布拉克韦尔（Brackwell）设有仓库。", title="公司概况")
    q = question("When was Brakwell granted its market charter?", [town, alias])
    q = Question(**{**q.__dict__, "anchors": [("brakwell", "布拉克韦尔")]}).about([town, alias])
    assert any("brackwell" in forms for forms in q.anchors), q.anchors
    assert q.misspelled.get("brakwell") == "brackwell"


def test_it_after_a_sentence_opening_with_the_subject_is_said_of_it_in_a_catalogue() -> None:
    catalogue = hit("k#0", "Halden Bikes builds bicycles for city riders. The Halden Lark L3 is a folding bike with a "
                           "range of 50 km. It weighs 14.2 kg. The Halden Crane C9 is a cargo bike that carries "
                           "loads of up to 90 kg.", title="Halden Bikes catalogue")
    q = question("How much does the Halden Lark L3 weigh?", [catalogue])
    evidence = find_evidence(q, [catalogue])
    assert evidence and evidence[0].span is not None and evidence[0].span.text.startswith("14.2"), \
        [(e.sentences[0].text, e.span) for e in evidence[:3]]


@pytest.mark.parametrize(("text", "short"), [
    ("When was Brennock founded?", "1612"),
    ("When did Brennock receive its borough charter?", "1688"),
])
def test_of_two_words_stating_the_attribute_the_questions_own_places_the_span(text: str, short: str) -> None:
    """"founded" and "charter" are both the lexicon's founding words; the question's own word says which value."""
    town = hit("b#0", "Brennock is a market town on the Wend. It was founded in 1612 as a wool market and received "
                      "its borough charter in 1688.", title="Brennock")
    decision, reason, answer, _ = write(text, [town])
    assert decision == "answerable", reason
    assert answer == short


@pytest.mark.parametrize(("text", "dimensions"), [
    ("赛事冠军获得了多少奖金？", {"money"}),
    ("这款相机的售价是多少？", {"money"}),
    ("What is the fee for a family pass?", {"money"}),
])
def test_a_quantity_asked_by_a_money_noun_is_money(text: str, dimensions: set[str]) -> None:
    from graphs.text.units import asked_dimensions

    assert asked_dimensions(text) == frozenset(dimensions)


async def test_a_score_in_points_is_no_prize_money_and_a_level_question_wants_a_level() -> None:
    from tests.unit.graphs.rag.answer.test_answerability_features import calibrated_verdict

    race = hit("r#0", "在龙舟赛男子组决赛中，“飞鱼队”以总分88.5分夺得冠军，“海燕队”以86分获得亚军。", title="龙舟赛")
    assert (await calibrated_verdict("龙舟赛男子组冠军获得了多少奖金？", race)).decision == "not_found"
    prize = hit("r#1", "龙舟赛男子组冠军“飞鱼队”获得奖金3万元。", title="龙舟赛")
    assert (await calibrated_verdict("龙舟赛男子组冠军获得了多少奖金？", prize)).decision == "answerable"
    scope = hit("m#0", "本手册适用于 KX-20 和 KX-30 两个型号。KX-30 额定功率为 1200 W。", title="净水器手册")
    assert (await calibrated_verdict("KX-30净水器的能效等级是几级？", scope)).decision == "not_found"
    level = hit("m#1", "KX-30 的能效等级为 1 级，额定功率为 1200 W。", title="净水器手册")
    assert (await calibrated_verdict("KX-30净水器的能效等级是几级？", level)).decision == "answerable"

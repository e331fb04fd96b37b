"""Absent variants and absent institutions: a line about a sibling variant of the asked item, told apart by its
size or rating ("a 10A socket" for the 13A one, 20升 for the 35 L tank: ``qualifiers.other_size``, the
``other_size`` veto), and a named institution whose kind no passage writes (枫林动物园 over passages that name 枫林镇
and 枫林中学, "the Ashgrove bowling club" over a library's page: ``question.unnamed_kinds``). Invented passages,
Chinese and English."""

from __future__ import annotations

import pytest

from graphs.rag.answer.qualifiers import other_size
from graphs.text.units import sizes
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "found"), [
    ("a 13A socket", [(13.0, "A", False)]),
    ("Rental — 35 L cool box: 12 yuan", [(35.0, "L", False)]),
    ("租一个20升的水桶", [(20.0, "L", False)]),
    ("a 6-person tent", [(6.0, "person", False)]),
    ("4人间每晚多少钱", [(4.0, "person", False)]),
    ("a 43-inch screen", [(43.0, "inch", False)]),
    ("suitcases over 20 kg", [(20.0, "kg", True)]),
    ("25kg以下", [(25.0, "kg", True)]),
    ("10A or 13A sockets", [(10.0, "A", True), (13.0, "A", True)]),
    ("每5公斤收费3元", [(5.0, "kg", True)]),
    ("twice a day, 2 a week", []),  # a lower-case article is no ampere
    ("Model KT-3 kettle", []),  # a code's number is no size
    ("5-15 kg", []),  # a range's end is no size of its own
])
def test_sizes(text: str, found: list[tuple[float, str, bool]]) -> None:
    assert [(z.value, z.unit, z.bounded) for z in sizes(text)] == found


@pytest.mark.parametrize(("question", "sentence", "stated"), [
    ("How much is a 13A socket hire at the Elmsby craft market?", "A 10A socket costs £12 per day.", "10A"),
    ("租一个35升的冷藏箱多少钱？", "Per day — 20 L cool box: 15 yuan", "20 L"),
    ("How much does a 35 litre cool box cost to hire?", "20升冷藏箱每天15元", "20升"),
    ("4人间每晚多少钱？", "2人间每晚380元", "2人间"),
])
def test_a_sibling_variant_is_stated(question: str, sentence: str, stated: str) -> None:
    conflict = other_size(question, sentence)
    assert conflict is not None and conflict.kind == "size" and conflict.stated == stated


@pytest.mark.parametrize(("question", "sentence"), [
    ("How much is a 13A socket hire?", "A 13A socket costs £18 per day."),  # the asked size itself
    ("租一个35升的冷藏箱多少钱？", "35 L cool box: 20 yuan per day"),  # across languages, 升 is L
    ("How much does a 23 kg suitcase cost to check in?", "Each suitcase up to 25 kg costs £30."),  # a bound covers it
    ("How much is a 13A socket hire?", "10A and 16A sockets cost £12 per day."),  # a list: neither is a sibling alone
    ("How much is a socket?", "A 10A socket costs £12 per day."),  # no size asked
    ("Which costs more, a 10A or a 13A socket?", "A 10A socket costs £12 per day."),  # two sizes compared
    ("每10公斤苹果压汁多少钱？", "压汁每5公斤收费3元"),  # a rate's base is no variant
])
def test_no_sibling(question: str, sentence: str) -> None:
    assert other_size(question, sentence) is None


async def test_a_sibling_rating_answers_nothing() -> None:
    passage = hit("m#0", "Elmsby craft market trader pack. A 10A socket costs £12 per day. "
                         "Gazebo hire costs £25 per day.", title="Elmsby craft market — trader fees")
    decision, reason = await verdict_of("How much does a 13A socket cost at the Elmsby craft market?", [passage])
    assert decision == "not_found" and "10A" in reason, reason


async def test_the_asked_rating_answers() -> None:
    passage = hit("m#0", "Elmsby craft market trader pack. A 13A socket costs £12 per day. "
                         "Gazebo hire costs £25 per day.", title="Elmsby craft market — trader fees")
    decision, reason = await verdict_of("How much does a 13A socket cost at the Elmsby craft market?", [passage])
    assert decision == "answerable", reason


async def test_an_institution_no_passage_names_is_not_found_zh() -> None:
    passages = [hit("s#0", "枫林书店位于枫林镇中心街12号（枫林中学对面），会员卡每年60元，凭卡购书九折。", title="枫林书店会员须知"),
                hit("s#1", "枫林书店营业时间为每天9:00至21:00。", title="枫林书店会员须知")]
    decision, reason = await verdict_of("枫林动物园的门票多少钱？", passages)
    assert decision == "not_found", reason
    assert "动物园" in reason


async def test_an_institution_named_is_answered_zh() -> None:
    passages = [hit("z#0", "枫林动物园成人门票每张40元，儿童半价。", title="枫林动物园游园须知")]
    decision, reason = await verdict_of("枫林动物园的门票多少钱？", passages)
    assert decision == "answerable", reason


async def test_an_institution_no_passage_names_is_not_found_en() -> None:
    passages = [hit("l#0", "Ashgrove Library membership is free; a reader's card costs £2 to replace.",
                    title="Ashgrove Library — membership")]
    decision, reason = await verdict_of("How much is the yearly membership at the Ashgrove bowling club?", passages)
    assert decision == "not_found", reason


async def test_a_kind_asked_for_is_no_institution_named() -> None:
    """"in which Kent town", 哪个枫林小区: the kind word after the name is the kind of the answer asked for, so
    passages that never write "town" or 小区 still answer it."""
    passages = [hit("c#0", "Harlow Rovers play their home games at Bramley Park in Ashford, Kent.", title="Harlow Rovers")]
    decision, reason = await verdict_of("Harlow Rovers play their home games in which Kent town?", passages)
    assert decision == "answerable", reason
    zh = [hit("z#0", "枫林书店开在枫林镇的银杏苑，门口有公交站。", title="枫林书店")]
    decision, reason = await verdict_of("枫林书店开在枫林镇哪个小区？", zh)
    assert "小区" not in reason, reason


async def test_an_institution_written_in_the_other_language_is_named() -> None:
    passages = [hit("z#0", "Maple Grove Zoo: adult tickets cost 40 yuan, children half price.",
                    title="Maple Grove Zoo — visitor guide")]
    _decision, reason = await verdict_of("枫林动物园的门票多少钱？", passages)
    assert "动物园" not in reason, reason


@pytest.mark.parametrize(("question", "sentence", "basis"), [
    ("柳岸琴房租一间练琴房每月多少钱？", "练琴房 — 单间: 45元/次", "元/次"),
    ("What is the monthly fee at the Harlow squash club?", "Court hire costs £9 per session.", "per session"),
    ("How much is the yearly parking permit?", "Visitors pay £2 per hour after the first hour.", "per hour"),
    ("共享单车月卡每月多少钱？", "骑行费每次1.5元", "每次"),
])
def test_a_price_of_another_basis(question: str, sentence: str, basis: str) -> None:
    from graphs.rag.answer.check import other_rate

    found = other_rate(question, sentence)
    assert found is not None and found[1].lower() == basis.lower(), found


@pytest.mark.parametrize(("question", "sentence"), [
    ("What is the monthly fee at the Harlow squash club?", "Membership costs £30 per month, or £9 per session."),
    ("柳岸琴房练琴房每月多少钱？", "练琴房月租每月600元"),
    ("How much is a court?", "Court hire costs £9 per session."),  # no period asked
    ("每年和每月的会费各多少？", "会费每次20元"),  # two periods asked: the question's to split
])
def test_a_price_of_the_asked_basis_or_none_asked(question: str, sentence: str) -> None:
    from graphs.rag.answer.check import other_rate

    assert other_rate(question, sentence) is None


async def test_a_price_per_session_does_not_answer_a_monthly_fee() -> None:
    passage = hit("h#0", "Harlow squash club. Court hire costs £9 per session for members and £12 for guests.",
                  title="Harlow squash club — prices")
    decision, reason = await verdict_of("How much does court hire cost per month at the Harlow squash club?", [passage])
    assert decision == "not_found" and "per session" in reason, reason


async def test_a_price_per_session_does_not_answer_a_monthly_rent_zh() -> None:
    passage = hit("q#0", "柳岸琴房练琴房租用价格：单间45元/次，双人间60元/次。", title="柳岸琴房价目表")
    decision, reason = await verdict_of("柳岸琴房练琴房租用每月多少钱？", [passage])
    assert decision == "not_found" and "元/次" in reason, reason


async def test_a_price_per_month_answers_a_monthly_rent_zh() -> None:
    passage = hit("q#0", "柳岸琴房练琴房租用价格：单间每月600元，另可按次租用，每次45元。", title="柳岸琴房价目表")
    decision, reason = await verdict_of("柳岸琴房练琴房租用每月多少钱？", [passage])
    assert decision == "answerable", reason



async def test_a_sibling_row_answers_nothing() -> None:
    passage = hit("t#0", "| Item | Per weekend |\n|---|---|\n| 2-person tent | 40 yuan |\n| Camping stove | 15 yuan |",
                  title="Larch Hill scout store — gear hire")
    decision, reason = await verdict_of("How much does a 4-person tent cost to hire for a weekend?", [passage])
    assert decision == "not_found", reason
    decision, reason = await verdict_of("How much does a 2-person tent cost to hire for a weekend?", [passage])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("question", "lines", "found"), [
    ("How much is a return ticket on the Elm Quay ferry?", ["Departures: 09:15, 11:40 and 16:05"], True),
    ("老码头到柳洲的往返票多少钱？", ["发船时间：8:30、10:45、15:20"], True),
    ("How much did Ada Moss pay for her heat pump?", ["Fitting date: 14 March 2025 (pump and tank)"], True),
    ("How much does the winter feeding cost per hive?", ["Winter feeding is done in the first week of November."],
     True),
    ("How much is a return ticket on the Elm Quay ferry?", ["Return tickets: 14 GBP, departures at 09:15"], False),
    ("How much did the society spend on paper in 2024?", ["2024_actual — Paper: 860"], False),  # a bare amount
    ("老码头到柳洲的船票多少钱？", ["6岁以下儿童免费乘船，发船时间8:30"], False),  # free is an amount
    ("入住前4天取消能退多少定金？", ["入住前3至7天取消，退还一半定金"], False),
])
def test_dated_only(question: str, lines: list[str], found: bool) -> None:
    from graphs.rag.answer.answerability import dated_only

    assert dated_only(question, lines) is found


async def test_a_price_asked_over_a_timetable_is_not_found() -> None:
    passage = hit("f#0", "Elm Quay ferry to Larch Island. Departures from Elm Quay: 09:15, 11:40 and 16:05 daily.",
                  title="Elm Quay ferry — timetable")
    decision, reason = await verdict_of("How much is a return ticket on the Elm Quay ferry to Larch Island?", [passage])
    assert decision == "not_found", reason

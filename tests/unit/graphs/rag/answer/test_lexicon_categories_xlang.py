"""The bilingual lexicon grown by categories (issue 24, cross-language): a manual's specifications, a company's
finances, a person's roles in minutes and clubs, a place's opening days and fees — each asked in one language and
stated in the other, both directions; and an attribute the question names that a sentence does not state is not
stated by it (a manual's lamp range for the colour of its light). Sentences invented here, in the manner of
``tests/data/xlang_own2`` (not its sentences)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.domain import Hit
from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.text.answer_types import expected_answer
from tests.support.answers import ask_with, not_stated, stated_across
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_crosslang import Concepts as CrossConcepts


@pytest.mark.parametrize(("question", "sentence", "name"), [
    # a manual's specifications
    ("What room size is the Borealis D3 dehumidifier suited to?", "北岚 D3 除湿机适用面积为 30–50 平方米。", "room_size"),
    ("北岚 D3 适用多大面积的房间？适用面积是多少？", "The Borealis D3 suits rooms of up to 50 square metres.", "room_size"),
    ("How often should the D3 water filter be replaced?", "滤芯建议每 3 个月更换一次。", "replacement"),
    ("D3 的滤芯多久更换一次？", "Replace the filter cartridge every three months.", "replacement"),
    ("What is the rated power of the Borealis D3?", "北岚 D3 额定功率为 240 W。", "power"),
    ("北岚 D3 的功率是多少？", "The Borealis D3 draws 240 W at full speed.", "power"),
    ("What voltage does the D3 need?", "本机额定电压为 220 V。", "voltage"),
    ("What are the dimensions of the D3?", "外形尺寸为 35 × 24 × 52 厘米。", "dimensions"),
    # a company's finances
    ("How much did Lanxin Optics spend on R&D last year?", "蓝芯光学全年研发投入3.4亿元。", "rd_spending"),
    ("蓝芯光学的研发投入是多少？", "Lanxin Optics spent 340 million yuan on research and development.", "rd_spending"),
    ("What dividend will Lanxin Optics pay?", "公司拟每10股派发现金红利2元。", "dividend"),
    ("蓝芯光学的市值是多少？", "Its market capitalisation reached 12 billion yuan.", "market_cap"),
    ("What were Lanxin Optics' total assets?", "公司总资产为86.5亿元。", "total_assets"),
    # a person's roles
    ("Who chairs Lanxin Optics?", "董事长宋承远表示，公司将扩大产能。", "chaired"),
    ("Who took the minutes of the budget meeting?", "记录人：丁佩兰", "secretary"),
    ("预算会议的记录人是谁？", "Minutes were taken by Hugh Aldane.", "secretary"),
    ("Who seconded the motion?", "曹明远附议该动议。", "seconder"),
    ("谁提议延长开放时间？", "Pia Rensford proposed extending the opening hours.", "proposer"),
    ("Who is the keeper of the Heron Point light?", "鹭角灯塔的守塔人是钟德福。", "keeper"),
    ("鹭角灯塔的守塔人是谁？", "The current keeper is Agnes Thorpe.", "keeper"),
    ("Who coaches the Millbrook Harriers?", "磨溪田径队主教练为葛振华。", "coach"),
    ("磨溪田径队的队长是谁？", "The Harriers' captain is Tom Wexley.", "captain"),
    # a club's and a place's facts
    ("How much is the annual fee of the Millbrook club?", "磨溪俱乐部年费为150元。", "annual_fee"),
    ("磨溪俱乐部的会费是多少？", "The yearly fee is 150 yuan per member.", "annual_fee"),
    ("How many members does the Millbrook club have?", "磨溪俱乐部现有会员310人。", "members"),
    ("鹭角灯塔哪几天对游客开放？", "The lighthouse is open to visitors from Thursday to Sunday.", "opening_hours"),
    ("What colour is the Heron Point light?", "鹭角灯塔的灯光为白色，每10秒闪一次。", "colour"),
])
def test_the_attribute_is_asked_in_one_language_and_stated_in_the_other(question: str, sentence: str,
                                                                        name: str) -> None:
    stated_across(question, sentence, name)


@pytest.mark.parametrize(("question", "sentence"), [
    ("鹭角灯塔的灯光是什么颜色？", "1961年灯塔改用电灯，灯光射程为16海里。"),  # the light's range, not its colour
    ("How much is the annual fee of the Millbrook club?", "The entry fee for the spring race is 20 yuan."),
    ("Who took the minutes of the budget meeting?", "主持人：丁佩兰"),  # the chair, not the minute-taker
    ("Who seconded the motion?", "The motion was proposed by Pia Rensford."),
])
def test_a_sentence_of_another_attribute_does_not_state_the_asked_one(question: str, sentence: str) -> None:
    not_stated(question, sentence)


def test_a_share_of_revenue_is_asked_as_a_share_not_as_the_spending() -> None:
    """"研发投入占营收比例" asks the share (15.5%), not the R&D spending it is a share of; the sentence states it
    with its value ("占营业收入的15.5%"), and so does an English one."""
    question = "蓝芯光学的研发投入占营收比例是多少？"
    asked = asked_attribute(question, expected_answer(question), ())
    assert asked is not None and asked.attribute.name == "share"
    assert stated_at(asked.attribute, "公司研发投入3.4亿元，占营业收入的12.5%。")
    asked = asked_attribute("What share of revenue did Lanxin Optics spend on R&D?", "number", ())
    assert asked is not None and asked.attribute.name == "share"


class Concepts(CrossConcepts):
    """An embedder by bilingual concepts (the test's stand-in for e5): the manual's lead sentence, which names the
    product and what it is, is closer to the question than the one stating its warranty."""

    WORDS: tuple[tuple[str, ...], ...] = (("borealis", "北岚"), ("dehumidifier", "除湿机"), ("d3",), ("warranty", "质保", "保修"))


MANUAL = hit("manual#0", "北岚 D3 除湿机适用面积为 30–50 平方米，日除湿量为 20 升。\n\n滤芯建议每 3 个月更换一次。\n\n"
                         "整机保修三年，滤芯不在保修范围内。", title="北岚 D3 除湿机 使用说明", dense_score=0.3)


async def _ask(tmp_path: Path, text: str, hits: list[Hit]) -> dict[str, object]:
    return await ask_with(Concepts(), tmp_path, text, hits)


@pytest.mark.parametrize(("question", "expected"), [
    ("How long is the warranty on the Borealis D3?", "三年"),
    ("What is the recommended room size for the Borealis D3?", "30–50"),
    ("How often should the Borealis D3 filter be replaced?", "3 个月"),
])
async def test_an_english_question_over_a_chinese_manual_is_answered_from_the_sentence_stating_it(
        tmp_path: Path, question: str, expected: str) -> None:
    """By meaning the manual's lead sentence (it names the product) ranks first; the sentence that states the
    asked attribute by the lexicon, with a value of the asked type, is the evidence (before, the lead sentence
    was judged and the question refused as "not found")."""
    out = await _ask(tmp_path, question, [MANUAL])
    assert out["status"] == "answered", out.get("answerability")
    assert expected in str(out["answer"])


# ------------------------------------------------------------------ a product name across scripts by its model code


def test_a_translated_product_name_is_found_by_its_model_code() -> None:
    """"Borealis D3" is no pinyin of 北岚: the code D3, written the same in both scripts, carries the name over,
    with the words before it as its other spelling (and the reverse)."""
    from graphs.text.scripts import other_script

    assert other_script("borealis d3", ["北岚 D3 除湿机适用面积为 30–50 平方米。"]) == "北岚 d3"
    assert other_script("北岚 d3", ["The Borealis D3 suits rooms of up to 50 square metres."]) == "borealis d3"
    # another code is another model; a name without a code is left to pinyin and aliases
    assert other_script("borealis d4", ["北岚 D3 除湿机适用面积为 30–50 平方米。"]) is None
    assert other_script("borealis", ["北岚 D3 除湿机适用面积为 30–50 平方米。"]) is None


def test_an_english_question_does_not_narrow_an_attribute_by_a_chinese_modifier() -> None:
    """"除湿机适用面积" is the room size an English question asks, not a narrower attribute: the question cannot
    write the Chinese modifier (a Chinese question that does not write 新能源 still narrows 新能源汽车销量)."""
    from graphs.rag.answer.governance import narrowed

    assert not narrowed("除湿机", "what is the recommended room size for the borealis d3?")
    assert narrowed("新能源汽车", "该公司的销量是多少？")


def test_who_leads_asks_the_leader_and_led_by_states_it() -> None:
    asked = asked_attribute("Who leads the Millbrook club's spring walk?", "person", ())
    assert asked is not None and asked.attribute.name == "leader"
    assert stated_at(asked.attribute, "The walk is led by Hugh Aldane, the club's route officer.")
    assert stated_at(asked.attribute, "磨溪俱乐部负责人为葛振华。")


@pytest.mark.parametrize(("question", "sentence", "name"), [
    ("How long does the Borealis D3 run on a single charge?", "北岚 D3 充满电后可连续工作约 90 分钟。", "battery_life"),
    ("北岚 D3 一次充电能用多久？", "The Borealis D3 runs for about 90 minutes on a full charge.", "battery_life"),
    ("What is the 2026 staff training budget of the Millbrook club?", "会议确定2026年度培训预算为3.2万元。", "budget"),
    ("磨溪俱乐部2026年的预算是多少？", "The club's budget for 2026 is 32,000 yuan.", "budget"),
])
def test_a_charge_and_a_budget_across_languages(question: str, sentence: str, name: str) -> None:
    stated_across(question, sentence, name)


def test_a_nearly_as_good_sentence_with_the_value_is_the_evidence() -> None:
    """A report's title sentence that names the attribute (研发经费) and holds only a date (7日) gives way to the
    sentence that states the amount, nearly as well covered: the gate judges what the writer answers with (before,
    the date sentence was judged, found holding no amount, and the question refused)."""
    from graphs.rag.answer.evidence import find_evidence
    from tests.unit.graphs.rag.answer.test_crosslang import question

    hits = [hit("a#0", "青禾研究院9日公布的《2024年全国研发经费报告》对研发经费投入的结构作了解读。", title="报告"),
            hit("b#0", "初步测算，2024年研发经费投入达36130亿元，比上年增长8.3%。", title="新闻")]
    q = question("2024年全国研发经费总投入量是多少", hits)
    best = find_evidence(q, hits)[0]
    assert best.span is not None and "36130" in best.span.text


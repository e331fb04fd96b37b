"""A question that asks of one direction of a pair (a translation's languages, a journey's ends): a line that writes
the pair the other way round (the English → Chinese row for a Chinese to English question, 中译英 for 英译中, the
York → Leeds fare for "from Leeds to York") states the other direction's value, and goes after the line of the asked
direction. Files and sentences invented here."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.extractive import extractive
from graphs.rag.answer.qualifiers import asked_pair, reversed_pair, states_pair
from tests.support.answers import question
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "start", "end"), [
    ("What does German to French legal translation cost?", "german", "french"),
    ("How much is translation from Spanish into English?", "spanish", "english"),
    ("日译中的标准价是多少？", "japanese", "chinese"),
    ("法语翻译成中文每千字多少钱？", "french", "chinese"),
    ("What is the rate for EN → DE?", "english", "german"),
    ("What is the return fare from Harwick to Elmsford?", "harwick", "elmsford"),
    ("南港→北湾的船票多少钱？", "南港", "北湾"),
])
def test_a_question_asks_one_direction(text: str, start: str, end: str) -> None:
    asked = asked_pair(text)
    assert asked is not None and (asked.start, asked.end) == (start, end)


@pytest.mark.parametrize("text", [
    "How do I get to the ferry terminal?",  # "to" with no pair of ends
    "What does it cost to go from the hotel to the station?",  # lower-case ends: no names
    "Are German–French and French–German rates the same?",  # both orders: a comparison
    "中至英的时间是多少？",  # one character beside a marker that is no direction's
    "What is the rate for de to it?",  # lower-case codes are words
    "英国的签证费是多少？",
])
def test_no_direction_is_read_where_none_is_asked(text: str) -> None:
    assert asked_pair(text) is None


@pytest.mark.parametrize(("text", "line", "other", "same"), [
    ("What does German to French legal translation cost?", "Legal — French → German: €140", True, False),
    ("What does German to French legal translation cost?", "Legal — German → French: €150", False, True),
    ("What does German to French legal translation cost?", "法译德：每千字140欧元", True, False),
    ("德译法每千字多少钱？", "Legal — French to German: €140", True, False),
    ("德译法每千字多少钱？", "Legal — German to French: €150", False, True),
    ("What does German to French legal translation cost?", "Legal — German → Italian: €150", False, False),
    ("What is the return fare from Harwick to Elmsford?", "Elmsford – Harwick: £9", True, False),
    ("What is the return fare from Harwick to Elmsford?", "Harwick to Elmsford: £11", False, True),
])
def test_a_line_writes_the_asked_direction_or_the_other(text: str, line: str, other: bool, same: bool) -> None:
    asked = asked_pair(text)
    assert asked is not None
    assert (reversed_pair(asked, line), states_pair(asked, line)) == (other, same)


CARD = hit("card#0", "Translation rates per 1,000 words.\nStandard — French → German: €110\n"
                     "Legal — French → German: €140\nStandard — German → French: €120\nLegal — German → French: €150",
           title="Merrow Language Services — rate card")
CARD_ZH = hit("card_zh#0", "每千字翻译价格。\n标准 — 法译德: 800元\n法律 — 法译德: 950元\n标准 — 德译法: 880元\n"
                           "法律 — 德译法: 1020元", title="梅罗语言服务价目表")
FERRY = hit("ferry#0", "Single fares.\nAdult — Elmsford → Harwick: £7\nAdult — Harwick → Elmsford: £9",
            title="Harwick ferry fares")


def best(text: str, hits: list[Hit]) -> str | None:
    q = question(text, hits)
    evidence = find_evidence(q, hits)
    return extractive(q, hits, evidence, any("\u4e00" <= ch <= "\u9fff" for ch in text)).span


@pytest.mark.parametrize(("text", "hits", "span"), [
    ("How much does German to French legal translation cost per 1,000 words?", [CARD], "€150"),
    ("How much does French to German legal translation cost per 1,000 words?", [CARD], "€140"),
    ("德译法的法律翻译每千字多少钱？", [CARD_ZH], "1020元"),
    ("法译德的法律翻译每千字多少钱？", [CARD_ZH], "950元"),
    ("What is the adult fare from Harwick to Elmsford?", [FERRY], "£9"),
    ("What is the adult fare from Elmsford to Harwick?", [FERRY], "£7"),
])
def test_the_row_of_the_asked_direction_answers(text: str, hits: list[Hit], span: str) -> None:
    assert best(text, hits) == span

"""The asked value kind bound to what is asked (i24-kinds13): money in a role no list names, answered by any amount
the subject pays or is paid unless the question names another role; a spec sheet's row whose label shares the
question's words and whose value has the asked dimension; a number of another dimension never answers. Files and
sentences invented here, a new domain each."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.calibration import answer_spans
from graphs.rag.answer.evidence import find_evidence, sentences_of
from graphs.rag.answer.extractive import extractive
from graphs.rag.answer.governance import Elsewhere, judge_value
from tests.support.answers import question, verdict_of, write
from tests.support.fakes import hit

POTTERY = hit("pottery#0", "加入青窑陶艺社需要先登记。个人社员每年交纳社费120元，学生减半。"
                           "以学校名义加入的团体社员，社费为每年600元。", title="青窑陶艺社 社员须知")
ROWING = hit("rowing#0", "Crews who tow the club trailer to regattas in their own car can claim a towing "
                         "allowance of 30p per kilometre. Receipts go to the treasurer.",
             title="Marlow Reach Rowing Club — expenses")
GLASSHOUSE = hit("glass#0", "价格（元） — 温室工具借用押金: 80\n价格（元） — 花盆: 12", title="西坡社区温室 价目表")
KILN = hit("kiln#0", "Value — Maximum firing temperature: 1280 °C\nValue — Door seal width: 12 mm\n"
                     "Value — Weight: 64 kg", title="Hollins K9 Kiln — specifications")
PUMP = hit("pump#0", "数值 — 最大扬程: 35 米\n数值 — 进水口直径: 25 毫米\n数值 — 整机重量: 9 公斤",
           title="清泉 P7 水泵 参数")
SIGNAL = hit("buoy#0", "Shackle each buoy with an 8 mm stainless pin. Each buoy's radio reaches the shore station "
                       "up to 3 km away in calm weather.", title="Skerry buoy network — field notes")


def best(text: str, hits: list[Hit]) -> str | None:
    q = question(text, hits)
    evidence = find_evidence(q, hits)
    return extractive(q, hits, evidence, any("\u4e00" <= ch <= "\u9fff" for ch in text)).span


@pytest.mark.parametrize(("text", "hits", "gold"), [
    ("加入青窑陶艺社，个人社员一年要交多少钱？", [POTTERY], "120"),            # 社费 answers 多少钱
    ("How much do Marlow Reach crews get per kilometre for towing the trailer?", [ROWING], "30"),  # an allowance
    ("西坡社区温室借工具要交多少押金？", [GLASSHOUSE], "80"),                   # the row names the asked role
])
def test_money_in_any_role_answers_a_money_question(text: str, hits: list[Hit], gold: str) -> None:
    decision, reason, _, answer = write(text, hits)
    assert decision == "answerable", reason
    assert gold in answer


def _verdicts(text: str, h: Hit, asked: list[str]) -> list[object]:
    """How each value of the passage is governed, for a question whose asked words are ``asked``."""
    q = question(text, [h])
    return [judge_value(q, s, h, v.start, v.end, asked)
            for s in sentences_of(q, [h]) for v in answer_spans(q, s, "number")]


def test_money_governed_by_another_word_is_the_asked_amount() -> None:
    assert True in _verdicts("加入青窑陶艺社，个人社员一年要交多少钱？", POTTERY, ["社员"])
    assert True in _verdicts("How much do Marlow Reach crews get per kilometre for towing the trailer?", ROWING,
                             ["price", "cost"])


def test_another_money_role_named_by_the_question_does_not_answer() -> None:
    verdicts = _verdicts("西坡社区温室的停车费是多少？", GLASSHOUSE, ["停车费"])
    assert verdicts and all(isinstance(v, Elsewhere) for v in verdicts)


@pytest.mark.parametrize(("text", "hits", "gold"), [
    ("What's the highest temperature the Hollins K9 kiln can fire to?", [KILN], "1280"),
    ("清泉P7水泵最大能把水扬到多高？", [PUMP], "35"),
])
def test_a_spec_row_of_the_asked_dimension_answers(text: str, hits: list[Hit], gold: str) -> None:
    span = best(text, hits)
    assert span is not None and gold in span


def test_a_distance_is_not_answered_by_a_size() -> None:
    span = best("How far can a Skerry buoy's radio reach?", [SIGNAL])
    assert span is not None and "3 km" in span


@pytest.mark.parametrize(("text", "hits"), [
    ("加入青窑陶艺社，个人社员一年要交多少钱？", [POTTERY]),
    ("How much do Marlow Reach crews get per kilometre for towing the trailer?", [ROWING]),
    ("西坡社区温室借工具要交多少押金？", [GLASSHOUSE]),
    ("What's the highest temperature the Hollins K9 kiln can fire to?", [KILN]),
    ("清泉P7水泵最大能把水扬到多高？", [PUMP]),
])
async def test_the_gate_lets_the_asked_kind_through(text: str, hits: list[Hit]) -> None:
    decision, reason = await verdict_of(text, hits)
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "hits"), [
    ("西坡社区温室的停车费是多少？", [GLASSHOUSE]),                         # another money role
    ("How many litres a minute can the Hollins K9 kiln vent?", [KILN]),      # a dimension no row gives
])
async def test_the_gate_refuses_what_no_value_of_the_asked_kind_states(text: str, hits: list[Hit]) -> None:
    decision, reason = await verdict_of(text, hits)
    assert decision == "not_found", reason

"""A table answer is the asked row's cell under the asked column: the column read by the lexicon, by the unit of its
value, and by meaning (e5 of what the question asks against each header: ``Question.columns``), the row by its key
or, across languages, by meaning (``Question.rows``). Tables and questions invented here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from graphs.domain import Hit
from graphs.rag.answer.calibration import QuestionSide
from graphs.rag.answer.evidence import (
    asked_phrase,
    column_by_meaning,
    columns_by_meaning,
    columns_lead,
    find_evidence,
    lexicon_disagrees,
    row_by_meaning,
    says_more,
    table_labels,
    table_rows,
)
from graphs.rag.nodes.write_answer import _with_columns
from graphs.text.fields import in_asked_measure
from tests.support.answers import Bigrams, question
from tests.support.fakes import DownEmbedder, EmbedderContext, hit

FERRY = hit("ferry#0", "Single fare — Foot passenger: £4\nWeekly pass — Foot passenger: £21\n"
                       "Crossings a day — Foot passenger: 14\nSingle fare — Bicycle: £2\n"
                       "Weekly pass — Bicycle: £9\nCrossings a day — Bicycle: 14", title="Skerry ferry fares")
SEEDS = hit("seeds#0", "播种月份 — Amber Moon pumpkin: 5月\n剩余包数 — Amber Moon pumpkin: 11包\n"
                       "播种月份 — Purple Haze carrot: 3月\n剩余包数 — Purple Haze carrot: 6包", title="种子交换站目录")
PUMP = hit("pump#0", "Skerrin P2 garden pump\n\nMaximum lift: 32 m\nFlow: 3,600 l/h\nMotor: 750 W\nCable length: 10 m",
           title="Skerrin P2 garden pump")


def first_line(q: Any, hits: list[Hit]) -> tuple[str, bool, str | None]:
    e = find_evidence(q, hits)[0]
    return e.sentences[e.span_in].text, e.field, e.span.text if e.span else None


def test_the_labels_and_the_other_language_keys_of_the_retrieved_tables() -> None:
    assert table_labels([FERRY, PUMP]) == [("Single fare", "Weekly pass", "Crossings a day"),
                                           ("Maximum lift", "Flow", "Motor", "Cable length")]
    q = question("南瓜种子几月播种？", [SEEDS])
    assert table_rows(q, [SEEDS]) == [("Amber Moon pumpkin", "Purple Haze carrot")]
    assert table_rows(question("When is Amber Moon sown?", [SEEDS]), [SEEDS]) == []


def test_the_asked_phrase_leaves_out_the_subject_the_rows_and_the_title() -> None:
    q = question("How much is a weekly pass for a bicycle on the Skerry ferry?", [FERRY])
    phrase = asked_phrase(q, [FERRY])
    assert "weekly pass" in phrase and "skerry" not in phrase and "ferry" not in phrase and "bicycle" not in phrase


def test_only_the_label_that_stands_out_of_its_table_is_kept() -> None:
    groups = [("Single fare", "Weekly pass", "Crossings a day"), ("Maximum lift", "Flow")]
    found = columns_by_meaning(groups, {"Single fare": 0.80, "Weekly pass": 0.85, "Crossings a day": 0.79,
                                        "Maximum lift": 0.81, "Flow": 0.805})
    assert found == pytest.approx({"Weekly pass": 0.05, "Maximum lift": 0.005})
    q = replace(question("What does a weekly pass cost?", []), columns=found, rows={"Amber Moon pumpkin": 0.04, "Purple Haze carrot": 0.01})
    assert column_by_meaning(q, "Weekly pass") and not column_by_meaning(q, "Maximum lift")
    assert row_by_meaning(q, "Amber Moon pumpkin") and not row_by_meaning(q, "Purple Haze carrot")


def test_the_row_answers_by_the_column_that_stands_out_not_by_a_shared_word() -> None:
    # "cross" is written by the crossings' header too: both cells of the row hold a value; the one whose column
    # stands out in meaning leads
    q = question("How much is it for a foot passenger to cross as often as they like for a week on the Skerry ferry?",
                 [FERRY])
    found = find_evidence(q, [FERRY])
    crossings = next(e for e in found if e.sentences[0].text.startswith("Crossings a day — Foot"))
    weekly = next(e for e in found if e.sentences[0].text.startswith("Weekly pass — Foot"))
    # (the question asks a price: the crossings' count is no field of it; a passenger was once read as a capacity)
    assert weekly.field and not crossings.field
    assert columns_lead(replace(q, columns={"Weekly pass": 0.04}), [crossings, weekly]) == [weekly, crossings]
    assert columns_lead(replace(q, columns={"Weekly pass": 0.01}), [crossings, weekly]) == [crossings, weekly]
    assert columns_lead(q, [crossings, weekly]) == [crossings, weekly]


def test_a_question_in_the_other_language_reads_the_row_and_the_column_by_meaning() -> None:
    q = question("Skerry 渡轮的步行乘客买一周通票要多少钱？", [FERRY])
    assert not find_evidence(q, [FERRY])[0].field
    read = replace(q, columns={"Weekly pass": 0.05}, rows={"Foot passenger": 0.03})
    assert first_line(read, [FERRY]) == ("Weekly pass — Foot passenger: £21", True, "21")


def test_a_column_by_meaning_needs_a_value_of_the_asked_dimension() -> None:
    # the packets left stand out, but 多少公斤 asks a weight: a count of packets is no answer
    q = replace(question("Amber Moon pumpkin 还剩多少公斤？", [SEEDS]), columns={"剩余包数": 0.05})
    assert not any(e.field for e in find_evidence(q, [SEEDS]))


def test_a_row_in_the_other_language_is_the_subject_s_when_it_stands_out_in_meaning() -> None:
    q = question("南瓜种子几月播种？", [SEEDS])
    by_meaning = replace(q, rows={"Amber Moon pumpkin": 0.04}, columns={"播种月份": 0.05})
    assert first_line(by_meaning, [SEEDS]) == ("播种月份 — Amber Moon pumpkin: 5月", True, "5月")
    assert not first_line(q, [SEEDS])[1]


def test_a_value_in_a_unit_of_the_asked_attribute_states_it_whatever_its_label() -> None:
    # "Motor: 750 W" states the pump's power though the label says "Motor" (the lexicon's power words are not in it)
    q = question("Skerrin P2 水泵的功率是多少？", [PUMP])
    assert first_line(q, [PUMP]) == ("Motor: 750 W", True, "750 W")


async def test_the_columns_are_read_by_meaning_once_and_an_outage_is_recorded(monkeypatch: Any) -> None:
    import graphs.rag.nodes.write_answer as node

    q = question("How much is a weekly pass for a foot passenger on the Skerry ferry?", [FERRY])
    up = Bigrams()
    read, failed = await _with_columns(q, [FERRY], EmbedderContext(up), QuestionSide(up, q.text))  # type: ignore[arg-type]
    assert not failed and set(read.columns) <= {"Single fare", "Weekly pass", "Crossings a day"}
    assert len(read.columns) == 1  # one label of the table stands out, the others are not kept
    monkeypatch.setattr(node, "EMBEDDER_ERRORS", (RuntimeError,))
    down = DownEmbedder()
    same, failed = await _with_columns(q, [FERRY], EmbedderContext(down), QuestionSide(down, q.text))  # type: ignore[arg-type]
    assert failed and same is q
    # no table among the passages: nothing is embedded
    plain = hit("p#0", "The ferry crosses fourteen times a day.", title="Skerry ferry")
    assert await _with_columns(q, [plain], EmbedderContext(down), QuestionSide(down, q.text)) == (q, False)  # type: ignore[arg-type]


CANDLES = hit("candles#0", "规格 — 松香蜡烛: 8cm×3支\n库存 — 松香蜡烛: 64盒\n单价 — 松香蜡烛: 25元\n"
                           "规格 — 蜂蜡蜡烛: 6cm×4支\n库存 — 蜂蜡蜡烛: 18盒\n单价 — 蜂蜡蜡烛: 42元", title="山下杂货铺库存")


def test_the_measure_word_the_question_counts_in_chooses_the_column() -> None:
    # 规格 holds numbers too (8cm, 3支): the column whose values are in 盒 is what 还剩多少盒 asks
    q = question("山下杂货铺的蜂蜡蜡烛还剩多少盒？", [CANDLES])
    assert first_line(q, [CANDLES]) == ("库存 — 蜂蜡蜡烛: 18盒", True, "18")


@pytest.mark.parametrize(("text", "value", "counted"), [
    ("还剩多少盒？", "18盒", True), ("一共卖了几万盏？", "4.2万盏", False), ("一共卖了多少盏？", "41,600盏", True),
    ("还剩多少盒？", "6cm×4支", False), ("多少钱？", "25元", False), ("How many boxes?", "18盒", False),
])
def test_a_value_in_the_asked_measure_word(text: str, value: str, counted: bool) -> None:
    assert in_asked_measure(text, value) is counted


PURIFIER = hit("purifier#0", "Lumo A3 空气净化器\n\n适用面积：20–35 平方米\n滤芯更换周期：约6个月\n噪音：25–50 dB",
               title="Lumo A3 空气净化器规格")


def test_a_label_that_says_more_than_the_question_is_not_its_column_by_meaning() -> None:
    # both are periods: the filter's replacement period stands out in meaning for 保修期, but writes 滤芯更换 the
    # question does not: it stays another attribute's label (the absent warranty is not answered by it)
    q = replace(question("Lumo A3 空气净化器的保修期是多久？", [PURIFIER]), columns={"滤芯更换周期": 0.04})
    assert not column_by_meaning(q, "滤芯更换周期")
    assert not find_evidence(q, [PURIFIER])[0].field
    assert says_more("滤芯更换周期", "保修期是多久？") and not says_more("含义", "E4是什么意思？")
    assert not says_more("Day rate", "How much is it for a whole day?") and says_more("Late return fee", "How much?")
    assert not says_more("Best before", "罐头什么时候过期？")  # the other language: meaning alone


ORDERS = hit("orders#0", "品名 — 竹编果盘: 竹编果盘\n工期 — 竹编果盘: 6天\n单价 — 竹编果盘: 180元\n"
                         "工期 — 竹编茶席: 9天\n单价 — 竹编茶席: 320元", title="青篾工坊订制价目")


def test_the_lexicon_decides_where_it_reads_the_label_as_another_attribute() -> None:
    # 工期 and 保修期 are both periods: meaning may make 工期 stand out, the lexicon reads it as a duration, not the
    # asked warranty; a label the lexicon does not know ("Day rate") is read by meaning
    q = replace(question("青篾工坊的竹编果盘保修期是多久？", [ORDERS]), columns={"工期": 0.04})
    assert lexicon_disagrees(q, "工期") and not column_by_meaning(q, "工期")
    assert not any(e.field for e in find_evidence(q, [ORDERS]))
    day = replace(question("How much is a tandem for a whole day?", []), columns={"Day rate": 0.03})
    assert not lexicon_disagrees(day, "Day rate") and column_by_meaning(day, "Day rate")


def test_a_measurement_with_words_around_it_is_not_read_by_its_unit_alone() -> None:
    from graphs.rag.answer.attributes import lexicon
    from graphs.rag.answer.evidence import in_asked_unit

    weight = next(a for a in lexicon() if a.name == "weight")
    assert in_asked_unit(weight, "21 kg") and in_asked_unit(weight, "3.5公斤")
    assert not in_asked_unit(weight, "最大承重80公斤 可折叠") and not in_asked_unit(weight, "holds up to 80 kg")
    assert not in_asked_unit(None, "21 kg")

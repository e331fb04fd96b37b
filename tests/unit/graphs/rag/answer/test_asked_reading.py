"""The question's reading and the answer's sentence (session 18): function words and units are no asked
attribute, an extreme is stated by either language's words of its bound and never by the other bound's, a table row
is chosen by the name the question writes out, a measure with its unit is no year, and the answering sentence leads
the body. Every document and question here is invented."""

from __future__ import annotations

from graphs.rag.answer.question import extreme_forms
from graphs.text.answer_types import expected_answer
from graphs.text.query_analysis import extract_keywords
from graphs.text.sentences import split_sentences
from graphs.text.spans import candidates
from tests.support.answers import write
from tests.support.fakes import hit

PRESS = hit("press.md#1", "型号 — 最高工作压力: 2.5 MPa\n型号 — 最低工作压力: 0.4 MPa", title="蓝鲸 BX-7 高压清洗机 说明书")
UPPER_ONLY = hit("press.md#2", "BX-7 — 最高工作压力: 2.5 MPa\nBX-7 — 整机重量: 18 kg", title="蓝鲸 BX-7 高压清洗机 说明书")
MODELS = hit("dryer.md#1", "Drumline D4 — Maximum drum speed: 1,150 rpm\nDrumline D4 Pro — Maximum drum speed: 1,400 rpm",
             title="Drumline D4 / D4 Pro tumble dryer — technical data")
LIMITS = hit("boiler.md#2", "Value — Model: OakHeat 30\nValue — Maximum flow temperature: 1,080 °C\n"
             "Value — Minimum inlet pressure: 0.8 bar", title="OakHeat 30 pellet boiler — installation manual")
CODES = hit("pump.md#3", "型号 — 额定电压: 220V\n含义 — P7: 进水口缺水，水泵空转", title="泉声 Q20 水泵 使用手册")


def test_function_words_and_quantity_words_are_no_keywords() -> None:
    # 到 (a preposition-like verb), 能 (a modal), 那台 (a pronoun) and 多少度 (the question word with its unit)
    # name nothing asked; 温度, 设定 and the name do
    words = extract_keywords("那台烤箱最高能设定到多少度？")
    assert "到" not in words and "能" not in words and "多少度" not in words and "那台" not in words
    assert "烤箱" in words and "设定" in words
    # a common noun stays content, however common (人 of 记录人)
    assert "人" in extract_keywords("值班记录人是谁？")


def test_a_measure_with_its_unit_is_no_year() -> None:
    assert candidates("窑炉 — 最高温度: 1250℃", "date", "") == []
    assert candidates("Rated output: 1800 W at full load", "date", "") == []
    assert [s.text for s in candidates("The bridge was rebuilt in 1874 after the flood.", "date", "")] == ["1874"]


def test_what_is_the_extreme_measure_asks_a_number() -> None:
    assert expected_answer("What's the lowest pressure the OakHeat 30 will start at?") == "number"
    assert expected_answer("What is the maximum drum speed of the D4 Pro?") == "number"
    assert expected_answer("What is photosynthesis?") == "definition"


def test_the_bounds_words_cross_languages() -> None:
    assert "maximum" in extreme_forms("最高") and "最低" in extreme_forms("minimum")
    assert extreme_forms("温度") == ()


def test_rows_of_one_table_are_not_one_wrapped_sentence() -> None:
    text = ("Value — Maximum flow temperature of the primary circuit: 1,080 °C\n"
            "Value — Minimum inlet pressure: 0.8 bar")
    assert len(split_sentences(text)) == 2


def test_the_asked_bound_is_stated_by_its_words_in_the_other_language() -> None:
    decision, reason, span, _ = write("What is the highest flow temperature of the OakHeat 30?", [LIMITS])
    assert decision == "answerable", reason
    assert span is not None and "1,080" in span


def test_the_other_bound_does_not_answer() -> None:
    decision, _, span, text = write("BX-7 的最高工作压力是多少？", [PRESS])
    assert decision == "answerable" and span is not None and "2.5" in span
    decision, _, span, _ = write("BX-7 的最低工作压力是多少？", [PRESS])
    assert decision == "answerable" and span is not None and "0.4" in span
    # only the maximum's row written: the minimum asked is not answered with it
    decision, _, span, text = write("BX-7 的最低工作压力是多少？", [UPPER_ONLY])
    assert decision == "not_found" or "2.5" not in text


def test_the_row_the_question_names_in_full_leads() -> None:
    decision, reason, span, text = write("What's the maximum drum speed of the Drumline D4 Pro?", [MODELS])
    assert decision == "answerable", reason
    assert span is not None and "1,400" in span
    assert text.index("1,400") < text.index("1,150") if "1,150" in text else True


def test_the_code_line_leads_not_another_line_of_its_manual() -> None:
    decision, reason, _, text = write("Q20 水泵显示 P7 是什么意思？", [CODES])
    assert decision == "answerable", reason
    assert text.startswith("含义 — P7")

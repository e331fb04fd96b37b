"""Comparisons of two stated values on own invented documents (#24): which of two is quieter, lighter, more
powerful, older — the value of each side read where that side is named (its own line of a spec sheet that names
both, its own part of a sentence that states both), the side the question's comparative picks answered with both
values cited; a side without a value leaves the comparison undecided ("not found"), in Chinese and English."""

from __future__ import annotations

from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.verdicts import without_value
from graphs.text.answer_types import expected_answer
from tests.support.answers import question, write
from tests.support.fakes import hit

SHEET = hit("sheet#0", "Norrow F2 — Noise level: 46 dB(A)\nNorrow F2 Plus — Noise level: 41 dB(A)\n"
                       "Norrow F2 — Weight: 3.1 kg\nNorrow F2 Plus — Weight: 3.6 kg",
            title="Norrow F2 / F2 Plus fan — specifications")
PUMPS = hit("pumps#0", "苍岭泵业主销两款水泵：甲型泵额定功率为7.5千瓦，售价1.2万元；乙型泵额定功率为11千瓦，售价1.9万元。"
                       "公司还预告了一款丙型泵，尚未公布售价。", title="苍岭泵业")


def test_a_chinese_choice_word_before_its_comparative_asks_a_comparison() -> None:
    for text in ("甲型泵和乙型泵相比，哪一款运行起来更安静？", "这两座桥哪一座建得比较早？", "甲乙两队谁的得分更高？"):
        assert expected_answer(text) == "comparison", text
    assert expected_answer("Which is quieter, the Norrow F2 or the Norrow F2 Plus?") == "comparison"
    assert expected_answer("Which is lighter, the Norrow F2 or the Norrow F2 Plus?") == "comparison"


def test_a_name_that_starts_the_other_sides_name_is_not_read_from_the_other_sides_line() -> None:
    # "Norrow F2" is the start of "Norrow F2 Plus": the F2 Plus line is not the F2's, whatever the title names
    decision, _, span, text = write("Which is quieter, the Norrow F2 or the Norrow F2 Plus?", [SHEET])
    assert decision == "answerable" and span == "Norrow F2 Plus"
    assert "is quieter than" in text and "46" in text and "41" in text
    _, _, span, text = write("Which is lighter, the Norrow F2 or the Norrow F2 Plus?", [SHEET])
    assert span == "Norrow F2" and "3.1" in text and "3.6" in text


def test_each_side_is_valued_in_its_own_part_of_a_sentence_that_states_both() -> None:
    _, _, span, text = write("甲型泵还是乙型泵功率更大？", [PUMPS])
    assert span == "乙型泵" and "11千瓦" in text and "7.5千瓦" in text and "更大" in text
    _, _, span, text = write("甲型泵和乙型泵相比，哪一款更便宜？", [PUMPS])
    assert span == "甲型泵" and "1.2万元" in text and "更便宜" in text


def test_a_side_without_its_value_leaves_the_comparison_undecided() -> None:
    q = question("甲型泵和丙型泵哪一款更便宜？", [PUMPS])
    assert without_value(q, find_evidence(q, [PUMPS])) == ["丙型泵"]
    q = question("乙型泵和甲型泵哪一款更便宜？", [PUMPS])
    assert without_value(q, find_evidence(q, [PUMPS])) == []


def test_sides_the_question_describes_by_a_thing_and_its_place() -> None:
    town = hit("bren#0", "Brenhallow is a village on the moor. Its clock tower was built in 1762 by the parish.",
               title="Brenhallow")
    point = hit("sallow#0", "Sallow Point is a headland. The lighthouse there was first lit in 1811.",
                title="Sallow Point")
    _, _, span, text = write("Which is older: the clock tower in Brenhallow or the lighthouse at Sallow Point?",
                             [town, point])
    assert span is not None and "clock tower" in span and "1762" in text and "1811" in text


def test_of_a_sentences_values_the_one_its_clause_dates_to_the_asked_year() -> None:
    from graphs.rag.answer.evidence import of_asked_year
    from graphs.text.spans import candidates

    en = "The regatta drew about 8,200 spectators in 2022 and about 9,900 in 2023, its fiftieth year."
    picked = of_asked_year(("2023",), en, candidates(en, "number", "how many"))
    assert [s.text for s in picked if "9,900" in s.text] and not [s for s in picked if "8,200" in s.text]
    zh = "2022年赛事吸引观众8200人，2023年增至9900人。"
    picked = of_asked_year(("2023",), zh, candidates(zh, "number", "多少人"))
    assert any("9900" in s.text for s in picked) and not any("8200" in s.text for s in picked)
    spans = candidates(en, "number", "how many")
    assert of_asked_year(("2019",), en, spans) == spans  # no clause of the asked year: all stay


def test_a_hedge_before_the_question_word_is_no_term_of_what_is_asked() -> None:
    q = question("Roughly how many spectators watched the Ferrow regatta in 2023?", [])
    assert "roughly" not in q.weights and "roughly" not in q.focus


SALON = hit("salon#0", "项目 — 剪发: 项目\n价格 — 剪发: 45元\n项目 — 染发: 项目\n价格 — 染发: 168元\n"
                       "项目 — 洗头: 项目\n价格 — 洗头: 25元", title="青柚理发店 价目表")


def test_a_side_is_read_as_the_documents_name_it() -> None:
    # a numeral and measure word inside a separable verb (洗一次头 is 洗头), the shop's name and a kind of thing in
    # front of a side (青柚理发店剪发 is its 剪发), a clause after the second side that says how to compare: none
    # is part of the side's name
    for text in ("青柚理发店洗一次头和剪一次发，哪个更便宜？", "理发店剪发跟染发，按原价算哪个更贵？"):
        decision, _, span, body = write(text, [SALON])
        assert decision == "answerable", (text, body)
        assert span in ("洗头", "染发"), (text, span)
    # the tail both sides share is no side's name: 丙型泵 is not read as 型泵 (甲型泵's)
    q = question("甲型泵和丙型泵哪一款更便宜？", [PUMPS])
    assert without_value(q, find_evidence(q, [PUMPS])) == ["丙型泵"]

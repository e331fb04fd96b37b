"""Typed short answers in news sentences (Chinese and English): dates without a year, quantities with their
unit, people after a role or before a person's verb, places where something takes place, organizations the
tagger splits — and the answer type of a question that asks by its last noun, with no question word."""

from __future__ import annotations

import pytest

from graphs.text.answer_types import head_type
from graphs.text.spans import candidates


def texts(sentence: str, kind: str, question: str = "") -> list[str]:
    return [s.text for s in candidates(sentence, kind, question)]  # type: ignore[arg-type]


@pytest.mark.parametrize(("sentence", "value"), [
    ("青禾镇第二届稻米节于当地时间14日上午9时开幕。", "14日上午9时"),
    ("展览将于7月8日至9月20日在市美术馆展出。", "7月8日至9月20日"),
    ("这种候鸟每年4-6月在湿地停留。", "4-6月"),
    ("渡口每逢周三停航检修。", "周三"),
    ("该品种在秋季成熟。", "秋季"),
    ("The ferry service resumed on August 14 after the repairs.", "August 14"),
    ("The vote was held on the 9th of November in Harwick.", "9th of November"),
])
def test_dates_a_news_sentence_states_without_a_year(sentence: str, value: str) -> None:
    assert value in texts(sentence, "date")


@pytest.mark.parametrize(("sentence", "value"), [
    ("这种溪鱼体长可达65公分。", "65公分"),
    ("青禾镇共有常住人口2.36万，其中农业人口占61%。", "2.36万"),
    ("今年该港口共停靠邮轮37艘。", "37艘"),
    ("The club sold 12,400 season tickets this year.", "12,400"),
])
def test_quantities_with_their_unit(sentence: str, value: str) -> None:
    assert value in texts(sentence, "number")


def test_a_comma_after_a_number_is_the_sentence_s_not_the_number_s() -> None:
    # thousands commas sit inside a number; the clause's comma after it is not part of the short answer
    assert texts("Each canoe needs a refundable bond of 35, paid at the kiosk.", "number") == ["35"]
    assert "4,800" in texts("The orchard shipped 4,800, more than last year.", "number")


@pytest.mark.parametrize(("sentence", "kind", "value"), [
    ("纪录片《远山的回声》由邝明哲执导，于去年上映。", "person", "邝明哲"),
    ("总导演鲁思齐表示，排练已进入最后阶段。", "person", "鲁思齐"),
    ("祁望川，男，汉族，1979年3月出生，现任青禾镇镇长。", "person", "祁望川"),
    ("颁奖典礼在杭州西溪国际会议中心举行。", "place", "杭州西溪国际会议中心"),
    ("该项目由苏州沧浪精密仪器有限公司承建。", "organization", "苏州沧浪精密仪器有限公司"),
])
def test_names_typed_by_the_words_around_them(sentence: str, kind: str, value: str) -> None:
    assert value in texts(sentence, kind)


def test_a_count_before_an_organization_word_is_no_name() -> None:
    assert texts("三所大学和两家公司联合发布了报告。", "organization") == []


@pytest.mark.parametrize(("question", "kind"), [
    ("青禾镇稻米节开幕时间", "date"),
    ("2024年星港市新能源汽车销量", "number"),
    ("第五届海岸论坛的举办地", "place"),
    ("纪录片《远山的回声》的导演", "person"),
    ("2024年城市龙舟赛的冠军", "list"),
    ("The Harwick referendum date", "date"),
    ("青禾镇稻米节什么时候开幕？", None),  # a question word decides, not the last noun
    ("青禾镇稻米节的由来", None),
])
def test_a_question_without_a_question_word_asks_by_its_last_noun(question: str, kind: str | None) -> None:
    assert head_type(question) == kind


@pytest.mark.parametrize(("sentence", "value"), [
    ("这座石桥建于清代中期，后经多次修缮。", "清代中期"),
    ("古镇的戏台始建于明朝嘉靖年间。", "明朝嘉靖年间"),
    ("The chapel dates from the 14th century.", "14th century"),
])
def test_eras_and_centuries_are_dates(sentence: str, value: str) -> None:
    assert value in texts(sentence, "date")


@pytest.mark.parametrize(("sentence", "kept"), [
    ("备注 — KT-12: 礼盒装，另附试用装", []),                        # a catalogue code's digits
    ("If the display shows F07, descale the boiler.", []),            # an error code
    ("The housing is rated IP67 and weighs 2.4 kg.", ["2.4 kg"]),     # a rating beside a measure
    ("The A321 seats 190 passengers.", ["190"]),                      # a model number beside a count
])
def test_a_codes_digits_are_no_number(sentence: str, kept: list[str]) -> None:
    assert [s.text for s in candidates(sentence, "number", "How many?")] == kept

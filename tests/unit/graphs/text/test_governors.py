"""The words that govern a value in its sentence (graphs/text/governors.py): the attribute it is the value of,
the named subject it belongs to, the period it is for — Chinese and English, invented sentences."""

from __future__ import annotations

import pytest

from graphs.text.governors import Governors, governors, relative, same_measure, year_of


def of(sentence: str, value: str, names: tuple[str, ...] = ()) -> Governors:
    start = sentence.index(value)
    return governors(sentence, start, start + len(value), names=names)


@pytest.mark.parametrize(("sentence", "value", "attribute"), [
    # the attribute before the value, words of change between them transparent
    ("2024年，青禾电器净利润由亏转盈，达7.2亿元，同比增长86.4%。", "86.4%", "净利润"),
    ("青禾电器去年销量为41万台，同比增长12%。", "12%", "销量"),
    ("Sales of the Tamsin e-bike rose 18% while profit fell 4%.", "4%", "profit"),
    ("Sales of the Tamsin e-bike rose 18% while profit fell 4%.", "18%", "Sales"),
    # the attribute written right after the value governs it, not the one before
    ("山体滑坡造成7人遇难，另有15人受伤。", "15人", "受伤"),
    ("山体滑坡造成7人遇难，另有15人受伤。", "7人", "遇难"),
    ("The ferry fire left 9 passengers dead and 31 people were injured.", "31", "injured"),
    # a share of the attribute is not the attribute
    ("2023年，岚山乳业在华东市场的销量占其总销量的38%。", "38%", "占比"),
    ("Exports accounted for 27% of the Brenvale dairy's revenue.", "27%", "share"),
])
def test_the_attribute_that_governs_a_value(sentence: str, value: str, attribute: str) -> None:
    assert of(sentence, value).attribute == attribute


def test_no_attribute_word_no_governor() -> None:
    assert of("预计2025年全省经济将增长5.5%。", "5.5%").attribute is None


@pytest.mark.parametrize(("sentence", "value", "names", "subject"), [
    ("青禾电器的销量为41万台，蓝湾电器为37万台。", "37万台", ("青禾电器", "蓝湾电器"), "蓝湾电器"),
    ("青禾电器的销量为41万台，蓝湾电器为37万台。", "41万台", ("青禾电器", "蓝湾电器"), "青禾电器"),
    ("Harbin Dairy sold 3,000 tonnes, while Corlin Foods sold 2,100 tonnes.", "2,100", ("Harbin Dairy",
                                                                                        "Corlin Foods"),
     "Corlin Foods"),
])
def test_the_nearest_name_before_a_value_is_its_subject(sentence: str, value: str, names: tuple[str, ...],
                                                          subject: str) -> None:
    assert of(sentence, value, names).subject == subject


@pytest.mark.parametrize(("sentence", "value", "period", "part"), [
    ("2023年岚山乳业营收为52亿元，2022年为47亿元。", "47亿元", "2022年", None),
    ("2023年岚山乳业营收为52亿元，2022年为47亿元。", "52亿元", "2023年", None),
    ("岚山乳业营收为52亿元，去年同期为47亿元。", "47亿元", "去年同期", None),
    ("2024年上半年，全市新登记汽车18万辆。", "18万辆", "2024年", "上半年"),
    ("In 2022 the Orla plant produced 8,000 cars, against 6,500 a year earlier.", "6,500", "a year earlier", None),
    ("Revenue was $4.1 billion in the third quarter of 2023.", "$4.1 billion", "of 2023", "third quarter"),
    ("Sales of the Tamsin e-bike rose 18% in 2024, after 9% in 2023.", "9%", "in 2023", None),
    # the base of a comparison is not the value's period
    ("2024年，全省粮食产量比上年增长3.1%。", "3.1%", "2024年", None),
    ("In 2024 the Orla plant's output was up 7% from 2023.", "7%", "In 2024", None),
    ("Output was up 7% compared with 2023.", "7%", None, None),
    # a month is when something happened, not a part of the year a figure is for
    ("今年3月，青禾电器召回空调1200台。", "1200台", "今年", None),
])
def test_the_period_a_value_is_for(sentence: str, value: str, period: str | None, part: str | None) -> None:
    found = of(sentence, value.lstrip("$"))
    assert found.period == period
    assert found.part == part


def test_the_words_that_narrow_an_attribute() -> None:
    assert of("2024年青禾的空调销量首次突破20万台。", "20万台", ("青禾",)).modifier == "空调"
    assert of("青禾电器2024年全年销量为41万台。", "41万台", ("青禾电器",)).modifier == ""
    assert of("青禾电器在华东市场的销量为9万台。", "9万台", ("青禾电器",)).modifier == ""


def test_periods_and_measures() -> None:
    assert year_of("2021年度") == "2021" and year_of("去年") is None
    assert relative("上年同期") and relative("a year earlier") and not relative("2021年")
    assert same_measure("销售量", ["销量"]) and same_measure("全球销量", ["销量"])
    assert same_measure("deaths", ["death toll"]) and not same_measure("injured", ["killed", "death toll"])
    assert not same_measure("净利润", ["销量"]) and not same_measure("受伤", ["死亡", "遇难"])
    assert same_measure("营业收入", ["营收"]) and not same_measure("受伤", ["伤亡"])


def test_parts_of_a_year_are_matched_across_languages() -> None:
    from graphs.text.governors import part_of, same_part

    assert part_of("前三季度") == part_of("the first nine months") == "Q1-Q3"
    assert same_part("前三季度", "What were sales in the first three quarters?")
    assert same_part("上半年", "first-half profit? H1")
    assert not same_part("前三季度", "第三季度单季净利润是多少？")
    assert not same_part("一季度", "What were sales in the third quarter?")

"""Comparisons over candidates the question describes instead of naming ("the three bids", "两家装修公司的报价里"),
over the items a passage lists after announcing them; a longer history read as the earlier start; values in other
magnitudes (万元) compared as numbers; a price column known by the currency its header names; the Chinese choice
as the sentence offers it where the tagger cut its names across the 和 (#24, comparison questions). Invented
documents and questions, Chinese and English."""

from __future__ import annotations

import pytest

from graphs.rag.answer.verdicts import _value, direction, sides_of, written_sides
from graphs.text.answer_types import expected_answer
from graphs.text.normalize import normalize
from tests.support.answers import question, write
from tests.support.fakes import hit

BIDS_ZH = hit("fit#0", "## 二、活动室装修\n物业就活动室翻新共收到三家装修公司的报价：\n1.\n青木装饰：总价6.8万元，工期25天；\n"
                       "2.\n鲁班家装：总价5.9万元，另收垃圾清运费3,000元，工期30天；\n3.\n匠心工坊：总价7.4万元，工期20天。\n"
                       "经讨论，委员会倾向于选择工期最短的一家。", title="枫林苑业委会纪要")
BIDS_EN = hit("bids#0", "## 4. Minibus\nThe parish council invited bids for a second-hand minibus. Two bids arrived:\n"
                        "- Orchard Motors: £18,400 with a 12-month warranty;\n"
                        "- Dunmore Vehicle Sales: £16,950 with a 6-month warranty.\n"
                        "The council chose Orchard Motors for its longer warranty.", title="Aldwick parish council")
TOWERS = hit("towers#0", "Two water towers stand on the ridge above Kellby. The North Tower was listed in 1987 and "
                         "repainted in 2011. The North Tower was built in 1896 to supply the mills. The South Tower "
                         "was completed in 1931, after the town had doubled in size.", title="Kellby water towers")


@pytest.mark.parametrize("text", [
    "枫林苑活动室装修的三家报价里，哪一家便宜？", "这两座水塔中哪座最高？", "两位候选人里谁年纪大一些？",
    "Of the two bids for the minibus, which was cheaper?", "Which of the three towers is the tallest?",
    "At the canteen, is the soup or the salad cheaper?", "青木装饰和鲁班家装的报价相比，哪家贵？",
])
def test_a_choice_among_described_or_offered_candidates_is_a_comparison(text: str) -> None:
    assert expected_answer(text) == "comparison"


@pytest.mark.parametrize(("text", "kind"), [
    ("哪一年入学人数最多？", "number"), ("Is the library open on Monday or Tuesday?", "other"),
    ("哪家公司的总部在杭州？", "organization"),
])
def test_a_superlative_or_a_choice_without_a_comparative_is_not(text: str, kind: str) -> None:
    assert expected_answer(text) != "comparison"


def test_a_longer_history_is_the_earlier_start_and_a_recent_one_the_later() -> None:
    assert direction("南塔和北塔，哪座塔的历史更悠久？") == "min_date"
    assert direction("Which mill has the longer history, the North Mill or Tyne Mill?") == "min_date"
    assert direction("Which of the two ferries has been in service longer?") == "min_date"
    assert direction("Which tower was finished more recently, the North Tower or the South Tower?") == "max_date"
    assert direction("两款热水器，哪款保修更久？") == "max_number"  # a duration compared, no history


def test_values_in_other_magnitudes_are_compared_as_numbers() -> None:
    assert _value("5.9万元", "min_number") == 59000 and _value("3,000元", "min_number") == 3000
    assert _value("£2.5m", "min_number") == 2_500_000 and _value("40 m", "max_number") == 40


def test_the_listed_bids_are_the_candidates_a_described_question_compares() -> None:
    decision, _, span, text = write("枫林苑活动室装修的三家报价里，哪一家便宜？", [BIDS_ZH, BIDS_EN])
    assert decision == "answerable" and span == "鲁班家装"
    assert "5.9万元" in text and "6.8万元" in text and "7.4万元" in text and "最便宜" in text
    _, _, span, text = write("Of the two bids for the minibus, which was cheaper?", [BIDS_EN, BIDS_ZH])
    assert span == "Dunmore Vehicle Sales" and "£16,950" in text and "£18,400" in text
    _, _, span, _ = write("在枫林苑那几家装修报价中，哪家的总价最贵？", [BIDS_ZH])
    assert span == "匠心工坊"


def test_a_chinese_question_over_an_english_list_reads_its_items() -> None:
    _, _, span, text = write("教区议会收到的两份小巴报价里，哪一份便宜？", [BIDS_EN])
    assert span == "Dunmore Vehicle Sales" and "最便宜" in text


def test_the_chinese_choice_as_offered_where_the_names_are_cut_across_it() -> None:
    q = question("青木装饰和鲁班家装的报价相比，哪家贵？", [BIDS_ZH])
    assert written_sides(q, " ".join(normalize(h.text) for h in [BIDS_ZH])) == ["青木装饰", "鲁班家装"]
    q = question("禾丰贸易和德信商行的报价相比，哪家贵？", [BIDS_ZH])
    assert sides_of(q) == ["禾丰贸易", "德信商行"]  # the names the tagger cuts across the 和 are no sides
    _, _, span, text = write("青木装饰和鲁班家装的报价相比，哪家贵？", [BIDS_ZH])
    assert span == "青木装饰" and "更贵" in text


def test_an_age_compared_without_a_relation_reads_each_sides_start() -> None:
    # the North Tower's listing (1987) is no start: its build year (1896) is
    _, _, span, text = write("Which is older, the North Tower or the South Tower?", [TOWERS])
    assert span == "North Tower" and "1896" in text and "1931" in text and "1987" not in text.split("[")[0]


def test_a_price_column_is_known_by_the_currency_its_header_names() -> None:
    table = hit("camp#0", "site_fee_eur — Larkspur Meadow: 21\nsite_fee_eur — Fennick Wood: 17\n"
                          "pitches — Larkspur Meadow: 40\npitches — Fennick Wood: 12", title="campsites 2026")
    _, _, span, text = write("Which campsite is cheaper, Larkspur Meadow or Fennick Wood?", [table])
    assert span == "Fennick Wood" and "17" in text and "21" in text


def test_the_llm_writer_is_told_the_candidates_and_the_dimension() -> None:
    from graphs.rag.answer.verdicts import to_compare
    find = to_compare(question("Which is cheaper, the Orchard bid or the Dunmore bid?", [BIDS_EN]))
    assert find is not None and "price" in find and "cheaper" in find and "missing" in find
    described = to_compare(question("Of the two bids for the minibus, which was cheaper?", [BIDS_EN]))
    assert described is not None and "every item the passages list" in described
    assert to_compare(question("Who sold the minibus?", [BIDS_EN])) is None


def test_a_sides_name_is_no_comparative_and_one_sentences_value_is_one_sides() -> None:
    from graphs.rag.answer.verdicts import compared_way
    # the 小 of 小叶种 and the 老 of 老树 are names, 贵 the comparative
    assert compared_way(question("小叶种跟老树红茶，哪样贵一点？", [BIDS_ZH]), ["小叶种", "老树红茶"]) == "max_number"
    lights = [hit("lights#0", "Brack Ness Light was first lit in 1859 and its tower is 27 metres tall. Corra Light "
                              "is the newer one. It was completed in 1911 and is 19 metres tall.", title="Two lights")]
    _, _, span, text = write("Which lighthouse is taller, Brack Ness Light or Corra Light?", lights)
    assert span == "Brack Ness Light" and "27" in text and "19" in text


def test_a_choice_in_a_yes_no_frame_names_its_sides() -> None:
    table = hit("rink#0", "Non-member price — Skate hire: 5.50 GBP\nNon-member price — Helmet hire: 2.50 GBP",
                title="Rink prices")
    _, _, span, text = write("At the ice rink, is skate hire or helmet hire cheaper for a non-member?", [table])
    assert span is not None and span.casefold() == "helmet hire" and "2.50" in text

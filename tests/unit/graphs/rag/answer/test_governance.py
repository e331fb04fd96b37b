"""A value of the asked type that belongs to another attribute, another subject or another period is no evidence
(graphs/rag/answer/governance.py): the answer is "not found" with a reason naming what the value belongs to; the
twin passage that states the asked attribute of the asked subject answers. Invented passages, Chinese and
English."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from tests.support.answers import verdict_of
from tests.support.fakes import hit

ORGS = {"ORGANIZATION": ["比亚迪", "特斯拉", "宁德时代"]}


@pytest.mark.parametrize(("text", "other", "twin", "named"), [
    # another attribute of the same subject: the profit's growth for the sales' growth
    ("比亚迪2024年销量同比增长多少？",
     hit("a#0", "2024年，比亚迪净利润由亏转盈，达7.2亿元，同比增长86.4%。", title="比亚迪年报"),
     hit("b#0", "2024年，比亚迪销量为41万辆，同比增长12.5%。", title="比亚迪年报"), "净利润"),
    # the injured for the dead
    ("How many people died in the Carrow Street fire?",
     hit("c#0", "The Carrow Street fire spread to three floors and 23 people were injured.", title="Carrow Street fire"),
     hit("d#0", "The Carrow Street fire spread to three floors and 4 people died.", title="Carrow Street fire"),
     "injured"),
    # a share of the sales for the sales
    ("2023年宁德时代的海外营收是多少？",
     hit("e#0", "2023年，宁德时代海外营收占其总营收的31%。", title="宁德时代"),
     hit("f#0", "2023年，宁德时代海外营收为1245亿元。", title="宁德时代"), "占比"),
    # a narrower attribute (one product line's sales) for the whole
    ("特斯拉2022年的销量是多少？",
     hit("g#0", "2022年，特斯拉的储能电池销量首次突破6万套。", title="特斯拉", entities=ORGS),
     hit("h#0", "2022年，特斯拉的销量为131万辆。", title="特斯拉", entities=ORGS), "储能电池"),
])
async def test_a_value_of_another_attribute_is_no_evidence(text: str, other: Hit, twin: Hit, named: str) -> None:
    decision, reason = await verdict_of(text, [other])
    assert decision == "not_found", reason
    assert named in reason
    decision, reason = await verdict_of(text, [twin])
    assert decision == "answerable", reason


async def test_a_value_of_another_subject_is_no_evidence() -> None:
    other = hit("i#0", "2023年比亚迪召开发布会，会上披露特斯拉的销量为180万辆。", title="比亚迪发布会", entities=ORGS)
    decision, reason = await verdict_of("比亚迪2023年的销量是多少？", [other])
    assert decision == "not_found" and "特斯拉" in reason, reason
    twin = hit("j#0", "2023年比亚迪召开发布会，会上披露比亚迪的销量为302万辆。", title="比亚迪发布会", entities=ORGS)
    decision, reason = await verdict_of("比亚迪2023年的销量是多少？", [twin])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "other", "twin"), [
    # a part of the year for the year
    ("2023年比亚迪的营收是多少？",
     hit("k#0", "比亚迪2023年上半年营收为2601亿元，创历史新高。", title="比亚迪"),
     hit("l#0", "比亚迪2023年营收为6023亿元，创历史新高。", title="比亚迪")),
    # last year's figure for this year's
    ("How many cars did the Orla plant build in 2024?",
     hit("m#0", "In 2024 the Orla plant was retooled; its production was 6,500 cars a year earlier.",
         title="Orla plant"),
     hit("n#0", "In 2024 the Orla plant was retooled; its production was 8,200 cars.", title="Orla plant")),
])
async def test_a_value_of_another_period_is_no_evidence(text: str, other: Hit, twin: Hit) -> None:
    decision, reason = await verdict_of(text, [other])
    assert decision == "not_found" and "period" in reason, reason
    decision, reason = await verdict_of(text, [twin])
    assert decision == "answerable", reason


async def test_one_value_governed_by_the_asked_attribute_keeps_the_evidence() -> None:
    """The sentence chosen gives the profit; another sentence of the evidence gives the sales: not refused."""
    both = hit("o#0", "2024年，比亚迪净利润达7.2亿元，同比增长86.4%。全年销量为41万辆，同比增长12.5%。", title="比亚迪年报")
    decision, reason = await verdict_of("比亚迪2024年销量同比增长多少？", [both])
    assert decision == "answerable", reason


async def test_a_sentence_without_a_value_is_not_kept_by_values_of_another_period() -> None:
    """The question has no question word ("…营收增速？"): the sentence that best covers it states no value, the
    only values of the passage are of a quarter; not the year's growth."""
    quarter = hit("p#0", "2024年比亚迪营收增速创下新高，市场反应积极。2024年一季度比亚迪营收增速为7.5%，二季度为9.1%。",
                  title="比亚迪")
    decision, reason = await verdict_of("2024年比亚迪营收增速？", [quarter])
    assert decision == "not_found" and "季度" in reason, reason
    year = hit("q#0", "2024年比亚迪营收增速创下新高，市场反应积极。2024年比亚迪营收增速为8.3%，高于行业平均。",
               title="比亚迪")
    decision, reason = await verdict_of("2024年比亚迪营收增速？", [year])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "passage"), [
    ("How many passengers were injured when the Tolsey bus overturned?",
     "The Tolsey bus overturned on the ring road on Friday and 9 passengers were injured, the police said."),
    ("比亚迪有多少名员工参加了这次培训？", "比亚迪本次培训共有员工320名参加。"),
])
async def test_the_counted_noun_and_the_attribute_both_are_what_is_asked(text: str, passage: str) -> None:
    """"How many workers were injured": a value governed by "injured" (or by "workers") is the asked one."""
    decision, reason = await verdict_of(text, [hit("r#0", passage, title="report")])
    assert decision == "answerable", reason


async def test_the_question_word_is_no_attribute_word() -> None:
    """"主桥多长": 多长 asks a length and is written by no passage; the main span's length given after the whole
    bridge's is not refused as the whole bridge's."""
    bridge = hit("s#0", "青石河特大桥位于云岭县境内，大桥全长1620米，主桥为430米钢桁架结构。", title="青石河特大桥")
    decision, reason = await verdict_of("青石河特大桥主桥多长", [bridge])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "other", "twin"), [
    ("青禾X5耳机的售价是多少？", "青禾X5耳机搭配Pad 3使用，Pad 3是青禾在秋季推出的平板。", "青禾X5耳机售价为399元，适用于Pad 3和Pad 4。"),
    ("What is the price of the Tamsin 2 e-bike?", "The Tamsin 2 e-bike pairs with version 3 of the Tamsin app for 2 riders.",
     "The Tamsin 2 e-bike is priced at $1,499 and has 8 gears."),
])
async def test_a_price_is_an_amount_of_money(text: str, other: str, twin: str) -> None:
    decision, reason = await verdict_of(text, [hit("t#0", other, title="product")])
    assert decision == "not_found", reason
    decision, reason = await verdict_of(text, [hit("u#0", twin, title="product")])
    assert decision == "answerable", reason


async def test_an_english_modifier_is_no_narrower_attribute() -> None:
    """"Overdue loans cost 0.30 euros per day": the words before "cost" paraphrase "the late fee", they do not
    narrow it."""
    rules = hit("v#0", "At Brenvale Library, overdue loans cost 0.30 euros per item per day.", title="Brenvale Library")
    decision, reason = await verdict_of("How much is the late fee per day at Brenvale Library?", [rules])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "passage"), [
    ("How many beds does the Qinghe Clinic have?", hit("k#0", "青禾诊所位于镇东，共有病床42张，医生9名。", title="青禾诊所")),
    ("How many people live in Shangtang Village?", hit("l#0", "上塘村全村常住人口1280人，以种茶为业。", title="上塘村")),
    ("青禾诊所有多少张病床？", hit("m#0", "The Qinghe Clinic has 42 beds and nine doctors.", title="Qinghe Clinic")),
])
async def test_a_quantity_in_the_other_language_is_not_refused_for_words_it_cannot_share(text: str, passage: Hit) -> None:
    # a quantity the lexicon does not know (beds, 病床) asked in one language of a passage in the other: the
    # question's own words cannot appear there, so their absence says nothing (the score judges the crossing)
    decision, reason = await verdict_of(text, [passage])
    assert decision == "answerable", reason


async def test_profit_and_revenue_are_different_attributes() -> None:
    results = hit("r#0", "2024年，青溪乳业营业收入为86.3亿元，同比增长7.1%。", title="青溪乳业年报")
    decision, reason = await verdict_of("青溪乳业2024年净利润是多少？", [results])
    assert decision == "not_found" and "营业收入" in reason, reason
    decision, reason = await verdict_of("青溪乳业2024年营业收入是多少？", [results])
    assert decision == "answerable", reason


async def test_a_part_of_the_year_asked_in_the_other_language_is_the_same_part() -> None:
    report = hit("q#0", "报告显示，青溪乳业前三季度实现营业收入62.4亿元，同比增长5.5%。", title="青溪乳业三季报")
    decision, reason = await verdict_of("青溪乳业第三季度营业收入是多少？", [report])
    assert decision == "not_found" and "前三季度" in reason, reason
    decision, reason = await verdict_of("How much revenue did 青溪乳业 report for the first three quarters?", [report])
    assert decision == "answerable", reason


async def test_a_count_under_scope_and_manner_words_is_the_asked_one() -> None:
    flood = hit("f#0", "截至昨晚，青溪县全县紧急转移安置群众8600人，受损房屋120间。", title="青溪县暴雨")
    decision, reason = await verdict_of("青溪县这次暴雨转移安置了多少群众？", [flood])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "passage"), [
    ("How many passengers did the Kelby chain ferry carry in 2024?",
     hit("m#0", "The Kelby chain ferry carried 64,200 passengers in 2024, up from 59,800 in 2023.",
         title="Kelby chain ferry")),
    ("How many passengers did the Wenmoor tram line carry in 2023?",
     hit("n#0", "The Wenmoor tram line carried 3.1 million passengers in 2023, compared with 2.8 million in 2022.",
         title="Wenmoor tram line")),
])
async def test_the_year_compared_with_does_not_make_the_asked_years_value_another(text: str, passage: Hit) -> None:
    # the asked year's value stands beside the previous year's: that one is another period's, this one is open
    decision, reason = await verdict_of(text, [passage])
    assert decision == "answerable", reason


async def test_the_year_compared_with_is_still_not_the_asked_one() -> None:
    decision, reason = await verdict_of("How many passengers did the Kelby chain ferry carry in 2025?", [hit(
        "m#0", "The Kelby chain ferry carried 64,200 passengers in 2024, up from 59,800 in 2023.",
        title="Kelby chain ferry")])
    assert decision == "not_found", reason


async def test_a_veto_that_refuses_is_named() -> None:
    from graphs.rag.answer.answerability import calibrated
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.answers import ANSWERS_ALL, Bigrams, question

    hits = [hit("c#0", "The Carrow Street fire spread to three floors and 23 people were injured.",
                title="Carrow Street fire")]
    q = question("How many people died in the Carrow Street fire?", hits)
    found, _, _ = await calibrated(q, hits, find_evidence(q, hits), Bigrams(), model=ANSWERS_ALL)
    assert (found.decision, found.decided_by, found.rule) == ("not_found", "rule", "misgoverned"), found.reason

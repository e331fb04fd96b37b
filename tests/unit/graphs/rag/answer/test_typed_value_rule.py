"""A typed question (who, when, where, how many, or asked by its last noun: "…的开馆时间", "…销量") is answered by
a value of that type in the answering sentence, and by the value of *the asked* attribute: a sentence about the
subject that holds no value of the type, or that writes the asked words only negated or excepted (非常住人口 for
常住人口, "non-resident population"), is no evidence whatever the score. Own examples."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.calibration import negated
from graphs.rag.answer.evidence import find_evidence
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams, model_on, question

LIBRARY = hit("lib#0", "青禾镇图书馆新馆由老粮仓改建，藏书以地方志为主。", title="青禾镇图书馆")
LIBRARY_OPENED = hit("lib#1", "青禾镇图书馆新馆于9月18日上午9时正式开馆。", title="青禾镇图书馆")
REGATTA = hit("reg#0", "The Marlow Cove regatta drew crowds along the harbour wall despite the rain.", title="Marlow Cove")
REGATTA_DAY = hit("reg#1", "The Marlow Cove regatta was held on June 14 along the harbour wall.", title="Marlow Cove")
FILM = hit("film#0", "纪录片《远山的回声》讲述了三代护林员的故事，口碑很好。", title="远山的回声")
FILM_DIRECTOR = hit("film#1", "纪录片《远山的回声》由邝明哲执导，讲述了三代护林员的故事。", title="远山的回声")
SALES = hit("sales#0", "2024年星港市新能源汽车推广工作成效明显，充电桩建设加快。", title="星港市")
SALES_COUNT = hit("sales#1", "2024年星港市新能源汽车销量达到8.6万辆，同比增长32%。", title="星港市")


@pytest.mark.parametrize(("text", "without", "with_it", "missing"), [
    ("青禾镇图书馆新馆什么时候开馆？", LIBRARY, LIBRARY_OPENED, "date"),
    ("青禾镇图书馆新馆开馆时间", LIBRARY, LIBRARY_OPENED, "date"),
    ("When was the Marlow Cove regatta held?", REGATTA, REGATTA_DAY, "date"),
    ("纪录片《远山的回声》的导演是谁？", FILM, FILM_DIRECTOR, "person"),
    ("2024年星港市新能源汽车销量", SALES, SALES_COUNT, "number"),
])
async def test_a_typed_question_needs_a_value_of_its_type(text: str, without: Hit, with_it: Hit,
                                                          missing: str) -> None:
    verdict = await rule_verdict(question(text, [without]), [without])
    assert verdict.decision == "not_found" and verdict.decided_by == "rule", verdict.reason
    assert "holds no" in verdict.reason and missing in verdict.reason
    verdict = await rule_verdict(question(text, [with_it]), [with_it])
    assert verdict.decision == "answerable", verdict.reason


TOWN = hit("town#0", "截至2024年底，青禾镇非常住人口为1.2万，主要是季节性务工人员。", title="青禾镇")
TOWN_PEOPLE = hit("town#1", "截至2024年底，青禾镇常住人口为4.8万，其中农业人口占六成。", title="青禾镇")
PORT = hit("port#0", "Brannock's non-resident population reached 3,100 in 2023.", title="Brannock")
PORT_PEOPLE = hit("port#1", "Brannock's resident population reached 9,800 in 2023.", title="Brannock")


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("2024年底青禾镇常住人口有多少？", TOWN, TOWN_PEOPLE),
    ("What was Brannock's resident population in 2023?", PORT, PORT_PEOPLE),
])
async def test_a_value_of_the_negated_attribute_is_not_the_asked_ones(text: str, without: Hit,
                                                                      with_it: Hit) -> None:
    verdict = await rule_verdict(question(text, [without]), [without])
    assert verdict.decision == "not_found" and "negated, excepted" in verdict.reason, verdict.reason
    verdict = await rule_verdict(question(text, [with_it]), [with_it])
    assert verdict.decision == "answerable", verdict.reason


@pytest.mark.parametrize(("sentence", "word", "expected"), [
    ("非常住人口为1.2万", "常住人口", True),
    ("除门票收入外，其他收入为300万元", "门票收入", True),
    ("不含税价格为98元", "价格", False),
    ("并非常住人口", "常住人口", False),  # 并非 is "is not": the words are stated, negated as a whole
    ("常住人口为4.8万", "常住人口", False),
    ("total revenue excluding ticket sales was $3m", "ticket sales", True),
    ("the non-resident population", "resident population", True),
])
def test_negated_words(sentence: str, word: str, expected: bool) -> None:
    at = sentence.casefold().find(word)
    assert negated(sentence.casefold(), at, at + len(word)) is expected


MUSEUM = hit("mus#0", "开幕式由青禾镇博物馆副馆长邵文清主持，馆内新设了农具展厅。", title="青禾镇博物馆")
MUSEUM_HEAD = hit("mus#1", "开幕式由青禾镇博物馆馆长邵文清主持，馆内新设了农具展厅。", title="青禾镇博物馆")
SCHOOL = hit("sch#0", "At Elmbrook School the vice principal, Dana Kerr, opened the science fair.", title="Elmbrook School")
SCHOOL_HEAD = hit("sch#1", "At Elmbrook School the principal, Dana Kerr, opened the science fair.", title="Elmbrook School")


@pytest.mark.parametrize(("text", "without", "with_it"), [
    ("青禾镇博物馆的馆长是谁？", MUSEUM, MUSEUM_HEAD),
    ("Who is the principal of Elmbrook School?", SCHOOL, SCHOOL_HEAD),
    ("青禾镇博物馆的副馆长是谁？", MUSEUM_HEAD, MUSEUM),  # asked for the deputy: the head is not it, the deputy is
])
async def test_another_rank_of_the_asked_role_is_not_the_role(text: str, without: Hit, with_it: Hit) -> None:
    verdict = await rule_verdict(question(text, [with_it]), [with_it])
    assert verdict.decision == "answerable", verdict.reason
    if "副" in text:
        return  # the head's sentence does not state the deputy: another rule's business
    verdict = await rule_verdict(question(text, [without]), [without])
    assert verdict.decision == "not_found" and "another rank" in verdict.reason, verdict.reason


@pytest.mark.parametrize(("sentence", "word", "question", "expected"), [
    ("由副馆长邵文清主持", "馆长", "馆长是谁？", True),
    ("由副馆长邵文清主持", "馆长", "副馆长是谁？", False),
    ("目前馆长是邵文清", "馆长", "馆长是谁？", False),
    ("前任馆长邵文清", "馆长", "馆长是谁？", False),  # a former head was the head
    ("the acting chair, Ines Lowe, opened", "chair", "who is the chair?", True),
    ("the chair, Ines Lowe, opened", "chair", "who is the chair?", False),
])
def test_ranked_other(sentence: str, word: str, question: str, expected: bool) -> None:
    from graphs.rag.answer.calibration import ranked_other

    at = sentence.casefold().find(word)
    assert ranked_other(sentence.casefold(), at, at + len(word), question) is expected


STAFF_RULE = hit("staff#0", "第一条 本制度适用于青禾物流全体员工的出差报销。", title="青禾物流")
STAFF_COUNT = hit("staff#1", "截至2024年底，青禾物流共有员工240人。", title="青禾物流")
FREIGHT_RULE = hit("fr#0", "Every Harlow Freight employee completes the safety course in the first month.", title="Harlow Freight")
FREIGHT_COUNT = hit("fr#1", "At the end of 2024 Harlow Freight had 240 employees.", title="Harlow Freight")


@pytest.mark.parametrize(("text", "first", "second"), [
    ("青禾物流有多少名员工？", STAFF_RULE, STAFF_COUNT),
    ("How many employees does Harlow Freight have?", FREIGHT_RULE, FREIGHT_COUNT),
])
async def test_a_lower_sentence_with_the_asked_value_leads_over_one_that_only_names_the_attribute(
        text: str, first: Hit, second: Hit) -> None:
    # the first passage names the attribute (员工, employee) without a number; the second states the number:
    # the typed question is answered from the second, not refused for the first
    from graphs.rag.answer.answerability import calibrated

    answers_all = model_on({}, bias=8.0)
    q = question(text, [first, second])
    # the writer's best first: here the sentence that only names the attribute (as a longer rule text may rank)
    ranked = sorted(find_evidence(q, [first, second]), key=lambda e: "240" in e.sentences[0].text)
    verdict, chosen, _ = await calibrated(q, [first, second], ranked, Bigrams(), model=answers_all)
    assert verdict.decision == "answerable", verdict.reason
    assert "240" in " ".join(s.text for s in chosen[0].sentences)
